import fc from "fast-check";
import * as rruleModule from "rrule";
import type { Options as RRuleOptions } from "rrule";
import { describe, expect, it } from "vitest";
import type { AvailabilityTemplate } from "../clinic-api/schedule.ts";
import { addDays } from "../time/zoned-time.ts";
import {
  RecurrenceError,
  expandTemplate,
  expandTemplates,
  parseRecurrence,
  recurrenceDates,
  type ExpansionWindow,
  type RecurrenceRule,
  type RuleDaysEvaluator,
} from "./expand-template.ts";

// DESIGN.md "Rules that come from the spec and must hold" (time and
// recurrence) and "Two traps, measured". scripts/test-unit.sh runs this file
// under four host zones.

function makeTemplate(overrides: Partial<AvailabilityTemplate> & { rrule: string; until?: string | null }): AvailabilityTemplate {
  const { rrule, until = null, ...rest } = overrides;
  return {
    id: "avt_0123456789abcdef0123456789abcdef",
    externalId: "ehr-template-1",
    providerId: "prv_11111111111111111111111111111111",
    facilityId: "fac_22222222222222222222222222222222",
    name: "Morning clinic",
    startTimeLocal: "09:00",
    endTimeLocal: "12:00",
    timezone: "America/New_York",
    slotIntervalMinutes: 15,
    concurrency: 2,
    recurrence: { rrule, until },
    allowedAppointmentTypeIds: null,
    active: true,
    ...rest,
  };
}

/** `startsAt → endsAt (real minutes)`, the shape most assertions compare. */
function spans(template: AvailabilityTemplate, window: ExpansionWindow): string[] {
  return expandTemplate(template, window).map(({ startsAt, endsAt }) => `${startsAt} → ${endsAt} (${(Date.parse(endsAt) - Date.parse(startsAt)) / 60_000})`);
}

function dates(template: AvailabilityTemplate, window: ExpansionWindow): string[] {
  return expandTemplate(template, window).map(({ startsAt }) => startsAt.slice(0, 10));
}

const oneDay = (date: string): ExpansionWindow => ({ startDate: date, endDate: date });

