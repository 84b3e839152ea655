import * as z from "zod/mini";
import { idPattern } from "../ids.ts";

// The fields a slot search's filters (last-slot-search.ts) and a waitlist
// entry's preferences (waitlist.ts) share: one rule and one wording each.
// Only the zod/mini pieces the SPA's shell already loads.

/** A facility, provider or appointment type id: a UUID or its prefixed form. */
export const SEARCH_ID = idPattern(["fac", "prv", "atp"]);

export const searchId = z.string().check(z.regex(new RegExp(`^${SEARCH_ID}$`, "i"), "must be an id (a UUID or a prefixed id)"));

/** The shape of a local date; whether it is a day of the calendar is each schema's own check. */
export const localDateShape = z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, { message: "must be a date YYYY-MM-DD", abort: true }));

/** "HH:MM" on a facility's clock. */
export const timeOfDay = z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time of day HH:MM (00:00 to 23:59)"));
