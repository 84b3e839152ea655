import { describe, expect, it } from "vitest";
import type { AvailabilityTemplate } from "#contract/clinic-api/schedule.ts";
import { expandTemplate } from "./expand-template.ts";

// The contract's DST cases through the fixed module path (expand-template.ts); run
// under four host zones by scripts/test-unit.sh.

function template(zone: string, start: string, end: string, rrule: string): AvailabilityTemplate {
  return {
    id: "avt_0123456789abcdef0123456789abcdef",
    externalId: "T-1",
    providerId: "prv_0123456789abcdef0123456789abcdef",
    facilityId: "fac_0123456789abcdef0123456789abcdef",
    name: "Test",
    startTimeLocal: start,
    endTimeLocal: end,
    timezone: zone,
    slotIntervalMinutes: 15,
    concurrency: 1,
    recurrence: { rrule, until: null },
    allowedAppointmentTypeIds: null,
    active: true,
  };
}

const hours = (instance: { startsAt: string; endsAt: string }) => (Date.parse(instance.endsAt) - Date.parse(instance.startsAt)) / 3_600_000;

describe("expandTemplate (src/features/availability)", () => {
  it("New York 01:00-04:00 lasts 2 real hours on 2026-03-08 and 4 on 2026-11-01", () => {
    const sunday = template("America/New_York", "01:00", "04:00", "DTSTART;TZID=America/New_York:20260104T010000\nRRULE:FREQ=WEEKLY;BYDAY=SU");
    const [spring] = expandTemplate(sunday, { startDate: "2026-03-08", endDate: "2026-03-08" });
    const [fall] = expandTemplate(sunday, { startDate: "2026-11-01", endDate: "2026-11-01" });
    expect(spring).toMatchObject({ startsAt: "2026-03-08T01:00:00-05:00", endsAt: "2026-03-08T04:00:00-04:00" });
    expect(spring && hours(spring)).toBe(2);
    expect(fall).toMatchObject({ startsAt: "2026-11-01T01:00:00-04:00", endsAt: "2026-11-01T04:00:00-05:00" });
    expect(fall && hours(fall)).toBe(4);
  });

  it("Lord Howe: a start at 02:15 inside the 30-minute gap of 2026-10-04 reads with the offset before it", () => {
    const daily = template("Australia/Lord_Howe", "02:15", "05:00", "DTSTART;TZID=Australia/Lord_Howe:20260901T021500\nRRULE:FREQ=DAILY");
    const [gapDay] = expandTemplate(daily, { startDate: "2026-10-04", endDate: "2026-10-04" });
    expect(gapDay?.startsAt).toBe("2026-10-04T02:45:00+11:00");
    expect(gapDay?.endsAt).toBe("2026-10-04T05:00:00+11:00");
  });

  it("is empty for an inactive template", () => {
    expect(expandTemplate({ ...template("UTC", "09:00", "10:00", "RRULE:FREQ=DAILY"), active: false }, { startDate: "2026-01-01", endDate: "2026-01-07" })).toEqual([]);
  });
});