describe("expandTemplate across DST", () => {
  it("New York: 01:00-04:00 lasts 2 real hours on 2026-03-08 and 4 on 2026-11-01", () => {
    const nightShift = makeTemplate({ startTimeLocal: "01:00", endTimeLocal: "04:00", rrule: "DTSTART;TZID=America/New_York:20260104T010000\nRRULE:FREQ=WEEKLY;BYDAY=SU" });
    expect(spans(nightShift, { startDate: "2026-03-01", endDate: "2026-03-15" })).toEqual([
      "2026-03-01T01:00:00-05:00 → 2026-03-01T04:00:00-05:00 (180)",
      "2026-03-08T01:00:00-05:00 → 2026-03-08T04:00:00-04:00 (120)",
      "2026-03-15T01:00:00-04:00 → 2026-03-15T04:00:00-04:00 (180)",
    ]);
    expect(spans(nightShift, oneDay("2026-11-01"))).toEqual(["2026-11-01T01:00:00-04:00 → 2026-11-01T04:00:00-05:00 (240)"]);
  });

  it("New York: a start in the gap is read with the offset before it; an end in the gap too", () => {
    const gapStart = makeTemplate({ startTimeLocal: "02:30", endTimeLocal: "05:00", rrule: "DTSTART:20260308\nRRULE:FREQ=DAILY;COUNT=2" });
    expect(spans(gapStart, { startDate: "2026-03-08", endDate: "2026-03-09" })).toEqual([
      "2026-03-08T03:30:00-04:00 → 2026-03-08T05:00:00-04:00 (90)",
      "2026-03-09T02:30:00-04:00 → 2026-03-09T05:00:00-04:00 (150)",
    ]);
    const gapEnd = makeTemplate({ startTimeLocal: "01:00", endTimeLocal: "02:30", rrule: "DTSTART:20260308\nRRULE:FREQ=DAILY" });
    expect(spans(gapEnd, oneDay("2026-03-08"))).toEqual(["2026-03-08T01:00:00-05:00 → 2026-03-08T03:30:00-04:00 (90)"]);
  });

  it("drops an instance whose end is not after its start (02:30-03:00 on 2026-03-08 in New York)", () => {
    const shortGap = makeTemplate({ startTimeLocal: "02:30", endTimeLocal: "03:00", rrule: "DTSTART;TZID=America/New_York:20260301T023000\nRRULE:FREQ=WEEKLY;BYDAY=SU" });
    expect(spans(shortGap, { startDate: "2026-03-01", endDate: "2026-03-15" })).toEqual([
      "2026-03-01T02:30:00-05:00 → 2026-03-01T03:00:00-05:00 (30)",
      "2026-03-15T02:30:00-04:00 → 2026-03-15T03:00:00-04:00 (30)",
    ]);
  });

  it("London 2026-03-29: an hour wholly in the gap is dropped; 2026-10-25: the fold hour counts twice", () => {
    const gapHour = makeTemplate({ timezone: "Europe/London", startTimeLocal: "01:00", endTimeLocal: "02:00", rrule: "DTSTART;TZID=Europe/London:20260301T010000\nRRULE:FREQ=WEEKLY;BYDAY=SU" });
    expect(spans(gapHour, { startDate: "2026-03-22", endDate: "2026-04-05" })).toEqual([
      "2026-03-22T01:00:00+00:00 → 2026-03-22T02:00:00+00:00 (60)",
      "2026-04-05T01:00:00+01:00 → 2026-04-05T02:00:00+01:00 (60)",
    ]);
    expect(spans(gapHour, oneDay("2026-10-25"))).toEqual(["2026-10-25T01:00:00+01:00 → 2026-10-25T02:00:00+00:00 (120)"]);
    const morning = makeTemplate({ timezone: "Europe/London", startTimeLocal: "00:30", endTimeLocal: "03:30", rrule: "DTSTART:20260301\nRRULE:FREQ=DAILY" });
    expect(spans(morning, oneDay("2026-03-29"))).toEqual(["2026-03-29T00:30:00+00:00 → 2026-03-29T03:30:00+01:00 (120)"]);
    expect(spans(morning, oneDay("2026-10-25"))).toEqual(["2026-10-25T00:30:00+01:00 → 2026-10-25T03:30:00+00:00 (240)"]);
  });

  it("Sydney 2026-04-05 (clocks back 03:00 → 02:00) and 2026-10-04 (02:00 → 03:00)", () => {
    const early = makeTemplate({ timezone: "Australia/Sydney", startTimeLocal: "01:00", endTimeLocal: "04:00", rrule: "DTSTART;TZID=Australia/Sydney:20260104T010000\nRRULE:FREQ=WEEKLY;BYDAY=SU" });
    expect(spans(early, oneDay("2026-04-05"))).toEqual(["2026-04-05T01:00:00+11:00 → 2026-04-05T04:00:00+10:00 (240)"]);
    expect(spans(early, oneDay("2026-10-04"))).toEqual(["2026-10-04T01:00:00+10:00 → 2026-10-04T04:00:00+11:00 (120)"]);
    const inGap = makeTemplate({ timezone: "Australia/Sydney", startTimeLocal: "02:30", endTimeLocal: "04:00", rrule: "DTSTART;TZID=Australia/Sydney:20260104T023000\nRRULE:FREQ=WEEKLY;BYDAY=SU" });
    expect(spans(inGap, oneDay("2026-10-04"))).toEqual(["2026-10-04T03:30:00+11:00 → 2026-10-04T04:00:00+11:00 (30)"]);
    expect(spans(inGap, oneDay("2026-04-05"))).toEqual(["2026-04-05T02:30:00+11:00 → 2026-04-05T04:00:00+10:00 (150)"]);
  });

  it("Lord Howe 2026-04-05 (30 minutes back at 02:00) and 2026-10-04 (a 02:15 start inside the 30-minute gap)", () => {
    const inGap = makeTemplate({ timezone: "Australia/Lord_Howe", startTimeLocal: "02:15", endTimeLocal: "03:00", rrule: "DTSTART;TZID=Australia/Lord_Howe:20260104T021500\nRRULE:FREQ=WEEKLY;BYDAY=SU" });
    expect(spans(inGap, { startDate: "2026-09-27", endDate: "2026-10-11" })).toEqual([
      "2026-09-27T02:15:00+10:30 → 2026-09-27T03:00:00+10:30 (45)",
      "2026-10-04T02:45:00+11:00 → 2026-10-04T03:00:00+11:00 (15)",
      "2026-10-11T02:15:00+11:00 → 2026-10-11T03:00:00+11:00 (45)",
    ]);
    const acrossFold = makeTemplate({ timezone: "Australia/Lord_Howe", startTimeLocal: "01:00", endTimeLocal: "03:00", rrule: "DTSTART;TZID=Australia/Lord_Howe:20260104T010000\nRRULE:FREQ=WEEKLY;BYDAY=SU" });
    expect(spans(acrossFold, oneDay("2026-04-05"))).toEqual(["2026-04-05T01:00:00+11:00 → 2026-04-05T03:00:00+10:30 (150)"]);
    const inFold = makeTemplate({ timezone: "Australia/Lord_Howe", startTimeLocal: "01:45", endTimeLocal: "02:00", rrule: "DTSTART:20260405\nRRULE:FREQ=DAILY;COUNT=1" });
    expect(spans(inFold, oneDay("2026-04-05"))).toEqual(["2026-04-05T01:45:00+11:00 → 2026-04-05T02:00:00+10:30 (45)"]);
  });

  it("Santiago 2026-09-06: no midnight, a 00:00 start begins at 01:00 and an end at midnight lands at 01:00", () => {
    const fromMidnight = makeTemplate({ timezone: "America/Santiago", startTimeLocal: "00:00", endTimeLocal: "08:00", rrule: "DTSTART;TZID=America/Santiago:20260802T000000\nRRULE:FREQ=WEEKLY;BYDAY=SU" });
    expect(spans(fromMidnight, { startDate: "2026-08-30", endDate: "2026-09-06" })).toEqual([
      "2026-08-30T00:00:00-04:00 → 2026-08-30T08:00:00-04:00 (480)",
      "2026-09-06T01:00:00-03:00 → 2026-09-06T08:00:00-03:00 (420)",
    ]);
    const toMidnight = makeTemplate({ timezone: "America/Santiago", startTimeLocal: "22:00", endTimeLocal: "00:00", rrule: "DTSTART;TZID=America/Santiago:20260801T220000\nRRULE:FREQ=WEEKLY;BYDAY=SA" });
    expect(spans(toMidnight, oneDay("2026-09-05"))).toEqual(["2026-09-05T22:00:00-04:00 → 2026-09-06T01:00:00-03:00 (120)"]);
  });

  it("Sao Paulo: no DST, every day -03:00", () => {
    const clinic = makeTemplate({ timezone: "America/Sao_Paulo", startTimeLocal: "00:00", endTimeLocal: "06:00", rrule: "DTSTART;TZID=America/Sao_Paulo:20260101T000000\nRRULE:FREQ=WEEKLY;BYDAY=SU" });
    expect(spans(clinic, { startDate: "2026-10-25", endDate: "2026-11-08" })).toEqual([
      "2026-10-25T00:00:00-03:00 → 2026-10-25T06:00:00-03:00 (360)",
      "2026-11-01T00:00:00-03:00 → 2026-11-01T06:00:00-03:00 (360)",
      "2026-11-08T00:00:00-03:00 → 2026-11-08T06:00:00-03:00 (360)",
    ]);
  });
});

