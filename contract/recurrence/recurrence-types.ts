// The recurrence expansion's shared vocabulary: the parsed rule's shape, the
// window, the evaluator seam, and the error a template's recurrence raises
// (expand-template.ts says how the parts fit together).

export const MS_PER_DAY = 86_400_000;
export const MS_PER_SECOND = 1000;

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
