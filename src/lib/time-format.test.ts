import { describe, expect, it } from "vitest";
import {
  APP_LOCALE,
  formatDay,
  formatDayAndTime,
  formatLocalDay,
  formatLocalDayRange,
  formatNumber,
  formatRecentTime,
  formatTime,
  formatTimeRange,
  formatWallTime,
  formatZoneCity,
  formatZoneName,
  usesTwelveHourClock,
  zoneAbbreviation,
  zoneNameAt,
  type TimeDisplay,
} from "./time-format.ts";

// Every expectation names its locale and both zones; scripts/test-unit.sh runs
// this file again under other machine zones, where any leak of the machine's
// zone would change a result.

const at = (iso: string) => Date.parse(iso);
const display = (locale: string, zone: string, userZone: string): TimeDisplay => ({ locale, zone, userZone });
/** The locale's own spacing in ranges (thin and narrow no-break spaces) read as plain spaces. */
const plainSpaces = (text: string) => text.replace(/\s/g, " ");

const TUESDAY_AFTERNOON_UTC = at("2026-11-17T14:40:12Z");

describe("formatTime", () => {
  it("writes the facility's wall clock in the user's locale", () => {
    expect(formatTime(TUESDAY_AFTERNOON_UTC, display("en-US", "America/New_York", "America/New_York"))).toBe("9:40 AM");
    expect(formatTime(TUESDAY_AFTERNOON_UTC, display("en-GB", "America/New_York", "America/New_York"))).toBe("09:40");
    expect(formatTime(TUESDAY_AFTERNOON_UTC, display("de-DE", "America/New_York", "America/New_York"))).toBe("09:40");
    expect(formatTime(TUESDAY_AFTERNOON_UTC, display("en-US", "America/New_York", "America/New_York"), { seconds: true })).toBe("9:40:12 AM");
    expect(formatTime(TUESDAY_AFTERNOON_UTC, display("en-GB", "America/New_York", "America/New_York"), { seconds: true })).toBe("09:40:12");
  });

  it("takes the facility's zone, not the user's, for every time", () => {
    expect(formatTime(TUESDAY_AFTERNOON_UTC, display("en-US", "America/Los_Angeles", "America/New_York"))).toBe("6:40 AM PST");
    expect(formatTime(TUESDAY_AFTERNOON_UTC, display("en-GB", "Asia/Kolkata", "America/New_York"))).toBe("20:10 IST");
    expect(formatTime(TUESDAY_AFTERNOON_UTC, display("en-US", "Asia/Kolkata", "UTC"))).toBe("8:10 PM IST");
    // Lord Howe is 11 hours ahead in its summer: already Wednesday 01:40.
    expect(formatTime(TUESDAY_AFTERNOON_UTC, display("en-GB", "Australia/Lord_Howe", "America/New_York"))).toBe("01:40 LHDT");
    expect(formatTime(TUESDAY_AFTERNOON_UTC, display("de-DE", "America/Los_Angeles", "Europe/Berlin"))).toBe("06:40 PST");
  });

  it("names the zone only where its offset differs from the user's at that instant", () => {
    // Detroit and New York are two names for one offset: nothing to name.
    expect(formatTime(TUESDAY_AFTERNOON_UTC, display("en-US", "America/Detroit", "America/New_York"))).toBe("9:40 AM");
    // Phoenix keeps standard time all year: the same as Denver in winter, an hour apart in summer.
    expect(formatTime(at("2026-01-15T16:40:00Z"), display("en-US", "America/Phoenix", "America/Denver"))).toBe("9:40 AM");
    expect(formatTime(at("2026-07-15T16:40:00Z"), display("en-US", "America/Phoenix", "America/Denver"))).toBe("9:40 AM MST");
    expect(zoneNameAt(at("2026-01-15T16:40:00Z"), display("en-US", "America/Phoenix", "America/Denver"))).toBeNull();
    expect(zoneNameAt(at("2026-07-15T16:40:00Z"), display("en-US", "America/Phoenix", "America/Denver"))).toBe("MST");
  });

  it("leaves the zone out when asked, where it is named once nearby", () => {
    expect(formatTime(TUESDAY_AFTERNOON_UTC, display("en-US", "Asia/Kolkata", "UTC"), { zoneName: "omitted" })).toBe("8:10 PM");
  });

  it("falls back to en-US for a tag Intl refuses, rather than throwing", () => {
    expect(formatTime(TUESDAY_AFTERNOON_UTC, display("en_US", "America/New_York", "America/New_York"))).toBe("9:40 AM");
    expect(formatTime(TUESDAY_AFTERNOON_UTC, display("", "America/New_York", "America/New_York"))).toBe("9:40 AM");
  });

  it("knows which locales count to 12", () => {
    expect(usesTwelveHourClock("en-US")).toBe(true);
    expect(usesTwelveHourClock("en-GB")).toBe(false);
    expect(usesTwelveHourClock("de-DE")).toBe(false);
  });
});

