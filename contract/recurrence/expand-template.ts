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
//
// Three parts, each its own module: parse-recurrence.ts (the text into
// day-level rules), occurring-days.ts (the local dates in a window) and this
// one (the instances of those dates); recurrence-types.ts holds what they
// share. Everything public is exported from here.

import type { AvailabilityInstance, AvailabilityTemplate } from "../clinic-api/schedule.ts";
import { formatInstant, localDayNumberOf, parseLocalDate, parseLocalTime, wallMsToInstant } from "../time/zoned-time.ts";
import { MS_PER_DAY, MS_PER_SECOND, type ExpansionWindow, type ExpansionOptions } from "./recurrence-types.ts";
import { occurringDaysAnchored, ruleOccurringDays } from "./occurring-days.ts";
import { parseRecurrenceCached } from "./parse-recurrence.ts";

export { RecurrenceError, type ByDay, type ExpansionOptions, type ExpansionWindow, type ParsedRecurrence, type RecurrenceFrequency, type RecurrenceRule, type RuleDaysEvaluator } from "./recurrence-types.ts";
export { parseRecurrence } from "./parse-recurrence.ts";
export { occurringDays, recurrenceDates, ruleOccurringDays } from "./occurring-days.ts";

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
