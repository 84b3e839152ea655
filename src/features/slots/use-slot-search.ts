import { useQuery } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { useDeferredValue, useEffect, useMemo, useState } from "react";
import type { SessionFacility } from "#contract/app-api/session.ts";
import type { SlotSearchQuery } from "#contract/app-api/slots.ts";
import { todayIn } from "#contract/time/zoned-time.ts";
import { slotsQuery } from "#src/api/slots-queries.ts";
import type { SlotOrder } from "./group-slots.ts";
import { useRememberSlotSearch } from "#src/scheduling/last-slot-search.ts";
import { passedWindowOf, unreadSlotParams } from "#src/scheduling/slot-search-params.ts";
import { defaultAppointmentType, isRunnable, resolveSlotFilters, withKnownIds } from "./slot-filters.ts";
import { timeFilterOf } from "#src/scheduling/slot-time-filter.ts";
import type { AppointmentTypeOption } from "#src/scheduling/use-slot-describer.ts";

// The slot finder's search as the URL holds it (ADR 0007): the filters with
// their defaults filled in, the slots query they run, the search the list on
// screen answers, and the times/days and order that only shape the list.

/** Never fetched (the query is disabled until the filters resolve). */
export const NO_FILTERS: SlotSearchQuery = { appointmentTypeId: "", startDate: "", endDate: "" };

interface SlotSearchDefaults {
  appointmentTypes: readonly AppointmentTypeOption[];
  /** The facilities the user sees: a link's other ids are dropped. */
  facilityList: readonly { id: string }[];
  facility: SessionFacility | null;
  userZone: string;
}

export function useSlotSearch({ appointmentTypes, facilityList, facility, userZone }: SlotSearchDefaults) {
  const linkParams = useSearch({ from: "/slots" });
  const navigate = useNavigate({ from: "/slots" });
  useRememberSlotSearch(linkParams);

  // A shared link's filters that cannot be used (unreadable, or ids this organization does not have) take their defaults, and the view says which.
  const appointmentTypeIds = useMemo(() => appointmentTypes.map((type) => type.id), [appointmentTypes]);
  const facilityIds = useMemo(() => facilityList.map((candidate) => candidate.id), [facilityList]);
  const known = useMemo(() => withKnownIds(linkParams, { appointmentTypeIds, facilityIds }), [linkParams, appointmentTypeIds, facilityIds]);
  const unreadFilters = useMemo(() => [...unreadSlotParams(linkParams), ...known.unknown], [linkParams, known.unknown]);

  // Defaults: the first appointment type, the header's facility, today in its zone.
  const today = todayIn(facility?.timezone ?? userZone, Date.now());
  // A link's window begun before today (kept as a bookmark, or the page reloaded days later) is not searched: the
  // service lists no time gone by. The search takes today's window, and the view says which dates had passed.
  const pastWindow = passedWindowOf(known.params, today);
  const isPast = pastWindow !== null;
  const params = useMemo(() => (isPast ? { ...known.params, startDate: undefined, endDate: undefined } : known.params), [known.params, isPast]);
  const firstTypeId = defaultAppointmentType(appointmentTypes)?.id ?? null;
  const filters = useMemo(() => resolveSlotFilters(params, { appointmentTypeId: firstTypeId, facilityId: facility?.id ?? null, today }), [params, firstTypeId, facility?.id, today]);
  const filtersKey = filters ? JSON.stringify(filters) : "";
  const canRun = filters !== null && isRunnable(filters);
  const query = useQuery({ ...slotsQuery(filters ?? NO_FILTERS), enabled: canRun });
  const { data, isPlaceholderData, isFetching, isPending, isError, error, dataUpdatedAt, errorUpdatedAt, refetch } = query;
  // The list's side of the view (the answer, the request's state and the filters it was for) moves as one. A wide
  // search's first part is drawn at once (the user waits for it); its later parts come in through a deferred
  // render, which React splits between frames, so placing and drawing thousands of slots never holds a click or
  // a key for long (React's useDeferredValue).
  const answered = useMemo(
    () => ({ filters, filtersKey, data, isPlaceholderData, isFetching, isPending, isError, error, dataUpdatedAt, errorUpdatedAt }),
    [filters, filtersKey, data, isPlaceholderData, isFetching, isPending, isError, error, dataUpdatedAt, errorUpdatedAt],
  );
  const deferred = useDeferredValue(answered);
  const isLaterPart = !isPlaceholderData && (data?.parts.length ?? 0) > 1 && deferred.filtersKey === filtersKey && !deferred.isPlaceholderData;
  const listed = isLaterPart ? deferred : answered;
  const slots = useMemo(() => ({ ...listed, refetch }), [listed, refetch]);

  // The search the list on screen answers (while new filters load, the previous list stays up).
  const [shownFilters, setShownFilters] = useState<SlotSearchQuery | null>(null);
  useEffect(() => {
    if (listed.data && !listed.isPlaceholderData) setShownFilters(listed.filters);
  }, [listed]);

  // Times of day and weekdays narrow the list the search answered (the service has no such filter).
  const { startsFrom, startsBefore, days: weekdayParam } = params;
  const timeFilter = useMemo(() => timeFilterOf({ startsFrom, startsBefore, days: weekdayParam }), [startsFrom, startsBefore, weekdayParam]);
  const order: SlotOrder = params.order === "time" ? "time" : "provider";

  return { params, navigate, filters, filtersKey, canRun, slots, shownFilters, timeFilter, order, unreadFilters, pastWindow, today };
}