describe("New York's clock changes in 2026", () => {
  const newYorker = (locale: string) => display(locale, "America/New_York", "America/New_York");
  const londoner = (locale: string) => display(locale, "America/New_York", "Europe/London");

  it("on 8 March jumps from 01:59 EST to 03:00 EDT", () => {
    expect(formatTime(at("2026-03-08T06:59:00Z"), newYorker("en-US"))).toBe("1:59 AM");
    expect(formatTime(at("2026-03-08T07:00:00Z"), newYorker("en-US"))).toBe("3:00 AM");
    expect(formatTime(at("2026-03-08T07:01:00Z"), newYorker("en-GB"))).toBe("03:01");
    expect(formatTime(at("2026-03-08T06:59:00Z"), londoner("en-GB"))).toBe("01:59 EST");
    expect(formatTime(at("2026-03-08T07:01:00Z"), londoner("en-GB"))).toBe("03:01 EDT");
    expect(formatDayAndTime(at("2026-03-08T07:01:00Z"), londoner("de-DE"))).toBe("So., 8. März, 03:01 EDT");
  });

  it("on 1 November writes 01:30 twice, each named by its zone even for a user in New York", () => {
    const firstTime = at("2026-11-01T05:30:00Z");
    const secondTime = at("2026-11-01T06:30:00Z");
    expect(formatTime(firstTime, newYorker("en-US"))).toBe("1:30 AM EDT");
    expect(formatTime(secondTime, newYorker("en-US"))).toBe("1:30 AM EST");
    expect(formatTime(firstTime, londoner("en-GB"))).toBe("01:30 EDT");
    expect(formatTime(secondTime, londoner("de-DE"))).toBe("01:30 EST");
    // Either side of the repeated hour the wall time is unambiguous.
    expect(formatTime(at("2026-11-01T04:59:00Z"), newYorker("en-US"))).toBe("12:59 AM");
    expect(formatTime(at("2026-11-01T07:00:00Z"), newYorker("en-US"))).toBe("2:00 AM");
    expect(formatTime(at("2026-11-01T06:00:00Z"), newYorker("en-GB"))).toBe("01:00 EST");
  });

  it("names the day of the facility's date either side of the change", () => {
    expect(formatDay(at("2026-11-01T03:59:00Z"), newYorker("en-GB"))).toBe("Saturday 31 October");
    expect(formatDay(at("2026-11-01T04:00:00Z"), newYorker("en-GB"))).toBe("Sunday 1 November");
  });
});

describe("Lord Howe's half-hour clock changes", () => {
  const local = (locale: string) => display(locale, "Australia/Lord_Howe", "Australia/Lord_Howe");

  it("on 4 October 2026 jumps from 01:59 to 02:30", () => {
    expect(formatTime(at("2026-10-03T15:29:00Z"), local("en-GB"))).toBe("01:59");
    expect(formatTime(at("2026-10-03T15:30:00Z"), local("en-GB"))).toBe("02:30");
    expect(formatTime(at("2026-10-03T15:30:00Z"), display("en-US", "Australia/Lord_Howe", "Australia/Sydney"))).toBe("2:30 AM LHDT");
  });

  it("on 5 April 2026 writes 01:45 twice, named each time", () => {
    expect(formatTime(at("2026-04-04T14:45:00Z"), local("en-GB"))).toBe("01:45 LHDT");
    expect(formatTime(at("2026-04-04T15:15:00Z"), local("en-GB"))).toBe("01:45 LHST");
    expect(formatTime(at("2026-04-04T15:31:00Z"), local("en-GB"))).toBe("02:01");
  });
});

