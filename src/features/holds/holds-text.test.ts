import { describe, expect, it } from "vitest";
import { moreNotConfirmedText, onlyNotConfirmedText, patientChangedText, releasedAfterBookingText, releaseUnconfirmedLabel, slotCountText } from "./holds-text.ts";

describe("slotCountText", () => {
  it("counts slots", () => {
    expect(slotCountText(1)).toBe("1 slot");
    expect(slotCountText(3)).toBe("3 slots");
  });
});

describe("the folded line's holds the EHR did not confirm", () => {
  it("counts them beside the held slots, or alone", () => {
    expect(moreNotConfirmedText(1)).toBe("1 more not confirmed");
    expect(onlyNotConfirmedText(1)).toBe("You may be holding 1 slot · not confirmed");
    expect(onlyNotConfirmedText(2)).toBe("You may be holding 2 slots · not confirmed");
  });
});

describe("the patient-changed notice", () => {
  it("speaks of one hold as 'a slot' and 'it'", () => {
    expect(releaseUnconfirmedLabel(1)).toBe("Release it");
    expect(patientChangedText(1)).toBe("You hold a slot for the patient who was open before. Release it, or keep holding while you come back to that patient.");
  });

  it("counts several holds and speaks of 'them'", () => {
    expect(releaseUnconfirmedLabel(2)).toBe("Release them");
    expect(patientChangedText(2)).toBe("You hold 2 slots for the patient who was open before. Release them, or keep holding while you come back to that patient.");
    expect(patientChangedText(2, "Okafor, Ada")).toBe("You hold 2 slots for Okafor, Ada, who was open before. Release them, or keep holding while you come back to that patient.");
  });
});

describe("releasedAfterBookingText", () => {
  it("says only the booked hold was released when it was the patient's only one", () => {
    expect(releasedAfterBookingText(0)).toBe("The hold was released.");
  });

  it("counts the patient's other holds released with it", () => {
    expect(releasedAfterBookingText(1)).toBe("The hold was released, and so was the other slot held for this patient.");
    expect(releasedAfterBookingText(2)).toBe("The hold was released, and so were the 2 other slots held for this patient.");
  });
});
