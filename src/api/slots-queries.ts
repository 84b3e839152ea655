import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { slotCheckResponse, type SlotCheckRequest, type SlotCheckResponse, type SlotSearchQuery } from "#contract/app-api/slots.ts";
import { callBff } from "./bff-client.ts";
import { queryKeys } from "./query-keys.ts";
import { slotSearchAnswer } from "./slot-search-answer.ts";

// The slot finder's calls (DESIGN.md "The BFF's API"): the cached search,
// and the one strong check of a chosen slot (holds: holds-queries.ts). Keys from general to
// specific (STYLE.md 5, query-keys.ts); live `schedule.changed` events
// invalidate `queryKeys.slots.all`.

/** The query string of `GET /api/slots`: lists comma-separated, as upstream takes them. */
export function slotSearchQueryString(filters: SlotSearchQuery): string {
  const params = new URLSearchParams();
  params.set("appointmentTypeId", filters.appointmentTypeId);
  if (filters.facilityIds && filters.facilityIds.length > 0) params.set("facilityIds", filters.facilityIds.join(","));
  if (filters.providerIds && filters.providerIds.length > 0) params.set("providerIds", filters.providerIds.join(","));
  params.set("startDate", filters.startDate);
  params.set("endDate", filters.endDate);
  if (filters.slotLengthMinutes !== undefined) params.set("slotLengthMinutes", String(filters.slotLengthMinutes));
  if (filters.isNewPatient !== undefined) params.set("isNewPatient", String(filters.isNewPatient));
  return params.toString();
}

export const slotsQuery = (filters: SlotSearchQuery) =>
  queryOptions({
    queryKey: queryKeys.slots.search(filters),
    queryFn: ({ signal }) => callBff(`/api/slots?${slotSearchQueryString(filters)}`, slotSearchAnswer, { signal }),
    // Live events invalidate; a short stale time only spares a refetch on remount.
    staleTime: 10_000,
    // A refetch (live event, new filters) keeps the list on screen until the answer arrives.
    placeholderData: keepPreviousData,
  });

/** The final `consistency=strong` read of one slot before a hold: a read, so it needs no fresh token from the EHR. */
export function checkSlot(selection: SlotCheckRequest): Promise<SlotCheckResponse> {
  return callBff("/api/slots/check", slotCheckResponse, { method: "POST", body: selection, isRead: true });
}
