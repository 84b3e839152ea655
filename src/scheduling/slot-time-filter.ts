import { localDateOf, localTimeOf, weekdayOf } from "#contract/time/zoned-time.ts";
import { formatWallTime } from "#src/lib/time-format.ts";

// Times of day and weekdays ("mornings", "after 16:00", "Tue–Thu"): the
// service has no such filter, so they narrow the list the search answered,
// each slot read on its own facility's wall clock. Kept in the URL beside
// the search (`startsFrom`, `startsBefore`, `days`), so a shared link and the
// way back to Slots keep them.

/** 0 = Monday … 6 = Sunday, as contract/time's `weekdayOf`. */
export type Weekday = 0 | 1 | 2 | 3 | 4 | 5 | 6;

export interface SlotTimeFilter {
  /** "HH:MM": slots starting at or after this local time; null for any. */
  startsFrom: string | null;
  /** "HH:MM": slots starting before this local time; null for any. */
  startsBefore: string | null;
  /** The local weekdays kept; empty for every day. */
  weekdays: readonly Weekday[];
}

export const NO_TIME_FILTER: SlotTimeFilter = { startsFrom: null, startsBefore: null, weekdays: [] };

export const WEEKDAY_NAMES = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] as const;
const WEEKDAY_CODES = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;

/** The quick choices beside the two times. */
export const TIME_OF_DAY_PRESETS: readonly { id: string; label: (locale: string) => string; startsFrom: string | null; startsBefore: string | null }[] = [
  { id: "mornings", label: () => "Mornings", startsFrom: null, startsBefore: "12:00" },
  { id: "afternoons", label: () => "Afternoons", startsFrom: "12:00", startsBefore: "17:00" },
  { id: "late", label: (locale) => `After ${wallTime("16:00", locale)}`, startsFrom: "16:00", startsBefore: null },
];

/** "4:00 PM" (en-US) or "16:00" (en-GB) for "16:00", through the app's one formatter. */
function wallTime(time: string, locale: string): string {
  return formatWallTime(Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5)), locale);
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

export const isLocalTime = (value: string): boolean => TIME.test(value);

/** From the URL's params; a value that does not parse is dropped. */
export function timeFilterOf(params: { startsFrom?: string | undefined; startsBefore?: string | undefined; days?: string | undefined }): SlotTimeFilter {
  const weekdays = new Set<Weekday>();
  for (const code of (params.days ?? "").toLowerCase().split(",")) {
    const index = WEEKDAY_CODES.indexOf(code.trim() as (typeof WEEKDAY_CODES)[number]);
    if (index >= 0) weekdays.add(index as Weekday);
  }
  return {
    startsFrom: params.startsFrom && isLocalTime(params.startsFrom) ? params.startsFrom : null,
    startsBefore: params.startsBefore && isLocalTime(params.startsBefore) ? params.startsBefore : null,
    // Every day ticked means no filter.
    weekdays: weekdays.size === 7 ? [] : [...weekdays].sort(),
  };
}

export function toTimeFilterParams(filter: SlotTimeFilter): { startsFrom: string | undefined; startsBefore: string | undefined; days: string | undefined } {
  return {
    startsFrom: filter.startsFrom ?? undefined,
    startsBefore: filter.startsBefore ?? undefined,
    days: filter.weekdays.length > 0 ? filter.weekdays.map((day) => WEEKDAY_CODES[day]).join(",") : undefined,
  };
}

export function isTimeFilterActive(filter: SlotTimeFilter): boolean {
  return filter.startsFrom !== null || filter.startsBefore !== null || filter.weekdays.length > 0;
}

export function sameTimeFilter(a: SlotTimeFilter, b: SlotTimeFilter): boolean {
  return a.startsFrom === b.startsFrom && a.startsBefore === b.startsBefore && a.weekdays.join() === b.weekdays.join();
}

/** Whether a slot starting at `startMs` in `zone` is kept: its local time and weekday on the facility's clock. */
export function matchesTimeFilter(startMs: number, zone: string, filter: SlotTimeFilter): boolean {
  if (!isTimeFilterActive(filter)) return true;
  const time = localTimeOf(startMs, zone).slice(0, 5);
  if (filter.startsFrom !== null && time < filter.startsFrom) return false;
  if (filter.startsBefore !== null && time >= filter.startsBefore) return false;
  return filter.weekdays.length === 0 || filter.weekdays.includes(weekdayOf(localDateOf(startMs, zone)) as Weekday);
}

/** "Tue, Wed, Thu" or "Tue–Thu" for a run of three or more. */
function weekdaysText(weekdays: readonly Weekday[]): string {
  const runs: Weekday[][] = [];
  for (const day of weekdays) {
    const run = runs.at(-1);
    if (run && run.at(-1) === day - 1) run.push(day);
    else runs.push([day]);
  }
  return runs.map((run) => (run.length >= 3 ? `${WEEKDAY_NAMES[run[0] ?? 0]}–${WEEKDAY_NAMES[run.at(-1) ?? 0]}` : run.map((day) => WEEKDAY_NAMES[day]).join(", "))).join(", ");
}

/** "starting 16:00 or later, Tue–Thu" (en-GB): the narrowing in words (the facility's local times), or null without one. */
export function describeTimeFilter(filter: SlotTimeFilter, locale: string): string | null {
  const parts: string[] = [];
  if (filter.startsFrom !== null && filter.startsBefore !== null) parts.push(`starting ${wallTime(filter.startsFrom, locale)}–${wallTime(filter.startsBefore, locale)}`);
  else if (filter.startsFrom !== null) parts.push(`starting ${wallTime(filter.startsFrom, locale)} or later`);
  else if (filter.startsBefore !== null) parts.push(`starting before ${wallTime(filter.startsBefore, locale)}`);
  if (filter.weekdays.length > 0) parts.push(weekdaysText(filter.weekdays));
  return parts.length > 0 ? parts.join(", ") : null;
}

/** The form's draft of a filter ("" for an empty time). */
export function timeDraftOf(filter: SlotTimeFilter): { startsFrom: string; startsBefore: string; weekdays: Weekday[] } {
  return { startsFrom: filter.startsFrom ?? "", startsBefore: filter.startsBefore ?? "", weekdays: [...filter.weekdays] };
}

/** Checks the draft (names the field, says what to do) and gives the filter when it is valid. */
export function timeFilterFromDraft(draft: { startsFrom: string; startsBefore: string; weekdays: readonly Weekday[] }): { filter: SlotTimeFilter; error: null } | { filter: null; error: string } {
  const startsFrom = draft.startsFrom.trim();
  const startsBefore = draft.startsBefore.trim();
  if ((startsFrom !== "" && !isLocalTime(startsFrom)) || (startsBefore !== "" && !isLocalTime(startsBefore))) return { filter: null, error: "Enter times as hours and minutes (for example 16:00), or leave them empty." };
  if (startsFrom !== "" && startsBefore !== "" && startsBefore <= startsFrom) return { filter: null, error: "“Starting before” must be later than “Starting from”." };
  const filter = timeFilterOf({ startsFrom: startsFrom || undefined, startsBefore: startsBefore || undefined, days: draft.weekdays.map((day) => WEEKDAY_NAMES[day]).join(",") });
  return { filter, error: null };
}
