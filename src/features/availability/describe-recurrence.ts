import { parseRecurrence, type ByDay, type RecurrenceRule } from "#contract/recurrence/expand-template.ts";
import { civilFromDays, formatLocalDate, parseLocalDate, weekdayOfDayNumber } from "#contract/time/zoned-time.ts";
import type { AvailabilityTemplate } from "./expand-template.ts";

// A template's recurrence in plain words ("every other Monday and Thursday
// until 31 Dec, except 1 date"), for the shapes the service's EHRs use:
// DAILY, WEEKLY and MONTHLY rules with INTERVAL, BYDAY, BYMONTHDAY, BYSETPOS,
// COUNT, UNTIL (the earlier of the rule's and `recurrence.until`), EXDATE
// and RDATE. The text is read with the contract's parser, so the words and
// the expansion never read a rule differently; anything rarer gets a
// general phrase rather than a wrong one.

type Recurrence = AvailabilityTemplate["recurrence"];

const WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"] as const;
const MONTH_SHORT = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;
const ORDINAL_WORDS = ["", "first", "second", "third", "fourth", "fifth"] as const;

export interface DescribeOptions {
  /** The year "now" in the template's zone: dates in it are written without the year. */
  currentYear?: number;
  /** Today's local date (`YYYY-MM-DD`): a rule that starts later says from when. */
  today?: string;
}

/** "Monday", "Monday and Thursday", "Monday, Wednesday and Friday". */
export function joinWords(words: readonly string[], conjunction: "and" | "or" = "and"): string {
  if (words.length <= 1) return words[0] ?? "";
  return `${words.slice(0, -1).join(", ")} ${conjunction} ${words.at(-1) ?? ""}`;
}

/** 1st, 2nd, 3rd, 4th, 11th, 21st… */
export function ordinalNumber(value: number): string {
  const tens = value % 100;
  if (tens >= 11 && tens <= 13) return `${value}th`;
  switch (value % 10) {
    case 1:
      return `${value}st`;
    case 2:
      return `${value}nd`;
    case 3:
      return `${value}rd`;
    default:
      return `${value}th`;
  }
}

/** "first", "last", "second-to-last", "6th". */
function ordinalWord(n: number): string {
  if (n === -1) return "last";
  if (n < 0) return `${ordinalWord(-n)}-to-last`;
  return ORDINAL_WORDS[n] ?? ordinalNumber(n);
}

/** "31 Dec" in `currentYear`, else "31 Dec 2027" (a local date: no zone involved). */
export function shortDate(dayNumber: number, currentYear?: number): string {
  const { year, month, day } = civilFromDays(dayNumber);
  return `${day} ${MONTH_SHORT[month - 1] ?? ""}${year === currentYear ? "" : ` ${year}`}`;
}

const WEEKDAYS_MASK = 0b001_1111;
const ALL_DAYS_MASK = 0b111_1111;
const WEEKEND_MASK = 0b110_0000;

function maskOf(weekdays: readonly number[]): number {
  return weekdays.reduce((mask, weekday) => mask | (1 << weekday), 0);
}

/** "Monday and Thursday" (or "Monday or Thursday"), in week order. */
function weekdayList(weekdays: readonly number[], conjunction: "and" | "or" = "and"): string {
  return joinWords([...new Set(weekdays)].sort((a, b) => a - b).map((weekday) => WEEKDAY_NAMES[weekday] ?? "?"), conjunction);
}

/** The plain weekdays of BYDAY (no ordinal), or null when absent or when ordinals are used. */
function plainWeekdays(byDay: readonly ByDay[] | null): number[] | null {
  if (byDay === null || byDay.some((entry) => entry.n !== 0)) return null;
  return byDay.map((entry) => entry.weekday);
}

function everyUnit(interval: number, singular: string, plural: string): string {
  if (interval === 1) return `every ${singular}`;
  if (interval === 2) return `every other ${singular}`;
  return `every ${interval} ${plural}`;
}

