import { RecurrenceError } from "#contract/recurrence/expand-template.ts";
import { addDays, localDateOf } from "#contract/time/zoned-time.ts";
import { cachedIdKey } from "#contract/ids.ts";
import { expandTemplate, type AvailabilityInstance, type AvailabilityTemplate } from "./expand-template.ts";
import { mondayOf } from "./week-window.ts";

// Where to jump: the next week that has any bookable band, and each
// provider's next bookable band, from the templates alone (the browser
// expands them, as it does for any week it pages to). Looked for up to a
// year ahead; inactive templates and rules Tandem cannot read give none.

export const LOOK_AHEAD_DAYS = 364;
/** Windows tried in turn: most schedules answer within the first, so a year is expanded only for the rare template that needs it. */
const SEARCH_DAYS = [14, 63, LOOK_AHEAD_DAYS];

function instancesFrom(templates: readonly AvailabilityTemplate[], startDate: string, days: number): AvailabilityInstance[] {
  const window = { startDate, endDate: addDays(startDate, days - 1) };
  const found: AvailabilityInstance[] = [];
  for (const template of templates) {
    if (!template.active) continue;
    try {
      found.push(...expandTemplate(template, window));
    } catch (error) {
      if (!(error instanceof RecurrenceError) && !(error instanceof RangeError)) throw error;
    }
  }
  return found.sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt));
}

/** The Monday of the first week after `weekStart` with a band of these templates (in `zone`), or null within a year. */
export function nextWeekWithBands(templates: readonly AvailabilityTemplate[], weekStart: string, zone: string): string | null {
  for (const days of SEARCH_DAYS) {
    const first = instancesFrom(templates, addDays(weekStart, 7), days)[0];
    if (first) return mondayOf(localDateOf(Date.parse(first.startsAt), zone));
  }
  return null;
}

/** Each provider's (normalised id) first band that has not ended at `nowMs`, within a year of `today`. */
export function nextBandByProvider(templates: readonly AvailabilityTemplate[], today: string, nowMs: number): Map<string, AvailabilityInstance> {
  const next = new Map<string, AvailabilityInstance>();
  let pending = templates;
  for (const days of SEARCH_DAYS) {
    // From the day before: a band that started yesterday may still be under way.
    for (const instance of instancesFrom(pending, addDays(today, -1), days + 1)) {
      const key = cachedIdKey(instance.providerId);
      if (Date.parse(instance.endsAt) > nowMs && !next.has(key)) next.set(key, instance);
    }
    pending = pending.filter((template) => !next.has(cachedIdKey(template.providerId)));
    if (pending.length === 0) break;
  }
  return next;
}

/**
 * The week availability opens on when the URL names none: this week while
 * any of its bookable time is still ahead (a band under way counts), else
 * the week of the next band (a Saturday, or a Friday evening after the last
 * band, opens on the coming week). `nextBands` as from nextBandByProvider.
 */
export function openingWeek(nextBands: Iterable<AvailabilityInstance>, thisWeek: string, zone: string): string {
  let firstMs = Number.POSITIVE_INFINITY;
  for (const instance of nextBands) firstMs = Math.min(firstMs, Date.parse(instance.startsAt));
  if (!Number.isFinite(firstMs)) return thisWeek;
  const week = mondayOf(localDateOf(firstMs, zone));
  return week > thisWeek ? week : thisWeek;
}
