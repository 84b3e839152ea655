import { describe, expect, it } from "vitest";
import { localToInstant } from "#contract/time/zoned-time.ts";
import { expandTemplate, type AvailabilityTemplate } from "./expand-template.ts";
import { layoutWeek, overlapSpans, visibleHours, type BandInput } from "./band-layout.ts";
import { weekWindow } from "./week-window.ts";

const NEW_YORK = "America/New_York";
const LORD_HOWE = "Australia/Lord_Howe";

function band(key: string, date: string, start: string, end: string, zone: string, options: Partial<BandInput> & { endDate?: string } = {}): BandInput {
  return { key, startMs: localToInstant(date, start, zone), endMs: localToInstant(options.endDate ?? date, end, zone), capacity: options.capacity ?? 1, isInactive: options.isInactive ?? false };
}

function template(overrides: Partial<AvailabilityTemplate>): AvailabilityTemplate {
  return {
    id: "avt_00000000000000000000000000000001",
    externalId: "SCH-0000001",
    providerId: "prv_00000000000000000000000000000001",
    facilityId: "fac_00000000000000000000000000000001",
    name: "Weekend virtual urgent care",
    startTimeLocal: "01:00",
    endTimeLocal: "04:00",
    timezone: LORD_HOWE,
    slotIntervalMinutes: 15,
    concurrency: 2,
    recurrence: { rrule: `DTSTART;TZID=${LORD_HOWE}:20250105T010000\nRRULE:FREQ=WEEKLY;BYDAY=SU`, until: null },
    allowedAppointmentTypeIds: null,
    active: true,
    ...overrides,
  };
}

