import { keepPreviousData, mutationOptions, queryOptions } from "@tanstack/react-query";
import {
  holdReleaseResponse,
  holdResponse,
  slotCheckResponse,
  slotSearchResponse,
  type HoldResponse,
  type SlotCheckRequest,
  type SlotCheckResponse,
  type SlotSearchQuery,
  type SlotSelection,
} from "../../contract/app-api/slots.ts";
import { ApiError, callBff } from "./bff-client.ts";

// The slot finder's calls (DESIGN.md "The BFF's API"): the cached search,
// the one strong check of a chosen slot, and holds. Keys from general to
// specific (STYLE.md 5); live `schedule.changed` events invalidate ["slots"].

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
    queryKey: ["slots", "search", filters] as const,
    queryFn: ({ signal }) => callBff(`/api/slots?${slotSearchQueryString(filters)}`, slotSearchResponse, { signal }),
    // Live events invalidate; a short stale time only spares a refetch on remount.
    staleTime: 10_000,
    // A refetch (live event, new filters) keeps the list on screen until the answer arrives.
    placeholderData: keepPreviousData,
  });

/** The final `consistency=strong` read of one slot before a hold. */
export function checkSlot(selection: SlotCheckRequest): Promise<SlotCheckResponse> {
  return callBff("/api/slots/check", slotCheckResponse, { method: "POST", body: selection });
}

/** Holds a slot; rejects with an `ApiError` 409 `conflict` when no capacity is left (see {@link isSlotConflict}). */
export function createHold(selection: SlotSelection): Promise<HoldResponse> {
  return callBff("/api/holds", holdResponse, { method: "POST", body: selection });
}

/** Releases a hold. Idempotent: a hold that has already expired or gone (404) counts as released. */
export async function releaseHold(holdId: string): Promise<{ released: true }> {
  try {
    return await callBff(`/api/holds/${encodeURIComponent(holdId)}`, holdReleaseResponse, { method: "DELETE" });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { released: true };
    throw error;
  }
}

/** The hold answered that the slot was taken between the check and the hold. */
export function isSlotConflict(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 409 || error.body.code === "conflict");
}

export const checkSlotMutation = () => mutationOptions({ mutationKey: ["slots", "check"], mutationFn: checkSlot });
export const holdSlotMutation = () => mutationOptions({ mutationKey: ["holds", "create"], mutationFn: createHold });
export const releaseHoldMutation = () => mutationOptions({ mutationKey: ["holds", "release"], mutationFn: releaseHold });
