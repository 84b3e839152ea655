import type { BandLoad, ProviderDayLoad } from "#contract/app-api/availability-load.ts";
import type { Appointment } from "#contract/clinic-api/appointment.ts";
import type { AvailabilityInstance, AvailabilityTemplate } from "#contract/clinic-api/schedule.ts";
import { idKey } from "#contract/ids.ts";
import { localDateOf } from "#contract/time/zoned-time.ts";

// The booked load of availability bands (docs/decisions/0020-availability-booked-load.md).
// Pure: no I/O, no clock. A band is one availability instance; its slot
// positions are whole `slotIntervalMinutes` from its start within its real
// duration (instances carry real instants, so DST days are measured as they
// happen); its places are `concurrency` per position. A booking (an
// appointment neither cancelled nor no-show, seed 000 "States and
// transitions") takes a place at every position of its band that it
// overlaps: the slots endpoint's own rule ("booked appointments … already
// subtracted") read at a slot length of one interval.
//
// Overlapping templates are separate rows that add capacity (seed 001
// "Schedule"), so a booking inside two bands must be counted in one of them,
// never both. Each booking is placed, in start order, into the bands of its
// provider at the facility that it overlaps, best first: a band where it
// still fits (every position it touches has a free place), then the band
// covering more of it, then the earlier band, then the lower template id. The
// first band takes the part of the booking it covers; a part it does not
// cover (a booking running on into an adjacent band) goes to the next band
// that covers it. A booking that touches no position of any band is counted
// on its day as outside the bands.

/** Statuses that give the place back (seed 001 events rule 3: `appointment.cancelled` covers both). */
const RELEASING_STATUSES: ReadonlySet<string> = new Set(["cancelled", "no_show"]);
const MINUTE_MS = 60_000;

export type LoadAppointment = Pick<Appointment, "id" | "status" | "providerId" | "facilityId" | "scheduledStartDate" | "scheduledEndDate">;

export interface BookedLoadInput {
  /** The templates of the availability read: each band's slot interval and zone. */
  templates: readonly Pick<AvailabilityTemplate, "id" | "slotIntervalMinutes" | "timezone">[];
  /** The bands, as the service's availability read gives them. */
  instances: readonly AvailabilityInstance[];
  /** The facility's appointments around the window, any status and provider; repeats (a list read page by page) are counted once. */
  appointments: readonly LoadAppointment[];
  /** The local dates asked for, inclusive: a booking outside every band is counted only on these. */
  window: { startDate: string; endDate: string };
  /** The instant the load is computed at: a position starting before it is past, and its free places are not `open`. */
  now: number;
}

export interface BookedLoad {
  bands: BandLoad[];
  days: ProviderDayLoad[];
}

interface Band {
  row: BandLoad;
  zone: string;
  startMs: number;
  /** Where the last whole position ends: a booking only in the remainder after it takes no place. */
  positionsEndMs: number;
  intervalMs: number;
  /** Bookings on each position (may exceed the concurrency when the EHR overbooked). */
  onPosition: number[];
  bookingIds: Set<string>;
}

interface Booking {
  id: string;
  startMs: number;
  endMs: number;
}

type Span = readonly [number, number];

/** Either form of an id names the same thing (seed 000 "Conventions"): v1 appointments give raw UUIDs, instances `prv_`/`fac_` ids. */
const groupKey = (providerId: string, facilityId: string) => `${idKey(providerId)}|${idKey(facilityId)}`;

