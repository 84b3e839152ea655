import type { AvailabilityMeta } from "../../../contract/clinic-api/schedule.ts";
import { civilFromDays, parseLocalDate, weekdayOf } from "../../../contract/time/zoned-time.ts";
import { zoneAbbreviation } from "../../lib/zoned-clock.ts";
import { idKey } from "./availability-ids.ts";
import type { ClockShift } from "./week-window.ts";

// Words and numbers the availability view shows. Times are the facility's
// wall clock (STYLE.md 9), from instants and IANA zones, never the machine's
// zone; English, 24-hour clock, as the rest of the app. Pure, so tests pin
// every zone involved.

const WEEKDAY_LONG = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
const WEEKDAY_SHORT = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] as const;
const MONTH_LONG = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"] as const;
const MONTH_SHORT = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

function pad2(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

/** "Tuesday 6 October", or "Tue 6 Oct" (a local date: no zone involved). */
export function formatLocalDay(date: string, options: { short?: boolean } = {}): string {
  const { month, day } = civilFromDays(parseLocalDate(date));
  const weekday = weekdayOf(date);
  return options.short ? `${WEEKDAY_SHORT[weekday] ?? ""} ${day} ${MONTH_SHORT[month - 1] ?? ""}` : `${WEEKDAY_LONG[weekday] ?? ""} ${day} ${MONTH_LONG[month - 1] ?? ""}`;
}

/** "5–11 October 2026", "28 September – 4 October 2026", "29 December 2025 – 4 January 2026". */
export function weekRangeText(startDate: string, endDate: string): string {
  const start = civilFromDays(parseLocalDate(startDate));
  const end = civilFromDays(parseLocalDate(endDate));
  const endText = `${end.day} ${MONTH_LONG[end.month - 1] ?? ""} ${end.year}`;
  if (start.year !== end.year) return `${start.day} ${MONTH_LONG[start.month - 1] ?? ""} ${start.year} – ${endText}`;
  if (start.month !== end.month) return `${start.day} ${MONTH_LONG[start.month - 1] ?? ""} – ${endText}`;
  return `${start.day}–${endText}`;
}

/** "08:00" for wall minutes after midnight; 1440 is "24:00". */
export function formatMinuteOfDay(minute: number): string {
  const whole = Math.round(minute);
  return `${pad2(Math.floor(whole / 60))}:${pad2(whole % 60)}`;
}

/** "23", "23½", "24½", "25". */
function hoursNumber(minutes: number): string {
  const hours = minutes / 60;
  if (Number.isInteger(hours)) return String(hours);
  if (Number.isInteger(hours * 2)) return `${Math.floor(hours)}½`;
  return hours.toFixed(2);
}

/** Null on an ordinary day; else the day's real length: "23-hour day", "23½-hour day", "24½-hour day", "25-hour day". */
export function dayLengthText(lengthMinutes: number): string | null {
  if (lengthMinutes === 1440) return null;
  return `${hoursNumber(lengthMinutes)}-hour day`;
}

/** "Clocks go forward at 02:00: 02:00–02:30 does not happen", "Clocks go back at 02:00: 01:30–02:00 happens twice". */
export function clockShiftText(shift: ClockShift): string {
  const range = `${formatMinuteOfDay(shift.fromMinute)}–${formatMinuteOfDay(shift.toMinute)}`;
  return shift.kind === "gap"
    ? `Clocks go forward at ${formatMinuteOfDay(shift.fromMinute)}: ${range} does not happen`
    : `Clocks go back at ${formatMinuteOfDay(shift.toMinute)}: ${range} happens twice`;
}

/** "45 min", "3 h", "2½ h", "2 h 15 min". */
export function durationText(minutes: number): string {
  const whole = Math.round(minutes);
  if (whole < 60) return `${whole} min`;
  if (whole % 60 === 0) return `${whole / 60} h`;
  if (whole % 30 === 0) return `${Math.floor(whole / 60)}½ h`;
  return `${Math.floor(whole / 60)} h ${whole % 60} min`;
}

/** "3 at once: Morning clinic 1 + Procedures 2": the summed capacity where bands overlap. */
export function overlapText(parts: readonly { label: string; capacity: number }[]): string {
  const total = parts.reduce((sum, part) => sum + part.capacity, 0);
  return `${total} at once: ${parts.map((part) => `${part.label} ${part.capacity}`).join(" + ")}`;
}

/** "any" (no restriction stated), "none" (an empty list allows no type), or the types' names. */
export function allowedTypesText(allowed: readonly string[] | null, typeNames: ReadonlyMap<string, string>): string {
  if (allowed === null) return "any";
  if (allowed.length === 0) return "none (no appointment type can be booked)";
  return allowed.map((id) => typeNames.get(idKey(id)) ?? "an unlisted type").join(", ");
}

/** "1 at a time", "2 at once". */
export function concurrencyText(concurrency: number): string {
  return concurrency === 1 ? "1 at a time" : `${concurrency} at once`;
}

/** "every 20 min". */
export function slotIntervalText(minutes: number): string {
  return `every ${durationText(minutes)}`;
}

export interface BandNameInput {
  providerName: string;
  templateName: string;
  /** The band's local start date in `zone`. */
  date: string;
  startMs: number;
  endMs: number;
  zone: string;
  capacity: number;
  isInactive: boolean;
  /** The band's wall-clock span in minutes (differs from its real length on a clock-change day). */
  wallMinutes: number;
  /** The band ends on a later local date. */
  endsNextDay: boolean;
  /** Drawn from the service's instances rather than the expansion. */
  isFromService?: boolean;
}

/** Local "08:00–12:00", with "next day" when the band crosses midnight. */
export function bandTimeText(startWall: string, endWall: string, endsNextDay: boolean): string {
  return `${startWall}–${endWall}${endsNextDay ? " next day" : ""}`;
}

/**
 * A band's accessible name: provider, template, day, local start–end with
 * the zone, capacity; the real length when a clock change makes it differ
 * from the wall-clock span; inactive in words.
 */
export function bandAccessibleName(input: BandNameInput, wallStart: string, wallEnd: string): string {
  const realMinutes = (input.endMs - input.startMs) / 60_000;
  const parts = [
    input.providerName,
    input.templateName,
    formatLocalDay(input.date),
    `${bandTimeText(wallStart, wallEnd, input.endsNextDay)} ${zoneAbbreviation(input.startMs, input.zone)}`,
    `capacity ${input.capacity}`,
  ];
  if (Math.round(realMinutes) !== Math.round(input.wallMinutes)) parts.push(`${durationText(realMinutes)} of real time (clocks change)`);
  if (input.isInactive) parts.push("inactive, not bookable");
  if (input.isFromService) parts.push("as the service lists it");
  return parts.join(", ");
}

/** "12:04:31" in the user's zone, with seconds. */
function formatClockWithSeconds(epochMs: number, userZone: string): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone: userZone, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" }).format(epochMs);
}

