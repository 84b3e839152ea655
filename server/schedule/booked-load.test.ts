import { describe, expect, it } from "vitest";
import type { AvailabilityTemplate } from "#contract/clinic-api/schedule.ts";
import { expandTemplate } from "#contract/recurrence/expand-template.ts";
import { localToInstant } from "#contract/time/zoned-time.ts";
import { computeBookedLoad, type BookedLoadInput, type LoadAppointment } from "./booked-load.ts";

// docs/decisions/0020-availability-booked-load.md: places per band from the
// template's interval over the band's real duration, taken places from the
// appointments (cancelled and no-show give theirs back), a booking counted
// once however templates overlap, day totals in the facility's local dates.
// Bands come from the contract's own expansion, as the service's do.

const DR_OKAFOR = "prv_0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a";
const DR_OKAFOR_RAW = "0a0a0a0a-0a0a-0a0a-0a0a-0a0a0a0a0a0a";
const DR_LINDQVIST = "prv_0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b";
const UPPER_WEST_SIDE = "fac_1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c";
const UPPER_WEST_SIDE_RAW = "1c1c1c1c-1c1c-1c1c-1c1c-1c1c1c1c1c1c";
const CHELSEA = "fac_2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d";

let templateCount = 0;
let appointmentCount = 0;

function template(overrides: Partial<AvailabilityTemplate> & { rrule?: string }): AvailabilityTemplate {
  templateCount += 1;
  const { rrule = "RRULE:FREQ=DAILY", ...rest } = overrides;
  return {
    id: `avt_${String(templateCount).padStart(32, "0")}`,
    externalId: `ehr-${templateCount}`,
    providerId: DR_OKAFOR,
    facilityId: UPPER_WEST_SIDE,
    name: "Morning clinic",
    startTimeLocal: "09:00",
    endTimeLocal: "12:00",
    timezone: "America/New_York",
    slotIntervalMinutes: 15,
    concurrency: 1,
    recurrence: { rrule, until: null },
    allowedAppointmentTypeIds: null,
    active: true,
    ...rest,
  };
}

/** A booking at local times of `zone` (the time of `to` on the day after `date` when `nextDay`). */
function booking(date: string, from: string, to: string, options: { zone?: string; status?: string; providerId?: string; facilityId?: string; nextDay?: boolean; id?: string } = {}): LoadAppointment {
  appointmentCount += 1;
  const zone = options.zone ?? "America/New_York";
  const end = localToInstant(date, to, zone) + (options.nextDay ? 86_400_000 : 0);
  return {
    id: options.id ?? `00000000-0000-4000-8000-${String(appointmentCount).padStart(12, "0")}`,
    status: options.status ?? "confirmed",
    // v1 gives raw UUIDs; the schedule gives prefixed ids (seed 000 "Conventions").
    providerId: options.providerId ?? DR_OKAFOR_RAW,
    facilityId: options.facilityId ?? UPPER_WEST_SIDE_RAW,
    scheduledStartDate: new Date(localToInstant(date, from, zone)).toISOString(),
    scheduledEndDate: new Date(end).toISOString(),
  };
}

/** Well before every window here, unless a test says when it is: every position is ahead. */
const LONG_BEFORE = Date.parse("2026-01-01T00:00:00Z");

function load(templates: AvailabilityTemplate[], appointments: LoadAppointment[], window: { startDate: string; endDate: string }, now = LONG_BEFORE) {
  const input: BookedLoadInput = { templates, instances: templates.flatMap((each) => expandTemplate(each, window)), appointments, window, now };
  return computeBookedLoad(input);
}

const oneDay = (date: string) => ({ startDate: date, endDate: date });
const figures = (band: { positions: number; capacity: number; taken: number; remaining: number; bookings: number } | undefined) =>
  band && { positions: band.positions, capacity: band.capacity, taken: band.taken, remaining: band.remaining, bookings: band.bookings };