describe("days", () => {
  it("writes a local date in the user's locale, no zone involved", () => {
    expect(formatLocalDay("2026-11-17", "en-GB")).toBe("Tuesday 17 November");
    expect(formatLocalDay("2026-11-17", "en-GB", { style: "short" })).toBe("Tue 17 Nov");
    expect(formatLocalDay("2026-11-17", "en-US", { style: "short" })).toBe("Tue, Nov 17");
    expect(formatLocalDay("2026-11-17", "en-US")).toBe("Tuesday, November 17");
    expect(formatLocalDay("2026-11-17", "de-DE", { style: "short" })).toBe("Di., 17. Nov.");
    expect(formatLocalDay("1968-03-14", "en-GB", { style: "short", weekday: false, year: true })).toBe("14 Mar 1968");
    expect(formatLocalDay("1968-03-14", "en-US", { style: "short", weekday: false, year: true })).toBe("Mar 14, 1968");
  });

  it("gives an instant the facility's date, not the user's", () => {
    // 23:30 on Monday in Los Angeles is already Tuesday in Kolkata.
    const lateMonday = at("2026-11-17T07:30:00Z");
    expect(formatDay(lateMonday, display("en-GB", "America/Los_Angeles", "Asia/Kolkata"), { style: "short" })).toBe("Mon 16 Nov");
    expect(formatDay(lateMonday, display("en-GB", "Asia/Kolkata", "America/Los_Angeles"), { style: "short" })).toBe("Tue 17 Nov");
  });

  it("writes a span of days as the locale does", () => {
    expect(plainSpaces(formatLocalDayRange("2026-10-05", "2026-10-11", "en-GB"))).toBe("5 – 11 October 2026");
    expect(plainSpaces(formatLocalDayRange("2026-09-28", "2026-10-04", "en-GB"))).toBe("28 September – 4 October 2026");
    expect(plainSpaces(formatLocalDayRange("2026-12-28", "2027-01-03", "en-GB"))).toBe("28 December 2026 – 3 January 2027");
    expect(plainSpaces(formatLocalDayRange("2026-10-05", "2026-10-11", "en-US"))).toBe("October 5 – 11, 2026");
    expect(plainSpaces(formatLocalDayRange("2026-10-05", "2026-10-11", "de-DE"))).toBe("5.–11. Oktober 2026");
  });
});

describe("formatDayAndTime", () => {
  it("joins day and time as the locale does, the zone named where it differs", () => {
    expect(formatDayAndTime(TUESDAY_AFTERNOON_UTC, display("en-GB", "America/New_York", "America/New_York"))).toBe("Tue 17 Nov, 09:40");
    expect(formatDayAndTime(TUESDAY_AFTERNOON_UTC, display("en-US", "America/New_York", "UTC"))).toBe("Tue, Nov 17, 9:40 AM EST");
    expect(formatDayAndTime(TUESDAY_AFTERNOON_UTC, display("de-DE", "Asia/Kolkata", "Asia/Kolkata"))).toBe("Di., 17. Nov., 20:10");
    expect(formatDayAndTime(TUESDAY_AFTERNOON_UTC, display("en-GB", "Australia/Lord_Howe", "UTC"), { year: true })).toBe("Wed, 18 Nov 2026, 01:40 LHDT");
  });
});

describe("formatRecentTime", () => {
  const newYork = display("en-US", "America/New_York", "America/Los_Angeles");

  it("writes the time alone on the facility's today, the day too on another date", () => {
    expect(formatRecentTime(TUESDAY_AFTERNOON_UTC, TUESDAY_AFTERNOON_UTC + 3_600_000, newYork)).toBe("9:40 AM EST");
    expect(formatRecentTime(TUESDAY_AFTERNOON_UTC, TUESDAY_AFTERNOON_UTC, newYork, { seconds: true })).toBe("9:40:12 AM EST");
    expect(formatRecentTime(TUESDAY_AFTERNOON_UTC, at("2026-11-18T14:00:00Z"), newYork)).toBe("Tue, Nov 17, 9:40 AM EST");
    expect(formatRecentTime(TUESDAY_AFTERNOON_UTC, at("2027-01-04T14:00:00Z"), newYork)).toBe("Tue, Nov 17, 2026, 9:40 AM EST");
  });

  it("reads today on the facility's calendar: 11 PM in New York is another day in UTC", () => {
    const late = at("2026-11-18T04:00:00Z");
    const shortlyAfter = at("2026-11-18T04:30:00Z");
    expect(formatRecentTime(late, shortlyAfter, display("en-GB", "America/New_York", "America/New_York"))).toBe("23:00");
    expect(formatRecentTime(at("2026-11-17T23:59:00Z"), shortlyAfter, display("en-GB", "UTC", "UTC"))).toBe("Tue 17 Nov, 23:59");
  });
});

