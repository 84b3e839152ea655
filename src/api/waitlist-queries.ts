import { queryOptions } from "@tanstack/react-query";
import {
  waitlistDeleteResponse,
  waitlistEntryResponse,
  waitlistResponse,
  type WaitlistEntryResponse,
  type WaitlistPreferences,
  type WaitlistResponse,
} from "#contract/app-api/waitlist.ts";
import { callBff } from "./bff-client.ts";
import { currentCacheIdentity } from "./cache-identity.ts";
import { queryKeys } from "./query-keys.ts";
import { recordListedOffers } from "./waitlist-offers-store.ts";

// The organization's waitlist (GET/POST/PATCH/DELETE /api/waitlist, issue 38),
// for front-desk and scheduler roles. One read serves the Waitlist view and
// the offers' alert in every view: its `offers` are the open offers as the
// BFF's store has them (so an offer survives a reload, and a hold a colleague
// made from one is seen), handed to the offers store (waitlist-offers-store.ts)
// beside those the live events bring. `waitlist.changed` invalidates it.

export const waitlistQuery = () =>
  queryOptions({
    queryKey: queryKeys.waitlist.list(),
    queryFn: async ({ signal }): Promise<WaitlistResponse> => {
      const identity = currentCacheIdentity();
      // When the read was asked for: an offer learnt from a live event after this moment may not be in its answer yet.
      const askedAtMs = Date.now();
      const answer = await callBff("/api/waitlist", waitlistResponse, { signal });
      recordListedOffers(identity, answer.offers, askedAtMs);
      return answer;
    },
    // Live events invalidate it (`waitlist.changed`, `waitlist.offer`); a short stale time only spares a refetch on remount.
    staleTime: 30_000,
  });

/** POST /api/waitlist: the patient open in the EHR (the host token's, never the body's) waits for these preferences. */
export function addToWaitlist(preferences: WaitlistPreferences): Promise<WaitlistEntryResponse> {
  return callBff("/api/waitlist", waitlistEntryResponse, { method: "POST", body: { preferences } });
}

/** PATCH /api/waitlist/:id: the preferences replaced whole; the patient stays. */
export function updateWaitlistEntry(entryId: string, preferences: WaitlistPreferences): Promise<WaitlistEntryResponse> {
  return callBff(`/api/waitlist/${encodeURIComponent(entryId)}`, waitlistEntryResponse, { method: "PATCH", body: { preferences } });
}

/** DELETE /api/waitlist/:id: the entry ends as `removed`. */
export function removeWaitlistEntry(entryId: string): Promise<{ ended: string }> {
  return callBff(`/api/waitlist/${encodeURIComponent(entryId)}`, waitlistDeleteResponse, { method: "DELETE" });
}