describe("expandTemplate: the recurrence rule", () => {
  it("biweekly rules take their phase from DTSTART", () => {
    const window = { startDate: "2026-01-01", endDate: "2026-02-15" };
    const weekA = makeTemplate({ rrule: "DTSTART;TZID=America/New_York:20260105T090000\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH" });
    const weekB = makeTemplate({ rrule: "DTSTART;TZID=America/New_York:20260112T090000\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH" });
    expect(dates(weekA, window)).toEqual(["2026-01-05", "2026-01-08", "2026-01-19", "2026-01-22", "2026-02-02", "2026-02-05"]);
    expect(dates(weekB, window)).toEqual(["2026-01-12", "2026-01-15", "2026-01-26", "2026-01-29", "2026-02-09", "2026-02-12"]);
    expect(expandTemplate(weekA, oneDay("2026-01-05"))).toEqual([
      {
        templateId: "avt_0123456789abcdef0123456789abcdef",
        providerId: "prv_11111111111111111111111111111111",
        facilityId: "fac_22222222222222222222222222222222",
        startsAt: "2026-01-05T09:00:00-05:00",
        endsAt: "2026-01-05T12:00:00-05:00",
        concurrency: 2,
      },
    ]);
  });

  it("WKST decides which Sunday belongs to an active week (RFC 5545 3.3.10 example)", () => {
    const window = { startDate: "2026-01-01", endDate: "2026-02-02" };
    const mondayWeeks = makeTemplate({ rrule: "DTSTART:20260105\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,SU;WKST=MO" });
    const sundayWeeks = makeTemplate({ rrule: "DTSTART:20260105\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,SU;WKST=SU" });
    expect(dates(mondayWeeks, window)).toEqual(["2026-01-05", "2026-01-11", "2026-01-19", "2026-01-25", "2026-02-02"]);
    expect(dates(sundayWeeks, window)).toEqual(["2026-01-05", "2026-01-18", "2026-01-19", "2026-02-01", "2026-02-02"]);
  });

  it("a DTSTART ten years back keeps its phase and gives the same dates as rrule from DTSTART", () => {
    const decadeOld = makeTemplate({ rrule: "DTSTART;TZID=America/New_York:20160104T090000\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,SU" });
    const window = { startDate: "2026-03-01", endDate: "2026-03-31" };
    // 2016-01-04 + 530 weeks = 2026-03-02: an active week.
    expect(dates(decadeOld, window)).toEqual(["2026-03-02", "2026-03-08", "2026-03-16", "2026-03-22", "2026-03-30"]);
    expect(expandTemplate(decadeOld, window, reference)).toEqual(expandTemplate(decadeOld, window));
  });

  it("COUNT counts from an old DTSTART: exhausted, or ending exactly on the last occurrence", () => {
    const exhausted = makeTemplate({ rrule: "DTSTART;TZID=America/New_York:20160104T090000\nRRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10" });
    expect(dates(exhausted, { startDate: "2026-01-01", endDate: "2026-12-31" })).toEqual([]);
    expect(dates(exhausted, { startDate: "2016-01-01", endDate: "2016-12-31" })).toHaveLength(10);
    // 300 Mondays from 2020-01-06: the last is 2025-09-29.
    const long = makeTemplate({ rrule: "DTSTART;TZID=America/New_York:20200106T090000\nRRULE:FREQ=WEEKLY;COUNT=300" });
    expect(dates(long, { startDate: "2025-09-15", endDate: "2025-10-31" })).toEqual(["2025-09-15", "2025-09-22", "2025-09-29"]);
    const monthly = makeTemplate({ rrule: "DTSTART:20250131\nRRULE:FREQ=MONTHLY;BYMONTHDAY=31;COUNT=5" });
    expect(dates(monthly, { startDate: "2025-01-01", endDate: "2026-12-31" })).toEqual(["2025-01-31", "2025-03-31", "2025-05-31", "2025-07-31", "2025-08-31"]);
  });

  it("UNTIL is inclusive, from recurrence.until or the rule, and the earlier wins", () => {
    const window = { startDate: "2026-03-08", endDate: "2026-03-20" };
    const daily = "DTSTART;TZID=America/New_York:20260301T090000\nRRULE:FREQ=DAILY";
    expect(dates(makeTemplate({ rrule: daily, until: "2026-03-10" }), window)).toEqual(["2026-03-08", "2026-03-09", "2026-03-10"]);
    expect(dates(makeTemplate({ rrule: `${daily};UNTIL=20260310` }), window)).toEqual(["2026-03-08", "2026-03-09", "2026-03-10"]);
    expect(dates(makeTemplate({ rrule: `${daily};UNTIL=20260312`, until: "2026-03-09" }), window)).toEqual(["2026-03-08", "2026-03-09"]);
    expect(dates(makeTemplate({ rrule: `${daily};UNTIL=20260309`, until: "2026-03-12" }), window)).toEqual(["2026-03-08", "2026-03-09"]);
  });

  it("a UTC UNTIL is first converted to the template's zone", () => {
    const window = { startDate: "2026-03-08", endDate: "2026-03-20" };
    // 2026-03-11T03:59:59Z is 2026-03-10 23:59:59 in New York and 2026-03-11 14:59:59 in Sydney.
    const rrule = "DTSTART:20260301\nRRULE:FREQ=DAILY;UNTIL=20260311T035959Z";
    expect(dates(makeTemplate({ rrule }), window).at(-1)).toBe("2026-03-10");
    expect(dates(makeTemplate({ rrule, timezone: "Australia/Sydney" }), window).at(-1)).toBe("2026-03-11");
    const yearEnd = "DTSTART:20261201\nRRULE:FREQ=DAILY;UNTIL=20261231T235959Z";
    const newYear = { startDate: "2026-12-30", endDate: "2027-01-03" };
    expect(dates(makeTemplate({ rrule: yearEnd }), newYear)).toEqual(["2026-12-30", "2026-12-31"]);
    expect(dates(makeTemplate({ rrule: yearEnd, timezone: "Australia/Sydney" }), newYear)).toEqual(["2026-12-30", "2026-12-31", "2027-01-01"]);
    // recurrence.until earlier than the converted UNTIL still wins.
    expect(dates(makeTemplate({ rrule: yearEnd, timezone: "Australia/Sydney", until: "2026-12-31" }), newYear)).toEqual(["2026-12-30", "2026-12-31"]);
  });

  it("EXDATE removes the occurrence on that local date, DST day included, in every value form", () => {
    const base = "DTSTART;TZID=America/New_York:20260301T010000\nRRULE:FREQ=WEEKLY;BYDAY=SU";
    const window = { startDate: "2026-03-01", endDate: "2026-03-22" };
    const withTzid = makeTemplate({ startTimeLocal: "01:00", endTimeLocal: "04:00", rrule: `${base}\nEXDATE;TZID=America/New_York:20260308T010000` });
    expect(dates(withTzid, window)).toEqual(["2026-03-01", "2026-03-15", "2026-03-22"]);
    const dateList = makeTemplate({ rrule: `${base}\nEXDATE;VALUE=DATE:20260308,20260322` });
    expect(dates(dateList, window)).toEqual(["2026-03-01", "2026-03-15"]);
    // 2026-11-01T05:00:00Z is 01:00 EDT on 2026-11-01 in New York.
    const utcValue = makeTemplate({ rrule: `${base}\nEXDATE:20261101T050000Z\nEXDATE:20261115T060000Z` });
    expect(dates(utcValue, { startDate: "2026-10-25", endDate: "2026-11-15" })).toEqual(["2026-10-25", "2026-11-08"]);
  });

  it("an end at or before the start ends on the next local day", () => {
    const overnight = makeTemplate({ startTimeLocal: "22:00", endTimeLocal: "06:00", rrule: "DTSTART:20261030\nRRULE:FREQ=DAILY" });
    expect(spans(overnight, { startDate: "2026-10-30", endDate: "2026-11-01" })).toEqual([
      "2026-10-30T22:00:00-04:00 → 2026-10-31T06:00:00-04:00 (480)",
      "2026-10-31T22:00:00-04:00 → 2026-11-01T06:00:00-05:00 (540)",
      "2026-11-01T22:00:00-05:00 → 2026-11-02T06:00:00-05:00 (480)",
    ]);
    const fullDay = makeTemplate({ startTimeLocal: "09:00", endTimeLocal: "09:00", rrule: "DTSTART:20260307\nRRULE:FREQ=DAILY;COUNT=2" });
    expect(spans(fullDay, { startDate: "2026-03-07", endDate: "2026-03-08" })).toEqual([
      "2026-03-07T09:00:00-05:00 → 2026-03-08T09:00:00-04:00 (1380)",
      "2026-03-08T09:00:00-04:00 → 2026-03-09T09:00:00-04:00 (1440)",
    ]);
  });

  it("window membership is by local start date, both ends inclusive", () => {
    const overnight = makeTemplate({ startTimeLocal: "23:00", endTimeLocal: "01:00", rrule: "DTSTART:20260301\nRRULE:FREQ=DAILY" });
    expect(spans(overnight, { startDate: "2026-03-10", endDate: "2026-03-11" })).toEqual([
      "2026-03-10T23:00:00-04:00 → 2026-03-11T01:00:00-04:00 (120)",
      "2026-03-11T23:00:00-04:00 → 2026-03-12T01:00:00-04:00 (120)",
    ]);
    expect(expandTemplate(overnight, { startDate: "2026-03-11", endDate: "2026-03-10" })).toEqual([]);
  });

  it("an inactive template has no instances", () => {
    expect(expandTemplate(makeTemplate({ active: false, rrule: "DTSTART:20260301\nRRULE:FREQ=DAILY" }), oneDay("2026-03-10"))).toEqual([]);
  });

  it("without DTSTART the rule is anchored on the window's first day", () => {
    const biweekly = makeTemplate({ rrule: "RRULE:FREQ=WEEKLY;INTERVAL=2" });
    // 2026-03-04 is a Wednesday: the anchor's weekday and phase.
    expect(dates(biweekly, { startDate: "2026-03-04", endDate: "2026-03-31" })).toEqual(["2026-03-04", "2026-03-18"]);
    const bare = makeTemplate({ rrule: "FREQ=DAILY;COUNT=3" });
    expect(dates(bare, { startDate: "2026-03-07", endDate: "2026-03-31" })).toEqual(["2026-03-07", "2026-03-08", "2026-03-09"]);
  });

  it("ignores BYHOUR, BYMINUTE and BYSECOND: one instance per occurring date", () => {
    const timed = makeTemplate({ rrule: "DTSTART;TZID=America/New_York:20260301T070000\nRRULE:FREQ=DAILY;BYHOUR=9,13;BYMINUTE=0,30;BYSECOND=0" });
    expect(spans(timed, { startDate: "2026-03-02", endDate: "2026-03-03" })).toEqual([
      "2026-03-02T09:00:00-05:00 → 2026-03-02T12:00:00-05:00 (180)",
      "2026-03-03T09:00:00-05:00 → 2026-03-03T12:00:00-05:00 (180)",
    ]);
  });

  it("reads monthly and yearly rules, folded lines, CRLF and a UTC DTSTART", () => {
    const lastFriday = makeTemplate({ rrule: "DTSTART:20250131\r\nRRULE:FREQ=MONTHLY;BY\r\n DAY=-1FR" });
    expect(dates(lastFriday, { startDate: "2026-01-01", endDate: "2026-04-30" })).toEqual(["2026-01-30", "2026-02-27", "2026-03-27", "2026-04-24"]);
    const anniversary = makeTemplate({ rrule: "DTSTART:20200229\nRRULE:FREQ=YEARLY" });
    expect(dates(anniversary, { startDate: "2020-01-01", endDate: "2028-12-31" })).toEqual(["2020-02-29", "2024-02-29", "2028-02-29"]);
    // 03:00Z on a Monday is Sunday evening in New York: the anchor, and so the default BYDAY, is Sunday.
    const utcStart = makeTemplate({ rrule: "DTSTART:20260105T030000Z\nRRULE:FREQ=WEEKLY" });
    expect(dates(utcStart, { startDate: "2026-01-01", endDate: "2026-01-20" })).toEqual(["2026-01-04", "2026-01-11", "2026-01-18"]);
  });

  it("RDATE adds a date and a DTSTART alone is one occurrence", () => {
    const extra = makeTemplate({ rrule: "DTSTART:20260302\nRRULE:FREQ=WEEKLY;COUNT=2\nRDATE;VALUE=DATE:20260305" });
    expect(dates(extra, { startDate: "2026-03-01", endDate: "2026-03-31" })).toEqual(["2026-03-02", "2026-03-05", "2026-03-09"]);
    const single = makeTemplate({ rrule: "DTSTART;TZID=America/New_York:20260304T090000" });
    expect(dates(single, { startDate: "2026-03-01", endDate: "2026-03-31" })).toEqual(["2026-03-04"]);
  });

  it("stops at the window's end for a rule that never matches (rrule would walk to year 9999)", () => {
    const window = { startDate: "2026-01-01", endDate: "2026-12-31" };
    expect(dates(makeTemplate({ rrule: "DTSTART:20160101\nRRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30" }), window)).toEqual([]);
    expect(dates(makeTemplate({ rrule: "DTSTART:20160101\nRRULE:FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=30;COUNT=5" }), window)).toEqual([]);
    expect(dates(makeTemplate({ rrule: "DTSTART:20160104\nRRULE:FREQ=WEEKLY;BYDAY=MO;BYSETPOS=2" }), window)).toEqual([]);
  });

  it("throws RecurrenceError on text it cannot read", () => {
    const zone = "America/New_York";
    expect(() => parseRecurrence({ rrule: "RRULE:FREQ=HOURLY", until: null }, zone)).toThrow(RecurrenceError);
    expect(() => parseRecurrence({ rrule: "RRULE:FREQ=WEEKLY;BYDAY=XX", until: null }, zone)).toThrow(RecurrenceError);
    expect(() => parseRecurrence({ rrule: "RRULE:INTERVAL=2", until: null }, zone)).toThrow(RecurrenceError);
    expect(() => parseRecurrence({ rrule: "every monday", until: null }, zone)).toThrow(RecurrenceError);
    expect(() => parseRecurrence({ rrule: "DTSTART:2026-03-01\nRRULE:FREQ=DAILY", until: null }, zone)).toThrow(RecurrenceError);
  });
});

