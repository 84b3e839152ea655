// The local dates a parsed recurrence occurs on within a window: the second
// of the expansion's three parts (expand-template.ts).

import type { AvailabilityTemplate } from "../clinic-api/schedule.ts";
import { daysFromCivil, civilFromDays, formatLocalDate, parseLocalDate, weekdayOfDayNumber } from "../time/zoned-time.ts";
import { type ByDay, type RecurrenceRule, type ParsedRecurrence, type ExpansionWindow, type RuleDaysEvaluator, type ExpansionOptions } from "./recurrence-types.ts";
import { minDay, parseRecurrenceCached } from "./parse-recurrence.ts";

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

export function occurringDaysAnchored(parsed: ParsedRecurrence, from: number, to: number, windowStart: number, evaluateRule: RuleDaysEvaluator): number[] {
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
