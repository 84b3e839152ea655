import * as z from "zod/mini";
import { idPattern } from "#contract/ids.ts";

// The slot finder's filters as URL search params (the route's
// `validateSearch`), so a search can be shared or reloaded. Names follow the
// BFF's (DESIGN.md "The BFF's API"). Every param is optional: a missing one
// takes its default in the view (first appointment type, the current
// facility, all providers, today + 14 days). A value that does not parse is
// dropped rather than failing the page, so a mangled link still opens.
//
// This module is loaded with the route table (the initial chunk), so it uses
// only the zod/mini pieces the shell already loads (objects, optional,
// strings with regexes, numbers, booleans). Lists stay comma-separated
// strings here, since the router writes these params back to the URL as they
// are (an array would go out as JSON, not the comma list of ADR 0007); they
// are split once, in slot-filters.ts (splitIds, in the view's own chunk), and
// stay arrays from there to the BFF's query string.

const ID = idPattern(["fac", "prv", "atp"]);
const LOCAL_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** "2026-02-31" has the shape of a date but is no day: the date arithmetic downstream would throw on it. */
function isCalendarDay(value: string): boolean {
  const [year, month, day] = value.split("-").map(Number);
  if (year === undefined || month === undefined || day === undefined) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The filters, each checked on its own (validateSlotSearch). */
const filterParams = {
  appointmentTypeId: z.optional(z.string().check(z.regex(new RegExp(`^${ID}$`, "i")))),
  /** Comma-separated facility ids. */
  facilityIds: z.optional(z.string().check(z.regex(new RegExp(`^${ID}(,${ID})*$`, "i")))),
  /** Comma-separated provider ids; absent means all providers. */
  providerIds: z.optional(z.string().check(z.regex(new RegExp(`^${ID}(,${ID})*$`, "i")))),
  startDate: z.optional(z.string().check(z.regex(LOCAL_DATE), z.refine(isCalendarDay))),
  endDate: z.optional(z.string().check(z.regex(LOCAL_DATE), z.refine(isCalendarDay))),
  /** The router's parser reads `20` as a number. */
  slotLengthMinutes: z.optional(z.number().check(z.refine((value) => Number.isInteger(value) && value >= 5 && value <= 480))),
  isNewPatient: z.optional(z.boolean()),
  /** How the list is laid out: a row per provider (the default), or a day's slots in time order across providers. */
  order: z.optional(z.string().check(z.regex(/^(provider|time)$/))),
  /** Times of day on each facility's clock ("HH:MM"), and weekdays ("tue,wed,thu"): they narrow the list, not the search (slot-time-filter.ts). */
  startsFrom: z.optional(z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/))),
  startsBefore: z.optional(z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/))),
  days: z.optional(z.string().check(z.regex(/^(mon|tue|wed|thu|fri|sat|sun)(,(mon|tue|wed|thu|fri|sat|sun))*$/i))),
};
type FilterParamName = keyof typeof filterParams;
const FILTER_PARAM_NAMES = Object.keys(filterParams) as FilterParamName[];

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
