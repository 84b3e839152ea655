import type { Slot, SlotMeta } from "#contract/clinic-api/schedule.ts";
import { formatLocalDay as formatDayIn, formatRecentTime, formatTime, zoneNameAt } from "#src/lib/time-format.ts";
import type { UserTimeSettings } from "#src/lib/use-time-display.tsx";

// Words and numbers the slot finder shows. Every time goes through the app's
// one formatter (src/lib/time-format.ts): the user's locale, the facility's
// zone, the zone named where it differs from the user's. The reader's locale
// and zone are parameters, so tests pin them.

/**
 * "2 of 3 left" when the total is known, else "2 left": the total is not in
 * the payload, so it is never guessed. A single remaining place of an unknown
 * (or single) capacity says nothing: "1 left" on every slot of a one-patient
 * schedule is noise to the front desk.
 */
export function capacityText(remainingCapacity: number, totalCapacity?: number): string | null {
  if (totalCapacity !== undefined && totalCapacity > 1 && totalCapacity >= remainingCapacity) return `${remainingCapacity} of ${totalCapacity} left`;
  return remainingCapacity > 1 ? `${remainingCapacity} left` : null;
}

/** "2 schedules" when overlapping templates add up to this slot's capacity (they are separate rows, DESIGN.md), else null. */
export function schedulesText(templateIds: readonly string[]): string | null {
  return templateIds.length > 1 ? `${templateIds.length} schedules` : null;
}

/** Whole minutes between the slot's start and end. */
export function slotLengthMinutes(slot: Pick<Slot, "startsAt" | "endsAt">): number {
  return Math.round((Date.parse(slot.endsAt) - Date.parse(slot.startsAt)) / 60_000);
}

/** "23-hour day", "25-hour day", "23½-hour day" (Lord Howe's half-hour shift). */
function hoursText(minutes: number): string {
  const hours = minutes / 60;
  if (Number.isInteger(hours)) return String(hours);
  if (Number.isInteger(hours * 2)) return `${Math.floor(hours)}½`;
  return hours.toFixed(2);
}

/** Null on an ordinary day; else "Clocks change: 23-hour day" (from `dayLengthMinutes`). */
export function clockChangeText(dayLengthMinutes: number): string | null {
  if (dayLengthMinutes === 1440) return null;
  return `Clocks change: ${hoursText(dayLengthMinutes)}-hour day`;
}

/** "Tuesday, December 1" (en-US) or "Tuesday 1 December" (en-GB) for a local date (`YYYY-MM-DD`): the date itself, no zone involved. */
export function formatLocalDay(date: string, reader: UserTimeSettings, options: { short?: boolean } = {}): string {
  return formatDayIn(date, reader.locale, { style: options.short ? "short" : "long" });
}

/** "10:00 AM" (en-US) in the facility's zone, its zone left to the caller (a slot button names it in its own span). */
export function formatSlotTime(epochMs: number, zone: string, reader: UserTimeSettings): string {
  return formatTime(epochMs, { ...reader, zone }, { zoneName: "omitted" });
}

/** "10:00 AM EST": the time in the facility's zone, the zone named where it differs from the user's. */
export function formatSlotTimeInText(epochMs: number, zone: string, reader: UserTimeSettings): string {
  return formatTime(epochMs, { ...reader, zone });
}

/** "EST" when the facility's zone differs from the user's at that instant, else null. */
export function slotZoneName(epochMs: number, zone: string, reader: UserTimeSettings): string | null {
  return zoneNameAt(epochMs, { ...reader, zone });
}

export interface SlotLabelInput {
  slot: Slot;
  providerName: string;
  /** The slot's local date in its facility's zone (the day it is grouped under). */
  localDate: string;
  zone: string;
  reader: UserTimeSettings;
  /** Named when the search covers more than one facility. */
  facilityName?: string | undefined;
  totalCapacity?: number | undefined;
}

/** The accessible name of a slot: "Dr Brooks, Tuesday, December 1, 10:00 AM EST, 20 minutes, 2 left". */
export function slotAccessibleName({ slot, providerName, localDate, zone, reader, facilityName, totalCapacity }: SlotLabelInput): string {
  const startMs = Date.parse(slot.startsAt);
  const parts = [providerName, formatLocalDay(localDate, reader), formatSlotTimeInText(startMs, zone, reader), `${slotLengthMinutes(slot)} minutes`];
  const capacity = capacityText(slot.remainingCapacity, totalCapacity);
  if (capacity) parts.push(capacity);
  const schedules = schedulesText(slot.templateIds);
  if (schedules) parts.push(schedules);
  if (facilityName) parts.push(`at ${facilityName}`);
  return parts.join(", ");
}

/** "10:00 AM with Dr Brooks on Tuesday, December 1": a slot named in a sentence. */
export function slotPhrase(slot: Pick<Slot, "startsAt">, providerName: string, localDate: string, zone: string, reader: UserTimeSettings): string {
  return `${formatSlotTimeInText(Date.parse(slot.startsAt), zone, reader)} with ${providerName} on ${formatLocalDay(localDate, reader)}`;
}

function stalenessText(seconds: number): string {
  if (seconds <= 0) return "read live from the EHR";
  if (seconds < 120) return `up to ${seconds} s behind the EHR`;
  const minutes = Math.round(seconds / 60);
  return `up to ${minutes} min behind the EHR`;
}

/** "as of 6:40:00 AM EST (up to 60 s behind the EHR)", on the facility's clock (the day too when not today), its zone named where it differs from the user's. */
export function freshnessText(meta: Pick<SlotMeta, "sourceSyncedAt" | "maxStalenessSeconds">, zone: string, reader: UserTimeSettings, nowMs: number): string {
  return `as of ${formatRecentTime(Date.parse(meta.sourceSyncedAt), nowMs, { ...reader, zone }, { seconds: true })} (${stalenessText(meta.maxStalenessSeconds)})`;
}

/** Null for a complete answer; else what the gap means, in words. */
export function completenessText(completeness: string): string | null {
  switch (completeness) {
    case "complete":
      return null;
    case "partial_beyond_sync_horizon":
      return "The schedule beyond the EHR sync window may be incomplete: later days in this window can be missing slots the EHR has. Check those days in the EHR, or search again closer to the date.";
    default:
      return `The service marked this list as not complete (“${completeness.replaceAll("_", " ")}”): some slots may be missing.`;
  }
}
