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

export const slotSearchParams = z.object({
  appointmentTypeId: z.optional(z.string().check(z.regex(new RegExp(`^${ID}$`, "i")))),
  /** Comma-separated facility ids. */
  facilityIds: z.optional(z.string().check(z.regex(new RegExp(`^${ID}(,${ID})*$`, "i")))),
  /** Comma-separated provider ids; absent means all providers. */
  providerIds: z.optional(z.string().check(z.regex(new RegExp(`^${ID}(,${ID})*$`, "i")))),
  startDate: z.optional(z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/))),
  endDate: z.optional(z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/))),
  /** The router's parser reads `20` as a number. */
  slotLengthMinutes: z.optional(z.number().check(z.refine((value) => Number.isInteger(value) && value >= 5 && value <= 480))),
  isNewPatient: z.optional(z.boolean()),
  /** How the list is laid out: a row per provider (the default), or a day's slots in time order across providers. */
  order: z.optional(z.string().check(z.regex(/^(provider|time)$/))),
  /** Times of day on each facility's clock ("HH:MM"), and weekdays ("tue,wed,thu"): they narrow the list, not the search (slot-time-filter.ts). */
  startsFrom: z.optional(z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/))),
  startsBefore: z.optional(z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/))),
  days: z.optional(z.string().check(z.regex(/^(mon|tue|wed|thu|fri|sat|sun)(,(mon|tue|wed|thu|fri|sat|sun))*$/i))),
});

export type SlotSearchParams = z.output<typeof slotSearchParams>;

/** What each param is called on screen, for the message about a link's unreadable filters. */
const PARAM_LABELS: Record<keyof SlotSearchParams, string> = {
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

/**
 * The filters a link carries that {@link validateSlotSearch} dropped, named as
 * the form names them (in the form's order), so the view can say which took
 * their defaults. `raw` is the URL's search as parsed, before validation.
 */
export function unreadSlotParams(raw: Record<string, unknown>): string[] {
  return Object.entries(slotSearchParams.shape)
    .filter(([name, schema]) => raw[name] !== undefined && !z.safeParse(schema, raw[name]).success)
    .map(([name]) => PARAM_LABELS[name as keyof SlotSearchParams]);
}

/** `validateSearch`: each param checked on its own and dropped when it does not parse, so one bad value does not discard the rest. */
export function validateSlotSearch(raw: Record<string, unknown>): SlotSearchParams {
  const params: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(slotSearchParams.shape)) {
    const parsed = z.safeParse(schema, raw[name]);
    if (parsed.success && parsed.data !== undefined) params[name] = parsed.data;
  }
  // Every field was checked by its own schema above; the object schema confirms the whole.
  return z.parse(slotSearchParams, params);
}
