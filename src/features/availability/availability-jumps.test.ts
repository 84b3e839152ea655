import { describe, expect, it } from "vitest";
import { cachedIdKey } from "#contract/ids.ts";
import { nextBandByProvider, nextWeekWithBands, openingWeek } from "./availability-jumps.ts";
import type { AvailabilityTemplate } from "./expand-template.ts";
import { availabilityTemplate } from "./testing/template-fixture.ts";

const ZONE = "Australia/Sydney";
const ANN = "prv_000000000000000000000000000000a1";
const BEN = "prv_000000000000000000000000000000b2";

const template = (id: string, overrides: Partial<AvailabilityTemplate>): AvailabilityTemplate =>
  availabilityTemplate(id, {
    providerId: ANN,
    name: "Clinic",
    startTimeLocal: "09:00",
    endTimeLocal: "12:00",
    timezone: ZONE,
    slotIntervalMinutes: 15,
    recurrence: { rrule: `DTSTART;TZID=${ZONE}:20260105T090000\nRRULE:FREQ=WEEKLY;BYDAY=MO`, until: null },
    ...overrides,
  });

describe("jumps", () => {
  it("finds the next week with a band, skipping empty weeks, and none past the last one", () => {
    // Every fourth Thursday from 2026-12-03.
    const monthly = template("1", { recurrence: { rrule: `DTSTART;TZID=${ZONE}:20261203T090000\nRRULE:FREQ=WEEKLY;INTERVAL=4;BYDAY=TH;COUNT=2`, until: null } });
    expect(nextWeekWithBands([monthly], "2026-11-23", ZONE)).toBe("2026-11-30");
    expect(nextWeekWithBands([monthly], "2026-11-30", ZONE)).toBe("2026-12-28");
    expect(nextWeekWithBands([monthly], "2026-12-28", ZONE)).toBeNull();
    expect(nextWeekWithBands([{ ...monthly, active: false }], "2026-11-23", ZONE)).toBeNull();
  });

  it("gives each provider's first band not yet over, a band in progress included", () => {
    const templates = [template("1", {}), template("2", { providerId: BEN, startTimeLocal: "14:00", endTimeLocal: "17:00", recurrence: { rrule: `DTSTART;TZID=${ZONE}:20260106T140000\nRRULE:FREQ=WEEKLY;BYDAY=TU`, until: null } })];
    // Monday 30 November 2026, 10:00 in Sydney (AEDT, +11): Ann's Monday clinic is under way.
    const nowMs = Date.parse("2026-11-30T10:00:00+11:00");
    const next = nextBandByProvider(templates, "2026-11-30", nowMs);
    expect(next.get(cachedIdKey(ANN))?.startsAt).toMatch(/^2026-11-30T09:00:00/);
    expect(next.get(cachedIdKey(BEN))?.startsAt).toMatch(/^2026-12-01T14:00:00/);
    // After it ends, Ann's next is a week on.
    expect(nextBandByProvider(templates, "2026-11-30", Date.parse("2026-11-30T12:00:00+11:00")).get(cachedIdKey(ANN))?.startsAt).toMatch(/^2026-12-07T09:00:00/);
  });

  it("opens on this week while bookable time is left in it, else on the week of the next band (issue 36 item 11)", () => {
    const weekdays = template("1", { recurrence: { rrule: `DTSTART;TZID=${ZONE}:20260105T090000\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR`, until: null } });
    const opening = (localNow: string) => {
      const nowMs = Date.parse(localNow);
      const today = localNow.slice(0, 10);
      return openingWeek(nextBandByProvider([weekdays], today, nowMs).values(), "2026-11-30", ZONE);
    };
    // Friday 4 December 2026 in Sydney: during the last band of the week, and after it.
    expect(opening("2026-12-04T11:59:00+11:00")).toBe("2026-11-30");
    expect(opening("2026-12-04T12:00:00+11:00")).toBe("2026-12-07");
    // Saturday and Sunday: the coming week.
    expect(opening("2026-12-05T08:00:00+11:00")).toBe("2026-12-07");
    expect(opening("2026-12-06T23:00:00+11:00")).toBe("2026-12-07");
    // No band within a year: this week.
    expect(openingWeek([], "2026-11-30", ZONE)).toBe("2026-11-30");
  });
});
