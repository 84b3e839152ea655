import { describe, expect, it } from "vitest";
import type { WaitlistPreferences } from "#contract/app-api/waitlist.ts";
import { toPrefixedId } from "#contract/ids.ts";
import { booksEntry, fitsSlot, fitsWhen, freedSlotOf, freesSlot, groupByKind, hasRangePassed, onePerPatient } from "./waitlist-fit.ts";

// Issue 38: which waiting patients a slot fits, read on the facility's own
// clock (DST days included), and which cancellations free a slot at all
// (seed 001 events rules 2 and 3).

const DOWNTOWN = "1b566c2c-b5f1-4bbf-beb3-23271408baaa";
const LAKESIDE = "7d2f0a11-3c4e-4b5a-9e8f-0a1b2c3d4e5f";
const DR_BROOKS = "a0e1c2d3-4b5a-4c6d-8e7f-9a0b1c2d3e4f";
const DR_CHEN = "b1f2d3e4-5c6b-4d7e-9f80-a1b2c3d4e5f6";
const FOLLOW_UP = "0f6b3a8e-2d4c-4a59-9d1e-5b7c8a9e0f12";
const NEW_YORK = "America/New_York";
const CHICAGO = "America/Chicago";
const LORD_HOWE = "Australia/Lord_Howe";

/** Ana Ruiz: any follow-up at Downtown in December, any provider, any time. */
function anaAsked(overrides: Partial<WaitlistPreferences> = {}): WaitlistPreferences {
  return {
    appointmentTypeId: toPrefixedId("atp", FOLLOW_UP),
    slotLengthMinutes: 30,
    isNewPatient: false,
    facilityIds: [toPrefixedId("fac", DOWNTOWN)],
    providerIds: null,
    startDate: "2026-12-01",
    endDate: "2026-12-31",
    startsFrom: null,
    startsBefore: null,
    days: null,
    note: "prefers a call after 4 pm",
    ...overrides,
  };
}

const at = (iso: string) => Date.parse(iso);

describe("times of day and weekdays, on the facility's clock", () => {
  it("reads a slot's date and weekday where the facility is, not in UTC", () => {
    // Tue Dec 8, 21:00 in Chicago is Wed Dec 9 in UTC.
    const evening = at("2026-12-09T03:00:00Z");
    expect(fitsWhen(anaAsked({ endDate: "2026-12-08" }), evening, CHICAGO)).toBe(true);
    expect(fitsWhen(anaAsked({ startDate: "2026-12-09" }), evening, CHICAGO)).toBe(false);
    expect(fitsWhen(anaAsked({ days: ["tue"] }), evening, CHICAGO)).toBe(true);
    expect(fitsWhen(anaAsked({ days: ["wed"] }), evening, CHICAGO)).toBe(false);
    expect(fitsWhen(anaAsked({ startsFrom: "16:00" }), evening, CHICAGO)).toBe(true);
  });

  it("takes startsFrom inclusive and startsBefore exclusive, as the slot finder's filter", () => {
    const tenAm = at("2026-12-08T15:00:00Z"); // 10:00 in New York
    expect(fitsWhen(anaAsked({ startsFrom: "10:00" }), tenAm, NEW_YORK)).toBe(true);
    expect(fitsWhen(anaAsked({ startsBefore: "10:00" }), tenAm, NEW_YORK)).toBe(false);
    expect(fitsWhen(anaAsked({ startsBefore: "12:00" }), tenAm, NEW_YORK)).toBe(true);
    expect(fitsWhen(anaAsked({ startsFrom: "12:00", startsBefore: "17:00" }), tenAm, NEW_YORK)).toBe(false);
  });

  it("reads the spring-forward day's hours after the gap with the new offset", () => {
    // 2026-03-08 in New York: 02:00 EST jumps to 03:00 EDT; 07:30Z is 03:30 EDT.
    const morning = at("2026-03-08T07:30:00Z");
    const march = anaAsked({ startDate: "2026-03-01", endDate: "2026-03-31" });
    expect(fitsWhen({ ...march, startsFrom: "03:30" }, morning, NEW_YORK)).toBe(true);
    expect(fitsWhen({ ...march, startsBefore: "03:30" }, morning, NEW_YORK)).toBe(false);
    // The hour before the jump is still 01:30 EST (06:30Z).
    expect(fitsWhen({ ...march, startsBefore: "02:00" }, at("2026-03-08T06:30:00Z"), NEW_YORK)).toBe(true);
    expect(fitsWhen({ ...march, days: ["sun"] }, morning, NEW_YORK)).toBe(true);
  });

  it("reads both occurrences of the fall-back day's repeated hour as that hour", () => {
    // 2026-11-01 in New York: 01:30 EDT (05:30Z), then 01:30 EST (06:30Z).
    const november = anaAsked({ startDate: "2026-11-01", endDate: "2026-11-01", startsFrom: "01:00", startsBefore: "02:00" });
    expect(fitsWhen(november, at("2026-11-01T05:30:00Z"), NEW_YORK)).toBe(true);
    expect(fitsWhen(november, at("2026-11-01T06:30:00Z"), NEW_YORK)).toBe(true);
    // 07:30Z is 02:30 EST.
    expect(fitsWhen(november, at("2026-11-01T07:30:00Z"), NEW_YORK)).toBe(false);
  });

  it("follows Lord Howe's half-hour shift", () => {
    // 2026-10-04: 02:00 (+10:30) becomes 02:30 (+11:00) at 15:30Z the day before.
    const october = anaAsked({ startDate: "2026-10-04", endDate: "2026-10-04" });
    expect(fitsWhen({ ...october, startsFrom: "02:30" }, at("2026-10-03T15:30:00Z"), LORD_HOWE)).toBe(true);
    expect(fitsWhen({ ...october, startsBefore: "02:30" }, at("2026-10-03T15:30:00Z"), LORD_HOWE)).toBe(false);
    // Half an hour earlier it is 01:30 (+10:30).
    expect(fitsWhen({ ...october, startsBefore: "02:00" }, at("2026-10-03T15:00:00Z"), LORD_HOWE)).toBe(true);
  });
});

