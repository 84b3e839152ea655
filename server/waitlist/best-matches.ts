import type { WaitlistEntry, WaitlistMatch } from "#contract/app-api/waitlist.ts";
import { maxSlotSearchDays } from "#contract/app-api/slots.ts";
import { idKey } from "#contract/ids.ts";
import { addDays, todayIn } from "#contract/time/zoned-time.ts";
import type { ClinicClient } from "../clinic/clinic-client.ts";
import type { StoredWaitlistEntry } from "../store/store.ts";
import { fitsSlot, kindKeyOf } from "./waitlist-fit.ts";

// The best current match of each waiting entry, for GET /api/waitlist (issue
// 38): the earliest free slot that fits, from the normal cached read path
// (never strong: a list view is no final check). Entries asking the same
// search share one read; at most MAX_BEST_MATCH_READS reads per request, for
// the longest-waiting entries' searches, and the rest answer null ("could not
// look"). A search is the slot finder's: from today (on the facility's clock)
// or the entry's start, whichever is later, within the finder's bound on
// facility-days (contract/app-api/slots.ts), so a long range is looked at
// from its start.

/** Distinct slot searches one GET /api/waitlist makes. */
export const MAX_BEST_MATCH_READS = 8;

/** An entry's best match, and whether it was looked for (`WaitlistEntry.bestMatchSearch`). */
export interface BestMatch {
  search: WaitlistEntry["bestMatchSearch"];
  match: WaitlistMatch | null;
}

/** Not looked for: beyond the request's searches, or an entry answered on its own. */
export const NOT_LOOKED_FOR: BestMatch = { search: "skipped", match: null };

interface Search {
  query: { appointmentTypeId: string; slotLengthMinutes: number; isNewPatient: boolean; facilityIds: string[]; providerIds?: string[]; startDate: string; endDate: string };
  entries: StoredWaitlistEntry[];
}

/** The search that finds the entry's best match now, or null when its range has nothing left to look at. */
function searchOf(entry: StoredWaitlistEntry, zones: ReadonlyMap<string, string>, nowMs: number): Search["query"] | null {
  const preferences = entry.preferences;
  const facilityIds = [...new Map(preferences.facilityIds.map((id) => [idKey(id), id])).values()];
  // The earliest today among the entry's facilities: no facility's today is skipped.
  const todays = facilityIds.map((id) => todayIn(zones.get(idKey(id)) ?? "UTC", nowMs)).sort();
  const from = [preferences.startDate, todays[0] ?? preferences.startDate].sort()[1] ?? preferences.startDate;
  const days = maxSlotSearchDays(facilityIds.length);
  if (days < 1) return null;
  const to = [preferences.endDate, addDays(from, days - 1)].sort()[0] ?? preferences.endDate;
  if (to < from) return null;
  const kind = { appointmentTypeId: preferences.appointmentTypeId, slotLengthMinutes: preferences.slotLengthMinutes, isNewPatient: preferences.isNewPatient };
  return { ...kind, facilityIds, ...(preferences.providerIds ? { providerIds: [...new Set(preferences.providerIds)] } : {}), startDate: from, endDate: to };
}

const searchKeyOf = (query: Search["query"]) =>
  [kindKeyOf(query), [...query.facilityIds].map(idKey).sort().join(","), query.providerIds ? [...query.providerIds].map(idKey).sort().join(",") : "any", query.startDate, query.endDate].join("|");

/**
 * Each entry's best match (entry id → match and whether it was looked for:
 * a failed read or a search beyond the request's bound is said as such, never
 * as "none fits"). `zones` maps facility keys (idKey) to IANA zones.
 */
export async function findBestMatches(
  clinic: Pick<ClinicClient, "read">,
  organizationId: string,
  entries: readonly StoredWaitlistEntry[],
  zones: ReadonlyMap<string, string>,
  nowMs: number,
): Promise<Map<string, BestMatch>> {
  const matches = new Map<string, BestMatch>(entries.map((entry) => [entry.id, NOT_LOOKED_FOR]));
  const searches = new Map<string, Search>();
  for (const entry of entries) {
    const query = searchOf(entry, zones, nowMs);
    if (query === null) {
      matches.set(entry.id, { search: "looked", match: null }); // nothing of its range is left to look at
      continue;
    }
    const key = searchKeyOf(query);
    const search = searches.get(key);
    if (search) search.entries.push(entry);
    else if (searches.size < MAX_BEST_MATCH_READS) searches.set(key, { query, entries: [entry] });
  }
  await Promise.all(
    [...searches.values()].map(async ({ query, entries: sharing }) => {
      const slots = await clinic.read("GET /v2/schedule/slots", { organizationId, query }).then(
        (answer) => answer.data().slots,
        () => null,
      );
      if (slots === null) {
        for (const entry of sharing) matches.set(entry.id, { search: "failed", match: null });
        return;
      }
      const free = slots.filter((slot) => slot.remainingCapacity > 0 && Date.parse(slot.startsAt) > nowMs).sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt));
      for (const entry of sharing) {
        const best = free.find((slot) => {
          const zone = zones.get(idKey(slot.facilityId));
          return zone !== undefined && fitsSlot(entry.preferences, { facilityId: slot.facilityId, providerId: slot.providerId, startMs: Date.parse(slot.startsAt), zone });
        });
        const match = best === undefined ? null : { slot: { providerId: best.providerId, facilityId: best.facilityId, startsAt: best.startsAt, endsAt: best.endsAt }, appointmentTypeId: query.appointmentTypeId, slotLengthMinutes: query.slotLengthMinutes };
        matches.set(entry.id, { search: "looked", match });
      }
    }),
  );
  return matches;
}
