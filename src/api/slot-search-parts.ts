import type { SlotSearchQuery, SlotSearchResponse } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { addDays, daysBetween } from "#contract/time/zoned-time.ts";

// A wide search (many facilities over many days: about 24,000 slots for a
// large group's every facility over two weeks) is read in parts of a few
// days, earliest first, so its first days are on screen in the time a
// one-facility search takes while the later days follow, and no part is so
// large that taking it in blocks the page for long (bench/RESULTS.md).
// A search of one facility over up to two weeks stays one read, as does one
// naming a few providers (a facility's worth or fewer) in several.

/** Facility-days of the first part: what one facility over two weeks is, so the default search is never split. */
export const FIRST_PART_FACILITY_DAYS = 14;
/** Facility-days of each later part. */
export const LATER_PART_FACILITY_DAYS = 28;

/** One part's answer, with the window it covers and where the whole search ends. */
export interface SlotSearchPart {
  startDate: string;
  endDate: string;
  searchEndDate: string;
  answer: SlotSearchResponse;
}

/** One part's window and slots, in the answer as a whole. */
export interface ListedPart {
  startDate: string;
  endDate: string;
  slots: readonly Slot[];
}

/** The parts' answers as one: what the slot finder lists. */
export interface SlotSearchAnswer extends SlotSearchResponse {
  /** The parts so far, earliest first: the list is grouped a part at a time. */
  parts: readonly ListedPart[];
  /** The last day whose slots are in (the search's end once every part has come). */
  loadedThrough: string;
  isComplete: boolean;
}

/**
 * Providers counted as one facility's worth: a large group's facility has about 30 (`EMULATOR_SCALE=large`).
 * A search naming a few providers in several facilities is no wider than one facility, and stays one read.
 */
export const PROVIDERS_OF_A_FACILITY = 30;

/** How many facilities' worth of slots a day of the search holds: its facilities, or fewer when it names few providers. */
function facilitiesWorth(search: SlotSearchQuery): number {
  const facilities = Math.max(1, search.facilityIds?.length ?? 1);
  const providers = search.providerIds?.length ?? 0;
  return providers === 0 ? facilities : Math.min(facilities, Math.ceil(providers / PROVIDERS_OF_A_FACILITY));
}

/** The part of the search that starts on `startDate`: at most `facilityDays` facility-days, never past the search's end. */
function windowFrom(search: SlotSearchQuery, startDate: string, facilityDays: number): SlotSearchQuery {
  const last = addDays(startDate, Math.max(1, Math.floor(facilityDays / facilitiesWorth(search))) - 1);
  return { ...search, startDate, endDate: daysBetween(last, search.endDate) >= 0 ? last : search.endDate };
}

/** The search's first part: the whole search when it is one read. */
export const firstWindow = (search: SlotSearchQuery): SlotSearchQuery => windowFrom(search, search.startDate, FIRST_PART_FACILITY_DAYS);

/**
 * The part after `previous`, or null once the search's end is read. Until a
 * part has found a slot, the next one ends a first part's span after the
 * earliest next available date the service gave (`nextAvailable`): the days
 * before that date have no slot, so a search starting on days every facility
 * is closed (a weekend) gets its first slots from a part no larger than the
 * first, not one three times its size (bench/RESULTS.md). With no date given,
 * or once a slot is found, parts are a later part's size.
 */
export function windowAfter(search: SlotSearchQuery, previous: SlotSearchQuery, found: { slots: boolean; nextAvailable: readonly string[] }): SlotSearchQuery | null {
  const startDate = addDays(previous.endDate, 1);
  if (daysBetween(startDate, search.endDate) < 0) return null;
  // YYYY-MM-DD dates sort as text.
  const nextDate = found.slots ? undefined : [...found.nextAvailable].sort()[0];
  if (nextDate === undefined) return windowFrom(search, startDate, LATER_PART_FACILITY_DAYS);
  // Counted from the next date, or from here should the service give one already read.
  return { ...windowFrom(search, nextDate > startDate ? nextDate : startDate, FIRST_PART_FACILITY_DAYS), startDate };
}

/** Whether the parts read so far cover the whole search. */
export function isWholeSearch(parts: readonly SlotSearchPart[]): boolean {
  const last = parts.at(-1);
  return last !== undefined && last.endDate === last.searchEndDate;
}

/**
 * The parts read so far as one answer: their slots in order, each provider's
 * earliest next date, and the meta of the part read longest ago (the list is
 * as fresh as its oldest part), marked incomplete if any part is.
 */
export function combineSlotSearchParts(parts: readonly SlotSearchPart[]): SlotSearchAnswer | undefined {
  const last = parts.at(-1);
  // None yet (a read cancelled before its first part): no list, as before any answer.
  if (!last) return undefined;
  const answers = parts.map((part) => part.answer);
  const nextAvailableByProvider: Record<string, string> = {};
  for (const answer of answers) {
    for (const [providerId, date] of Object.entries(answer.nextAvailableByProvider)) {
      const known = nextAvailableByProvider[providerId];
      if (known === undefined || date < known) nextAvailableByProvider[providerId] = date;
    }
  }
  const oldest = answers.reduce((a, b) => (Date.parse(b.meta.sourceSyncedAt) < Date.parse(a.meta.sourceSyncedAt) ? b : a));
  const incomplete = answers.find((answer) => answer.meta.completeness !== "complete");
  return {
    slots: answers.length === 1 ? last.answer.slots : answers.flatMap((answer) => answer.slots),
    parts: parts.map((part) => ({ startDate: part.startDate, endDate: part.endDate, slots: part.answer.slots })),
    nextAvailableByProvider,
    meta: { ...oldest.meta, completeness: incomplete?.meta.completeness ?? "complete" },
    loadedThrough: last.endDate,
    isComplete: isWholeSearch(parts),
  };
}
