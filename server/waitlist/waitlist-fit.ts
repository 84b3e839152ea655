import type { WaitlistPreferences } from "#contract/app-api/waitlist.ts";
import { idKey, isSameId } from "#contract/ids.ts";
import { localDateOf, localTimeOf, weekdayOf } from "#contract/time/zoned-time.ts";

// Whether a slot fits what a waitlisted patient asked for (issue 38), read the
// way the slot finder's "Times and days" filter reads a slot: its local date,
// weekday and time of day on its own facility's clock (contract/time, so a DST
// day is exact), its facility among the entry's, its provider among the
// entry's when the entry names any. Pure: no I/O, no clock of its own.

const WEEKDAY_CODES = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;

/** Where and when a slot is: its facility's zone carried with it. */
export interface SlotWhere {
  facilityId: string;
  /** Null when the caller does not know it yet (the cancellation names its provider only by EHR id). */
  providerId: string | null;
  startMs: number;
  zone: string;
}

export function namesFacility(preferences: Pick<WaitlistPreferences, "facilityIds">, facilityId: string): boolean {
  return preferences.facilityIds.some((id) => isSameId(id, facilityId, "fac"));
}

/** Any provider (null), or the slot's among those named. */
export function acceptsProvider(preferences: Pick<WaitlistPreferences, "providerIds">, providerId: string): boolean {
  return preferences.providerIds === null || preferences.providerIds.some((id) => isSameId(id, providerId, "prv"));
}

/** The local date, weekday and time of day of `startMs` on the facility's clock are within what the patient asked for. */
export function fitsWhen(preferences: Pick<WaitlistPreferences, "startDate" | "endDate" | "startsFrom" | "startsBefore" | "days">, startMs: number, zone: string): boolean {
  const date = localDateOf(startMs, zone);
  if (date < preferences.startDate || date > preferences.endDate) return false;
  const time = localTimeOf(startMs, zone);
  if (preferences.startsFrom !== null && time < preferences.startsFrom) return false;
  if (preferences.startsBefore !== null && time >= preferences.startsBefore) return false;
  if (preferences.days === null) return true;
  const weekday = WEEKDAY_CODES[weekdayOf(date)];
  return weekday !== undefined && preferences.days.includes(weekday);
}

/** The slot fits the entry by place and time (its kind, type, length and new-patient flag, is the read's: see {@link kindKeyOf}). */
export function fitsSlot(preferences: WaitlistPreferences, slot: SlotWhere): boolean {
  if (!namesFacility(preferences, slot.facilityId)) return false;
  if (slot.providerId !== null && !acceptsProvider(preferences, slot.providerId)) return false;
  return fitsWhen(preferences, slot.startMs, slot.zone);
}

/** What one slots read is asked for: entries of one kind share a read. */
export interface SlotKind {
  appointmentTypeId: string;
  slotLengthMinutes: number;
  isNewPatient: boolean;
}

export function kindKeyOf(kind: SlotKind): string {
  return `${idKey(kind.appointmentTypeId)}|${kind.slotLengthMinutes}|${kind.isNewPatient}`;
}

/**
 * Entries grouped by the kind of slot they wait for, the group with the
 * longest-waiting entry first (entries come in longest waiting first, and
 * keep that order within their group).
 */
export function groupByKind<T extends { preferences: SlotKind }>(entries: readonly T[]): { kind: SlotKind; entries: T[] }[] {
  const groups = new Map<string, { kind: SlotKind; entries: T[] }>();
  for (const entry of entries) {
    const key = kindKeyOf(entry.preferences);
    const group = groups.get(key) ?? { kind: { appointmentTypeId: entry.preferences.appointmentTypeId, slotLengthMinutes: entry.preferences.slotLengthMinutes, isNewPatient: entry.preferences.isNewPatient }, entries: [] };
    group.entries.push(entry);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** The appointment statuses seed 001 says `appointment.cancelled` reports: both free the slot. */
const FREEING_STATUSES: ReadonlySet<string> = new Set(["cancelled", "no_show"]);

/** Each patient once, by their longest-waiting entry (`entries` longest waiting first): two wishes of one patient that both fit name them once in an offer. */
export function onePerPatient<T extends { patientId: string }>(entries: readonly T[]): T[] {
  const seen = new Set<string>();
  return entries.filter((entry) => {
    const key = idKey(entry.patientId);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Seed 001 events rules 2 and 3: a cancellation frees a slot for the waitlist
 * only when it is a change seen happen (`previousStatus` not null: a first
 * sighting may be historical), from a status that held the slot (a no-show
 * that was already cancelled frees nothing new), for a slot still in the
 * future.
 */
export function freesSlot(event: { status: string; previousStatus: string | null; scheduledStartDate: string }, nowMs: number): boolean {
  if (!FREEING_STATUSES.has(event.status)) return false;
  if (event.previousStatus === null || FREEING_STATUSES.has(event.previousStatus)) return false;
  return Date.parse(event.scheduledStartDate) > nowMs;
}

/**
 * The latest local date an entry's range can end on and still not have
 * passed, on any clock: the earliest zones are 12 hours behind UTC, so an
 * `endDate` before the UTC date of 14 hours ago has passed everywhere (two
 * hours to spare: an entry ends late, never early).
 */
export function passedRangeEndBefore(nowMs: number): string {
  return new Date(nowMs - 14 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

export function hasRangePassed(preferences: Pick<WaitlistPreferences, "endDate">, nowMs: number): boolean {
  return preferences.endDate < passedRangeEndBefore(nowMs);
}

/** The free slot of a read at the cancelled appointment's time, facility and (when known) provider, whose provider some entry accepts. */
export function freedSlotOf<S extends { providerId: string; facilityId: string; startsAt: string; remainingCapacity: number }>(
  slots: readonly S[],
  freed: { facilityId: string; startMs: number; providerId: string | null },
  accepts: (providerId: string) => boolean,
): S | null {
  return (
    slots.find(
      (slot) =>
        slot.remainingCapacity > 0 &&
        Date.parse(slot.startsAt) === freed.startMs &&
        isSameId(slot.facilityId, freed.facilityId, "fac") &&
        (freed.providerId === null || isSameId(slot.providerId, freed.providerId, "prv")) &&
        accepts(slot.providerId),
    ) ?? null
  );
}

/**
 * The appointment satisfies what the entry waited for, so the patient is
 * booked. The service's appointment carries no type (seed 000 "Appointment"),
 * so "booked for that type" is read from what it does carry: the new-patient
 * flag, the length, a facility and provider the entry named, on a local date
 * within the entry's range (a later appointment the patient already had, and
 * wanted to move earlier, is outside it and ends nothing).
 */
export function booksEntry(
  preferences: WaitlistPreferences,
  appointment: { facilityId: string; providerId: string; scheduledStartDate: string; scheduledEndDate: string; isNewPatient: boolean },
  zone: string,
): boolean {
  const startMs = Date.parse(appointment.scheduledStartDate);
  const minutes = Math.round((Date.parse(appointment.scheduledEndDate) - startMs) / 60_000);
  if (appointment.isNewPatient !== preferences.isNewPatient || minutes !== preferences.slotLengthMinutes) return false;
  if (!namesFacility(preferences, appointment.facilityId) || !acceptsProvider(preferences, appointment.providerId)) return false;
  const date = localDateOf(startMs, zone);
  return date >= preferences.startDate && date <= preferences.endDate;
}