function describeWeekly(rule: RecurrenceRule, anchorDay: number | null): string {
  const weekdays = plainWeekdays(rule.byDay) ?? (rule.byDay === null && anchorDay !== null ? [weekdayOfDayNumber(anchorDay)] : null);
  if (weekdays === null || weekdays.length === 0) return everyUnit(rule.interval, "week", "weeks");
  const mask = maskOf(weekdays);
  if (mask === ALL_DAYS_MASK) return rule.interval === 1 ? "every day" : `every day, ${everyUnit(rule.interval, "week", "weeks")}`;
  if (mask === WEEKDAYS_MASK) return rule.interval === 1 ? "every weekday" : `${everyUnit(rule.interval, "week", "weeks")} on weekdays`;
  if (mask === WEEKEND_MASK && rule.interval === 1) return "every Saturday and Sunday";
  const days = weekdayList(weekdays);
  if (rule.interval <= 2) return `${rule.interval === 1 ? "every" : "every other"} ${days}`;
  return `every ${rule.interval} weeks on ${days}`;
}

function describeDaily(rule: RecurrenceRule): string {
  const base = everyUnit(rule.interval, "day", "days");
  const weekdays = plainWeekdays(rule.byDay);
  if (weekdays === null || weekdays.length === 0 || maskOf(weekdays) === ALL_DAYS_MASK) return base;
  if (rule.interval === 1) return maskOf(weekdays) === WEEKDAYS_MASK ? "every weekday" : `every ${weekdayList(weekdays)}`;
  return `${base}, when it is a ${weekdayList(weekdays, "or")}`;
}

function monthDayWords(days: readonly number[]): string {
  return joinWords(days.map((day) => (day === -1 ? "last day" : day < 0 ? `${ordinalWord(day)} day` : ordinalNumber(day))));
}

function describeMonthly(rule: RecurrenceRule, anchorDay: number | null): string {
  const base = rule.interval === 1 ? "monthly" : everyUnit(rule.interval, "month", "months");
  if (rule.byMonthDay !== null && rule.byDay === null) return `${base} on the ${monthDayWords(rule.byMonthDay)}`;
  if (rule.byDay !== null && rule.byMonthDay === null) {
    if (rule.byDay.every((entry) => entry.n !== 0)) {
      return `${base} on the ${joinWords(rule.byDay.map((entry) => `${ordinalWord(entry.n)} ${WEEKDAY_NAMES[entry.weekday] ?? "?"}`))}`;
    }
    const weekdays = plainWeekdays(rule.byDay);
    if (weekdays !== null) {
      const mask = maskOf(weekdays);
      if (rule.bySetPos !== null) {
        const what = mask === WEEKDAYS_MASK ? "weekday" : mask === ALL_DAYS_MASK ? "day" : weekdayList(weekdays, "or");
        return `${base} on the ${joinWords(rule.bySetPos.map(ordinalWord))} ${what}`;
      }
      return `${base} on every ${mask === WEEKDAYS_MASK ? "weekday" : mask === ALL_DAYS_MASK ? "day" : weekdayList(weekdays)}`;
    }
  }
  if (rule.byDay === null && rule.byMonthDay === null && anchorDay !== null) return `${base} on the ${ordinalNumber(civilFromDays(anchorDay).day)}`;
  return `${base} on selected days`;
}

function describeYearly(rule: RecurrenceRule, anchorDay: number | null): string {
  const base = rule.interval === 1 ? "yearly" : everyUnit(rule.interval, "year", "years");
  const hasOnlyDefaults = rule.byDay === null && rule.byMonthDay === null && rule.byYearDay === null && rule.byWeekNo === null && rule.bySetPos === null;
  if (hasOnlyDefaults && anchorDay !== null) {
    const { month, day } = civilFromDays(anchorDay);
    const months = rule.byMonth ?? [month];
    return `${base} on ${joinWords(months.map((candidate) => `${day} ${MONTH_NAMES[candidate - 1] ?? ""}`))}`;
  }
  return `${base} on selected days`;
}

