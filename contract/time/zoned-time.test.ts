import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addDays,
  dayLengthMinutes,
  daysBetween,
  formatInstant,
  localDateOf,
  localTimeOf,
  localToInstant,
  offsetMinutesAt,
  todayIn,
  weekdayOf,
} from "./zoned-time.ts";

// DESIGN.md: local times in gaps take the offset before the gap, repeated
// times are their first occurrence, and nothing depends on the host's zone
// (scripts/test-unit.sh runs this file under four host zones).

function utc(text: string): number {
  return Date.parse(text);
}

function roundTrip(date: string, time: string, zone: string): { iso: string; formatted: string } {
  const instant = localToInstant(date, time, zone);
  return { iso: new Date(instant).toISOString(), formatted: formatInstant(instant, zone) };
}

describe("localToInstant", () => {
  it("reads an ordinary local time with the zone's offset", () => {
    expect(roundTrip("2026-01-15", "09:00", "America/New_York")).toEqual({ iso: "2026-01-15T14:00:00.000Z", formatted: "2026-01-15T09:00:00-05:00" });
    expect(roundTrip("2026-07-15", "09:00:30", "America/New_York")).toEqual({ iso: "2026-07-15T13:00:30.000Z", formatted: "2026-07-15T09:00:30-04:00" });
  });

  it("New York 2026-03-08: a time in the gap takes the offset before it", () => {
    expect(roundTrip("2026-03-08", "02:30", "America/New_York")).toEqual({ iso: "2026-03-08T07:30:00.000Z", formatted: "2026-03-08T03:30:00-04:00" });
    expect(roundTrip("2026-03-08", "02:00", "America/New_York").formatted).toBe("2026-03-08T03:00:00-04:00");
    expect(roundTrip("2026-03-08", "01:59", "America/New_York").formatted).toBe("2026-03-08T01:59:00-05:00");
    expect(roundTrip("2026-03-08", "03:00", "America/New_York").formatted).toBe("2026-03-08T03:00:00-04:00");
  });

  it("New York 2026-11-01: a repeated time is its first occurrence", () => {
    expect(roundTrip("2026-11-01", "01:30", "America/New_York")).toEqual({ iso: "2026-11-01T05:30:00.000Z", formatted: "2026-11-01T01:30:00-04:00" });
    expect(roundTrip("2026-11-01", "01:00", "America/New_York").formatted).toBe("2026-11-01T01:00:00-04:00");
    expect(roundTrip("2026-11-01", "02:00", "America/New_York").formatted).toBe("2026-11-01T02:00:00-05:00");
  });

  it("London 2026-03-29 and 2026-10-25", () => {
    expect(roundTrip("2026-03-29", "01:30", "Europe/London")).toEqual({ iso: "2026-03-29T01:30:00.000Z", formatted: "2026-03-29T02:30:00+01:00" });
    expect(roundTrip("2026-03-29", "00:30", "Europe/London").formatted).toBe("2026-03-29T00:30:00+00:00");
    expect(roundTrip("2026-10-25", "01:30", "Europe/London")).toEqual({ iso: "2026-10-25T00:30:00.000Z", formatted: "2026-10-25T01:30:00+01:00" });
    expect(roundTrip("2026-10-25", "02:00", "Europe/London").formatted).toBe("2026-10-25T02:00:00+00:00");
  });

  it("Sydney 2026-04-05 (fold 02:00-03:00) and 2026-10-04 (gap 02:00-03:00)", () => {
    expect(roundTrip("2026-04-05", "02:30", "Australia/Sydney")).toEqual({ iso: "2026-04-04T15:30:00.000Z", formatted: "2026-04-05T02:30:00+11:00" });
    expect(roundTrip("2026-04-05", "03:00", "Australia/Sydney").formatted).toBe("2026-04-05T03:00:00+10:00");
    expect(roundTrip("2026-10-04", "02:30", "Australia/Sydney")).toEqual({ iso: "2026-10-03T16:30:00.000Z", formatted: "2026-10-04T03:30:00+11:00" });
  });

  it("Lord Howe 2026-04-05 (fold 01:30-02:00) and 2026-10-04 (gap 02:00-02:30)", () => {
    expect(roundTrip("2026-04-05", "01:45", "Australia/Lord_Howe")).toEqual({ iso: "2026-04-04T14:45:00.000Z", formatted: "2026-04-05T01:45:00+11:00" });
    expect(formatInstant(utc("2026-04-04T15:15:00Z"), "Australia/Lord_Howe")).toBe("2026-04-05T01:45:00+10:30");
    expect(roundTrip("2026-04-05", "02:00", "Australia/Lord_Howe").formatted).toBe("2026-04-05T02:00:00+10:30");
    expect(roundTrip("2026-10-04", "02:15", "Australia/Lord_Howe")).toEqual({ iso: "2026-10-03T15:45:00.000Z", formatted: "2026-10-04T02:45:00+11:00" });
    expect(roundTrip("2026-10-04", "02:30", "Australia/Lord_Howe").formatted).toBe("2026-10-04T02:30:00+11:00");
  });

  it("Santiago 2026-09-06: midnight does not exist, the day starts at 01:00", () => {
    expect(roundTrip("2026-09-06", "00:00", "America/Santiago")).toEqual({ iso: "2026-09-06T04:00:00.000Z", formatted: "2026-09-06T01:00:00-03:00" });
    expect(roundTrip("2026-09-05", "23:59", "America/Santiago").formatted).toBe("2026-09-05T23:59:00-04:00");
    // Fall-back 2026-04-05 00:00 -03 -> 2026-04-04 23:00 -04: 23:30 on 04-04 happens twice.
    expect(roundTrip("2026-04-04", "23:30", "America/Santiago").formatted).toBe("2026-04-04T23:30:00-03:00");
  });

  it("Sao Paulo has no DST (abolished in 2019)", () => {
    expect(roundTrip("2026-11-01", "00:00", "America/Sao_Paulo").formatted).toBe("2026-11-01T00:00:00-03:00");
    expect(roundTrip("2026-02-15", "12:00", "America/Sao_Paulo").formatted).toBe("2026-02-15T12:00:00-03:00");
    // Before abolition it had DST, starting at midnight (2018-11-04 00:00 -> 01:00).
    expect(roundTrip("2018-11-04", "00:30", "America/Sao_Paulo").formatted).toBe("2018-11-04T01:30:00-02:00");
  });

  it("rejects malformed dates, times and zones", () => {
    expect(() => localToInstant("2026-02-29", "09:00", "UTC")).toThrow(RangeError);
    expect(() => localToInstant("2026-2-1", "09:00", "UTC")).toThrow(RangeError);
    expect(() => localToInstant("2026-02-01", "24:00", "UTC")).toThrow(RangeError);
    expect(() => localToInstant("2026-02-01", "9:00", "UTC")).toThrow(RangeError);
    expect(() => localToInstant("2026-02-01", "09:00", "Mars/Olympus_Mons")).toThrow(RangeError);
  });
});

