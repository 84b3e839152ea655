import * as z from "zod/mini";
import { anyId, availabilityTemplateId, facilityId, localDate, offsetDateTime, providerId, utcTimestamp } from "../clinic-api/primitives.ts";
import { availabilityMeta } from "../clinic-api/schedule.ts";
import { availabilityQuery } from "./availability.ts";

// GET /api/availability/load (docs/decisions/0020-availability-booked-load.md):
// for each availability instance ("band") of a facility's window, its
// bookable places, how many are taken and how many remain; per provider and
// local date, the day's totals; and how fresh the answer is. Same window
// rules as GET /api/availability (at most MAX_AVAILABILITY_WINDOW_DAYS local
// dates, inclusive), but the facility is required: the appointments are
// read per facility. Taken places come from the service's appointments list
// (seed 001 `GET /v1/appointments`), not from slots (ADR 0020).

export const availabilityLoadQuery = z.extend(availabilityQuery, { facilityId: anyId });
export type AvailabilityLoadQuery = z.infer<typeof availabilityLoadQuery>;

/**
 * The appointments of a window are read 100 a page; a window whose list runs
 * past this many pages is refused with {@link LOAD_WINDOW_TOO_BUSY_CODE}
 * (a week and a day either side of the busiest facility in the large sandbox world, `EMULATOR_SCALE=large`, needs 14).
 */
export const MAX_LOAD_APPOINTMENT_PAGES = 20;

/** 400 code: the window holds more appointments than one answer counts; a shorter window will do. */
export const LOAD_WINDOW_TOO_BUSY_CODE = "window_too_busy";

/**
 * One band: an availability instance as the service gives it (`templateId`,
 * `providerId`, `facilityId`, `startsAt`, `endsAt`, `concurrency` verbatim,
 * so the SPA matches its own bands by `templateId` and the instant of
 * `startsAt`), with its load.
 */
export const bandLoad = z.object({
  templateId: availabilityTemplateId,
  providerId: providerId,
  facilityId: facilityId,
  startsAt: offsetDateTime,
  endsAt: offsetDateTime,
  /** The local date the band starts on, in its template's zone (DESIGN.md: instances belong to the local date they start on). */
  date: localDate,
  concurrency: z.int().check(z.nonnegative()),
  slotIntervalMinutes: z.int().check(z.positive()),
  /** Slot positions: whole `slotIntervalMinutes` in the band's real duration (across a DST change too). */
  positions: z.int().check(z.nonnegative()),
  /** Bookable places: `concurrency × positions`. */
  capacity: z.int().check(z.nonnegative()),
  /** Places taken: at each position, the bookings attributed to this band that overlap it, at most `concurrency`, summed. */
  taken: z.int().check(z.nonnegative()),
  /** `capacity − taken`. Past positions count too: the fill of a past band says how full it was. */
  remaining: z.int().check(z.nonnegative()),
  /**
   * Free places at positions that had not started when the answer was
   * computed (`meta.computedAt`): what can still be booked. `remaining` for a
   * band wholly ahead, 0 for one wholly past.
   */
  open: z.int().check(z.nonnegative()),
  /** Bookings attributed to this band, wholly or in part (a booking spanning two bands is counted in each, for its own part). */
  bookings: z.int().check(z.nonnegative()),
});
export type BandLoad = z.infer<typeof bandLoad>;

/**
 * One provider's local date at the facility: the sums over the bands that
 * start on it. Listed for each provider with a band in the window, on each
 * date where that provider has a band or a booking outside every band.
 */
export const providerDayLoad = z.object({
  providerId: providerId,
  date: localDate,
  capacity: z.int().check(z.nonnegative()),
  taken: z.int().check(z.nonnegative()),
  remaining: z.int().check(z.nonnegative()),
  /** The sum of the bands' `open`. */
  open: z.int().check(z.nonnegative()),
  /** Distinct bookings attributed to that day's bands. */
  bookings: z.int().check(z.nonnegative()),
  /** Bookings starting that day that fall on no slot position of any band (booked outside availability): in no band's `taken`. */
  outsideBands: z.int().check(z.nonnegative()),
});
export type ProviderDayLoad = z.infer<typeof providerDayLoad>;

/**
 * How fresh: the availability read's meta as the service gave it (the
 * appointments come from the same mirror, read no earlier and kept no
 * longer than that read's `sourceSyncedAt + maxStalenessSeconds`), when the
 * BFF computed the answer, and what taken places were counted from.
 */
export const availabilityLoadMeta = z.extend(availabilityMeta, {
  computedAt: utcTimestamp,
  /** Booked appointments (not cancelled, not no-show); slot holds are not counted (ADR 0020). */
  takenFrom: z.literal("appointments"),
});
export type AvailabilityLoadMeta = z.infer<typeof availabilityLoadMeta>;

export const availabilityLoadResponse = z.object({
  /** Earliest first. */
  bands: z.array(bandLoad),
  /** By provider, then date. */
  days: z.array(providerDayLoad),
  meta: availabilityLoadMeta,
});
export type AvailabilityLoadResponse = z.infer<typeof availabilityLoadResponse>;