describe("facilities and providers", () => {
  const tenAm = at("2026-12-08T15:00:00Z");

  it("matches a facility named in either id form, and no other", () => {
    expect(fitsSlot(anaAsked(), { facilityId: DOWNTOWN, providerId: DR_BROOKS, startMs: tenAm, zone: NEW_YORK })).toBe(true);
    expect(fitsSlot(anaAsked(), { facilityId: toPrefixedId("fac", DOWNTOWN), providerId: null, startMs: tenAm, zone: NEW_YORK })).toBe(true);
    expect(fitsSlot(anaAsked(), { facilityId: LAKESIDE, providerId: DR_BROOKS, startMs: tenAm, zone: NEW_YORK })).toBe(false);
  });

  it("takes any provider when none is named, else only those named", () => {
    const withBrooks = anaAsked({ providerIds: [toPrefixedId("prv", DR_BROOKS)] });
    expect(fitsSlot(withBrooks, { facilityId: DOWNTOWN, providerId: DR_BROOKS, startMs: tenAm, zone: NEW_YORK })).toBe(true);
    expect(fitsSlot(withBrooks, { facilityId: DOWNTOWN, providerId: toPrefixedId("prv", DR_CHEN), startMs: tenAm, zone: NEW_YORK })).toBe(false);
    // The provider not known yet (the event names it by EHR id): place and time decide.
    expect(fitsSlot(withBrooks, { facilityId: DOWNTOWN, providerId: null, startMs: tenAm, zone: NEW_YORK })).toBe(true);
  });
});

describe("kinds of slot: one read per type, length and new-patient flag", () => {
  it("groups entries by kind, the longest-waiting kind first, whatever the type id's form", () => {
    const entries = [
      { id: "ana", preferences: anaAsked() },
      { id: "wei", preferences: anaAsked({ slotLengthMinutes: 60 }) },
      { id: "omar", preferences: anaAsked({ appointmentTypeId: FOLLOW_UP }) },
      { id: "lena", preferences: anaAsked({ isNewPatient: true }) },
    ];
    const groups = groupByKind(entries);
    expect(groups.map((group) => group.entries.map((entry) => entry.id))).toEqual([["ana", "omar"], ["wei"], ["lena"]]);
    expect(groups[1]?.kind).toEqual({ appointmentTypeId: toPrefixedId("atp", FOLLOW_UP), slotLengthMinutes: 60, isNewPatient: false });
  });
});

describe("who an offer names", () => {
  it("names each patient once, by their longest-waiting entry, whatever form their id is written in", () => {
    const entries = [
      { id: "ana-mornings", patientId: `pat_${DR_CHEN.replaceAll("-", "")}` },
      { id: "wei", patientId: "5b0c1a7e-3f2d-4e6a-9b8c-7d6e5f4a3b21" },
      { id: "ana-any-time", patientId: DR_CHEN.toUpperCase() },
    ];
    expect(onePerPatient(entries).map((entry) => entry.id)).toEqual(["ana-mornings", "wei"]);
  });
});

