// Parsing a template's recurrence text (RRULE, RDATE, EXDATE, DTSTART and
// `recurrence.until`) into day-level rules on local dates, memoised by text:
// the first of the expansion's three parts (expand-template.ts).

import type { AvailabilityTemplate } from "../clinic-api/schedule.ts";
import { daysFromCivil, localDayNumberOf, parseLocalDate, wallMsToInstant } from "../time/zoned-time.ts";
import { RecurrenceError, MS_PER_DAY, MS_PER_SECOND, type RecurrenceFrequency, type ByDay, type RecurrenceRule, type ParsedRecurrence } from "./recurrence-types.ts";

const WEEKDAY_CODES = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
const FREQUENCIES: readonly string[] = ["YEARLY", "MONTHLY", "WEEKLY", "DAILY"];
const SUB_DAILY_FREQUENCIES: readonly string[] = ["HOURLY", "MINUTELY", "SECONDLY"];
const DATE_VALUE_PATTERN = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/;
const BYDAY_PATTERN = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/;

function isFrequency(value: string): value is RecurrenceFrequency {
  return FREQUENCIES.includes(value);
}

/**
 * The local date (day number, in `zone`) that a DTSTART, UNTIL, EXDATE or
 * RDATE value names. A date, a floating date-time or one in `zone` itself is
 * taken as written; a UTC date-time (`…Z`) or one in another `TZID` is first
 * converted to `zone` (DESIGN.md: a UTC UNTIL is converted to the template's
 * zone, then its local date is used).
 */
function localDayOfValue(value: string, tzid: string | null, zone: string, what: string): number {
  const match = DATE_VALUE_PATTERN.exec(value);
  if (match === null) throw new RecurrenceError(`${what}: "${value}" is not an RFC 5545 DATE or DATE-TIME`);
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  let dayNumber: number;
  try {
    dayNumber = parseLocalDate(`${match[1]}-${match[2]}-${match[3]}`);
  } catch {
    throw new RecurrenceError(`${what}: "${value}" is not a valid date`);
  }
  if (match[4] === undefined) return dayNumber;
  const hours = Number(match[4]);
  const minutes = Number(match[5]);
  const seconds = Number(match[6]);
  if (hours > 23 || minutes > 59 || seconds > 60) throw new RecurrenceError(`${what}: "${value}" is not a valid time`);
  const wallMs = daysFromCivil(year, month, day) * MS_PER_DAY + (hours * 3600 + minutes * 60 + seconds) * MS_PER_SECOND;
  if (match[7] === "Z") return localDayNumberOf(wallMs, zone);
  if (tzid !== null && tzid !== zone) {
    let instant: number;
    try {
      instant = wallMsToInstant(wallMs, tzid);
    } catch {
      throw new RecurrenceError(`${what}: unknown TZID "${tzid}"`);
    }
    return localDayNumberOf(instant, zone);
  }
  return dayNumber;
}

function parseParameters(text: string): Map<string, string> {
  const parameters = new Map<string, string>();
  for (const piece of text.split(";")) {
    if (piece === "") continue;
    const equals = piece.indexOf("=");
    if (equals < 0) throw new RecurrenceError(`Malformed property parameter "${piece}"`);
    const value = piece.slice(equals + 1);
    parameters.set(piece.slice(0, equals).toUpperCase(), value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1) : value);
  }
  return parameters;
}

function parseIntegerList(part: string, value: string, min: number, max: number, allowNegative: boolean): number[] {
  return value.split(",").map((item) => {
    if (!/^[+-]?\d+$/.test(item)) throw new RecurrenceError(`${part}: "${item}" is not an integer`);
    const number = Number(item);
    const magnitude = Math.abs(number);
    if (magnitude < min || magnitude > max || (number < 0 && !allowNegative)) throw new RecurrenceError(`${part}: ${item} is out of range`);
    return number;
  });
}

function parseWeekdayCode(value: string, part: string): number {
  const index = WEEKDAY_CODES.findIndex((code) => code === value);
  if (index < 0) throw new RecurrenceError(`${part}: "${value}" is not a weekday`);
  return index;
}

