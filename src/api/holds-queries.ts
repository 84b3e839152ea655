import { queryOptions } from "@tanstack/react-query";
import { HOLD_LIMIT_CODE, heldSlotsResponse, holdReleaseResponse, holdResponse, type HoldRequest, type HoldResponse } from "#contract/app-api/slots.ts";
import { ApiError, callBff } from "./bff-client.ts";
import { queryKeys } from "./query-keys.ts";

// The user's holds (DESIGN.md "The BFF's API"): kept in the BFF's store, so
// a hold belongs to the user, not to a view, and survives navigation and
// reloads. `queryKeys.holds()` is invalidated by every hold, release and booking.

export const heldSlotsQuery = () =>
  queryOptions({
    queryKey: queryKeys.holds(),
    queryFn: ({ signal }) => callBff("/api/holds", heldSlotsResponse, { signal }),
    // The store is the truth; a hold made or released in this page updates the cache at once.
    staleTime: 30_000,
  });

/** Holds a slot; rejects with an `ApiError` 409 (`conflict`: taken; HOLD_LIMIT_CODE: the basket is full). */
export function createHold(request: HoldRequest): Promise<HoldResponse> {
  return callBff("/api/holds", holdResponse, { method: "POST", body: request });
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
  return error instanceof ApiError && error.status === 409 && error.body.code === "conflict";
}

/** The hold was refused because the user already holds as many slots as Tandem allows. */
export function isHoldLimit(error: unknown): boolean {
  return error instanceof ApiError && error.body.code === HOLD_LIMIT_CODE;
}

/** The BFF gave up waiting for the EHR (504 `upstream_timeout`): the hold may have been made all the same. */
export function isHoldOutcomeUnknown(error: unknown): boolean {
  return error instanceof ApiError && error.body.code === "upstream_timeout";
}