describe("which cancellations free a slot (seed 001 events rules 2 and 3)", () => {
  const now = at("2026-12-01T12:00:00Z");
  const later = "2026-12-08T15:00:00.000Z";

  it("offers a cancellation or a no-show seen happen, for a slot still to come", () => {
    expect(freesSlot({ status: "cancelled", previousStatus: "confirmed", scheduledStartDate: later }, now)).toBe(true);
    expect(freesSlot({ status: "no_show", previousStatus: "confirmed", scheduledStartDate: later }, now)).toBe(true);
  });

  it("never offers a first sighting, which may be historical", () => {
    expect(freesSlot({ status: "cancelled", previousStatus: null, scheduledStartDate: later }, now)).toBe(false);
  });

  it("never offers a slot already past, or one that was already free", () => {
    expect(freesSlot({ status: "cancelled", previousStatus: "confirmed", scheduledStartDate: "2026-12-01T11:59:00Z" }, now)).toBe(false);
    expect(freesSlot({ status: "no_show", previousStatus: "cancelled", scheduledStartDate: later }, now)).toBe(false);
    expect(freesSlot({ status: "completed", previousStatus: "arrived", scheduledStartDate: later }, now)).toBe(false);
  });
});

describe("the freed slot in a strong read", () => {
  const slot = (providerId: string, startsAt: string, remainingCapacity = 1) => ({ providerId, facilityId: toPrefixedId("fac", DOWNTOWN), startsAt, endsAt: startsAt, remainingCapacity });
  const freed = { facilityId: DOWNTOWN, startMs: at("2026-12-08T15:00:00Z") };

  it("is the free slot at the cancelled appointment's instant and provider, whatever offset it is written with", () => {
    const slots = [slot(toPrefixedId("prv", DR_CHEN), "2026-12-08T10:00:00-05:00"), slot(toPrefixedId("prv", DR_BROOKS), "2026-12-08T10:00:00-05:00")];
    expect(freedSlotOf(slots, { ...freed, providerId: DR_BROOKS }, () => true)).toBe(slots[1]);
    expect(freedSlotOf(slots, { ...freed, providerId: null }, (id) => id.endsWith(DR_BROOKS.replaceAll("-", "")))).toBe(slots[1]);
  });

  it("is none when the slot has no capacity left or starts at another time", () => {
    expect(freedSlotOf([slot(DR_BROOKS, "2026-12-08T10:00:00-05:00", 0)], { ...freed, providerId: DR_BROOKS }, () => true)).toBeNull();
    expect(freedSlotOf([slot(DR_BROOKS, "2026-12-08T10:30:00-05:00")], { ...freed, providerId: DR_BROOKS }, () => true)).toBeNull();
  });
});

describe("an entry ends", () => {
  it("when its range has passed on every clock, never before", () => {
    const asked = anaAsked({ endDate: "2026-12-08" });
    // 23:00 on Dec 8 in New York: still Dec 8 there.
    expect(hasRangePassed(asked, at("2026-12-09T04:00:00Z"))).toBe(false);
    // Dec 10 02:00 UTC is Dec 9 14:00 even at UTC-12.
    expect(hasRangePassed(asked, at("2026-12-10T02:00:00Z"))).toBe(true);
  });

  it("when the patient is booked for what they waited for: length, new-patient flag, facility, provider and a date in range", () => {
    const booked = { facilityId: DOWNTOWN, providerId: DR_BROOKS, scheduledStartDate: "2026-12-08T15:00:00.000Z", scheduledEndDate: "2026-12-08T15:30:00.000Z", isNewPatient: false };
    expect(booksEntry(anaAsked(), booked, NEW_YORK)).toBe(true);
    expect(booksEntry(anaAsked({ slotLengthMinutes: 60 }), booked, NEW_YORK)).toBe(false);
    expect(booksEntry(anaAsked({ isNewPatient: true }), booked, NEW_YORK)).toBe(false);
    expect(booksEntry(anaAsked({ providerIds: [DR_CHEN] }), booked, NEW_YORK)).toBe(false);
    expect(booksEntry(anaAsked({ facilityIds: [LAKESIDE] }), booked, NEW_YORK)).toBe(false);
    // The later appointment the patient already had, and wanted to move earlier, ends nothing.
    expect(booksEntry(anaAsked({ endDate: "2026-12-07" }), booked, NEW_YORK)).toBe(false);
  });
});