describe("expandTemplates", () => {
  it("keeps overlapping templates as separate rows, sorted by start then template id", () => {
    const morning = makeTemplate({ id: "avt_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", rrule: "DTSTART:20260301\nRRULE:FREQ=DAILY" });
    const overlap = makeTemplate({ id: "avt_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", rrule: "DTSTART:20260301\nRRULE:FREQ=DAILY" });
    const sydney = makeTemplate({ id: "avt_cccccccccccccccccccccccccccccccc", timezone: "Australia/Sydney", rrule: "DTSTART:20260301\nRRULE:FREQ=DAILY" });
    const rows = expandTemplates([morning, overlap, sydney], oneDay("2026-03-10")).map(({ templateId, startsAt }) => `${templateId.slice(4, 7)} ${startsAt}`);
    expect(rows).toEqual(["ccc 2026-03-10T09:00:00+11:00", "aaa 2026-03-10T09:00:00-04:00", "bbb 2026-03-10T09:00:00-04:00"]);
  });
});

// ---------------------------------------------------------------------------
// The evaluator against the `rrule` package iterating from the original
// DTSTART, in floating time (local dates as UTC-midnight Dates, no tzid):
// DESIGN.md "Two traps, measured".

type RRuleExports = Pick<typeof rruleModule, "RRule" | "Weekday">;

