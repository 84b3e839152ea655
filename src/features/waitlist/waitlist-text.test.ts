import { describe, expect, it } from "vitest";
import type { WaitlistOffer } from "#contract/app-api/waitlist.ts";
import { addedText, daysWaiting, offerHeadline, userText, waitingText, whenText } from "./waitlist-text.ts";

// The offer's sentence as the front desk reads it, on the facility's clock
// with its zone named for a user elsewhere, and how long each patient waited
// in the facility's local days (across a change of clocks too).

const NEW_YORK = "America/New_York";
const READER = { locale: "en-US", userZone: "Europe/London" };

const offer: Pick<WaitlistOffer, "slot" | "matches"> = {
  slot: { providerId: "prv_a", facilityId: "fac_a", startsAt: "2026-12-08T10:00:00-05:00", endsAt: "2026-12-08T10:20:00-05:00" },
  matches: [
    { entryId: "e1", patientId: "p1", patientName: "Ana Ruiz", waitingSince: "2026-12-01T14:00:00.000Z" },
    { entryId: "e2", patientId: "p2", patientName: "Wei Chen", waitingSince: "2026-12-04T20:00:00.000Z" },
  ],
};

describe("the waitlist in words", () => {
  it("says the freed slot, who fits and how long each has waited", () => {
    const nowMs = Date.parse("2026-12-07T15:00:00.000Z");
    expect(offerHeadline(offer, "Dr. Jacob Brooks, MD", { ...READER, zone: NEW_YORK }, nowMs)).toBe(
      "Tue, Dec 8, 10:00 AM EST with Dr. Jacob Brooks, MD freed: 2 waitlisted patients fit: Ana Ruiz (waiting 6 days), Wei Chen (3 days)",
    );
  });

  it("leaves the zone out for a user in the facility's zone, and says one patient fits", () => {
    const nowMs = Date.parse("2026-12-07T15:00:00.000Z");
    expect(offerHeadline({ ...offer, matches: offer.matches.slice(1) }, "Dr. Jacob Brooks, MD", { locale: "en-US", userZone: NEW_YORK, zone: NEW_YORK }, nowMs)).toBe(
      "Tue, Dec 8, 10:00 AM with Dr. Jacob Brooks, MD freed: 1 waitlisted patient fits: Wei Chen (waiting 3 days)",
    );
  });

  it("counts waiting days on the facility's calendar, the night the clocks go back too", () => {
    // Added 23:30 on Saturday 31 October in New York (03:30Z on 1 November); read 00:30 on Monday 2 November.
    expect(daysWaiting("2026-11-01T03:30:00.000Z", Date.parse("2026-11-02T05:30:00.000Z"), NEW_YORK)).toBe(2);
    expect(waitingText(0)).toBe("added today");
    expect(waitingText(1)).toBe("waiting 1 day");
  });

  it("says when the patient could come: dates, times of day and weekdays", () => {
    expect(
      whenText(
        { appointmentTypeId: "atp", slotLengthMinutes: 20, isNewPatient: false, facilityIds: ["fac"], providerIds: null, startDate: "2026-12-01", endDate: "2026-12-31", startsFrom: null, startsBefore: "12:00", days: ["thu", "tue"], note: "" },
        "en-US",
      ),
    ).toMatch(/^December 1\s–\s31, 2026, starting before 12:00\sPM, Tue, Thu$/);
  });

  it("says who added an entry or took an offer as the viewer reads it: you, the provider, or a colleague; and when, at a time today or on a day before", () => {
    const providerName = (id: string) => (id === "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" ? "Dr. Jacob Brooks, MD" : "Unlisted provider");
    const me = "bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb";
    expect(userText("prv_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", me, providerName)).toBe("you");
    expect(userText("prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", me, providerName)).toBe("Dr. Jacob Brooks, MD");
    expect(userText("cccccccc-cccc-cccc-cccc-cccccccccccc", me, providerName)).toBe("a colleague");
    const display = { locale: "en-US", userZone: NEW_YORK, zone: NEW_YORK };
    const nowMs = Date.parse("2026-12-07T20:00:00.000Z");
    expect(addedText({ createdBy: me, createdAt: "2026-12-07T11:40:00.000Z" }, me, providerName, display, nowMs)).toMatch(/^Added by you at 6:40\sAM$/);
    expect(addedText({ createdBy: me, createdAt: "2026-12-04T11:40:00.000Z" }, me, providerName, display, nowMs)).toMatch(/^Added by you on Fri, Dec 4, 6:40\sAM$/);
  });
});
