import { describe, expect, it } from "vitest";
import { MAX_WAITLIST_NOTE_LENGTH, MAX_WAITLIST_RANGE_DAYS } from "#contract/app-api/waitlist.ts";
import { addDays } from "#contract/time/zoned-time.ts";
import { draftFromPreferences, draftFromSearch, fieldOfRefusal, preferencesFromDraft, type WaitlistDraft } from "./waitlist-form-model.ts";

// The waitlist form starts from the slot finder's search (its times and days
// too), round-trips an entry's preferences, and refuses what the BFF would,
// naming the field and what to do.

const FOLLOW_UP = { id: "atp_dddddddddddddddddddddddddddddddd", name: "Follow-up", defaultDurationMinutes: 20, newPatientDurationMinutes: 40 };
const TODAY = "2026-12-01";
const SEARCH = { appointmentTypeId: FOLLOW_UP.id, facilityIds: ["fac_1"], providerIds: ["prv_1"], startDate: "2026-12-01", endDate: "2026-12-14", isNewPatient: true };

const draft = (patch: Partial<WaitlistDraft> = {}): WaitlistDraft => ({ ...draftFromSearch(SEARCH, { startsFrom: null, startsBefore: "12:00", weekdays: [3, 1] }), ...patch });

describe("the waitlist form's draft", () => {
  it("starts from the search on screen, with its times of day and weekdays", () => {
    expect(draft()).toEqual({
      appointmentTypeId: FOLLOW_UP.id,
      slotLength: "",
      isNewPatient: true,
      facilityIds: ["fac_1"],
      providerIds: ["prv_1"],
      startDate: "2026-12-01",
      endDate: "2026-12-14",
      startsFrom: "",
      startsBefore: "12:00",
      weekdays: [1, 3],
      note: "",
    });
  });

  it("gives the preferences the contract takes: the type's new-patient length when none is typed, weekdays as codes, any provider as null", () => {
    const result = preferencesFromDraft(draft({ providerIds: [], note: " prefers a call after 4 pm " }), [FOLLOW_UP], TODAY);
    expect(result.errors).toBeNull();
    expect(result.preferences).toEqual({
      appointmentTypeId: FOLLOW_UP.id,
      slotLengthMinutes: 40,
      isNewPatient: true,
      facilityIds: ["fac_1"],
      providerIds: null,
      startDate: "2026-12-01",
      endDate: "2026-12-14",
      startsFrom: null,
      startsBefore: "12:00",
      days: ["tue", "thu"],
      note: "prefers a call after 4 pm",
    });
    if (result.preferences) expect(draftFromPreferences(result.preferences)).toEqual(draft({ providerIds: [], slotLength: "40", note: "prefers a call after 4 pm" }));
  });

  it("refuses a range past the limit at the last date, saying by when", () => {
    const result = preferencesFromDraft(draft({ endDate: addDays("2026-12-01", MAX_WAITLIST_RANGE_DAYS) }), [FOLLOW_UP], TODAY);
    expect(result.errors).toEqual({ endDate: `The dates may span at most ${MAX_WAITLIST_RANGE_DAYS} days: choose a last date by ${addDays("2026-12-01", MAX_WAITLIST_RANGE_DAYS - 1)}.` });
    expect(preferencesFromDraft(draft({ endDate: addDays("2026-12-01", MAX_WAITLIST_RANGE_DAYS - 1) }), [FOLLOW_UP], TODAY).errors).toBeNull();
  });

  it("names each field with a problem", () => {
    const result = preferencesFromDraft(
      draft({ slotLength: "4", facilityIds: [], startDate: "2026-12-10", endDate: "2026-12-09", startsFrom: "15:00", startsBefore: "12:00", note: "x".repeat(MAX_WAITLIST_NOTE_LENGTH + 1) }),
      [FOLLOW_UP],
      TODAY,
    );
    expect(Object.keys(result.errors ?? {}).sort()).toEqual(["endDate", "facilityIds", "note", "slotLength", "times"]);
    expect(result.errors?.note).toBe(`The note may be at most ${MAX_WAITLIST_NOTE_LENGTH} characters (it has ${MAX_WAITLIST_NOTE_LENGTH + 1}).`);
  });

  it("refuses dates that have passed", () => {
    expect(preferencesFromDraft(draft({ startDate: "2026-11-20", endDate: "2026-11-30" }), [FOLLOW_UP], TODAY).errors).toEqual({ endDate: "These dates have passed: choose dates from today on." });
  });

  it("finds the field a BFF's refusal names", () => {
    expect(fieldOfRefusal("preferences.endDate: the range may span at most 92 days")).toBe("endDate");
    expect(fieldOfRefusal("preferences.days: must have at least 1 item")).toBe("times");
    expect(fieldOfRefusal("no patient is open in the EHR")).toBeNull();
  });
});
