// Local-time conversion for IANA zones: the one implementation every side uses
// (DESIGN.md "Rules that come from the spec and must hold", the time items).
//
// Results never depend on the host's zone: only UTC arithmetic and Intl with an
// explicit `timeZone` are used, never `Date`'s local getters.
//
// Dates are `YYYY-MM-DD` strings at the edges and "day numbers" (days since
// 1970-01-01) inside, so that date arithmetic is integer arithmetic.

const MS_PER_SECOND = 1000;
const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;

// ---------------------------------------------------------------------------
// Calendar arithmetic (proleptic Gregorian), after H. Hinnant's
// days_from_civil / civil_from_days: exact for every year, no Date involved.

/** Days since 1970-01-01 of a proleptic Gregorian date (month 1-12). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

/** The proleptic Gregorian date of a day number. */
export function civilFromDays(dayNumber: number): CivilDate {
  const z = dayNumber + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_PATTERN = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;

function daysInMonth(year: number, month: number): number {
  return daysFromCivil(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1) - daysFromCivil(year, month, 1);
}

/** Day number of a `YYYY-MM-DD` date; throws RangeError on anything else. */
export function parseLocalDate(date: string): number {
  const match = DATE_PATTERN.exec(date);
  if (match === null) throw new RangeError(`Invalid local date "${date}": expected YYYY-MM-DD`);
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new RangeError(`Invalid local date "${date}": no such day`);
  }
  return daysFromCivil(year, month, day);
}

/** Seconds after midnight of `HH:MM` or `HH:MM:SS` (00:00:00-23:59:59); throws RangeError on anything else. */
export function parseLocalTime(time: string): number {
  const match = TIME_PATTERN.exec(time);
  if (match === null) throw new RangeError(`Invalid local time "${time}": expected HH:MM or HH:MM:SS`);
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  const seconds = match[3] === undefined ? 0 : Number(match[3]);
  if (hours > 23 || minutes > 59 || seconds > 59) throw new RangeError(`Invalid local time "${time}": out of range`);
  return hours * 3600 + minutes * 60 + seconds;
}

