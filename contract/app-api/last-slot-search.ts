import * as z from "zod/mini";
import { SEARCH_ID, localDateShape, searchId, timeOfDay } from "./search-fields.ts";

// The slot finder's filters as the SPA's URL carries them (its `/slots`
// search params: lists as comma-separated ids, ADR 0007), and the user's last
// search kept by the BFF (GET, PUT and DELETE /api/slots/last-search): per
// organization and user, ids, dates and filter values only, never patient
// data. One set of rules for both: the URL's params (src/scheduling/
// slot-search-params.ts) and what the BFF stores.
//
// Loaded with the SPA's route table (the initial chunk): only the zod/mini
// pieces the shell already loads (objects, optional, strings with regexes,
// numbers, booleans).

const WEEKDAYS = /^(mon|tue|wed|thu|fri|sat|sun)(,(mon|tue|wed|thu|fri|sat|sun))*$/i;
/** More ids than any organization has providers (about 300 at the largest): a longer list is not a search. */
const MAX_LIST_LENGTH = 20_000;

/** "2026-02-31" has the shape of a date but is no day: the date arithmetic downstream would throw on it. */
function isCalendarDay(value: string): boolean {
  const [year, month, day] = value.split("-").map(Number);
  if (year === undefined || month === undefined || day === undefined) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const idList = z.string().check(z.maxLength(MAX_LIST_LENGTH), z.regex(new RegExp(`^${SEARCH_ID}(,${SEARCH_ID})*$`, "i"), "must be ids (UUIDs or prefixed ids) separated by commas"));
const localDate = localDateShape.check(z.refine(isCalendarDay, { message: "must be a day of the calendar (YYYY-MM-DD)" }));

/** Each filter, checked on its own; every one optional (a missing one takes its default in the view). */
export const slotSearchFilterParams = {
  appointmentTypeId: z.optional(searchId),
  /** Comma-separated facility ids. */
  facilityIds: z.optional(idList),
  /** Comma-separated provider ids; absent means all providers. */
  providerIds: z.optional(idList),
  startDate: z.optional(localDate),
  endDate: z.optional(localDate),
  /** Whole minutes from 5 to 480 (the router's parser reads `20` in a URL as a number). */
  slotLengthMinutes: z.optional(z.number().check(z.refine((value) => Number.isInteger(value) && value >= 5 && value <= 480, { message: "must be whole minutes from 5 to 480" }))),
  isNewPatient: z.optional(z.boolean()),
  /** How the list is laid out: a row per provider (the default), or a day's slots in time order across providers. */
  order: z.optional(z.string().check(z.regex(/^(provider|time)$/, 'must be "provider" or "time"'))),
  /** Times of day on each facility's clock ("HH:MM"), and weekdays ("tue,wed,thu"): they narrow the list, not the search. */
  startsFrom: z.optional(timeOfDay),
  startsBefore: z.optional(timeOfDay),
  days: z.optional(z.string().check(z.regex(WEEKDAYS, "must be weekdays (mon to sun) separated by commas"))),
};
export type SlotSearchFilterName = keyof typeof slotSearchFilterParams;
export const SLOT_SEARCH_FILTER_NAMES = Object.keys(slotSearchFilterParams) as SlotSearchFilterName[];

/** A search as the BFF keeps it: only these filters, each valid (a 400 names the one that is not). */
export const storedSlotSearch = z.strictObject(slotSearchFilterParams);
export type StoredSlotSearch = z.infer<typeof storedSlotSearch>;

/** PUT /api/slots/last-search: the search the user just ran replaces the one kept. */
export const lastSlotSearchPutRequest = z.strictObject({ search: storedSlotSearch });
export type LastSlotSearchPutRequest = z.infer<typeof lastSlotSearchPutRequest>;

/**
 * GET (and DELETE, which forgets it: null) /api/slots/last-search: the user's last search in the session's
 * organization, or null. Not checked against today's rules here: the SPA
 * checks it filter by filter as it checks a link (a rule tightened since it
 * was kept drops that filter, not the search).
 */
export const lastSlotSearchResponse = z.object({
  search: z.nullable(z.record(z.string(), z.unknown())),
  /** When it was kept (ISO 8601 UTC); null with no search. */
  savedAt: z.nullable(z.string()),
});
export type LastSlotSearchResponse = z.infer<typeof lastSlotSearchResponse>;