function hasRRuleExports(value: unknown): value is RRuleExports {
  return typeof value === "object" && value !== null && "RRule" in value && typeof value.RRule === "function" && "Weekday" in value && typeof value.Weekday === "function";
}

// Node's ESM loader sees only the CommonJS `default`; a bundler sees the ES build's named exports.
function loadRRule(): RRuleExports {
  if (hasRRuleExports(rruleModule)) return rruleModule;
  const commonJsExports: unknown = Reflect.get(rruleModule, "default");
  if (hasRRuleExports(commonJsExports)) return commonJsExports;
  throw new Error("rrule exposes no RRule");
}

const rrule = loadRRule();

const MS_PER_DAY = 86_400_000;

function rruleOptions(rule: RecurrenceRule, anchorDay: number): Partial<RRuleOptions> {
  const { RRule, Weekday } = rrule;
  const frequency = { YEARLY: RRule.YEARLY, MONTHLY: RRule.MONTHLY, WEEKLY: RRule.WEEKLY, DAILY: RRule.DAILY }[rule.freq];
  // Absent parts stay undefined: `rrule` treats even an empty list as present.
  const options: Partial<RRuleOptions> = { freq: frequency, interval: rule.interval, wkst: rule.wkst, dtstart: new Date(anchorDay * MS_PER_DAY) };
  if (rule.byDay !== null) options.byweekday = rule.byDay.map(({ weekday, n }) => new Weekday(weekday, n === 0 ? undefined : n));
  if (rule.byMonth !== null) options.bymonth = [...rule.byMonth];
  if (rule.byMonthDay !== null) options.bymonthday = [...rule.byMonthDay];
  if (rule.byYearDay !== null) options.byyearday = [...rule.byYearDay];
  if (rule.byWeekNo !== null) options.byweekno = [...rule.byWeekNo];
  if (rule.bySetPos !== null) options.bysetpos = [...rule.bySetPos];
  if (rule.count !== null) options.count = rule.count;
  if (rule.untilDay !== null) options.until = new Date(rule.untilDay * MS_PER_DAY);
  return options;
}

