import { describe, expect, it } from "vitest";
import { ApiError } from "#src/api/bff-client.ts";
import { describeApiError } from "#src/components/shell/api-error-notice.tsx";
import { allowedTypesText, bandAccessibleName, bandSpanText, bookingsUnreadText, clockShiftText, dayLengthText, differsText, durationText, freshnessText, legendKey, overlapText, templateHoursText } from "./availability-text.ts";

// Days, weeks and wall-clock times are the app's formatter's now
// (src/lib/time-format.ts, tested there across locales and zones); these
// check the sentences the view builds from them, each with its locale and
// zones named.

describe("day length", () => {
  it("marks only days that are not 24 hours long, with their real length", () => {
    expect(dayLengthText(1440)).toBeNull();
    expect(dayLengthText(1380)).toBe("23-hour day");
    expect(dayLengthText(1410)).toBe("23½-hour day");
    expect(dayLengthText(1470)).toBe("24½-hour day");
    expect(dayLengthText(1500)).toBe("25-hour day");
  });

  it("says what the clock change does to the wall clock, on the locale's clock", () => {
    expect(clockShiftText({ kind: "gap", fromMinute: 120, toMinute: 150, atMs: 0 }, "en-GB")).toBe("Clocks go forward at 02:00: 02:00–02:30 does not happen");
    expect(clockShiftText({ kind: "fold", fromMinute: 90, toMinute: 120, atMs: 0 }, "en-GB")).toBe("Clocks go back at 02:00: 01:30–02:00 happens twice");
    expect(clockShiftText({ kind: "gap", fromMinute: 120, toMinute: 150, atMs: 0 }, "en-US")).toBe("Clocks go forward at 2:00 AM: 2:00 AM–2:30 AM does not happen");
    // Santiago's clocks go back at midnight: the repeated hour ends at 24:00.
    expect(clockShiftText({ kind: "fold", fromMinute: 1380, toMinute: 1440, atMs: 0 }, "de-DE")).toBe("Clocks go back at 24:00: 23:00–24:00 happens twice");
  });
});

describe("a band's span", () => {
  const lordHowe = { locale: "en-GB", zone: "Australia/Lord_Howe", userZone: "Australia/Lord_Howe" };

  it("names both zone abbreviations and the real length when the clocks change inside the band", () => {
    // Sunday 5 April 2026 in Lord Howe: 02:00 daylight time becomes 01:30 standard time.
    const startMs = Date.parse("2026-04-05T01:00:00+11:00");
    const endMs = Date.parse("2026-04-05T04:00:00+10:30");
    expect(bandSpanText(startMs, endMs, false, lordHowe)).toMatch(/^01:00 (LHDT|GMT\+11) – 04:00 (LHST|GMT\+10:30), 3½ h$/i);
  });

  it("is the plain wall-clock span otherwise", () => {
    const startMs = Date.parse("2026-04-06T09:00:00+10:30");
    expect(bandSpanText(startMs, startMs + 3 * 3_600_000, false, lordHowe)).toMatch(/^09:00\s?[–-]\s?12:00$/);
  });
});

