// Availability template expansion: the one implementation the emulator, the
// BFF and the SPA share (DESIGN.md "Rules that come from the spec and must
// hold": the recurrence and time items, and "Two traps, measured").
//
// Recurrence is evaluated on local dates only ("one instance per occurring
// date"); local times become instants in contract/time/zoned-time.ts. The
// rules are evaluated here rather than by the `rrule` package, which walks
// every period from DTSTART, and to year 9999 for a rule that never matches;
// its tzid support reads the host's zone, and its CommonJS build needs
// different imports under Node and Vite. The tests hold this evaluator to
// `rrule` (in floating time) as the reference.

import type { AvailabilityInstance, AvailabilityTemplate } from "../clinic-api/schedule.ts";
import {
  daysFromCivil,
  civilFromDays,
  formatInstant,
  formatLocalDate,
  localDayNumberOf,
  parseLocalDate,
  parseLocalTime,
  wallMsToInstant,
  weekdayOfDayNumber,
} from "../time/zoned-time.ts";

const MS_PER_DAY = 86_400_000;
const MS_PER_SECOND = 1000;

/** A recurrence text the expansion cannot read (malformed, or a feature outside day-level rules). */
export class RecurrenceError extends Error {
  override name = "RecurrenceError";
}

export type RecurrenceFrequency = "YEARLY" | "MONTHLY" | "WEEKLY" | "DAILY";

/** One `BYDAY` entry: weekday 0 = Monday … 6 = Sunday; `n` is the ordinal (`-1FR`), 0 when absent. */
export interface ByDay {
  readonly weekday: number;
  readonly n: number;
}

/** One `RRULE`, with dates as day numbers (days since 1970-01-01, see zoned-time.ts). */
export interface RecurrenceRule {
  readonly freq: RecurrenceFrequency;
  readonly interval: number;
  readonly count: number | null;
  /** The rule's own `UNTIL` as a local date of the template's zone, inclusive. */
  readonly untilDay: number | null;
  /** 0 = Monday … 6 = Sunday. */
  readonly wkst: number;
  readonly byDay: readonly ByDay[] | null;
  readonly byMonth: readonly number[] | null;
  readonly byMonthDay: readonly number[] | null;
  readonly byYearDay: readonly number[] | null;
  readonly byWeekNo: readonly number[] | null;
  readonly bySetPos: readonly number[] | null;
}

export interface ParsedRecurrence {
  /** `DTSTART` as a local date of the template's zone; null when absent (then the window's first day anchors the rule). */
  readonly anchorDay: number | null;
  readonly rules: readonly RecurrenceRule[];
  /** `RDATE` local dates: added occurrences (bounded by `recurrence.until`, not by a rule's `UNTIL` or `COUNT`, as in RFC 5545). */
  readonly rDays: readonly number[];
  /** `EXDATE` local dates: the occurrence on each is removed. */
  readonly exDays: ReadonlySet<number>;
  /** `recurrence.until`, inclusive. */
  readonly untilDay: number | null;
}

export interface ExpansionWindow {
  /** `YYYY-MM-DD`, inclusive, a local date of each template's zone. */
  startDate: string;
  /** `YYYY-MM-DD`, inclusive. */
  endDate: string;
}

/**
 * Evaluates one RRULE: its occurring days in [from, to], ascending, with
 * `untilDay` already the earlier of the rule's UNTIL and `recurrence.until`.
 * {@link ruleOccurringDays} is the implementation; tests pass the `rrule`
 * package here as the reference.
 */
export type RuleDaysEvaluator = (rule: RecurrenceRule, anchorDay: number, from: number, to: number) => number[];

export interface ExpansionOptions {
  evaluateRule?: RuleDaysEvaluator;
}

// ---------------------------------------------------------------------------
// Parsing.

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

