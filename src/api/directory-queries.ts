import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { appointmentTypesResponse, facilitiesResponse, providersResponse } from "#contract/app-api/session.ts";
import { callBff, canCallBff } from "./bff-client.ts";
import { queryKeys } from "./query-keys.ts";

// The pickers; keys from general to specific (STYLE.md 5, query-keys.ts), invalidated by
// live `directory.changed` events.

export const providersQuery = () =>
  queryOptions({
    queryKey: queryKeys.directory.resource("providers"),
    queryFn: ({ signal }) => callBff("/api/providers", providersResponse, { signal }),
    staleTime: 5 * 60_000,
  });

export const facilitiesQuery = () =>
  queryOptions({
    queryKey: queryKeys.directory.resource("facilities"),
    queryFn: ({ signal }) => callBff("/api/facilities", facilitiesResponse, { signal }),
    staleTime: 5 * 60_000,
  });

export const appointmentTypesQuery = () =>
  queryOptions({
    queryKey: queryKeys.directory.resource("appointment-types"),
    queryFn: ({ signal }) => callBff("/api/appointment-types", appointmentTypesResponse, { signal }),
    staleTime: 5 * 60_000,
  });

/**
 * A route's loader (slots, availability): starts reading the pickers' lists
 * as the route is entered or preloaded, from the same factories the views
 * read them with. Not awaited, so the view and its loading states show as
 * before; before the shell has connected there is nobody to call as, and the
 * view's own queries read them once it renders.
 */
export function prefetchDirectory(queryClient: QueryClient): void {
  if (!canCallBff()) return;
  void queryClient.prefetchQuery(appointmentTypesQuery());
  void queryClient.prefetchQuery(providersQuery());
  void queryClient.prefetchQuery(facilitiesQuery());
}
