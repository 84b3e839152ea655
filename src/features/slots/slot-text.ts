import type { Slot, SlotMeta } from "../../../contract/clinic-api/schedule.ts";
import { zoneAbbreviation } from "../../lib/zoned-clock.ts";
import { localTimeOf, offsetMsAt } from "../../../contract/time/zoned-time.ts";

// Words and numbers the slot finder shows. Times are the facility's (STYLE.md
// 9): computed from the instant and the facility's IANA zone, never from the
// machine's zone; the user's own zone is a parameter, so tests pin it.
// Formatting is English with a 24-hour clock, as the rest of the app.

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let cached = formatters.get(key);
  if (!cached) {
    cached = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, cached);
  }
  return cached;
}

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

/** "Tuesday 1 December" for a local date (`YYYY-MM-DD`): the date itself, no zone involved. */
const dayNames = new Map<string, string>();

export function formatLocalDay(date: string, options: { short?: boolean } = {}): string {
  const cacheKey = `${date}|${options.short ? "short" : "long"}`;
  const cached = dayNames.get(cacheKey);
  if (cached !== undefined) return cached;
  const [year = 1970, month = 1, day = 1] = date.split("-").map(Number);
  const parts = formatter("en-GB", { timeZone: "UTC", weekday: options.short ? "short" : "long", day: "numeric", month: options.short ? "short" : "long" }).formatToParts(Date.UTC(year, month - 1, day, 12));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((candidate) => candidate.type === type)?.value ?? "";
  const name = `${part("weekday")} ${part("day")} ${part("month")}`;
  dayNames.set(cacheKey, name);
  return name;
}

/** Whether a time in `zone` needs its zone named for this user: the offsets differ at that instant. */
export function isOtherZone(epochMs: number, zone: string, userZone: string): boolean {
  return zone !== userZone && offsetMsAt(epochMs, zone) !== offsetMsAt(epochMs, userZone);
}

/** "10:00" in the facility's zone. */
export function formatSlotTime(epochMs: number, zone: string): string {
  return localTimeOf(epochMs, zone);
}

export interface SlotLabelInput {
  slot: Slot;
  providerName: string;
  /** The slot's local date in its facility's zone (the day it is grouped under). */
  localDate: string;
  zone: string;
  /** Named when the search covers more than one facility. */
  facilityName?: string | undefined;
  totalCapacity?: number | undefined;
}

/** The accessible name of a slot: "Dr Brooks, Tuesday 1 December, 10:00 EST, 20 minutes, 2 left". */
export function slotAccessibleName({ slot, providerName, localDate, zone, facilityName, totalCapacity }: SlotLabelInput): string {
  const startMs = Date.parse(slot.startsAt);
  const parts = [providerName, formatLocalDay(localDate), `${formatSlotTime(startMs, zone)} ${zoneAbbreviation(startMs, zone)}`, `${slotLengthMinutes(slot)} minutes`];
  const capacity = capacityText(slot.remainingCapacity, totalCapacity);
  if (capacity) parts.push(capacity);
  const schedules = schedulesText(slot.templateIds);
  if (schedules) parts.push(schedules);
  if (facilityName) parts.push(`at ${facilityName}`);
  return parts.join(", ");
}

/** "10:00 with Dr Brooks on Tuesday 1 December": a slot named in a sentence. */
export function slotPhrase(slot: Pick<Slot, "startsAt">, providerName: string, localDate: string, zone: string): string {
  const startMs = Date.parse(slot.startsAt);
  return `${formatSlotTime(startMs, zone)} ${zoneAbbreviation(startMs, zone)} with ${providerName} on ${formatLocalDay(localDate)}`;
}

/** "12:04:31" in the user's zone, with seconds. */
export function formatClockWithSeconds(epochMs: number, userZone: string): string {
  return formatter("en-GB", { timeZone: userZone, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" }).format(epochMs);
}

function stalenessText(seconds: number): string {
  if (seconds <= 0) return "read live from the EHR";
  if (seconds < 120) return `up to ${seconds} s behind the EHR`;
  const minutes = Math.round(seconds / 60);
  return `up to ${minutes} min behind the EHR`;
}

/** "as of 12:04:31 EST (up to 60 s behind the EHR)", in the user's own time, its zone named. */
export function freshnessText(meta: Pick<SlotMeta, "sourceSyncedAt" | "maxStalenessSeconds">, userZone: string): string {
  const syncedMs = Date.parse(meta.sourceSyncedAt);
  return `as of ${formatClockWithSeconds(syncedMs, userZone)} ${zoneAbbreviation(syncedMs, userZone)} (${stalenessText(meta.maxStalenessSeconds)})`;
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