describe("words", () => {
  it("formats durations", () => {
    expect(durationText(150)).toBe("2½ h");
    expect(durationText(180)).toBe("3 h");
    expect(durationText(45)).toBe("45 min");
    expect(durationText(135)).toBe("2 h 15 min");
  });

  it("sums the capacity where bands overlap", () => {
    expect(overlapText([{ label: "Morning clinic", capacity: 1 }, { label: "Procedures", capacity: 2 }])).toBe("3 at once: Morning clinic 1 + Procedures 2");
  });

  it("names allowed appointment types, any, or none", () => {
    const names = new Map([["00000000-0000-0000-0000-000000000001", "Follow-up"]]);
    expect(allowedTypesText(null, names)).toBe("any");
    expect(allowedTypesText([], names)).toMatch(/^none/);
    expect(allowedTypesText(["atp_00000000000000000000000000000001", "atp_00000000000000000000000000000002"], names)).toBe("Follow-up, an unlisted type");
  });

  it("names a band: provider, template, day, local start–end, the zone where it differs (both ends' zones and the real length when the clocks change inside it), capacity", () => {
    const base = { providerName: "Dr Ada Brooks", templateName: "Weekend virtual urgent care", date: "2026-10-04", capacity: 2, isInactive: false, endsNextDay: false };
    const elsewhere = { locale: "en-GB", zone: "Australia/Lord_Howe", userZone: "Europe/London" };
    const startMs = Date.parse("2026-10-03T14:30:00Z");
    const endMs = Date.parse("2026-10-03T17:00:00Z");
    expect(bandAccessibleName({ ...base, startMs, endMs, wallMinutes: 180 }, elsewhere)).toBe("Dr Ada Brooks, Weekend virtual urgent care, Sunday 4 October, 01:00 LHST – 04:00 LHDT, 2½ h (clocks change), capacity 2");
    expect(bandAccessibleName({ ...base, startMs, endMs, wallMinutes: 180 }, { locale: "en-US", zone: "Australia/Lord_Howe", userZone: "Australia/Lord_Howe" })).toBe(
      "Dr Ada Brooks, Weekend virtual urgent care, Sunday, October 4, 1:00 AM LHST – 4:00 AM LHDT, 2½ h (clocks change), capacity 2",
    );
    expect(bandAccessibleName({ ...base, date: "2026-10-11", startMs: startMs + 7 * 86_400_000, endMs: startMs + 7 * 86_400_000 + 180 * 60_000, wallMinutes: 180, isInactive: true }, elsewhere)).toMatch(/, capacity 2, inactive, not bookable$/);
  });

  it("says how fresh the answer is, on the facility's clock", () => {
    const meta = { sourceSyncedAt: "2026-12-01T17:04:31.000Z", maxStalenessSeconds: 60 };
    const sameDay = Date.parse("2026-12-01T17:05:00Z");
    expect(freshnessText(meta, { locale: "en-US", zone: "America/New_York", userZone: "America/Los_Angeles" }, sameDay)).toBe("as of 12:04:31 PM EST (up to 60 s behind the EHR)");
    expect(freshnessText(meta, { locale: "en-GB", zone: "America/New_York", userZone: "America/New_York" }, sameDay)).toBe("as of 12:04:31 (up to 60 s behind the EHR)");
    expect(freshnessText({ ...meta, maxStalenessSeconds: 600 }, { locale: "en-GB", zone: "America/New_York", userZone: "America/New_York" }, Date.parse("2026-12-02T15:00:00Z"))).toBe("as of Tue 1 Dec, 12:04:31 (up to 10 min behind the EHR)");
  });

  it("writes the quiet note and legend keys", () => {
    expect(differsText(1)).toBe("The service's schedule differs from the templates for 1 band: showing the service's; the EHR may have changed a template since the last sync.");
    expect(differsText(3)).toMatch(/for 3 bands:/);
    expect([0, 1, 25, 26, 27].map(legendKey)).toEqual(["A", "B", "Z", "AA", "AB"]);
  });
});

describe("a template's hours in the legend", () => {
  it("says them as the grid does, in the reader's locale (issue 36 item 12)", () => {
    expect(templateHoursText("08:30", "12:30", "en-US")).toBe("8:30 AM–12:30 PM");
    expect(templateHoursText("08:30", "12:30", "en-GB")).toBe("08:30–12:30");
    expect(templateHoursText("22:00", "06:00", "en-US")).toBe("10:00 PM–6:00 AM next day");
  });
});

describe("bookings that could not be read", () => {
  it("names the system that failed, never the service's own words", () => {
    const ehrDown = new ApiError(502, { code: "server_unresponsive", message: "Injected fault: server_unresponsive", trace_id: "tdm_1", upstream_trace_id: "up_1" });
    expect(bookingsUnreadText(describeApiError(ehrDown))).toBe("Bookings could not be read, so the bands show no fill. The EHR did not answer. Try again in a moment.");
    expect(bookingsUnreadText(describeApiError(ehrDown))).not.toContain("Injected fault");
    expect(bookingsUnreadText(describeApiError(new TypeError("Failed to fetch")))).toBe("Bookings could not be read, so the bands show no fill. Tandem could not reach its server. It may be restarting, or the network may be down. Try again in a moment.");
    const busy = new ApiError(503, { code: "rate_limited", message: "Too many requests", trace_id: "tdm_2", retry_after_seconds: 30 });
    expect(bookingsUnreadText(describeApiError(busy))).toBe("Bookings could not be read, so the bands show no fill. The clinic data service is busy. Try again in 30 seconds.");
  });
});
