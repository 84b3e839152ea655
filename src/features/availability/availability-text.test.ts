import { describe, expect, it } from "vitest";
import { allowedTypesText, bandAccessibleName, clockShiftText, dayLengthText, differsText, durationText, formatLocalDay, formatMinuteOfDay, freshnessText, legendKey, overlapText, weekRangeText } from "./availability-text.ts";

describe("day length", () => {
  it("marks only days that are not 24 hours long, with their real length", () => {
    expect(dayLengthText(1440)).toBeNull();
    expect(dayLengthText(1380)).toBe("23-hour day");
    expect(dayLengthText(1410)).toBe("23½-hour day");
    expect(dayLengthText(1470)).toBe("24½-hour day");
    expect(dayLengthText(1500)).toBe("25-hour day");
  });

  it("says what the clock change does to the wall clock", () => {
    expect(clockShiftText({ kind: "gap", fromMinute: 120, toMinute: 150, atMs: 0 })).toBe("Clocks go forward at 02:00: 02:00–02:30 does not happen");
    expect(clockShiftText({ kind: "fold", fromMinute: 90, toMinute: 120, atMs: 0 })).toBe("Clocks go back at 02:00: 01:30–02:00 happens twice");
  });
});

describe("words", () => {
  it("formats local dates and weeks without any zone", () => {
    expect(formatLocalDay("2026-10-04")).toBe("Sunday 4 October");
    expect(formatLocalDay("2026-10-04", { short: true })).toBe("Sun 4 Oct");
    expect(weekRangeText("2026-10-05", "2026-10-11")).toBe("5–11 October 2026");
    expect(weekRangeText("2026-09-28", "2026-10-04")).toBe("28 September – 4 October 2026");
    expect(weekRangeText("2026-12-28", "2027-01-03")).toBe("28 December 2026 – 3 January 2027");
  });

  it("formats durations and wall-clock minutes", () => {
    expect(durationText(150)).toBe("2½ h");
    expect(durationText(180)).toBe("3 h");
    expect(durationText(45)).toBe("45 min");
    expect(durationText(135)).toBe("2 h 15 min");
    expect(formatMinuteOfDay(0)).toBe("00:00");
    expect(formatMinuteOfDay(1440)).toBe("24:00");
    expect(formatMinuteOfDay(165)).toBe("02:45");
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

  it("names a band: provider, template, day, local start–end, capacity, and the real length on a clock change", () => {
    const base = { providerName: "Dr Ada Brooks", templateName: "Weekend virtual urgent care", date: "2026-10-04", zone: "Australia/Lord_Howe", capacity: 2, isInactive: false, endsNextDay: false };
    const startMs = Date.parse("2026-10-03T14:30:00Z");
    const endMs = Date.parse("2026-10-03T17:00:00Z");
    expect(bandAccessibleName({ ...base, startMs, endMs, wallMinutes: 180 }, "01:00", "04:00")).toMatch(
      /^Dr Ada Brooks, Weekend virtual urgent care, Sunday 4 October, 01:00–04:00 (LHST|GMT\+10:30), capacity 2, 2½ h of real time \(clocks change\)$/,
    );
    expect(bandAccessibleName({ ...base, date: "2026-10-11", startMs: startMs + 7 * 86_400_000, endMs: startMs + 7 * 86_400_000 + 180 * 60_000, wallMinutes: 180, isInactive: true }, "01:00", "04:00")).toMatch(
      /, capacity 2, inactive, not bookable$/,
    );
  });

  it("says how fresh the answer is, in the user's time", () => {
    expect(freshnessText({ sourceSyncedAt: "2026-12-01T17:04:31.000Z", maxStalenessSeconds: 60 }, "America/New_York")).toBe("as of 12:04:31 (up to 60 s behind the EHR)");
  });

  it("writes the quiet note and legend keys", () => {
    expect(differsText(1)).toBe("The service's schedule differs from the templates for 1 band: showing the service's; the EHR may have changed a template since the last sync.");
    expect(differsText(3)).toMatch(/for 3 bands:/);
    expect([0, 1, 25, 26, 27].map(legendKey)).toEqual(["A", "B", "Z", "AA", "AB"]);
  });
});
