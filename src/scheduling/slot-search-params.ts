import * as z from "zod/mini";
import { SLOT_SEARCH_FILTER_NAMES, slotSearchFilterParams, type SlotSearchFilterName } from "#contract/app-api/last-slot-search.ts";

// The slot finder's filters as URL search params (the route's
// `validateSearch`), so a search can be shared or reloaded. Names follow the
// BFF's (DESIGN.md "The BFF's API"). Every param is optional: a missing one
// takes its default in the view (first appointment type, the current
// facility, all providers, today + 14 days). A value that does not parse is
// dropped rather than failing the page, so a mangled link still opens. The
// rules of each filter are the contract's (contract/app-api/last-slot-search.ts),
// the same the BFF applies to the last search it keeps for the user.
//
// This module is loaded with the route table (the initial chunk), so it uses
// only the zod/mini pieces the shell already loads (objects, optional,
// strings with regexes, numbers, booleans). Lists stay comma-separated
// strings here, since the router writes these params back to the URL as they
// are (an array would go out as JSON, not the comma list of ADR 0007); they
// are split once, in slot-filters.ts (splitIds, in the view's own chunk), and
// stay arrays from there to the BFF's query string.

/** The filters, each checked on its own (validateSlotSearch). */
const filterParams = slotSearchFilterParams;
type FilterParamName = SlotSearchFilterName;
const FILTER_PARAM_NAMES = SLOT_SEARCH_FILTER_NAMES;

export const slotSearchParams = z.object({
  ...filterParams,
  /**
   * The filters a link carried that could not be used ("startDate,slotLengthMinutes"):
   * the router rewrites the URL to what validateSlotSearch returns, so the bad values are
   * gone by the time the view renders, and this is how it can still say which. A search
   * (use-run-search.ts) writes a fresh set of params, without it.
   */
  dropped: z.optional(z.string().check(z.regex(/^[a-zA-Z]+(,[a-zA-Z]+)*$/))),
});

export type SlotSearchParams = z.output<typeof slotSearchParams>;

/** What each param is called on screen, for the message about a link's unusable filters. */
const PARAM_LABELS: Record<FilterParamName, string> = {
  appointmentTypeId: "appointment type",
  facilityIds: "facilities",
  providerIds: "providers",
  startDate: "start date",
  endDate: "end date",
  slotLengthMinutes: "slot length (whole minutes from 5 to 480)",
  isNewPatient: "new patient",
  order: "order",
  startsFrom: "starting from",
  startsBefore: "starting before",
  days: "weekdays",
};

/** The filter names a `dropped` param lists (others ignored), in the form's order. */
function droppedNames(value: unknown): FilterParamName[] {
  const listed = typeof value === "string" ? value.split(",") : [];
  return FILTER_PARAM_NAMES.filter((name) => listed.includes(name));
}

/** The filters a link carried that could not be used, named as the form names them, so the view can say which took their defaults. */
export function unreadSlotParams(params: SlotSearchParams): string[] {
  return droppedNames(params.dropped).map((name) => PARAM_LABELS[name]);
}

/**
 * `validateSearch`: each filter checked on its own and dropped when it does
 * not parse, so one bad value does not discard the rest; `dropped` lists them
 * (with any it listed already). A dropped filter is returned as `undefined`,
 * not left out: the router merges what this returns over the URL's raw
 * params, so one left out would reach the view with its bad value (a start
 * date of "2026-13-40" crashed the page).
 */
export function validateSlotSearch(raw: Record<string, unknown>): SlotSearchParams {
  const params: Record<string, unknown> = {};
  const dropped = new Set(droppedNames(raw.dropped));
  for (const name of FILTER_PARAM_NAMES) {
    const parsed = z.safeParse(filterParams[name], raw[name]);
    params[name] = parsed.success ? parsed.data : undefined;
    if (!parsed.success) dropped.add(name);
  }
  params.dropped = dropped.size > 0 ? FILTER_PARAM_NAMES.filter((name) => dropped.has(name)).join(",") : undefined;
  // Every field was checked by its own schema above; the object schema confirms the whole.
  return z.parse(slotSearchParams, params);
}

/** Whether the params carry any filter (or a note of filters dropped): without one, the slot finder opens on the user's last search. */
export function hasSlotFilters(params: SlotSearchParams): boolean {
  return params.dropped !== undefined || FILTER_PARAM_NAMES.some((name) => params[name] !== undefined);
}

/** The filters alone, for keeping as the user's last search (the note of a link's dropped filters is not a filter). */
export function filtersOf(params: SlotSearchParams): Omit<SlotSearchParams, "dropped"> {
  const filters: Record<string, unknown> = {};
  for (const name of FILTER_PARAM_NAMES) if (params[name] !== undefined) filters[name] = params[name];
  return filters;
}

/** The search's window when it began before `today` (a local date): the service lists no time gone by, so it is not searched. */
export function passedWindowOf(params: Pick<SlotSearchParams, "startDate" | "endDate">, today: string): { startDate: string; endDate: string | null } | null {
  return params.startDate !== undefined && params.startDate < today ? { startDate: params.startDate, endDate: params.endDate ?? null } : null;
}

/**
 * The user's last search as the BFF kept it, checked as a link is
 * (validateSlotSearch), and a window that started before `today` (a local
 * date) dropped too: it opens on today's default window and says so, rather
 * than searching days gone by.
 */
export function validateStoredSlotSearch(raw: Record<string, unknown>, today: string): SlotSearchParams {
  const params = validateSlotSearch(raw);
  if (passedWindowOf(params, today) === null) return params;
  const dropped = new Set([...droppedNames(params.dropped), "startDate", "endDate"]);
  return { ...params, startDate: undefined, endDate: undefined, dropped: FILTER_PARAM_NAMES.filter((name) => dropped.has(name)).join(",") };
}
