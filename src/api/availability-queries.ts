import { queryOptions } from "@tanstack/react-query";
import { availabilityResponse, type AvailabilityQuery } from "#contract/app-api/availability.ts";
import { availabilityLoadResponse, type AvailabilityLoadQuery } from "#contract/app-api/availability-load.ts";
import { callBff } from "./bff-client.ts";
import { queryKeys } from "./query-keys.ts";

// GET /api/availability (DESIGN.md "The BFF's API"): the templates and the
// service's instances for a window of the facility's local dates. Keys from
// general to specific (STYLE.md 5, query-keys.ts); live `schedule.changed`
// events invalidate `queryKeys.availability.all`.

export function availabilityQueryString(query: AvailabilityQuery): string {
  const params = new URLSearchParams();
  if (query.facilityId) params.set("facilityId", query.facilityId);
  if (query.providerId) params.set("providerId", query.providerId);
  params.set("startDate", query.startDate);
  params.set("endDate", query.endDate);
  return params.toString();
}

/** Where the window's query sits in its key (`queryKeys.availability.window`: the identity's root, "availability", "window", the query). */
const WINDOW_QUERY_INDEX = 5;

export const availabilityWindowQuery = (query: AvailabilityQuery) =>
  queryOptions({
    queryKey: queryKeys.availability.window(query),
    queryFn: ({ signal }) => callBff(`/api/availability?${availabilityQueryString(query)}`, availabilityResponse, { signal }),
    // Live events invalidate; a short stale time only spares a refetch on remount.
    staleTime: 10_000,
    // Paging to another week of the same facility and provider keeps the previous answer while the new one loads: the
    // view expands its templates for the new week at once (the expansion is the contract's, DESIGN.md).
    placeholderData: (previous, previousQuery) => {
      const before = previousQuery?.queryKey[WINDOW_QUERY_INDEX];
      return before && before.facilityId === query.facilityId && before.providerId === query.providerId ? previous : undefined;
    },
  });

/**
 * GET /api/availability/load (ADR 0020): the booked load of the facility's
 * bands over the same window. Under `queryKeys.availability.all`, so the live
 * `schedule.changed` events that follow bookings and cancellations refetch it.
 */
export const availabilityLoadWindowQuery = (query: AvailabilityLoadQuery) =>
  queryOptions({
    queryKey: queryKeys.availability.load(query),
    queryFn: ({ signal }) => callBff(`/api/availability/load?${availabilityQueryString(query)}`, availabilityLoadResponse, { signal }),
    staleTime: 10_000,
  });