function minDay(a: number | null, b: number | null): number | null {
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

function parseRecurrenceCached(recurrence: AvailabilityTemplate["recurrence"], zone: string): ParsedRecurrence {
  const key = `${zone}\u0000${recurrence.until ?? ""}\u0000${recurrence.rrule}`;
  let parsed = parseCache.get(key);
  if (parsed === undefined) {
    parsed = parseRecurrence(recurrence, zone);
    if (parseCache.size >= PARSE_CACHE_LIMIT) parseCache.clear();
    parseCache.set(key, parsed);
  }
  return parsed;
}

// ---------------------------------------------------------------------------
// Occurring dates.
//
// A port of the period-by-period evaluation that `rrule` (after
// python-dateutil) performs, with two differences that make its cost
// independent of DTSTART's age (DESIGN.md "Two traps, measured"): it starts
// at the first active period (INTERVAL phase kept) that reaches the window
// instead of at DTSTART, and it stops at the window's end even when periods
// yield nothing. With COUNT the occurrences before the window must be
// counted: in constant time for DAILY and WEEKLY rules filtered by weekday
// only, otherwise by walking the periods from DTSTART, which COUNT and the
// window both bound.

/** The start of the WKST-week containing a day. */
function weekStart(dayNumber: number, wkst: number): number {
  return dayNumber - ((weekdayOfDayNumber(dayNumber) - wkst + 7) % 7);
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonthOf(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The same defaults `rrule` (and python-dateutil) derive from DTSTART when no BYxxx part fixes the day. */
function withAnchorDefaults(rule: RecurrenceRule, anchorDay: number): RecurrenceRule {
  if (rule.byWeekNo !== null || rule.byYearDay !== null || rule.byMonthDay !== null || rule.byDay !== null) return rule;
  const { month, day } = civilFromDays(anchorDay);
  switch (rule.freq) {
    case "YEARLY":
      return { ...rule, byMonth: rule.byMonth ?? [month], byMonthDay: [day] };
    case "MONTHLY":
      return { ...rule, byMonthDay: [day] };
    case "WEEKLY":
      return { ...rule, byDay: [{ weekday: weekdayOfDayNumber(anchorDay), n: 0 }] };
    case "DAILY":
      return rule;
  }
}

/**
 * `rrule`'s week-number mask for one year (python-dateutil's `wnomask`,
 * ported as is, quirks included): index i is January 1st + i, up to 7 days
 * into the next year.
 */
function weekNumberMask(year: number, byWeekNo: readonly number[], wkst: number): Uint8Array {
  const firstDay = daysFromCivil(year, 1, 1);
  const yearLength = isLeapYear(year) ? 366 : 365;
  const mask = new Uint8Array(yearLength + 7);
  const weekdayAt = (index: number): number => weekdayOfDayNumber(firstDay + index);
  const yearWeekday = weekdayAt(0);
  const firstWkst = (((7 - yearWeekday + wkst) % 7) + 7) % 7;
  let no1wkst = firstWkst;
  let weekYearLength: number;
  if (no1wkst >= 4) {
    no1wkst = 0;
    weekYearLength = yearLength + ((((yearWeekday - wkst) % 7) + 7) % 7);
  } else {
    weekYearLength = yearLength - no1wkst;
  }
  const numWeeks = Math.floor(Math.floor(weekYearLength / 7) + (weekYearLength % 7) / 4);
  const markWeekFrom = (start: number): void => {
    let i = start;
    for (let k = 0; k < 7; k += 1) {
      mask[i] = 1;
      i += 1;
      if (weekdayAt(i) === wkst) break;
    }
  };
  for (const wanted of byWeekNo) {
    const n = wanted < 0 ? wanted + numWeeks + 1 : wanted;
    if (!(n > 0 && n <= numWeeks)) continue;
    let i: number;
    if (n > 1) {
      i = no1wkst + (n - 1) * 7;
      if (no1wkst !== firstWkst) i -= 7 - firstWkst;
    } else {
      i = no1wkst;
    }
    markWeekFrom(i);
  }
  if (byWeekNo.includes(1)) {
    // Week 1 of the next year, when it starts in this one.
    let i = no1wkst + numWeeks * 7;
    if (no1wkst !== firstWkst) i -= 7 - firstWkst;
    if (i < yearLength) markWeekFrom(i);
  }
  if (no1wkst !== 0) {
    // Days before this year's week 1 belong to last year's last week.
    let lastYearWeeks: number;
    if (byWeekNo.includes(-1)) {
      lastYearWeeks = -1;
    } else {
      const lastYearWeekday = weekdayOfDayNumber(daysFromCivil(year - 1, 1, 1));
      const lastNo1wkst = (((7 - lastYearWeekday + wkst) % 7) + 7) % 7;
      const lastYearLength = isLeapYear(year - 1) ? 366 : 365;
      const weekStartCount = lastNo1wkst >= 4 ? lastYearLength + ((((lastYearWeekday - wkst) % 7) + 7) % 7) : yearLength - no1wkst;
      lastYearWeeks = Math.floor(52 + (weekStartCount % 7) / 4);
    }
    if (byWeekNo.includes(lastYearWeeks)) for (let i = 0; i < no1wkst; i += 1) mask[i] = 1;
  }
  return mask;
}

/** A rule prepared for evaluation: defaults applied, BYDAY split as `rrule` splits it. */
interface PreparedRule {
  readonly rule: RecurrenceRule;
  readonly anchorDay: number;
  /** Plain weekdays as a bit mask, 0 when BYDAY has none. */
  readonly weekdayMask: number;
  /** Ordinal weekdays, only for MONTHLY and YEARLY (below that `rrule` reads `1MO` as `MO`). */
  readonly nthWeekdays: readonly ByDay[];
  readonly monthMask: number;
  readonly positiveMonthDays: readonly number[];
  readonly negativeMonthDays: readonly number[];
  readonly hasMonthDays: boolean;
  readonly weekNumberMasks: Map<number, Uint8Array>;
}

function prepareRule(rule: RecurrenceRule, anchorDay: number): PreparedRule {
  const explicit = withAnchorDefaults(rule, anchorDay);
  const isOrdinalFrequency = explicit.freq === "MONTHLY" || explicit.freq === "YEARLY";
  let weekdayMask = 0;
  const nthWeekdays: ByDay[] = [];
  for (const entry of explicit.byDay ?? []) {
    if (entry.n !== 0 && isOrdinalFrequency) nthWeekdays.push(entry);
    else weekdayMask |= 1 << entry.weekday;
  }
  let monthMask = 0;
  for (const month of explicit.byMonth ?? []) monthMask |= 1 << month;
  const monthDays = explicit.byMonthDay ?? [];
  return {
    rule: explicit,
    anchorDay,
    weekdayMask,
    nthWeekdays,
    monthMask,
    positiveMonthDays: monthDays.filter((day) => day > 0),
    negativeMonthDays: monthDays.filter((day) => day < 0),
    hasMonthDays: monthDays.length > 0,
    weekNumberMasks: new Map(),
  };
}

function weekNumberMaskFor(prepared: PreparedRule, year: number): Uint8Array | null {
  const byWeekNo = prepared.rule.byWeekNo;
  if (byWeekNo === null) return null;
  let mask = prepared.weekNumberMasks.get(year);
  if (mask === undefined) {
    mask = weekNumberMask(year, byWeekNo, prepared.rule.wkst);
    prepared.weekNumberMasks.set(year, mask);
  }
  return mask;
}

/** Day numbers selected by ordinal BYDAY entries in a range of days (`rrule`'s `nwdaymask`). */
function markNthWeekdays(nthWeekdays: readonly ByDay[], first: number, last: number, into: Set<number>): void {
  for (const { weekday, n } of nthWeekdays) {
    let day: number;
    if (n < 0) {
      day = last + (n + 1) * 7;
      day -= (((weekdayOfDayNumber(day) - weekday) % 7) + 7) % 7;
    } else {
      day = first + (n - 1) * 7;
      day += (((7 - weekdayOfDayNumber(day) + weekday) % 7) + 7) % 7;
    }
    if (first <= day && day <= last) into.add(day);
  }
}

interface Period {
  /** First day of the period's day set (for WEEKLY's first period, DTSTART itself, as in `rrule`). */
  readonly first: number;
  /** Last day of the period, inclusive. */
  readonly last: number;
}

/** Index of the period (of the rule's frequency) containing a day, counted from DTSTART's period. */
function periodIndexOf(rule: RecurrenceRule, anchorDay: number, day: number): number {
  switch (rule.freq) {
    case "DAILY":
      return day - anchorDay;
    case "WEEKLY":
      return Math.floor((weekStart(day, rule.wkst) - weekStart(anchorDay, rule.wkst)) / 7);
    case "MONTHLY": {
      const anchor = civilFromDays(anchorDay);
      const target = civilFromDays(day);
      return (target.year - anchor.year) * 12 + (target.month - anchor.month);
    }
    case "YEARLY":
      return civilFromDays(day).year - civilFromDays(anchorDay).year;
  }
}

function periodAt(rule: RecurrenceRule, anchorDay: number, index: number): Period {
  switch (rule.freq) {
    case "DAILY":
      return { first: anchorDay + index, last: anchorDay + index };
    case "WEEKLY": {
      const start = weekStart(anchorDay, rule.wkst) + 7 * index;
      return { first: index === 0 ? anchorDay : start, last: start + 6 };
    }
    case "MONTHLY": {
      const anchor = civilFromDays(anchorDay);
      const monthIndex = anchor.year * 12 + (anchor.month - 1) + index;
      const year = Math.floor(monthIndex / 12);
      const month = monthIndex - year * 12 + 1;
      const first = daysFromCivil(year, month, 1);
      return { first, last: first + daysInMonthOf(year, month) - 1 };
    }
    case "YEARLY": {
      const year = civilFromDays(anchorDay).year + index;
      return { first: daysFromCivil(year, 1, 1), last: daysFromCivil(year + 1, 1, 1) - 1 };
    }
  }
}

/**
 * The days of one period that the rule selects, ascending, before DTSTART,
 * UNTIL and COUNT are applied; `scanFrom`/`scanTo` narrow the scan when
 * BYSETPOS (which ranks the whole period) is absent.
 */
function periodDays(prepared: PreparedRule, period: Period, scanFrom: number, scanTo: number): number[] {
  const { rule } = prepared;
  const hasSetPos = rule.bySetPos !== null;
  const first = hasSetPos ? period.first : Math.max(period.first, scanFrom);
  const last = hasSetPos ? period.last : Math.min(period.last, scanTo);
  const days: number[] = [];
  if (first > last) return days;
  // Year-relative masks come from the year the period's day set starts in, as in `rrule`.
  const maskYear = civilFromDays(period.first).year;
  const maskYearStart = daysFromCivil(maskYear, 1, 1);
  const weekNumbers = weekNumberMaskFor(prepared, maskYear);
  let nthDays: Set<number> | null = null;
  if (prepared.nthWeekdays.length > 0) {
    nthDays = new Set();
    if (rule.freq === "MONTHLY") {
      markNthWeekdays(prepared.nthWeekdays, period.first, period.last, nthDays);
    } else if (rule.byMonth === null) {
      markNthWeekdays(prepared.nthWeekdays, maskYearStart, daysFromCivil(maskYear + 1, 1, 1) - 1, nthDays);
    } else {
      for (const month of rule.byMonth) {
        const monthStart = daysFromCivil(maskYear, month, 1);
        markNthWeekdays(prepared.nthWeekdays, monthStart, monthStart + daysInMonthOf(maskYear, month) - 1, nthDays);
      }
    }
  }
  const needsCivil = prepared.monthMask !== 0 || prepared.hasMonthDays || rule.byYearDay !== null;
  for (let day = first; day <= last; day += 1) {
    if (prepared.weekdayMask !== 0 && ((prepared.weekdayMask >> weekdayOfDayNumber(day)) & 1) === 0) continue;
    if (nthDays !== null && !nthDays.has(day)) continue;
    if (weekNumbers !== null && weekNumbers[day - maskYearStart] !== 1) continue;
    if (needsCivil) {
      const { year, month, day: monthDay } = civilFromDays(day);
      if (prepared.monthMask !== 0 && ((prepared.monthMask >> month) & 1) === 0) continue;
      if (prepared.hasMonthDays) {
        const fromEnd = monthDay - daysInMonthOf(year, month) - 1;
        if (!prepared.positiveMonthDays.includes(monthDay) && !prepared.negativeMonthDays.includes(fromEnd)) continue;
      }
      if (rule.byYearDay !== null) {
        const yearDay = day - daysFromCivil(year, 1, 1) + 1;
        const fromEnd = yearDay - (isLeapYear(year) ? 366 : 365) - 1;
        if (!rule.byYearDay.includes(yearDay) && !rule.byYearDay.includes(fromEnd)) continue;
      }
    }
    days.push(day);
  }
  if (rule.bySetPos === null) return days;
  const picked = new Set<number>();
  for (const position of rule.bySetPos) {
    const day = position < 0 ? days[days.length + position] : days[position - 1];
    if (day !== undefined) picked.add(day);
  }
  return [...picked].sort((a, b) => a - b);
}

/** Whether COUNT can be settled arithmetically: DAILY or WEEKLY filtered by weekday only. */
function hasCountFormula(rule: RecurrenceRule): boolean {
  return (
    (rule.freq === "DAILY" || rule.freq === "WEEKLY") &&
    rule.byMonth === null &&
    rule.byMonthDay === null &&
    rule.byYearDay === null &&
    rule.byWeekNo === null &&
    rule.bySetPos === null
  );
}

const ALL_WEEKDAYS_MASK = 0b111_1111;

function countWeekdaysInRange(mask: number, from: number, toExclusive: number): number {
  let count = 0;
  for (let day = from; day < toExclusive; day += 1) if ((mask >> weekdayOfDayNumber(day)) & 1) count += 1;
  return count;
}

function popcount(mask: number): number {
  let count = 0;
  for (let bits = mask; bits !== 0; bits >>= 1) count += bits & 1;
  return count;
}

/** Occurrences in [DTSTART, day) of a rule {@link hasCountFormula} accepts, in constant time. */
function occurrencesBefore(prepared: PreparedRule, day: number): number {
  const { rule, anchorDay } = prepared;
  if (day <= anchorDay) return 0;
  const mask = prepared.weekdayMask === 0 ? ALL_WEEKDAYS_MASK : prepared.weekdayMask;
  const n = rule.interval;
  if (rule.freq === "DAILY") {
    const steps = Math.ceil((day - anchorDay) / n);
    const anchorWeekday = weekdayOfDayNumber(anchorDay);
    const isSelected = (step: number): boolean => ((mask >> ((anchorWeekday + n * step) % 7)) & 1) === 1;
    let perSeven = 0;
    for (let i = 0; i < 7; i += 1) if (isSelected(i)) perSeven += 1;
    let count = Math.floor(steps / 7) * perSeven;
    for (let i = steps - (steps % 7); i < steps; i += 1) if (isSelected(i)) count += 1;
    return count;
  }
  // WEEKLY: selected days of active weeks from DTSTART's week start, minus those before DTSTART.
  const anchorWeek = weekStart(anchorDay, rule.wkst);
  const fromWeekStart = (limit: number): number => {
    const week = Math.floor((limit - anchorWeek) / 7);
    const activeFullWeeks = week === 0 ? 0 : Math.floor((week - 1) / n) + 1;
    const partial = week % n === 0 ? countWeekdaysInRange(mask, anchorWeek + 7 * week, limit) : 0;
    return activeFullWeeks * popcount(mask) + partial;
  };
  return fromWeekStart(day) - fromWeekStart(anchorDay);
}

/** The rule's occurring days in [from, to], ascending; see {@link RuleDaysEvaluator}. */
export function ruleOccurringDays(rule: RecurrenceRule, anchorDay: number, from: number, to: number): number[] {
  const days: number[] = [];
  const last = rule.untilDay === null ? to : Math.min(to, rule.untilDay);
  const first = Math.max(from, anchorDay);
  if (first > last || rule.count === 0) return days;
  const prepared = prepareRule(rule, anchorDay);
  const n = rule.interval;
  let remaining = Number.POSITIVE_INFINITY;
  let index: number;
  let scanFrom = first;
  if (rule.count === null) {
    // The first active period (INTERVAL phase from DTSTART) that reaches the window.
    index = Math.ceil(periodIndexOf(rule, anchorDay, first) / n) * n;
  } else if (hasCountFormula(rule)) {
    remaining = rule.count - occurrencesBefore(prepared, first);
    index = Math.ceil(periodIndexOf(rule, anchorDay, first) / n) * n;
  } else {
    remaining = rule.count;
    index = 0;
    scanFrom = anchorDay;
  }
  for (; remaining > 0; index += n) {
    const period = periodAt(rule, anchorDay, index);
    if (period.first > last) break;
    for (const day of periodDays(prepared, period, scanFrom, last)) {
      if (day < anchorDay) continue;
      if (day > last) break;
      if (day >= first) days.push(day);
      remaining -= 1;
      if (remaining <= 0) break;
    }
  }
  return days;
}

/**
 * The local dates (day numbers) in [from, to] on which the recurrence
 * occurs, ascending: every rule's dates and the RDATEs, bounded by
 * `recurrence.until` and each rule's UNTIL (the earlier wins), minus EXDATEs.
 */
export function occurringDays(parsed: ParsedRecurrence, from: number, to: number, options: ExpansionOptions = {}): number[] {
  return occurringDaysAnchored(parsed, from, to, from, options.evaluateRule ?? ruleOccurringDays);
}

function occurringDaysAnchored(parsed: ParsedRecurrence, from: number, to: number, windowStart: number, evaluateRule: RuleDaysEvaluator): number[] {
  const last = parsed.untilDay === null ? to : Math.min(to, parsed.untilDay);
  if (from > last) return [];
  // DESIGN.md: without DTSTART the rule is anchored on the window's first day.
  const anchorDay = parsed.anchorDay ?? windowStart;
  const found = new Set<number>();
  for (const rule of parsed.rules) {
    const bounded = { ...rule, untilDay: minDay(rule.untilDay, parsed.untilDay) };
    for (const day of evaluateRule(bounded, anchorDay, from, last)) found.add(day);
  }
  // RFC 5545: without any RRULE or RDATE, DTSTART is the one occurrence.
  if (parsed.rules.length === 0 && parsed.rDays.length === 0 && parsed.anchorDay !== null) found.add(parsed.anchorDay);
  for (const day of parsed.rDays) found.add(day);
  const days: number[] = [];
  for (const day of found) if (day >= from && day <= last && !parsed.exDays.has(day)) days.push(day);
  return days.sort((a, b) => a - b);
}

/** {@link occurringDays} for a template's recurrence, as `YYYY-MM-DD` strings. */
export function recurrenceDates(template: Pick<AvailabilityTemplate, "recurrence" | "timezone">, window: ExpansionWindow, options: ExpansionOptions = {}): string[] {
  const parsed = parseRecurrenceCached(template.recurrence, template.timezone);
  return occurringDays(parsed, parseLocalDate(window.startDate), parseLocalDate(window.endDate), options).map(formatLocalDate);
}

// ---------------------------------------------------------------------------
// Instances.

/**
 * The template's availability instances whose local start date lies in the
 * window, sorted by start (DESIGN.md "Rules that come from the spec"):
 * each occurring date gets one instance from `startTimeLocal` to
 * `endTimeLocal` (the next day when the end is at or before the start),
 * spanning the real time between them in the template's zone; an instance
 * whose end is not after its start is dropped; an inactive template has none.
 */
export function expandTemplate(template: AvailabilityTemplate, window: ExpansionWindow, options: ExpansionOptions = {}): AvailabilityInstance[] {
  if (!template.active) return [];
  const windowStart = parseLocalDate(window.startDate);
  const windowEnd = parseLocalDate(window.endDate);
  if (windowEnd < windowStart) return [];
  const zone = template.timezone;
  const parsed = parseRecurrenceCached(template.recurrence, zone);
  const startSeconds = parseLocalTime(template.startTimeLocal);
  const endSeconds = parseLocalTime(template.endTimeLocal);
  const endDayOffset = endSeconds <= startSeconds ? 1 : 0;
  // One day before the window too: a start pushed forward by a gap that
  // spans midnight begins on the next local date, which is where it belongs.
  const days = occurringDaysAnchored(parsed, windowStart - 1, windowEnd, windowStart, options.evaluateRule ?? ruleOccurringDays);
  const starts: number[] = [];
  const instances: AvailabilityInstance[] = [];
  for (const day of days) {
    const startMs = wallMsToInstant(day * MS_PER_DAY + startSeconds * MS_PER_SECOND, zone);
    const endMs = wallMsToInstant((day + endDayOffset) * MS_PER_DAY + endSeconds * MS_PER_SECOND, zone);
    if (endMs <= startMs) continue;
    const startDay = localDayNumberOf(startMs, zone);
    if (startDay < windowStart || startDay > windowEnd) continue;
    starts.push(startMs);
    instances.push({
      templateId: template.id,
      providerId: template.providerId,
      facilityId: template.facilityId,
      startsAt: formatInstant(startMs, zone),
      endsAt: formatInstant(endMs, zone),
      concurrency: template.concurrency,
    });
  }
  if (isAscending(starts)) return instances;
  return sortByStart(instances, starts);
}

function isAscending(values: readonly number[]): boolean {
  for (let i = 1; i < values.length; i += 1) if ((values[i] ?? 0) < (values[i - 1] ?? 0)) return false;
  return true;
}

function sortByStart(instances: readonly AvailabilityInstance[], starts: readonly number[]): AvailabilityInstance[] {
  const order = instances.map((_, index) => index);
  order.sort((a, b) => (starts[a] ?? 0) - (starts[b] ?? 0) || a - b);
  return order.flatMap((index) => {
    const instance = instances[index];
    return instance === undefined ? [] : [instance];
  });
}

/**
 * Every template's instances in one list, sorted by start instant, then
 * template id (overlapping templates stay separate rows: DESIGN.md, overlap
 * adds capacity).
 */
export function expandTemplates(templates: readonly AvailabilityTemplate[], window: ExpansionWindow, options: ExpansionOptions = {}): AvailabilityInstance[] {
  const instances: AvailabilityInstance[] = [];
  const starts: number[] = [];
  for (const template of templates) {
    for (const instance of expandTemplate(template, window, options)) {
      instances.push(instance);
      starts.push(Date.parse(instance.startsAt));
    }
  }
  const order = instances.map((_, index) => index);
  order.sort((a, b) => {
    const byStart = (starts[a] ?? 0) - (starts[b] ?? 0);
    if (byStart !== 0) return byStart;
    const left = instances[a]?.templateId ?? "";
    const right = instances[b]?.templateId ?? "";
    return left < right ? -1 : left > right ? 1 : a - b;
  });
  return order.flatMap((index) => {
    const instance = instances[index];
    return instance === undefined ? [] : [instance];
  });
}