describe("what is still open", () => {
  const at = (date: string, time: string) => localToInstant(date, time, "America/New_York");

  it("is every free place for a band ahead, the free places at positions not yet started for one under way, none for one past", () => {
    const morning = template({ concurrency: 2 });
    const appointments = [booking("2026-11-18", "09:00", "09:30"), booking("2026-11-18", "11:00", "11:15")];
    const ahead = load([morning], appointments, oneDay("2026-11-18"), at("2026-11-18", "08:00"));
    expect(ahead.bands[0]).toMatchObject({ taken: 3, remaining: 21, open: 21 });
    // 10:05: positions from 10:15 on are ahead (7 of them, 14 places), one of them taken once.
    const underWay = load([morning], appointments, oneDay("2026-11-18"), at("2026-11-18", "10:05"));
    expect(underWay.bands[0]).toMatchObject({ taken: 3, remaining: 21, open: 13 });
    // A position starting at the very instant is still ahead.
    expect(load([morning], appointments, oneDay("2026-11-18"), at("2026-11-18", "11:45")).bands[0]).toMatchObject({ open: 2 });
    const past = load([morning], appointments, oneDay("2026-11-18"), at("2026-11-18", "12:00"));
    expect(past.bands[0]).toMatchObject({ taken: 3, remaining: 21, open: 0 });
    expect(past.days[0]).toMatchObject({ remaining: 21, open: 0 });
    expect(underWay.days[0]).toMatchObject({ open: 13 });
  });
});

describe("one band", () => {
  it("has concurrency × positions places; a 30-minute booking takes a place at each of the two 15-minute positions it covers", () => {
    const morning = template({ concurrency: 2 });
    const { bands } = load([morning], [booking("2026-11-18", "09:00", "09:30")], oneDay("2026-11-18"));
    expect(bands).toHaveLength(1);
    expect(bands[0]).toMatchObject({ templateId: morning.id, providerId: DR_OKAFOR, facilityId: UPPER_WEST_SIDE, startsAt: "2026-11-18T09:00:00-05:00", endsAt: "2026-11-18T12:00:00-05:00", date: "2026-11-18", concurrency: 2, slotIntervalMinutes: 15 });
    expect(figures(bands[0])).toEqual({ positions: 12, capacity: 24, taken: 2, remaining: 22, bookings: 1 });
  });

  it("counts a booking that starts mid-position at every position it overlaps, and only those", () => {
    const { bands } = load([template({})], [booking("2026-11-18", "09:10", "09:20")], oneDay("2026-11-18"));
    expect(figures(bands[0])).toMatchObject({ taken: 2 });
  });

  it("never counts more than the concurrency at a position: the EHR's overbooking shows as full, not beyond", () => {
    const appointments = [booking("2026-11-18", "09:00", "09:15"), booking("2026-11-18", "09:00", "09:15"), booking("2026-11-18", "09:00", "09:15")];
    const { bands } = load([template({ concurrency: 2 })], appointments, oneDay("2026-11-18"));
    expect(figures(bands[0])).toEqual({ positions: 12, capacity: 24, taken: 2, remaining: 22, bookings: 3 });
  });

  it("does not count cancelled and no-show appointments; counts every other status, unknown ones too", () => {
    const appointments = [
      booking("2026-11-18", "09:00", "09:15", { status: "cancelled" }),
      booking("2026-11-18", "09:15", "09:30", { status: "no_show" }),
      booking("2026-11-18", "09:30", "09:45", { status: "confirmed" }),
      booking("2026-11-18", "09:45", "10:00", { status: "arrived" }),
      booking("2026-11-18", "10:00", "10:15", { status: "completed" }),
      booking("2026-11-18", "10:15", "10:30", { status: "rescheduled_by_ehr" }),
    ];
    const { bands } = load([template({})], appointments, oneDay("2026-11-18"));
    expect(figures(bands[0])).toMatchObject({ taken: 4, remaining: 8, bookings: 4 });
  });

  it("counts an appointment listed twice (a list that moved between pages) once", () => {
    const twice = booking("2026-11-18", "09:00", "09:15", { id: "00000000-0000-4000-8000-0000000000aa" });
    const { bands } = load([template({ concurrency: 2 })], [twice, { ...twice }], oneDay("2026-11-18"));
    expect(figures(bands[0])).toMatchObject({ taken: 1, bookings: 1 });
  });

  it("leaves out other providers' and other facilities' bookings, matching ids in either form", () => {
    const appointments = [
      booking("2026-11-18", "09:00", "09:15", { providerId: DR_LINDQVIST }),
      booking("2026-11-18", "09:15", "09:30", { facilityId: CHELSEA }),
      booking("2026-11-18", "09:30", "09:45", { providerId: DR_OKAFOR, facilityId: UPPER_WEST_SIDE }),
    ];
    const { bands } = load([template({})], appointments, oneDay("2026-11-18"));
    expect(figures(bands[0])).toMatchObject({ taken: 1, bookings: 1 });
  });

  it("has no place in the remainder after its last whole position", () => {
    // 09:00-10:40 at 30 minutes: positions 09:00, 09:30, 10:00; 10:30-10:40 is no position.
    const { bands, days } = load([template({ endTimeLocal: "10:40", slotIntervalMinutes: 30 })], [booking("2026-11-18", "10:30", "10:40")], oneDay("2026-11-18"));
    expect(figures(bands[0])).toEqual({ positions: 3, capacity: 3, taken: 0, remaining: 3, bookings: 0 });
    expect(days[0]).toMatchObject({ outsideBands: 1 });
  });
});

