import type { AvailabilityMeta } from "#contract/clinic-api/schedule.ts";
import { offsetMsAt } from "#contract/time/zoned-time.ts";
import { formatLocalDay, formatRecentTime, formatTime, formatWallTime, zoneAbbreviation, zoneNameAt, type TimeDisplay } from "#src/lib/time-format.ts";
import { cachedIdKey } from "#contract/ids.ts";
import type { ApiErrorDescription } from "#src/components/shell/api-error-notice.tsx";
import type { ClockShift } from "./week-window.ts";

// Words and numbers the availability view shows. Times and days are the
// app's formatter's (src/lib/time-format.ts): the user's locale, the
// facility's wall clock, never the machine's zone. Pure, so tests pin every
// locale and zone involved.

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

/** "Clocks go forward at 02:00: 02:00–02:30 does not happen", "Clocks go back at 02:00: 01:30–02:00 happens twice" (en-GB; wall times in the locale's clock). */
export function clockShiftText(shift: ClockShift, locale: string): string {
  const range = `${formatWallTime(shift.fromMinute, locale)}–${formatWallTime(shift.toMinute, locale)}`;
  return shift.kind === "gap"
    ? `Clocks go forward at ${formatWallTime(shift.fromMinute, locale)}: ${range} does not happen`
    : `Clocks go back at ${formatWallTime(shift.toMinute, locale)}: ${range} happens twice`;
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
  return allowed.map((id) => typeNames.get(cachedIdKey(id)) ?? "an unlisted type").join(", ");
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
  /** The band's local start date in the facility's zone. */
  date: string;
  startMs: number;
  endMs: number;
  capacity: number;
  isInactive: boolean;
  /** The band's wall-clock span in minutes (differs from its real length on a clock-change day). */
  wallMinutes: number;
  /** The band ends on a later local date. */
  endsNextDay: boolean;
  /** Drawn from the service's instances rather than the expansion. */
  isFromService?: boolean;
}

/** The band's local start and end on the facility's clock ("08:00–12:00" in en-GB), with "next day" when it crosses midnight; no zone name. */
export function bandTimeText(startMs: number, endMs: number, endsNextDay: boolean, display: TimeDisplay): string {
  const wall = (epochMs: number) => formatTime(epochMs, display, { zoneName: "omitted" });
  return `${wall(startMs)}–${wall(endMs)}${endsNextDay ? " next day" : ""}`;
}

/** Minutes after midnight of a template's `HH:MM` local time. */
function minutesOfLocalTime(localTime: string): number {
  const [hours = 0, minutes = 0] = localTime.split(":").map(Number);
  return hours * 60 + minutes;
}

/**
 * A template's hours as its bands say them, in the user's locale ("8:30 AM–12:30 PM" in en-US, "08:30–12:30" in
 * en-GB), with "next day" when it ends past midnight: the legend and the grid read the same.
 */
export function templateHoursText(startTimeLocal: string, endTimeLocal: string, locale: string): string {
  const start = minutesOfLocalTime(startTimeLocal);
  const end = minutesOfLocalTime(endTimeLocal);
  return `${formatWallTime(start, locale)}–${formatWallTime(end, locale)}${end <= start ? " next day" : ""}`;
}

/**
 * A band's span on the facility's clock. Where the clocks change inside it,
 * each end names its zone abbreviation and the real length follows ("01:00
 * LHDT – 04:00 LHST, 3½ h"), since the wall times alone would mislead.
 */
export function bandSpanText(startMs: number, endMs: number, endsNextDay: boolean, display: TimeDisplay): string {
  if (offsetMsAt(startMs, display.zone) === offsetMsAt(endMs, display.zone)) return bandTimeText(startMs, endMs, endsNextDay, display);
  const wall = (epochMs: number) => `${formatTime(epochMs, display, { zoneName: "omitted" })} ${zoneAbbreviation(epochMs, display.zone)}`;
  return `${wall(startMs)} – ${wall(endMs)}${endsNextDay ? " next day" : ""}, ${durationText((endMs - startMs) / 60_000)}`;
}

/**
 * A band's accessible name: provider, template, day, local start–end (the
 * zone named where it differs from the user's), capacity; the real length
 * when a clock change makes it differ from the wall-clock span; inactive in
 * words.
 */
export function bandAccessibleName(input: BandNameInput, display: TimeDisplay): string {
  const realMinutes = (input.endMs - input.startMs) / 60_000;
  const zoneName = zoneNameAt(input.startMs, display);
  const parts = [
    input.providerName,
    input.templateName,
    formatLocalDay(input.date, display.locale),
    offsetMsAt(input.startMs, display.zone) === offsetMsAt(input.endMs, display.zone)
      ? `${bandTimeText(input.startMs, input.endMs, input.endsNextDay, display)}${zoneName === null ? "" : ` ${zoneName}`}`
      : `${bandSpanText(input.startMs, input.endMs, input.endsNextDay, display)} (clocks change)`,
    `capacity ${input.capacity}`,
  ];
  if (Math.round(realMinutes) !== Math.round(input.wallMinutes) && offsetMsAt(input.startMs, display.zone) === offsetMsAt(input.endMs, display.zone)) parts.push(`${durationText(realMinutes)} of real time (clocks change)`);
  if (input.isInactive) parts.push("inactive, not bookable");
  if (input.isFromService) parts.push("as the service lists it");
  return parts.join(", ");
}

function stalenessText(seconds: number): string {
  if (seconds <= 0) return "read live from the EHR";
  if (seconds < 120) return `up to ${seconds} s behind the EHR`;
  return `up to ${Math.round(seconds / 60)} min behind the EHR`;
}

/** "as of 12:04:31 PM EST (up to 60 s behind the EHR)": on the facility's clock, the day too when it was not today there. */
export function freshnessText(meta: Pick<AvailabilityMeta, "sourceSyncedAt" | "maxStalenessSeconds">, display: TimeDisplay, nowMs: number): string {
  return `as of ${formatRecentTime(Date.parse(meta.sourceSyncedAt), nowMs, display, { seconds: true })} (${stalenessText(meta.maxStalenessSeconds)})`;
}

/**
 * Why the bands show no fill when the week's bookings failed, naming the system that failed as every error
 * does (describeApiError, or useApiErrorDescription on screen): "Bookings could not be read, so the bands show no
 * fill. The EHR did not answer. …".
 */
export function bookingsUnreadText({ title, detail }: Pick<ApiErrorDescription, "title" | "detail">): string {
  return `Bookings could not be read, so the bands show no fill. ${title}. ${detail}`;
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