function parseRule(text: string, zone: string): RecurrenceRule {
  let freq: RecurrenceFrequency | null = null;
  let interval = 1;
  let count: number | null = null;
  let untilDay: number | null = null;
  let wkst = 0;
  let byDay: ByDay[] | null = null;
  let byMonth: number[] | null = null;
  let byMonthDay: number[] | null = null;
  let byYearDay: number[] | null = null;
  let byWeekNo: number[] | null = null;
  let bySetPos: number[] | null = null;
  for (const piece of text.split(";")) {
    if (piece === "") continue;
    const equals = piece.indexOf("=");
    if (equals < 0) throw new RecurrenceError(`RRULE: malformed part "${piece}"`);
    const name = piece.slice(0, equals).toUpperCase();
    const value = piece.slice(equals + 1).toUpperCase();
    switch (name) {
      case "FREQ":
        if (isFrequency(value)) freq = value;
        else if (SUB_DAILY_FREQUENCIES.includes(value)) throw new RecurrenceError(`RRULE: FREQ=${value} is not supported: availability recurs by date`);
        else throw new RecurrenceError(`RRULE: unknown FREQ "${value}"`);
        break;
      case "INTERVAL":
        interval = parseIntegerList(name, value, 1, Number.MAX_SAFE_INTEGER, false)[0] ?? 1;
        break;
      case "COUNT":
        count = parseIntegerList(name, value, 0, Number.MAX_SAFE_INTEGER, false)[0] ?? null;
        break;
      case "UNTIL":
        untilDay = localDayOfValue(value, null, zone, "UNTIL");
        break;
      case "WKST":
        wkst = parseWeekdayCode(value, name);
        break;
      case "BYDAY":
        byDay = value.split(",").map((item) => {
          const match = BYDAY_PATTERN.exec(item);
          if (match === null) throw new RecurrenceError(`BYDAY: "${item}" is not a weekday`);
          const n = match[1] === undefined ? 0 : Number(match[1]);
          if (Math.abs(n) > 53) throw new RecurrenceError(`BYDAY: "${item}" is out of range`);
          return { weekday: parseWeekdayCode(match[2] ?? "", name), n };
        });
        break;
      case "BYMONTH":
        byMonth = parseIntegerList(name, value, 1, 12, false);
        break;
      case "BYMONTHDAY":
        byMonthDay = parseIntegerList(name, value, 1, 31, true);
        break;
      case "BYYEARDAY":
        byYearDay = parseIntegerList(name, value, 1, 366, true);
        break;
      case "BYWEEKNO":
        byWeekNo = parseIntegerList(name, value, 1, 53, true);
        break;
      case "BYSETPOS":
        bySetPos = parseIntegerList(name, value, 1, 366, true);
        break;
      case "BYHOUR":
      case "BYMINUTE":
      case "BYSECOND":
        // DESIGN.md: time parts of the rule are ignored; one instance per occurring date.
        break;
      default:
        if (!name.startsWith("X-")) throw new RecurrenceError(`RRULE: unsupported part "${name}"`);
    }
  }
  if (freq === null) throw new RecurrenceError("RRULE: FREQ is missing");
  return { freq, interval, count, untilDay, wkst, byDay, byMonth, byMonthDay, byYearDay, byWeekNo, bySetPos };
}

export function minDay(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.min(a, b);
}

/**
 * Reads `recurrence.rrule` (RFC 5545 text: optional `DTSTART`, `RRULE` lines
 * or bare rule text, `EXDATE` and `RDATE` lines, folded or not) and
 * `recurrence.until` into local dates of `zone`. Throws RecurrenceError on
 * text it cannot read, on `EXRULE`, and on sub-daily frequencies. Unknown
 * properties (`DTEND`, `X-…`) are ignored: times come from the template.
 */
export function parseRecurrence(recurrence: AvailabilityTemplate["recurrence"], zone: string): ParsedRecurrence {
  let anchorDay: number | null = null;
  const rules: RecurrenceRule[] = [];
  const rDays: number[] = [];
  const exDays = new Set<number>();
  // Unfold (RFC 5545 3.1), then each content line is one whitespace-free token.
  const tokens = recurrence.rrule.replace(/\r?\n[ \t]/g, "").split(/\s+/).filter((token) => token !== "");
  for (const token of tokens) {
    const colon = token.indexOf(":");
    if (colon < 0) {
      if (/^FREQ=|;FREQ=/i.test(token)) {
        rules.push(parseRule(token, zone));
        continue;
      }
      throw new RecurrenceError(`Unreadable recurrence line "${token}"`);
    }
    const head = token.slice(0, colon);
    const value = token.slice(colon + 1);
    const semicolon = head.indexOf(";");
    const name = (semicolon < 0 ? head : head.slice(0, semicolon)).toUpperCase();
    const parameters = parseParameters(semicolon < 0 ? "" : head.slice(semicolon + 1));
    const tzid = parameters.get("TZID") ?? null;
    switch (name) {
      case "DTSTART":
        anchorDay = localDayOfValue(value, tzid, zone, "DTSTART");
        break;
      case "RRULE":
        rules.push(parseRule(value, zone));
        break;
      case "EXDATE":
        for (const item of value.split(",")) exDays.add(localDayOfValue(item, tzid, zone, "EXDATE"));
        break;
      case "RDATE":
        if (parameters.get("VALUE")?.toUpperCase() === "PERIOD") throw new RecurrenceError("RDATE: PERIOD values are not supported");
        for (const item of value.split(",")) rDays.push(localDayOfValue(item, tzid, zone, "RDATE"));
        break;
      case "EXRULE":
        throw new RecurrenceError("EXRULE is not supported (deprecated by RFC 5545)");
      default:
        break;
    }
  }
  let untilDay: number | null = null;
  if (recurrence.until !== null) {
    try {
      untilDay = parseLocalDate(recurrence.until);
    } catch {
      throw new RecurrenceError(`recurrence.until: "${recurrence.until}" is not a date`);
    }
  }
  return { anchorDay, rules, rDays, exDays, untilDay };
}

// Parsing is pure and templates are expanded again and again (every slot
// search), so parsed recurrences are memoised by their text.
const PARSE_CACHE_LIMIT = 10_000;
const parseCache = new Map<string, ParsedRecurrence>();

export function parseRecurrenceCached(recurrence: AvailabilityTemplate["recurrence"], zone: string): ParsedRecurrence {
  const key = `${zone}\u0000${recurrence.until ?? ""}\u0000${recurrence.rrule}`;
  let parsed = parseCache.get(key);
  if (parsed === undefined) {
    parsed = parseRecurrence(recurrence, zone);
    if (parseCache.size >= PARSE_CACHE_LIMIT) parseCache.clear();
    parseCache.set(key, parsed);
  }
  return parsed;
}