describe("overlapping templates of one provider", () => {
  // Morning 09:00-12:00 and a walk-in hour 10:00-11:00 on top: 12 + 4 places, each band its own.
  const overlapping = () => {
    const morning = template({ name: "Morning clinic" });
    const walkIn = template({ name: "Walk-in hour", startTimeLocal: "10:00", endTimeLocal: "11:00" });
    return { morning, walkIn };
  };
  const byTemplate = (bands: ReturnType<typeof load>["bands"], id: string) => bands.find((band) => band.templateId === id);

  it("keeps each band's own places; a booking in the overlap is counted once, in the earlier band while it has room", () => {
    const { morning, walkIn } = overlapping();
    const { bands, days } = load([morning, walkIn], [booking("2026-11-18", "10:00", "10:30")], oneDay("2026-11-18"));
    expect(figures(byTemplate(bands, morning.id))).toEqual({ positions: 12, capacity: 12, taken: 2, remaining: 10, bookings: 1 });
    expect(figures(byTemplate(bands, walkIn.id))).toEqual({ positions: 4, capacity: 4, taken: 0, remaining: 4, bookings: 0 });
    expect(days).toEqual([{ providerId: DR_OKAFOR, date: "2026-11-18", capacity: 16, taken: 2, remaining: 14, open: 14, bookings: 1, outsideBands: 0 }]);
  });

  it("places the next booking at the same time in the band that still has room", () => {
    const { morning, walkIn } = overlapping();
    const appointments = [booking("2026-11-18", "10:00", "10:30"), booking("2026-11-18", "10:00", "10:30")];
    const { bands, days } = load([morning, walkIn], appointments, oneDay("2026-11-18"));
    expect(figures(byTemplate(bands, morning.id))).toMatchObject({ taken: 2, bookings: 1 });
    expect(figures(byTemplate(bands, walkIn.id))).toMatchObject({ taken: 2, bookings: 1 });
    expect(days[0]).toMatchObject({ capacity: 16, taken: 4, bookings: 2 });
  });

  it("places a booking that reaches out of the overlap in the band that covers more of it", () => {
    const { morning, walkIn } = overlapping();
    // 10:45-11:15: the walk-in hour covers 15 minutes of it, the morning all 30.
    const { bands } = load([walkIn, morning], [booking("2026-11-18", "10:45", "11:15")], oneDay("2026-11-18"));
    expect(figures(byTemplate(bands, morning.id))).toMatchObject({ taken: 2, bookings: 1 });
    expect(figures(byTemplate(bands, walkIn.id))).toMatchObject({ taken: 0, bookings: 0 });
  });

  it("splits a booking that runs from one band into the next: each counts its own part, the day counts the booking once", () => {
    const early = template({ startTimeLocal: "08:00", endTimeLocal: "10:00" });
    const late = template({ startTimeLocal: "10:00", endTimeLocal: "12:00" });
    const { bands, days } = load([early, late], [booking("2026-11-18", "09:45", "10:15")], oneDay("2026-11-18"));
    expect(figures(byTemplate(bands, early.id))).toMatchObject({ taken: 1, bookings: 1 });
    expect(figures(byTemplate(bands, late.id))).toMatchObject({ taken: 1, bookings: 1 });
    expect(days[0]).toMatchObject({ taken: 2, bookings: 1 });
  });

  it("counts an overbooking in the overlap once, in the band it fits best, never in both", () => {
    const { morning, walkIn } = overlapping();
    const appointments = [booking("2026-11-18", "10:00", "10:15"), booking("2026-11-18", "10:00", "10:15"), booking("2026-11-18", "10:00", "10:15")];
    const { bands, days } = load([morning, walkIn], appointments, oneDay("2026-11-18"));
    const placed = bands.reduce((sum, band) => sum + band.bookings, 0);
    expect(placed).toBe(3);
    expect(days[0]).toMatchObject({ taken: 2, bookings: 3 });
  });

  it("does not depend on the order of the templates or of the appointments", () => {
    const { morning, walkIn } = overlapping();
    const appointments = [booking("2026-11-18", "10:00", "10:30"), booking("2026-11-18", "10:15", "10:45"), booking("2026-11-18", "09:45", "10:15"), booking("2026-11-18", "10:30", "11:30")];
    const window = oneDay("2026-11-18");
    expect(load([walkIn, morning], [...appointments].reverse(), window)).toEqual(load([morning, walkIn], appointments, window));
  });
});