function pad2(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

function pad4(value: number): string {
  return value >= 1000 ? String(value) : String(value).padStart(4, "0");
}

/** `YYYY-MM-DD` of a day number (years 0000-9999). */
export function formatLocalDate(dayNumber: number): string {
  const { year, month, day } = civilFromDays(dayNumber);
  return `${pad4(year)}-${pad2(month)}-${pad2(day)}`;
}

/** Weekday of a day number, 0 = Monday … 6 = Sunday (RFC 5545's default week start). */
export function weekdayOfDayNumber(dayNumber: number): number {
  // 1970-01-01 was a Thursday (3).
  return (((dayNumber + 3) % 7) + 7) % 7;
}

export function addDays(date: string, days: number): string {
  return formatLocalDate(parseLocalDate(date) + days);
}

/** Whole days from `a` to `b` (`b` minus `a`; negative when `b` is earlier). */
export function daysBetween(a: string, b: string): number {
  return parseLocalDate(b) - parseLocalDate(a);
}

/** 0 = Monday … 6 = Sunday (ISO 8601 order, RFC 5545's default WKST). */
export function weekdayOf(date: string): number {
  return weekdayOfDayNumber(parseLocalDate(date));
}

// ---------------------------------------------------------------------------
// Zone offsets.
//
// Intl is the zone database, but a format call costs microseconds, and the
// slot and availability paths convert tens of thousands of times per request.
// So each zone's offset transitions are found once per span of time (by
// sampling Intl and bisecting to the second) and then looked up in a small
// sorted list. Sampling every 6 hours assumes no zone changes its offset and
// back within 6 hours, which the tz database has never done.

const SPAN_MS = 400 * MS_PER_DAY; // a whole number of seconds, so bisection stays on whole seconds
const SAMPLE_SECONDS = 6 * 3600;

interface OffsetSpan {
  /** Offset in ms at the span's first instant. */
  initialOffsetMs: number;
  /** Transitions inside the span, ascending: from `atMs` on, the offset is `offsetMs`. */
  transitions: { atMs: number; offsetMs: number }[];
}

interface ZoneData {
  formatter: Intl.DateTimeFormat;
  spans: Map<number, OffsetSpan>;
}

const zones = new Map<string, ZoneData>();

function zoneData(zone: string): ZoneData {
  let data = zones.get(zone);
  if (data === undefined) {
    // Throws RangeError for a name the runtime's zone database does not know.
    const formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      era: "short",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    data = { formatter, spans: new Map() };
    zones.set(zone, data);
  }
  return data;
}

/** The zone's offset in ms at a whole second, straight from Intl. */
function intlOffsetMs(formatter: Intl.DateTimeFormat, epochSeconds: number): number {
  let year = 0;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let isBeforeCommonEra = false;
  for (const part of formatter.formatToParts(epochSeconds * MS_PER_SECOND)) {
    const type = part.type;
    if (type === "year") year = Number(part.value);
    else if (type === "month") month = Number(part.value);
    else if (type === "day") day = Number(part.value);
    else if (type === "hour") hour = Number(part.value);
    else if (type === "minute") minute = Number(part.value);
    else if (type === "second") second = Number(part.value);
    else if (type === "era") isBeforeCommonEra = part.value === "BC" || part.value === "B";
  }
  if (isBeforeCommonEra) year = 1 - year;
  const wallSeconds = daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second;
  return (wallSeconds - epochSeconds) * MS_PER_SECOND;
}

function buildSpan(formatter: Intl.DateTimeFormat, spanIndex: number): OffsetSpan {
  const startSeconds = (spanIndex * SPAN_MS) / MS_PER_SECOND;
  const endSeconds = ((spanIndex + 1) * SPAN_MS) / MS_PER_SECOND;
  const initialOffsetMs = intlOffsetMs(formatter, startSeconds);
  const transitions: { atMs: number; offsetMs: number }[] = [];
  let knownSeconds = startSeconds;
  let knownOffsetMs = initialOffsetMs;
  while (knownSeconds < endSeconds) {
    const probeSeconds = Math.min(knownSeconds + SAMPLE_SECONDS, endSeconds);
    const probeOffsetMs = intlOffsetMs(formatter, probeSeconds);
    if (probeOffsetMs === knownOffsetMs) {
      knownSeconds = probeSeconds;
      continue;
    }
    // Bisect to the first second whose offset differs from the known one.
    let low = knownSeconds;
    let high = probeSeconds;
    let highOffsetMs = probeOffsetMs;
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      const middleOffsetMs = intlOffsetMs(formatter, middle);
      if (middleOffsetMs === knownOffsetMs) {
        low = middle;
      } else {
        high = middle;
        highOffsetMs = middleOffsetMs;
      }
    }
    if (high < endSeconds) transitions.push({ atMs: high * MS_PER_SECOND, offsetMs: highOffsetMs });
    knownSeconds = high;
    knownOffsetMs = highOffsetMs;
  }
  return { initialOffsetMs, transitions };
}

/** The zone's UTC offset in ms at an instant. */
export function offsetMsAt(epochMs: number, zone: string): number {
  const data = zoneData(zone);
  const spanIndex = Math.floor(epochMs / SPAN_MS);
  let span = data.spans.get(spanIndex);
  if (span === undefined) {
    span = buildSpan(data.formatter, spanIndex);
    data.spans.set(spanIndex, span);
  }
  let offsetMs = span.initialOffsetMs;
  for (const transition of span.transitions) {
    if (epochMs < transition.atMs) break;
    offsetMs = transition.offsetMs;
  }
  return offsetMs;
}

/** The zone's UTC offset in minutes at an instant (east positive: New York in winter is -300). */
export function offsetMinutesAt(epochMs: number, zone: string): number {
  return offsetMsAt(epochMs, zone) / MS_PER_MINUTE;
}

// ---------------------------------------------------------------------------
// Local time to instant.

/**
 * The instant of a local wall-clock time given as "ms since 1970-01-01T00:00
 * of the wall clock", with RFC 5545 3.3.5 / Temporal `disambiguation:
 * "compatible"` (DESIGN.md): a time in a spring-forward gap is read with the
 * offset before the gap, so it lands as far after the gap's start as it was
 * written; a time repeated in a fall-back fold is its first occurrence.
 */