function bandOf(instance: AvailabilityInstance, template: BookedLoadInput["templates"][number]): Band {
  const startMs = Date.parse(instance.startsAt);
  const endMs = Date.parse(instance.endsAt);
  const intervalMs = template.slotIntervalMinutes * MINUTE_MS;
  const positions = Math.max(0, Math.floor((endMs - startMs) / intervalMs));
  const concurrency = Math.max(0, instance.concurrency);
  return {
    row: {
      templateId: instance.templateId,
      providerId: instance.providerId,
      facilityId: instance.facilityId,
      startsAt: instance.startsAt,
      endsAt: instance.endsAt,
      date: localDateOf(startMs, template.timezone),
      concurrency,
      slotIntervalMinutes: template.slotIntervalMinutes,
      positions,
      capacity: concurrency * positions,
      taken: 0,
      remaining: 0,
      open: 0,
      bookings: 0,
    },
    zone: template.timezone,
    startMs,
    positionsEndMs: startMs + positions * intervalMs,
    intervalMs,
    onPosition: Array.from({ length: positions }, () => 0),
    bookingIds: new Set(),
  };
}

/** The positions of `band` that the span `[startMs, endMs)` overlaps, as an index range (empty when `first > last`). */
function positionRange(band: Band, [startMs, endMs]: Span): { first: number; last: number } {
  const first = Math.max(0, Math.floor((startMs - band.startMs) / band.intervalMs));
  const last = Math.min(band.row.positions - 1, Math.ceil((endMs - band.startMs) / band.intervalMs) - 1);
  return { first, last };
}

function intersect([a0, a1]: Span, [b0, b1]: Span): Span | null {
  const start = Math.max(a0, b0);
  const end = Math.min(a1, b1);
  return start < end ? [start, end] : null;
}

/** `spans` without `[cutStart, cutEnd)`. */
function subtract(spans: readonly Span[], [cutStart, cutEnd]: Span): Span[] {
  return spans.flatMap(([start, end]): Span[] => {
    if (cutEnd <= start || end <= cutStart) return [[start, end]];
    const left: Span[] = start < cutStart ? [[start, cutStart]] : [];
    const right: Span[] = cutEnd < end ? [[cutEnd, end]] : [];
    return [...left, ...right];
  });
}

function fits(band: Band, span: Span): boolean {
  const { first, last } = positionRange(band, span);
  for (let index = first; index <= last; index += 1) if ((band.onPosition[index] ?? 0) >= band.row.concurrency) return false;
  return true;
}

/** Places one booking into its group's bands (see the module comment); answers whether it took any position. */
function placeBooking(booking: Booking, bands: readonly Band[]): boolean {
  const whole: Span = [booking.startMs, booking.endMs];
  const candidates = bands
    .map((band) => ({ band, covered: intersect(whole, [band.startMs, band.positionsEndMs]) }))
    .filter((candidate): candidate is { band: Band; covered: Span } => candidate.covered !== null)
    .map((candidate) => ({ ...candidate, fits: fits(candidate.band, candidate.covered), coveredMs: candidate.covered[1] - candidate.covered[0] }))
    .sort(
      (a, b) =>
        Number(b.fits) - Number(a.fits) ||
        b.coveredMs - a.coveredMs ||
        a.band.startMs - b.band.startMs ||
        a.band.row.templateId.localeCompare(b.band.row.templateId),
    );
  let unplaced: Span[] = [whole];
  let placed = false;
  for (const { band } of candidates) {
    const bandSpan: Span = [band.startMs, band.positionsEndMs];
    const parts = unplaced.map((span) => intersect(span, bandSpan)).filter((part): part is Span => part !== null);
    if (parts.length === 0) continue;
    // One place per position, however many parts of this booking touch it.
    const touched = new Set<number>();
    for (const part of parts) {
      const { first, last } = positionRange(band, part);
      for (let index = first; index <= last; index += 1) touched.add(index);
    }
    for (const index of touched) band.onPosition[index] = (band.onPosition[index] ?? 0) + 1;
    band.bookingIds.add(booking.id);
    placed = true;
    unplaced = subtract(unplaced, bandSpan);
    if (unplaced.length === 0) break;
  }
  return placed;
}