describe("formatTimeRange", () => {
  const newYork = display("en-GB", "America/New_York", "UTC");

  it("writes the day once and the zone once", () => {
    expect(formatTimeRange(at("2026-11-20T14:00:00Z"), at("2026-11-20T14:20:00Z"), newYork, { year: true })).toBe("Fri, 20 Nov 2026, 09:00–09:20 EST");
    expect(formatTimeRange(at("2026-11-20T14:00:00Z"), at("2026-11-20T14:20:00Z"), display("en-US", "America/New_York", "America/New_York"))).toBe("Fri, Nov 20, 9:00 AM–9:20 AM");
  });

  it("names the end's day when the span crosses midnight", () => {
    expect(formatTimeRange(at("2026-11-21T04:30:00Z"), at("2026-11-21T05:30:00Z"), newYork, { year: true })).toBe("Fri, 20 Nov 2026, 23:30 EST – Sat, 21 Nov 2026, 00:30 EST");
  });

  it("names each end's zone across the clocks going back", () => {
    expect(formatTimeRange(at("2026-11-01T05:30:00Z"), at("2026-11-01T06:30:00Z"), display("en-GB", "America/New_York", "America/New_York"))).toBe("Sun 1 Nov, 01:30 EDT – 01:30 EST");
  });
});

describe("formatWallTime", () => {
  it("writes minutes after local midnight on the locale's clock", () => {
    expect(formatWallTime(0, "en-GB")).toBe("00:00");
    expect(formatWallTime(165, "en-GB")).toBe("02:45");
    expect(formatWallTime(810, "de-DE")).toBe("13:30");
    expect(formatWallTime(1440, "en-GB")).toBe("24:00");
    expect(formatWallTime(0, "en-US")).toBe("12:00 AM");
    expect(formatWallTime(810, "en-US")).toBe("1:30 PM");
    expect(formatWallTime(1440, "en-US")).toBe("12:00 AM");
  });
});

describe("zone names", () => {
  it("gives a zone's short name at an instant, whatever the user's locale", () => {
    expect(zoneAbbreviation(at("2026-01-15T15:00:00Z"), "America/New_York")).toBe("EST");
    expect(zoneAbbreviation(at("2026-07-01T15:00:00Z"), "America/New_York")).toBe("EDT");
    expect(zoneAbbreviation(at("2026-01-15T15:00:00Z"), "Australia/Sydney")).toBe("AEDT");
    expect(zoneAbbreviation(at("2026-07-01T15:00:00Z"), "Europe/London")).toBe("BST");
    expect(zoneAbbreviation(at("2026-07-01T15:00:00Z"), "Asia/Kolkata")).toBe("IST");
  });

  it("writes a zone's IANA name, and its city, as words", () => {
    expect(formatZoneName("America/New_York")).toBe("America/New York");
    expect(formatZoneName("UTC")).toBe("UTC");
    expect(formatZoneCity("America/Argentina/Buenos_Aires")).toBe("Buenos Aires");
    expect(formatZoneCity("UTC")).toBe("UTC");
  });
});

describe("formatNumber", () => {
  it("writes numbers in Tandem's own locale whatever the user's, to three decimals unless told", () => {
    expect(APP_LOCALE).toBe("en-US");
    expect(formatNumber(1234567.891)).toBe("1,234,567.891");
    expect(formatNumber(1234.5678)).toBe("1,234.568");
    expect(formatNumber(98.66, { maximumFractionDigits: 1 })).toBe("98.7");
    expect(formatNumber(1023.6, { maximumFractionDigits: 0 })).toBe("1,024");
    expect(formatNumber(1234.5, { minimumFractionDigits: 2, maximumFractionDigits: 2 })).toBe("1,234.50");
    expect(formatNumber(-0.5, { maximumFractionDigits: 2 })).toBe("-0.5");
  });

  it("writes what the locales Tandem used before wrote (en-GB, en-US)", () => {
    for (const value of [0, 1.5, 999.999, 1000, 1234.5, 1234567.891, -1234.5]) {
      for (const options of [{ maximumFractionDigits: 0 }, { maximumFractionDigits: 1 }, { maximumFractionDigits: 2 }, { minimumFractionDigits: 2, maximumFractionDigits: 2 }]) {
        const written = formatNumber(value, options);
        expect(written).toBe(new Intl.NumberFormat("en-GB", options).format(value));
        expect(written).toBe(new Intl.NumberFormat("en-US", options).format(value));
      }
      expect(formatNumber(value)).toBe(value.toLocaleString("en-GB"));
    }
  });
});