function stalenessText(seconds: number): string {
  if (seconds <= 0) return "read live from the EHR";
  if (seconds < 120) return `up to ${seconds} s behind the EHR`;
  return `up to ${Math.round(seconds / 60)} min behind the EHR`;
}

/** "as of 12:04:31 (up to 60 s behind the EHR)", in the user's own time, as the slot finder says it. */
export function freshnessText(meta: Pick<AvailabilityMeta, "sourceSyncedAt" | "maxStalenessSeconds">, userZone: string): string {
  return `as of ${formatClockWithSeconds(Date.parse(meta.sourceSyncedAt), userZone)} (${stalenessText(meta.maxStalenessSeconds)})`;
}

/** The quiet note when the service's instances differ from the expansion. */
export function differsText(bandCount: number): string {
  return `The service's schedule differs from the templates for ${bandCount} ${bandCount === 1 ? "band" : "bands"}: showing the service's; the EHR may have changed a template since the last sync.`;
}

/** "A", "B", … "Z", "AA", "AB": a template's key in the legend and on its bands. */
export function legendKey(index: number): string {
  let text = "";
  let rest = index;
  do {
    text = String.fromCharCode(65 + (rest % 26)) + text;
    rest = Math.floor(rest / 26) - 1;
  } while (rest >= 0);
  return text;
}

/** "31 Dec 2026" for a local date. */
export function shortDateText(date: string): string {
  const { year, month, day } = civilFromDays(parseLocalDate(date));
  return `${day} ${MONTH_SHORT[month - 1] ?? ""} ${year}`;
}
