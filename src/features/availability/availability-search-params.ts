import * as z from "zod/mini";
import { idPattern } from "#contract/ids.ts";

// The availability view's filters and week as URL search params (the route's
// `validateSearch`), so a view can be shared or reloaded. Every param is
// optional: a missing one takes its default in the view (the current
// facility, all its providers, the week of the next bookable time, per
// provider, inactive hidden). A value that does not parse is dropped rather
// than failing the page.
//
// Loaded with the route table (the initial chunk): only the zod/mini pieces
// the shell already loads (objects, optional, strings with regexes, booleans).

const ID = new RegExp(`^${idPattern(["fac", "prv"])}$`, "i");
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export const availabilitySearchParams = z.object({
  facilityId: z.optional(z.string().check(z.regex(ID))),
  /** One provider; absent means every provider with templates at the facility. */
  providerId: z.optional(z.string().check(z.regex(ID))),
  /** Any date of the week to show (the view snaps it to that week's Monday); absent means the week of the next bookable time in the facility's zone (this week until its last band ends). */
  startDate: z.optional(z.string().check(z.regex(DATE))),
  /** `provider` (a grid per provider) or `facility` (one grid for the facility). */
  view: z.optional(z.string().check(z.regex(/^(provider|facility)$/))),
  showInactive: z.optional(z.boolean()),
  /** `week` (the grid), `day` (one day's grid per provider) or `agenda` (a list by day); absent means chosen from the width. */
  layout: z.optional(z.string().check(z.regex(/^(week|day|agenda)$/))),
  /** The day the day layout shows (within the week); absent means today when it is in the week, else its Monday. */
  day: z.optional(z.string().check(z.regex(DATE))),
});

export type AvailabilitySearchParams = z.output<typeof availabilitySearchParams>;

/** `validateSearch`: each param checked on its own and dropped when it does not parse. */
export function validateAvailabilitySearch(raw: Record<string, unknown>): AvailabilitySearchParams {
  const params: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(availabilitySearchParams.shape)) {
    const parsed = z.safeParse(schema, raw[name]);
    if (parsed.success && parsed.data !== undefined) params[name] = parsed.data;
  }
  return z.parse(availabilitySearchParams, params);
}