function describeRule(rule: RecurrenceRule, anchorDay: number | null, untilDay: number | null, options: DescribeOptions): string {
  let text: string;
  switch (rule.freq) {
    case "DAILY":
      text = describeDaily(rule);
      break;
    case "WEEKLY":
      text = describeWeekly(rule, anchorDay);
      break;
    case "MONTHLY":
      text = describeMonthly(rule, anchorDay);
      break;
    case "YEARLY":
      text = describeYearly(rule, anchorDay);
      break;
  }
  if (rule.byMonth !== null && rule.freq !== "YEARLY") text += ` in ${joinWords(rule.byMonth.map((month) => MONTH_NAMES[month - 1] ?? "?"))}`;
  const until = untilDay === null ? rule.untilDay : rule.untilDay === null ? untilDay : Math.min(untilDay, rule.untilDay);
  if (until !== null) text += ` until ${shortDate(until, options.currentYear)}`;
  if (rule.count !== null) text += rule.count === 1 ? ", once" : `, ${rule.count} times`;
  return text;
}

/**
 * The recurrence in plain words. Throws the contract's RecurrenceError on a
 * rule it cannot read (see {@link describeRecurrenceSafely}).
 */
export function describeRecurrence(recurrence: Recurrence, zone: string, options: DescribeOptions = {}): string {
  const parsed = parseRecurrence(recurrence, zone);
  const parts = parsed.rules.map((rule) => describeRule(rule, parsed.anchorDay, parsed.untilDay, options));
  if (parts.length === 0) {
    if (parsed.anchorDay !== null) parts.push(`once, on ${shortDate(parsed.anchorDay, options.currentYear)}`);
    else if (parsed.rDays.length === 0) parts.push("never");
  }
  let text = parts.join("; also ");
  if (parsed.rDays.length > 0) text = parts.length === 0 ? `on ${parsed.rDays.length} ${parsed.rDays.length === 1 ? "date" : "dates"}` : `${text}, plus ${parsed.rDays.length} extra ${parsed.rDays.length === 1 ? "date" : "dates"}`;
  if (parsed.exDays.size > 0) text += `, except ${parsed.exDays.size} ${parsed.exDays.size === 1 ? "date" : "dates"}`;
  if (options.today !== undefined && parsed.anchorDay !== null && parsed.rules.length > 0 && parsed.anchorDay > parseLocalDate(options.today)) {
    text += `, starting ${shortDate(parsed.anchorDay, options.currentYear)}`;
  }
  return text;
}

/** {@link describeRecurrence}, or null for a rule the contract cannot read. */
export function describeRecurrenceSafely(recurrence: Recurrence, zone: string, options: DescribeOptions = {}): string | null {
  try {
    return describeRecurrence(recurrence, zone, options);
  } catch {
    return null;
  }
}

/** The last local date the template can occur on (`YYYY-MM-DD`), or null when it has no end date or only a COUNT; undefined when the rule cannot be read. */
export function effectiveUntil(recurrence: Recurrence, zone: string): string | null | undefined {
  try {
    const parsed = parseRecurrence(recurrence, zone);
    if (parsed.rules.length === 0) return parsed.untilDay === null ? null : formatLocalDate(parsed.untilDay);
    let last: number | null = -Infinity;
    for (const rule of parsed.rules) {
      const ruleUntil = rule.untilDay === null ? parsed.untilDay : parsed.untilDay === null ? rule.untilDay : Math.min(rule.untilDay, parsed.untilDay);
      if (ruleUntil === null) {
        last = null;
        break;
      }
      last = Math.max(last, ruleUntil);
    }
    return last === null || !Number.isFinite(last) ? null : formatLocalDate(last);
  } catch {
    return undefined;
  }
}

/** When the template stops: "31 Dec" (the earlier of the rule's UNTIL and `recurrence.until`), "after 10 times", "no end date"; null when the rule cannot be read. */
export function describeEnd(recurrence: Recurrence, zone: string, options: Pick<DescribeOptions, "currentYear"> = {}): string | null {
  const until = effectiveUntil(recurrence, zone);
  if (until === undefined) return null;
  if (until !== null) return shortDate(parseLocalDate(until), options.currentYear);
  const counts = parseRecurrence(recurrence, zone).rules.map((rule) => rule.count);
  const count = counts.length === 1 ? counts[0] : null;
  if (count !== null && count !== undefined) return count === 1 ? "after 1 time" : `after ${count} times`;
  return counts.length > 0 && counts.every((candidate) => candidate !== null) ? "after a set number of times" : "no end date";
}