/** Free places at the band's positions starting at or after `now`. */
function openPlaces(band: Band, now: number): number {
  const firstAhead = Math.max(0, Math.ceil((now - band.startMs) / band.intervalMs));
  let open = 0;
  for (let index = firstAhead; index < band.row.positions; index += 1) open += Math.max(0, band.row.concurrency - (band.onPosition[index] ?? 0));
  return open;
}

export function computeBookedLoad(input: BookedLoadInput): BookedLoad {
  const templates = new Map(input.templates.map((template) => [template.id, template]));
  const groups = new Map<string, Band[]>();
  for (const instance of input.instances) {
    const template = templates.get(instance.templateId);
    // The service lists an instance's template beside it; without one there is no slot interval to count by.
    if (!template) continue;
    const key = groupKey(instance.providerId, instance.facilityId);
    const band = bandOf(instance, template);
    const group = groups.get(key);
    if (group) group.push(band);
    else groups.set(key, [band]);
  }

  // One booking per id: a list read page by page while it changes can repeat an item.
  const byId = new Map<string, LoadAppointment>();
  for (const appointment of input.appointments) if (!byId.has(idKey(appointment.id))) byId.set(idKey(appointment.id), appointment);
  const bookings = [...byId.entries()]
    .filter(([, appointment]) => !RELEASING_STATUSES.has(appointment.status))
    .map(([id, appointment]) => ({ key: groupKey(appointment.providerId, appointment.facilityId), id, startMs: Date.parse(appointment.scheduledStartDate), endMs: Date.parse(appointment.scheduledEndDate) }))
    .filter((booking) => booking.startMs < booking.endMs)
    .sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs || a.id.localeCompare(b.id));

  /** Per group, per local date: bookings outside every band. */
  const outside = new Map<string, Map<string, number>>();
  for (const booking of bookings) {
    const bands = groups.get(booking.key);
    if (!bands) continue;
    if (placeBooking(booking, bands)) continue;
    const zone = bands[0]?.zone ?? "UTC";
    const date = localDateOf(booking.startMs, zone);
    if (date < input.window.startDate || date > input.window.endDate) continue;
    const perDate = outside.get(booking.key) ?? new Map<string, number>();
    perDate.set(date, (perDate.get(date) ?? 0) + 1);
    outside.set(booking.key, perDate);
  }

  const bandRows: BandLoad[] = [];
  const days: ProviderDayLoad[] = [];
  for (const [key, bands] of groups) {
    const perDate = new Map<string, ProviderDayLoad & { ids: Set<string> }>();
    const dayOf = (providerId: string, date: string) => {
      const existing = perDate.get(date);
      if (existing) return existing;
      const created = { providerId, date, capacity: 0, taken: 0, remaining: 0, open: 0, bookings: 0, outsideBands: 0, ids: new Set<string>() };
      perDate.set(date, created);
      return created;
    };
    for (const band of bands) {
      const { row } = band;
      row.taken = band.onPosition.reduce((sum, count) => sum + Math.min(count, row.concurrency), 0);
      row.remaining = row.capacity - row.taken;
      row.open = openPlaces(band, input.now);
      row.bookings = band.bookingIds.size;
      bandRows.push(row);
      const day = dayOf(row.providerId, row.date);
      day.capacity += row.capacity;
      day.taken += row.taken;
      day.open += row.open;
      for (const id of band.bookingIds) day.ids.add(id);
    }
    const providerId = bands[0]?.row.providerId ?? "";
    for (const [date, count] of outside.get(key) ?? []) dayOf(providerId, date).outsideBands = count;
    for (const { ids, ...day } of perDate.values()) days.push({ ...day, remaining: day.capacity - day.taken, bookings: ids.size });
  }

  bandRows.sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt) || a.providerId.localeCompare(b.providerId) || a.templateId.localeCompare(b.templateId));
  days.sort((a, b) => a.providerId.localeCompare(b.providerId) || a.date.localeCompare(b.date));
  return { bands: bandRows, days };
}