describe("real time", () => {
  it("a band crossing midnight belongs to the date it starts on and counts the booking after midnight", () => {
    const night = template({ name: "Night clinic", startTimeLocal: "22:00", endTimeLocal: "02:00", slotIntervalMinutes: 30 });
    const { bands, days } = load([night], [booking("2026-11-21", "01:00", "01:30")], { startDate: "2026-11-20", endDate: "2026-11-20" });
    expect(bands.map((band) => [band.date, band.startsAt, band.endsAt])).toEqual([["2026-11-20", "2026-11-20T22:00:00-05:00", "2026-11-21T02:00:00-05:00"]]);
    expect(figures(bands[0])).toEqual({ positions: 8, capacity: 8, taken: 1, remaining: 7, bookings: 1 });
    expect(days).toEqual([{ providerId: DR_OKAFOR, date: "2026-11-20", capacity: 8, taken: 1, remaining: 7, open: 7, bookings: 1, outsideBands: 0 }]);
  });

  it("America/New_York: 01:00-04:00 has 4 half-hour positions on 2026-03-08 (2 real hours) and 8 on 2026-11-01, the repeated 01:30 twice", () => {
    const nightShift = template({ startTimeLocal: "01:00", endTimeLocal: "04:00", slotIntervalMinutes: 30, rrule: "RRULE:FREQ=WEEKLY;BYDAY=SU" });
    const spring = load([nightShift], [], oneDay("2026-03-08"));
    expect(figures(spring.bands[0])).toEqual({ positions: 4, capacity: 4, taken: 0, remaining: 4, bookings: 0 });

    // 01:30 EDT (05:30Z) and 01:30 EST (06:30Z) are two positions an hour apart.
    const firstOneThirty = { id: "00000000-0000-4000-8000-0000000001a1", status: "confirmed", providerId: DR_OKAFOR_RAW, facilityId: UPPER_WEST_SIDE_RAW, scheduledStartDate: "2026-11-01T05:30:00.000Z", scheduledEndDate: "2026-11-01T06:00:00.000Z" };
    const secondOneThirty = { ...firstOneThirty, id: "00000000-0000-4000-8000-0000000001a2", scheduledStartDate: "2026-11-01T06:30:00.000Z", scheduledEndDate: "2026-11-01T07:00:00.000Z" };
    const fall = load([nightShift], [firstOneThirty, secondOneThirty], oneDay("2026-11-01"));
    expect(fall.bands[0]?.endsAt).toBe("2026-11-01T04:00:00-05:00");
    expect(figures(fall.bands[0])).toEqual({ positions: 8, capacity: 8, taken: 2, remaining: 6, bookings: 2 });
  });

  it("Australia/Lord_Howe: the half-hour shift on 2026-10-04 leaves 01:00-04:00 2.5 real hours, 5 half-hour or 2 hour positions", () => {
    const zone = "Australia/Lord_Howe";
    const halfHourly = template({ timezone: zone, startTimeLocal: "01:00", endTimeLocal: "04:00", slotIntervalMinutes: 30, concurrency: 2, rrule: "RRULE:FREQ=WEEKLY;BYDAY=SU" });
    const hourly = template({ timezone: zone, startTimeLocal: "01:00", endTimeLocal: "04:00", slotIntervalMinutes: 60, providerId: DR_LINDQVIST, rrule: "RRULE:FREQ=WEEKLY;BYDAY=SU" });
    const lindqvist = (from: string, to: string) => booking("2026-10-04", from, to, { zone, providerId: DR_LINDQVIST });
    // Hourly positions start at 01:00 (+10:30) and 02:30 (+11:00); 03:30-04:00 is the remainder.
    const { bands, days } = load([halfHourly, hourly], [booking("2026-10-04", "03:30", "04:00", { zone }), lindqvist("02:30", "03:00"), lindqvist("03:30", "04:00")], oneDay("2026-10-04"));
    expect(bands.map((band) => [band.providerId, band.startsAt, band.endsAt])).toEqual([
      [DR_OKAFOR, "2026-10-04T01:00:00+10:30", "2026-10-04T04:00:00+11:00"],
      [DR_LINDQVIST, "2026-10-04T01:00:00+10:30", "2026-10-04T04:00:00+11:00"],
    ]);
    expect(figures(bands[0])).toEqual({ positions: 5, capacity: 10, taken: 1, remaining: 9, bookings: 1 });
    expect(figures(bands[1])).toEqual({ positions: 2, capacity: 2, taken: 1, remaining: 1, bookings: 1 });
    expect(days.find((day) => day.providerId === DR_LINDQVIST)).toMatchObject({ date: "2026-10-04", capacity: 2, taken: 1, outsideBands: 1 });
  });

  it("Australia/Lord_Howe: on 2026-04-05 the repeated half hour makes 01:00-04:00 3.5 real hours, 7 half-hour positions", () => {
    const halfHourly = template({ timezone: "Australia/Lord_Howe", startTimeLocal: "01:00", endTimeLocal: "04:00", slotIntervalMinutes: 30, rrule: "RRULE:FREQ=WEEKLY;BYDAY=SU" });
    const { bands } = load([halfHourly], [], oneDay("2026-04-05"));
    expect(figures(bands[0])).toEqual({ positions: 7, capacity: 7, taken: 0, remaining: 7, bookings: 0 });
  });
});

