import { queryOptions } from "@tanstack/react-query";
import { lastSlotSearchResponse, type LastSlotSearchResponse, type StoredSlotSearch } from "#contract/app-api/last-slot-search.ts";
import { callBff, sendWhileLeaving } from "./bff-client.ts";
import { queryKeys } from "./query-keys.ts";

// The user's last slot search, kept by the BFF per organization and user
// (GET and PUT /api/slots/last-search): what the slot finder opens on when
// its URL has no filters, after a reload of the whole EHR page.

export const lastSlotSearchQuery = () =>
  queryOptions({
    queryKey: queryKeys.lastSlotSearch(),
    queryFn: ({ signal }) => callBff("/api/slots/last-search", lastSlotSearchResponse, { signal }),
    // Kept current by the saves of this page (saveLastSlotSearch's answer); another tab's search is its own business.
    staleTime: Infinity,
  });

export function saveLastSlotSearch(search: StoredSlotSearch): Promise<LastSlotSearchResponse> {
  return callBff("/api/slots/last-search", lastSlotSearchResponse, { method: "PUT", body: { search } });
}

/** The same as the page goes (pagehide): a keepalive PUT whose answer is never read; false when it could not be sent. */
export function saveLastSlotSearchWhileLeaving(search: StoredSlotSearch): boolean {
  return sendWhileLeaving("/api/slots/last-search", "PUT", { search });
}