describe("offsetMinutesAt and formatInstant", () => {
  it("gives offsets east-positive, including half and quarter hours", () => {
    expect(offsetMinutesAt(utc("2026-01-15T12:00:00Z"), "America/New_York")).toBe(-300);
    expect(offsetMinutesAt(utc("2026-07-15T12:00:00Z"), "America/New_York")).toBe(-240);
    expect(offsetMinutesAt(utc("2026-01-15T12:00:00Z"), "Australia/Lord_Howe")).toBe(660);
    expect(offsetMinutesAt(utc("2026-07-15T12:00:00Z"), "Australia/Lord_Howe")).toBe(630);
    expect(offsetMinutesAt(utc("2026-07-15T12:00:00Z"), "Asia/Kathmandu")).toBe(345);
  });

  it("switches exactly at the transition instant", () => {
    expect(offsetMinutesAt(utc("2026-03-08T06:59:59Z"), "America/New_York")).toBe(-300);
    expect(offsetMinutesAt(utc("2026-03-08T07:00:00Z"), "America/New_York")).toBe(-240);
    expect(offsetMinutesAt(utc("2026-10-03T15:29:59Z"), "Australia/Lord_Howe")).toBe(630);
    expect(offsetMinutesAt(utc("2026-10-03T15:30:00Z"), "Australia/Lord_Howe")).toBe(660);
  });

  it("formats with seconds, no milliseconds, and +00:00 rather than Z", () => {
    expect(formatInstant(utc("2026-01-15T12:00:00.999Z"), "UTC")).toBe("2026-01-15T12:00:00+00:00");
    expect(formatInstant(utc("2026-01-15T12:00:00Z"), "Europe/London")).toBe("2026-01-15T12:00:00+00:00");
    expect(formatInstant(utc("2026-01-15T12:00:00Z"), "Asia/Kolkata")).toBe("2026-01-15T17:30:00+05:30");
    expect(formatInstant(utc("2026-01-15T12:00:00Z"), "America/St_Johns")).toBe("2026-01-15T08:30:00-03:30");
    expect(formatInstant(utc("2026-07-15T12:00:00Z"), "America/St_Johns")).toBe("2026-07-15T09:30:00-02:30");
    expect(formatInstant(utc("2026-01-15T12:00:00Z"), "Australia/Lord_Howe")).toBe("2026-01-15T23:00:00+11:00");
    expect(formatInstant(utc("2026-07-15T12:00:00Z"), "Australia/Lord_Howe")).toBe("2026-07-15T22:30:00+10:30");
  });

  it("agrees with Intl's own offset for random instants in many zones", () => {
    const zones = ["America/New_York", "Europe/London", "Australia/Lord_Howe", "America/Santiago", "Asia/Tehran", "Pacific/Chatham", "Africa/Casablanca", "America/Sao_Paulo"];
    const formatters = new Map(zones.map((zone) => [zone, new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })]));
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1971, 0, 1) / 1000, max: Date.UTC(2045, 0, 1) / 1000 }), fc.constantFrom(...zones), (seconds, zone) => {
        const instant = seconds * 1000;
        const name = formatters.get(zone)?.formatToParts(instant).find((part) => part.type === "timeZoneName")?.value ?? "";
        const match = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name);
        expect(match).not.toBeNull();
        const expected = match?.[1] === undefined ? 0 : (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
        expect(offsetMinutesAt(instant, zone)).toBe(expected);
      }),
      { numRuns: 600 },
    );
  });

  it("round-trips: a formatted instant read back as local time is the same instant unless it is the second of a fold", () => {
    const zones = ["America/New_York", "Australia/Lord_Howe", "America/Santiago", "Europe/London", "Australia/Sydney"];
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1) / 60_000, max: Date.UTC(2040, 0, 1) / 60_000 }), fc.constantFrom(...zones), (minutes, zone) => {
        const instant = minutes * 60_000;
        const formatted = formatInstant(instant, zone);
        expect(Date.parse(formatted)).toBe(instant);
        const back = localToInstant(localDateOf(instant, zone), localTimeOf(instant, zone), zone);
        if (back !== instant) {
          expect(back).toBeLessThan(instant);
          expect(formatInstant(back, zone).slice(0, 19)).toBe(formatted.slice(0, 19));
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe("local dates", () => {
  it("localDateOf and localTimeOf read the wall clock of the zone", () => {
    const instant = utc("2026-03-08T07:30:00Z");
    expect(localDateOf(instant, "America/New_York")).toBe("2026-03-08");
    expect(localTimeOf(instant, "America/New_York")).toBe("03:30");
    expect(localDateOf(instant, "Asia/Tokyo")).toBe("2026-03-08");
    expect(localTimeOf(instant, "Asia/Tokyo")).toBe("16:30");
    expect(localDateOf(utc("2026-03-08T03:00:00Z"), "America/Los_Angeles")).toBe("2026-03-07");
  });

  it("todayIn depends on the zone, not the host", () => {
    const noon = utc("2026-01-01T12:00:00Z");
    expect(todayIn("Pacific/Kiritimati", noon)).toBe("2026-01-02");
    expect(todayIn("Pacific/Pago_Pago", noon)).toBe("2026-01-01");
    expect(todayIn("UTC", utc("2025-12-31T23:59:59.999Z"))).toBe("2025-12-31");
  });

  it("addDays, daysBetween and weekdayOf do calendar arithmetic", () => {
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-02-28", 1)).toBe("2026-03-01");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addDays("2026-03-08", 365 * 10)).toBe("2036-03-05");
    expect(daysBetween("2026-03-01", "2026-03-08")).toBe(7);
    expect(daysBetween("2026-03-08", "2026-03-01")).toBe(-7);
    expect(daysBetween("2016-01-04", "2026-03-02")).toBe(3710);
    expect(weekdayOf("2026-03-09")).toBe(0); // Monday
    expect(weekdayOf("2026-03-08")).toBe(6); // Sunday
    expect(weekdayOf("1970-01-01")).toBe(3); // Thursday
    expect(weekdayOf("1969-12-29")).toBe(0);
    expect(() => addDays("2026-13-01", 1)).toThrow(RangeError);
  });

  it("dayLengthMinutes measures DST days in real minutes", () => {
    expect(dayLengthMinutes("2026-03-08", "America/New_York")).toBe(1380);
    expect(dayLengthMinutes("2026-11-01", "America/New_York")).toBe(1500);
    expect(dayLengthMinutes("2026-03-07", "America/New_York")).toBe(1440);
    expect(dayLengthMinutes("2026-03-29", "Europe/London")).toBe(1380);
    expect(dayLengthMinutes("2026-10-25", "Europe/London")).toBe(1500);
    expect(dayLengthMinutes("2026-04-05", "Australia/Sydney")).toBe(1500);
    expect(dayLengthMinutes("2026-10-04", "Australia/Sydney")).toBe(1380);
    expect(dayLengthMinutes("2026-04-05", "Australia/Lord_Howe")).toBe(1470);
    expect(dayLengthMinutes("2026-10-04", "Australia/Lord_Howe")).toBe(1410);
    expect(dayLengthMinutes("2026-09-06", "America/Santiago")).toBe(1380);
    expect(dayLengthMinutes("2026-04-04", "America/Santiago")).toBe(1500);
    expect(dayLengthMinutes("2026-11-01", "America/Sao_Paulo")).toBe(1440);
  });
});
