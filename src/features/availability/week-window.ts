import { addDays, dayLengthMinutes, localToInstant, offsetMsAt, parseLocalDate, todayIn, weekdayOf } from "#contract/time/zoned-time.ts";

// The week the availability grid shows: Monday to Sunday in the facility's
// zone (RFC 5545's default week start), each day with its real length and
// its clock change, if any. Local dates are zone-free; only the instants that
// bound each day, and their lengths, depend on the zone (STYLE.md 9).

const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;
export const MINUTES_PER_DAY = 1440;

/** A clock change inside one local day, as wall-clock minutes after local midnight. */
export interface ClockShift {
  /** `gap`: clocks go forward and the wall times [from, to) do not happen; `fold`: clocks go back and [from, to) happens twice. */
  kind: "gap" | "fold";
  fromMinute: number;
  toMinute: number;
  /** The instant of the change. */
  atMs: number;
}

export interface WeekDay {
  /** `YYYY-MM-DD`, a local date of the zone. */
  date: string;
  /** 0 = Monday … 6 = Sunday. */
  weekday: number;
  /** Real minutes from this day's start to the next's (1380, 1410, 1440, 1470, 1500). */
  lengthMinutes: number;
  /** The instant the day starts (a midnight inside a gap starts when the gap ends). */
  startMs: number;
  /** The instant the next day starts. */
  endMs: number;
  clockShift: ClockShift | null;
}

export interface WeekWindow {
  /** The Monday. */
  startDate: string;
  /** The Sunday. */
  endDate: string;
  zone: string;
  days: WeekDay[];
}

/** The Monday of the week a local date lies in. */
export function mondayOf(date: string): string {
  return addDays(date, -weekdayOf(date));
}

/** The Monday of the week `weeks` after (or before, when negative) the week of `date`. */
export function shiftWeek(date: string, weeks: number): string {
  return addDays(mondayOf(date), 7 * weeks);
}

/** The Monday of this week in `zone` at `nowMs` (the browser's clock). */
export function currentWeekStart(zone: string, nowMs: number): string {
  return mondayOf(todayIn(zone, nowMs));
}

/** Whether `date` is a well-formed, real `YYYY-MM-DD` date. */
export function isLocalDate(date: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  try {
    parseLocalDate(date);
    return true;
  } catch {
    return false;
  }
}

/**
 * The clock change on a local date in `zone`, or null. Zones change at most
 * once a day, so the offset just before the day's start and just before the
 * next day's start tell whether it changes; bisection to the second finds when.
 */
export function clockShiftOn(date: string, zone: string): ClockShift | null {
  const startMs = localToInstant(date, "00:00", zone);
  const endMs = localToInstant(addDays(date, 1), "00:00", zone);
  const before = offsetMsAt(startMs - 1, zone);
  const after = offsetMsAt(endMs - 1, zone);
  if (before === after) return null;
  // The first second in (startMs - 1, endMs - 1] whose offset is `after`.
  let low = Math.floor((startMs - 1) / 1000);
  let high = Math.ceil((endMs - 1) / 1000);
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (offsetMsAt(middle * 1000, zone) === before) low = middle;
    else high = middle;
  }
  const atMs = high * 1000;
  const midnightWallMs = parseLocalDate(date) * MS_PER_DAY;
  const wallBefore = (atMs + before - midnightWallMs) / MS_PER_MINUTE;
  const wallAfter = (atMs + after - midnightWallMs) / MS_PER_MINUTE;
  return after > before ? { kind: "gap", fromMinute: wallBefore, toMinute: wallAfter, atMs } : { kind: "fold", fromMinute: wallAfter, toMinute: wallBefore, atMs };
}

/** The week (Monday to Sunday, in `zone`) that contains `date`. */
export function weekWindow(date: string, zone: string): WeekWindow {
  const startDate = mondayOf(date);
  const days: WeekDay[] = [];
  for (let offset = 0; offset < 7; offset += 1) {
    const day = addDays(startDate, offset);
    const startMs = localToInstant(day, "00:00", zone);
    const lengthMinutes = dayLengthMinutes(day, zone);
    days.push({ date: day, weekday: offset, lengthMinutes, startMs, endMs: startMs + lengthMinutes * MS_PER_MINUTE, clockShift: lengthMinutes === MINUTES_PER_DAY ? null : clockShiftOn(day, zone) });
  }
  return { startDate, endDate: addDays(startDate, 6), zone, days };
}

/** Wall-clock minutes after local midnight of `date` at an instant, in `zone` (beyond 1440 on later days, negative on earlier ones). */
export function wallMinutesFrom(date: string, epochMs: number, zone: string): number {
  return (epochMs + offsetMsAt(epochMs, zone) - parseLocalDate(date) * MS_PER_DAY) / MS_PER_MINUTE;
}
