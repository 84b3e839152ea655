import { describe, expect, it } from "vitest";
import type { HeldSlot } from "#contract/app-api/slots.ts";
import { STANDALONE_BOOKING_REASON } from "#src/bridge/standalone-link.ts";
import { isHeldForOtherPatient } from "#src/scheduling/held-for.ts";
import { cannotBookReason, heldForText, isHoldsBarShown, unconfirmedHolds } from "./holds-bar-model.ts";

const OPEN = "pat_open";
const BEFORE = "pat_before";

function held(id: string, patientId: string | null): HeldSlot {
  return {
    id,
    slot: { providerId: "prv_a", facilityId: "fac_a", startsAt: "2026-12-01T08:00:00-05:00", endsAt: "2026-12-01T08:30:00-05:00" },
    appointmentTypeId: "atp_a",
    slotLengthMinutes: 30,
    isNewPatient: false,
    patientId,
    patientName: null,
    expiresAt: "2026-12-01T13:10:00.000Z",
    heldAt: "2026-12-01T13:00:00.000Z",
  };
}

describe("isHeldForOtherPatient", () => {
  it("is true only for a hold made for a patient other than the open one", () => {
    expect(isHeldForOtherPatient({ patientId: BEFORE }, OPEN)).toBe(true);
    expect(isHeldForOtherPatient({ patientId: BEFORE }, null)).toBe(true);
    expect(isHeldForOtherPatient({ patientId: OPEN }, OPEN)).toBe(false);
    expect(isHeldForOtherPatient({ patientId: null }, OPEN)).toBe(false);
    expect(isHeldForOtherPatient({ patientId: null }, null)).toBe(false);
  });
});

describe("heldForText", () => {
  it("names the open patient when Tandem may read them", () => {
    expect(heldForText({ patientId: OPEN }, OPEN, "Alvarez, Maria")).toBe("for Alvarez, Maria");
  });

  it("says 'this patient' when the name cannot be read", () => {
    expect(heldForText({ patientId: OPEN }, OPEN, null)).toBe("for this patient");
  });

  it("a hold made with no patient open counts as for the patient open now", () => {
    expect(heldForText({ patientId: null }, OPEN, "Alvarez, Maria")).toBe("for Alvarez, Maria");
  });

  it("says when no patient was open and none is", () => {
    expect(heldForText({ patientId: null }, null, null)).toBe("with no patient open");
  });

  it("a hold of the patient open before names them as the EHR did when it was held (issue 36 item 4)", () => {
    expect(heldForText({ patientId: BEFORE, patientName: "Okafor, Ada" }, OPEN, "Alvarez, Maria")).toBe("for Okafor, Ada (the patient open before)");
    expect(cannotBookReason({ patientId: BEFORE, patientName: "Okafor, Ada" }, { isStandalone: false, openPatientId: OPEN })).toMatch(/^Held for Okafor, Ada, the patient who was open before/);
  });

  it("a hold of the patient open before says so, whatever is open now", () => {
    expect(heldForText({ patientId: BEFORE }, OPEN, "Alvarez, Maria")).toBe("for the patient open before");
    expect(heldForText({ patientId: BEFORE }, null, null)).toBe("for the patient open before");
  });
});

describe("cannotBookReason", () => {
  it("is null for a hold of the open patient inside the EHR", () => {
    expect(cannotBookReason({ patientId: OPEN }, { isStandalone: false, openPatientId: OPEN })).toBeNull();
    expect(cannotBookReason({ patientId: null }, { isStandalone: false, openPatientId: OPEN })).toBeNull();
  });

  it("standalone never books, before any patient rule", () => {
    expect(cannotBookReason({ patientId: BEFORE }, { isStandalone: true, openPatientId: OPEN })).toBe(STANDALONE_BOOKING_REASON);
    expect(cannotBookReason({ patientId: null }, { isStandalone: true, openPatientId: null })).toBe(STANDALONE_BOOKING_REASON);
  });

  it("a hold of the patient open before asks for that patient", () => {
    expect(cannotBookReason({ patientId: BEFORE }, { isStandalone: false, openPatientId: OPEN })).toBe(
      "Held for the patient who was open before: open that patient in the EHR to book it, or release it.",
    );
    expect(cannotBookReason({ patientId: BEFORE }, { isStandalone: false, openPatientId: null })).toMatch(/^Held for the patient who was open before/);
  });

  it("with no patient open, asks for one", () => {
    expect(cannotBookReason({ patientId: null }, { isStandalone: false, openPatientId: null })).toBe("No patient is open in the EHR: open the patient there to book.");
  });
});

describe("unconfirmedHolds", () => {
  const holds = [held("h1", OPEN), held("h2", BEFORE), held("h3", null), held("h4", BEFORE)];

  it("lists the holds of a patient no longer open, in order", () => {
    expect(unconfirmedHolds(holds, OPEN, new Set()).map((hold) => hold.id)).toEqual(["h2", "h4"]);
  });

  it("leaves out the holds the user chose to keep", () => {
    expect(unconfirmedHolds(holds, OPEN, new Set(["h2"])).map((hold) => hold.id)).toEqual(["h4"]);
  });

  it("holds of the patient who is open again need no answer", () => {
    expect(unconfirmedHolds(holds, BEFORE, new Set()).map((hold) => hold.id)).toEqual(["h1"]);
  });
});

describe("isHoldsBarShown", () => {
  const quiet = { canHold: true, holdCount: 0, outcomeCount: 0, selection: { kind: "idle" as const }, holdsError: null };

  it("is hidden with nothing to show", () => {
    expect(isHoldsBarShown(quiet)).toBe(false);
  });

  it("shows for a hold, an outcome, a slot being chosen or an error", () => {
    expect(isHoldsBarShown({ ...quiet, holdCount: 1 })).toBe(true);
    expect(isHoldsBarShown({ ...quiet, outcomeCount: 1 })).toBe(true);
    expect(isHoldsBarShown({ ...quiet, selection: { kind: "checking" } })).toBe(true);
    expect(isHoldsBarShown({ ...quiet, holdsError: new Error("down") })).toBe(true);
  });

  it("never shows for a role that cannot hold", () => {
    expect(isHoldsBarShown({ ...quiet, canHold: false, holdCount: 2, holdsError: new Error("down") })).toBe(false);
  });
});
