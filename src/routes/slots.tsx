import { createFileRoute, redirect } from "@tanstack/react-router";
import { todayIn } from "#contract/time/zoned-time.ts";
import { appointmentTypesQuery, facilitiesQuery, providersQuery } from "../api/directory-queries.ts";
import { sessionQuery } from "../api/session-query.ts";
import { headerFacility } from "../components/shell/current-facility.tsx";
import { keptSlotSearch } from "#src/scheduling/last-slot-search.ts";
import { hasSlotFilters, validateSlotSearch } from "#src/scheduling/slot-search-params.ts";
import { SlotsView } from "../features/slots/slots-view.tsx";

// Thin (STYLE.md 6): the filters as validated search params; the view, split
// into its own chunk, does the rest (src/features/slots/). The identity is
// established before the router loads anything (main.tsx), so the route reads
// the BFF itself:
// - opened without filters (a reload of the whole EHR page opens the frame at
//   its start address; the first view), it goes on to the user's last search
//   as the BFF kept it, checked as a link is (issue 36 item 8), so no search
//   of the defaults runs first;
// - the appointment types and facilities the view's defaults come from are
//   in the cache before it renders (the same queryOptions the view reads).
export const Route = createFileRoute("/slots")({
  validateSearch: validateSlotSearch,
  beforeLoad: async ({ search, context: { queryClient } }) => {
    if (hasSlotFilters(search)) return;
    const session = await queryClient.ensureQueryData(sessionQuery()).catch(() => null);
    // "Today" as the view's defaults take it: in the zone of the facility the header opens on.
    const facility = session ? headerFacility(session.facilities, session.context.facilityId) : null;
    const today = todayIn(facility?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone, Date.now());
    const kept = await keptSlotSearch(queryClient, today);
    if (kept) redirect({ to: "/slots", search: kept, replace: true, throw: true });
  },
  loader: async ({ context: { queryClient } }) => {
    // The providers' list is for the picker only: not waited for.
    void queryClient.prefetchQuery(providersQuery());
    // A list that cannot be read is the view's to explain (with a retry), not the router's.
    await Promise.all([queryClient.ensureQueryData(appointmentTypesQuery()), queryClient.ensureQueryData(facilitiesQuery())]).catch(() => undefined);
  },
  component: SlotsView,
});