const referenceEvaluator: RuleDaysEvaluator = (rule, anchorDay, from, to) => {
  if (from > to) return [];
  const occurrences = new rrule.RRule(rruleOptions(rule, anchorDay), true).between(new Date(from * MS_PER_DAY), new Date(to * MS_PER_DAY), true);
  return occurrences.map((date) => Math.floor(date.getTime() / MS_PER_DAY));
};

const reference = { evaluateRule: referenceEvaluator };

const weekdayCodes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;

function pad2(value: number): string {
  return String(value).padStart(2, "0");
}

function compact(date: string): string {
  return date.replaceAll("-", "");
}

// Rules are drawn so that every one keeps matching now and then: `rrule`
// walks to year 9999 looking for the next match of a rule that never
// matches (BYMONTH=2 with BYMONTHDAY=30; `1MO,FR`, which it reads as "the
// first Monday that is a Friday"; BYSETPOS=2 of one day a week; MONTHLY
// with INTERVAL=2 and BYMONTH of the other parity).
const ruleArbitrary = fc
  .record({
    freq: fc.constantFrom("DAILY", "WEEKLY", "WEEKLY", "MONTHLY", "YEARLY"),
    interval: fc.integer({ min: 1, max: 4 }),
    byDay: fc.option(fc.uniqueArray(fc.constantFrom(...weekdayCodes), { minLength: 1, maxLength: 4 })),
    ordinal: fc.option(fc.constantFrom(1, 2, -1, -2)),
    byMonth: fc.option(fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 5 })),
    byMonthDay: fc.option(fc.uniqueArray(fc.constantFrom(1, 2, 15, 28, 29, 30, 31, -1, -5), { minLength: 1, maxLength: 3 })),
    byYearDay: fc.option(fc.uniqueArray(fc.constantFrom(1, 2, 100, -1, -100), { minLength: 1, maxLength: 2 })),
    byWeekNo: fc.option(fc.uniqueArray(fc.constantFrom(1, 2, 20, 52, 53, -1, -2), { minLength: 1, maxLength: 2 })),
    bySetPos: fc.option(fc.constantFrom(1, -1)),
    wkst: fc.option(fc.constantFrom(...weekdayCodes)),
    count: fc.option(fc.integer({ min: 1, max: 400 })),
    ruleUntil: fc.option(fc.integer({ min: 0, max: 6000 })),
    recurrenceUntil: fc.option(fc.integer({ min: 0, max: 6000 })),
    exdates: fc.array(fc.integer({ min: 0, max: 6000 }), { maxLength: 3 }),
    anchor: fc.integer({ min: 0, max: 6000 }),
    hasDtstart: fc.boolean(),
    windowStart: fc.integer({ min: -60, max: 6300 }),
    windowLength: fc.integer({ min: 0, max: 70 }),
    zone: fc.constantFrom("America/New_York", "Australia/Lord_Howe", "America/Santiago", "Europe/London"),
    startTimeLocal: fc.constantFrom("00:00", "01:00", "02:15", "02:30", "09:00", "23:30"),
    endTimeLocal: fc.constantFrom("00:00", "01:30", "02:45", "03:00", "17:00"),
  })
  .map((spec) => {
    const base = "2010-01-01";
    const isOrdinalFrequency = spec.freq === "MONTHLY" || spec.freq === "YEARLY";
    const parts = [`FREQ=${spec.freq}`, `INTERVAL=${spec.interval}`];
    const ordinal = spec.ordinal !== null && isOrdinalFrequency ? String(spec.ordinal) : "";
    const hasByDay = spec.byDay !== null;
    if (spec.byDay !== null) parts.push(`BYDAY=${spec.byDay.map((code) => ordinal + code).join(",")}`);
    const useWeekNo = spec.freq === "YEARLY" && spec.byWeekNo !== null && ordinal === "";
    const useYearDay = !useWeekNo && (spec.freq === "YEARLY" || spec.freq === "DAILY") && spec.byYearDay !== null && ordinal === "";
    const useMonth = spec.byMonth !== null && !useWeekNo && !useYearDay && (spec.freq !== "MONTHLY" || spec.interval === 1);
    if (useMonth && spec.byMonth !== null) parts.push(`BYMONTH=${spec.byMonth.join(",")}`);
    if (useWeekNo && spec.byWeekNo !== null) parts.push(`BYWEEKNO=${spec.byWeekNo.join(",")}`);
    if (useYearDay && spec.byYearDay !== null) parts.push(`BYYEARDAY=${spec.byYearDay.join(",")}`);
    if (spec.byMonthDay !== null && spec.freq !== "WEEKLY" && ordinal === "" && !useWeekNo && !useYearDay) {
      const monthDays = useMonth ? spec.byMonthDay.filter((day) => day <= 28) : spec.byMonthDay;
      if (monthDays.length > 0) parts.push(`BYMONTHDAY=${monthDays.join(",")}`);
    }
    if (spec.bySetPos !== null && hasByDay && spec.freq !== "DAILY") parts.push(`BYSETPOS=${spec.bySetPos}`);
    if (spec.wkst !== null) parts.push(`WKST=${spec.wkst}`);
    if (spec.count !== null) parts.push(`COUNT=${spec.count}`);
    if (spec.ruleUntil !== null) parts.push(`UNTIL=${compact(addDays(base, spec.ruleUntil))}T235959Z`);
    const lines = [];
    if (spec.hasDtstart) lines.push(`DTSTART;TZID=${spec.zone}:${compact(addDays(base, spec.anchor))}T090000`);
    lines.push(`RRULE:${parts.join(";")}`);
    if (spec.exdates.length > 0) lines.push(`EXDATE;VALUE=DATE:${spec.exdates.map((day) => compact(addDays(base, day))).join(",")}`);
    const template = makeTemplate({
      timezone: spec.zone,
      startTimeLocal: spec.startTimeLocal,
      endTimeLocal: spec.endTimeLocal,
      rrule: lines.join("\n"),
      until: spec.recurrenceUntil === null ? null : addDays(base, spec.recurrenceUntil),
    });
    const startDate = addDays(base, spec.windowStart);
    return { template, window: { startDate, endDate: addDays(startDate, spec.windowLength) } };
  });