describe("band layout", () => {
  const week = weekWindow("2026-12-01", NEW_YORK); // Monday 30 November to Sunday 6 December

  it("puts overlapping bands side by side and sums their capacity where they overlap", () => {
    const days = layoutWeek(
      [band("morning", "2026-12-01", "08:00", "12:00", NEW_YORK, { capacity: 1 }), band("procedures", "2026-12-01", "10:00", "12:00", NEW_YORK, { capacity: 2 }), band("afternoon", "2026-12-01", "13:00", "17:00", NEW_YORK)],
      week,
    );
    const tuesday = days[1];
    expect(tuesday?.date).toBe("2026-12-01");
    expect(tuesday?.segments).toEqual([
      { key: "morning", startMinute: 480, endMinute: 720, isContinuation: false, continuesAfter: false, lane: 0, laneCount: 2 },
      { key: "procedures", startMinute: 600, endMinute: 720, isContinuation: false, continuesAfter: false, lane: 1, laneCount: 2 },
      { key: "afternoon", startMinute: 780, endMinute: 1020, isContinuation: false, continuesAfter: false, lane: 0, laneCount: 1 },
    ]);
    expect(tuesday?.overlaps).toEqual([
      {
        startMs: Date.parse("2026-12-01T15:00:00Z"),
        endMs: Date.parse("2026-12-01T17:00:00Z"),
        startMinute: 600,
        endMinute: 720,
        total: 3,
        parts: [
          { key: "morning", capacity: 1 },
          { key: "procedures", capacity: 2 },
        ],
      },
    ]);
    expect(tuesday?.laneCount).toBe(2);
    expect(days[0]?.segments).toEqual([]);
  });

  it("keeps a cluster's lanes for bands that overlap only through another", () => {
    const days = layoutWeek([band("a", "2026-12-02", "08:00", "10:00", NEW_YORK), band("b", "2026-12-02", "09:00", "11:00", NEW_YORK), band("c", "2026-12-02", "10:00", "12:00", NEW_YORK)], week);
    expect(days[2]?.segments.map((segment) => [segment.key, segment.lane, segment.laneCount])).toEqual([
      ["a", 0, 2],
      ["b", 1, 2],
      ["c", 0, 2],
    ]);
    // Three stretches: a+b, then b+c; never all three at once.
    expect(days[2]?.overlaps.map((span) => [span.startMinute, span.endMinute, span.total, span.parts.map((part) => part.key)])).toEqual([
      [540, 600, 2, ["a", "b"]],
      [600, 660, 2, ["b", "c"]],
    ]);
  });

  it("gives an inactive band a lane but no capacity", () => {
    const spans = overlapSpans([band("active", "2026-12-01", "08:00", "12:00", NEW_YORK), band("retired", "2026-12-01", "08:00", "16:00", NEW_YORK, { isInactive: true })], 0, Number.MAX_SAFE_INTEGER);
    expect(spans).toEqual([]);
    const days = layoutWeek([band("active", "2026-12-01", "08:00", "12:00", NEW_YORK), band("retired", "2026-12-01", "08:00", "16:00", NEW_YORK, { isInactive: true })], week);
    expect(days[1]?.segments.map((segment) => segment.laneCount)).toEqual([2, 2]);
  });

  it("draws a band past midnight on its day and continues it on the next", () => {
    const days = layoutWeek([band("evening", "2026-12-01", "22:00", "02:00", NEW_YORK, { endDate: "2026-12-02" })], week);
    expect(days[1]?.segments).toEqual([{ key: "evening", startMinute: 1320, endMinute: 1440, isContinuation: false, continuesAfter: true, lane: 0, laneCount: 1 }]);
    expect(days[2]?.segments).toEqual([{ key: "evening", startMinute: 0, endMinute: 120, isContinuation: true, continuesAfter: false, lane: 0, laneCount: 1 }]);
  });

  it("lays out a Lord Howe week around the 2026-10-04 clock change at the right local times", () => {
    // Sunday 4 October 2026: Lord Howe's clocks go from 02:00 to 02:30 (a 23½-hour day).
    const lordHoweWeek = weekWindow("2026-10-04", LORD_HOWE);
    const window = { startDate: lordHoweWeek.startDate, endDate: lordHoweWeek.endDate };
    const urgentCare = template({});
    const overnight = template({ id: "avt_00000000000000000000000000000002", name: "Overnight line", startTimeLocal: "00:00", endTimeLocal: "06:00", concurrency: 1 });
    const inTheGap = template({ id: "avt_00000000000000000000000000000003", name: "Gap check", startTimeLocal: "02:15", endTimeLocal: "03:00", concurrency: 1 });
    const instances = [urgentCare, overnight, inTheGap].flatMap((candidate) => expandTemplate(candidate, window)).sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt));
    expect(instances.map((instance) => [instance.startsAt, instance.endsAt])).toEqual([
      ["2026-10-04T00:00:00+10:30", "2026-10-04T06:00:00+11:00"],
      ["2026-10-04T01:00:00+10:30", "2026-10-04T04:00:00+11:00"],
      ["2026-10-04T02:45:00+11:00", "2026-10-04T03:00:00+11:00"],
    ]);
    const inputs = instances.map((instance) => ({ key: instance.templateId.slice(-1), startMs: Date.parse(instance.startsAt), endMs: Date.parse(instance.endsAt), capacity: instance.concurrency, isInactive: false }));
    const days = layoutWeek(inputs, lordHoweWeek);
    const sunday = days[6];
    expect(sunday?.date).toBe("2026-10-04");
    // Wall-clock positions: 01:00-04:00 spans 01:00-04:00 (though only 2½ hours long); 02:15 in the gap is shown at 02:45.
    expect(sunday?.segments.map((segment) => [segment.key, segment.startMinute, segment.endMinute, segment.lane, segment.laneCount])).toEqual([
      ["2", 0, 360, 0, 3],
      ["1", 60, 240, 1, 3],
      ["3", 165, 180, 2, 3],
    ]);
    const urgent = inputs.find((input) => input.key === "1");
    expect(urgent ? (urgent.endMs - urgent.startMs) / 60_000 : 0).toBe(150);
    expect(sunday?.overlaps.map((span) => [span.startMinute, span.endMinute, span.total, span.parts.map((part) => part.key)])).toEqual([
      [60, 165, 3, ["2", "1"]],
      [165, 180, 4, ["2", "1", "3"]],
      [180, 240, 3, ["2", "1"]],
    ]);
    expect(days.slice(0, 6).every((day) => day.segments.length === 0)).toBe(true);
    expect(visibleHours(days)).toEqual({ fromHour: 0, toHour: 18 });
  });
});
