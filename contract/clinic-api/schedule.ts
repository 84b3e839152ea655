import * as z from "zod/mini";
import { appointmentTypeId, availabilityTemplateId, facilityId, ianaZone, localDate, localTime, offsetDateTime, providerId, utcTimestamp } from "./primitives.ts";

// Seed 000 "Availability template", "Bookable slot"; seed 001 "Schedule".

export const recurrence = z.object({
  /** RFC 5545 text, optionally with `DTSTART;TZID=…` and `EXDATE` lines. */
  rrule: z.string(),
  /** A local date, inclusive, or null. */
  until: z.nullable(localDate),
});

export const availabilityTemplate = z.object({
  id: availabilityTemplateId,
  externalId: z.string(),
  providerId: providerId,
  facilityId: facilityId,
  name: z.string(),
  startTimeLocal: localTime,
  endTimeLocal: localTime,
  timezone: ianaZone,
  slotIntervalMinutes: z.int().check(z.positive()),
  concurrency: z.int().check(z.nonnegative()),
  recurrence,
  /** null means no restriction is stated; an empty list allows no type. */
  allowedAppointmentTypeIds: z.nullable(z.array(appointmentTypeId)),
  active: z.boolean(),
});
export type AvailabilityTemplate = z.infer<typeof availabilityTemplate>;

export const availabilityInstance = z.object({
  templateId: availabilityTemplateId,
  providerId: providerId,
  facilityId: facilityId,
  startsAt: offsetDateTime,
  endsAt: offsetDateTime,
  concurrency: z.int(),
});
export type AvailabilityInstance = z.infer<typeof availabilityInstance>;

export const availabilityMeta = z.object({
  sourceSyncedAt: utcTimestamp,
  /** Value space not enumerated by the seeds. */
  sourceKind: z.string(),
  maxStalenessSeconds: z.int().check(z.nonnegative()),
  strongConsistency: z.boolean(),
});
export type AvailabilityMeta = z.infer<typeof availabilityMeta>;

export const availabilityTemplatesData = z.object({
  templates: z.array(availabilityTemplate),
  instances: z.array(availabilityInstance),
  meta: availabilityMeta,
});
export type AvailabilityTemplatesData = z.infer<typeof availabilityTemplatesData>;

export const slot = z.object({
  providerId: providerId,
  facilityId: facilityId,
  startsAt: offsetDateTime,
  endsAt: offsetDateTime,
  /** Booked appointments and active holds are already subtracted. */
  remainingCapacity: z.int().check(z.nonnegative()),
  templateIds: z.array(availabilityTemplateId),
});
export type Slot = z.infer<typeof slot>;

export const slotMeta = z.extend(availabilityMeta, {
  /** Informational only: whether the EHR answered natively or the service synthesised the list. */
  strategy: z.string(),
  /** Value space not shown by the seeds (`complete` is what a full answer says). */
  completeness: z.string(),
  generatedAt: utcTimestamp,
});
export type SlotMeta = z.infer<typeof slotMeta>;

export const slotsData = z.object({
  slots: z.array(slot),
  /** Provider id to the next date with a free slot. */
  nextAvailableByProvider: z.record(z.string(), localDate),
  meta: slotMeta,
});
export type SlotsData = z.infer<typeof slotsData>;

// Assumed contract (DESIGN.md): POST /v4/schedule/holds.
export const holdCreateBody = z.object({
  providerId: z.string(),
  facilityId: z.string(),
  startsAt: offsetDateTime,
  endsAt: offsetDateTime,
  appointmentTypeId: z.string(),
  slotLengthMinutes: z.optional(z.int().check(z.positive())),
  isNewPatient: z.optional(z.boolean()),
});
export type HoldCreateBody = z.infer<typeof holdCreateBody>;

/** The seeds do not show the hold record; `{id, status, expiresAt}` is assumed, the rest passes through. */
export const hold = z.looseObject({
  id: z.string(),
  status: z.string(),
  expiresAt: utcTimestamp,
});
export type Hold = z.infer<typeof hold>;

export const holdData = z.object({ hold });
export const holdReleaseData = z.object({ released: z.literal(true) });

// Assumed contract (DESIGN.md): GET /v3/appointment-types.
export const appointmentType = z.object({
  id: appointmentTypeId,
  name: z.string(),
  abbreviation: z.string(),
  defaultDurationMinutes: z.int().check(z.positive()),
  newPatientDurationMinutes: z.int().check(z.positive()),
});
export type AppointmentType = z.infer<typeof appointmentType>;