describe("the rule evaluator", () => {
  it("gives the same dates and instances as rrule iterating from the original DTSTART", () => {
    fc.assert(
      fc.property(ruleArbitrary, ({ template, window }) => {
        expect(recurrenceDates(template, window)).toEqual(recurrenceDates(template, window, reference));
        expect(expandTemplate(template, window)).toEqual(expandTemplate(template, window, reference));
      }),
      { numRuns: 1000 },
    );
  });

  it("counts COUNT from an old DTSTART exactly where the count runs out", () => {
    // The window sits on the last occurrence: DAILY and WEEKLY rules filtered by weekday
    // settle COUNT arithmetically, the others by walking periods from DTSTART.
    const countedRule = fc.record({
      freq: fc.constantFrom("DAILY", "WEEKLY", "MONTHLY", "YEARLY"),
      interval: fc.integer({ min: 1, max: 4 }),
      byDay: fc.option(fc.uniqueArray(fc.constantFrom(...weekdayCodes), { minLength: 1, maxLength: 7 })),
      byMonth: fc.option(fc.integer({ min: 1, max: 12 })),
      wkst: fc.constantFrom(...weekdayCodes),
      count: fc.integer({ min: 1, max: 300 }),
      // Day 1-28: a YEARLY rule takes its day from DTSTART, and BYMONTH=9 of a DTSTART on the 31st never matches.
      anchor: fc.record({ year: fc.integer({ min: 2012, max: 2020 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 28 }) }),
      lead: fc.integer({ min: 0, max: 20 }),
      windowLength: fc.integer({ min: 0, max: 20 }),
    });
    fc.assert(
      fc.property(countedRule, (spec) => {
        const count = spec.freq === "YEARLY" ? Math.min(spec.count, 100) : spec.count;
        const byDay = spec.byDay === null ? "" : `;BYDAY=${spec.byDay.join(",")}`;
        const byMonth = spec.byMonth === null || spec.freq === "MONTHLY" ? "" : `;BYMONTH=${spec.byMonth}`;
        const rrule = `DTSTART:${spec.anchor.year}${pad2(spec.anchor.month)}${pad2(spec.anchor.day)}\nRRULE:FREQ=${spec.freq};INTERVAL=${spec.interval};WKST=${spec.wkst};COUNT=${count}${byDay}${byMonth}`;
        const template = makeTemplate({ rrule });
        const everything = recurrenceDates(template, { startDate: "2012-01-01", endDate: "2999-12-31" }, reference);
        const lastDate = everything.at(-1) ?? "2012-01-01";
        const startDate = addDays(lastDate, -spec.lead);
        const window = { startDate, endDate: addDays(startDate, spec.windowLength) };
        expect(everything).toHaveLength(count);
        expect(recurrenceDates(template, window)).toEqual(recurrenceDates(template, window, reference));
      }),
      { numRuns: 300 },
    );
  });
});