export function wallMsToInstant(wallMs: number, zone: string): number {
  // Temporal's method: the offsets a day either side bracket any transition
  // near this wall time (zones never change twice within two days).
  const offsetBeforeMs = offsetMsAt(wallMs - MS_PER_DAY, zone);
  const offsetAfterMs = offsetMsAt(wallMs + MS_PER_DAY, zone);
  if (offsetBeforeMs === offsetAfterMs) return wallMs - offsetBeforeMs;
  const earlier = wallMs - offsetBeforeMs;
  const later = wallMs - offsetAfterMs;
  const isEarlierValid = offsetMsAt(earlier, zone) === offsetBeforeMs;
  const isLaterValid = offsetMsAt(later, zone) === offsetAfterMs;
  if (isEarlierValid && isLaterValid) return Math.min(earlier, later); // fold: first occurrence
  if (isEarlierValid) return earlier;
  if (isLaterValid) return later;
  return earlier; // gap: the offset before the gap
}

/** Epoch ms of a local date and time (`HH:MM` or `HH:MM:SS`) in `zone`; see {@link wallMsToInstant} for gaps and folds. */
export function localToInstant(date: string, time: string, zone: string): number {
  const wallMs = parseLocalDate(date) * MS_PER_DAY + parseLocalTime(time) * MS_PER_SECOND;
  return wallMsToInstant(wallMs, zone);
}

// ---------------------------------------------------------------------------
// Instant to local time.

/**
 * ISO 8601 with the zone's offset at that instant, seconds and no
 * milliseconds, e.g. `2026-03-08T03:30:00-04:00`; a zero offset is `+00:00`.
 * Milliseconds are dropped (floored). An offset with seconds (local mean time
 * before about 1900) is rounded to the minute and the wall time shown with
 * that rounded offset, so the string still names exactly this instant.
 */
export function formatInstant(epochMs: number, zone: string): string {
  const epochSeconds = Math.floor(epochMs / MS_PER_SECOND);
  const offsetMinutes = Math.round(offsetMsAt(epochSeconds * MS_PER_SECOND, zone) / MS_PER_MINUTE);
  const wallSeconds = epochSeconds + offsetMinutes * 60;
  const dayNumber = Math.floor(wallSeconds / 86_400);
  const secondOfDay = wallSeconds - dayNumber * 86_400;
  const hours = Math.floor(secondOfDay / 3600);
  const minutes = Math.floor((secondOfDay % 3600) / 60);
  const seconds = secondOfDay % 60;
  const sign = offsetMinutes < 0 ? "-" : "+";
  const absoluteOffset = Math.abs(offsetMinutes);
  return `${formatLocalDate(dayNumber)}T${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}${sign}${pad2(Math.floor(absoluteOffset / 60))}:${pad2(absoluteOffset % 60)}`;
}

/** Day number of the local date at an instant. */
export function localDayNumberOf(epochMs: number, zone: string): number {
  return Math.floor((epochMs + offsetMsAt(epochMs, zone)) / MS_PER_DAY);
}

/** `YYYY-MM-DD`: the local date in `zone` at an instant. */
export function localDateOf(epochMs: number, zone: string): string {
  return formatLocalDate(localDayNumberOf(epochMs, zone));
}

/** `HH:MM`: the local wall-clock time in `zone` at an instant (seconds dropped). */
export function localTimeOf(epochMs: number, zone: string): string {
  const wallMs = epochMs + offsetMsAt(epochMs, zone);
  const minuteOfDay = Math.floor((wallMs - Math.floor(wallMs / MS_PER_DAY) * MS_PER_DAY) / MS_PER_MINUTE);
  return `${pad2(Math.floor(minuteOfDay / 60))}:${pad2(minuteOfDay % 60)}`;
}

/** Today's local date in `zone` at `epochMs` (the caller's clock: the emulator's, or `Date.now()`). */
export function todayIn(zone: string, epochMs: number): string {
  return localDateOf(epochMs, zone);
}

/**
 * Real minutes between the starts of `date` and of the next day in `zone`:
 * 1440 on most days, 1380 or 1500 on an hour's DST change, 1410 or 1470 on
 * Lord Howe's. A day whose midnight falls in a gap starts when the gap ends.
 */
export function dayLengthMinutes(date: string, zone: string): number {
  const wallMs = parseLocalDate(date) * MS_PER_DAY;
  return (wallMsToInstant(wallMs + MS_PER_DAY, zone) - wallMsToInstant(wallMs, zone)) / MS_PER_MINUTE;
}