describe("the week and its days", () => {
  it("an empty week answers no bands and no days, whatever was booked", () => {
    expect(load([], [booking("2026-11-18", "09:00", "09:30")], { startDate: "2026-11-16", endDate: "2026-11-22" })).toEqual({ bands: [], days: [] });
  });

  it("totals each provider's bands per local date of the facility, not per UTC date", () => {
    const zone = "Australia/Sydney";
    // 08:00-10:00 in Sydney (+11:00) is 21:00-23:00 UTC of the day before.
    const okafor = template({ timezone: zone, startTimeLocal: "08:00", endTimeLocal: "10:00", slotIntervalMinutes: 30, rrule: "RRULE:FREQ=WEEKLY;BYDAY=MO,WE" });
    const lindqvist = template({ timezone: zone, providerId: DR_LINDQVIST, startTimeLocal: "08:00", endTimeLocal: "09:00", slotIntervalMinutes: 15, concurrency: 2, rrule: "RRULE:FREQ=WEEKLY;BYDAY=WE" });
    const appointments = [
      booking("2026-11-18", "08:00", "09:00", { zone }),
      booking("2026-11-18", "07:00", "07:30", { zone }),
      booking("2026-11-20", "12:00", "12:30", { zone }),
      booking("2026-11-18", "08:30", "08:45", { zone, providerId: DR_LINDQVIST }),
      // Outside the window: not counted on any day.
      booking("2026-11-23", "07:00", "07:30", { zone }),
    ];
    const { bands, days } = load([okafor, lindqvist], appointments, { startDate: "2026-11-16", endDate: "2026-11-22" });
    expect(bands.map((band) => [band.providerId, band.date])).toEqual([
      [DR_OKAFOR, "2026-11-16"],
      [DR_OKAFOR, "2026-11-18"],
      [DR_LINDQVIST, "2026-11-18"],
    ]);
    expect(days).toEqual([
      { providerId: DR_OKAFOR, date: "2026-11-16", capacity: 4, taken: 0, remaining: 4, open: 4, bookings: 0, outsideBands: 0 },
      { providerId: DR_OKAFOR, date: "2026-11-18", capacity: 4, taken: 2, remaining: 2, open: 2, bookings: 1, outsideBands: 1 },
      { providerId: DR_OKAFOR, date: "2026-11-20", capacity: 0, taken: 0, remaining: 0, open: 0, bookings: 0, outsideBands: 1 },
      { providerId: DR_LINDQVIST, date: "2026-11-18", capacity: 8, taken: 1, remaining: 7, open: 7, bookings: 1, outsideBands: 0 },
    ]);
  });

  it("skips an instance whose template the read did not list: there is no interval to count by", () => {
    const morning = template({});
    const instances = expandTemplate(morning, oneDay("2026-11-18"));
    expect(computeBookedLoad({ templates: [], instances, appointments: [], window: oneDay("2026-11-18"), now: LONG_BEFORE })).toEqual({ bands: [], days: [] });
  });
});
