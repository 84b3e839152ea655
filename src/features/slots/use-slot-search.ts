import { useQuery } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { useEffect, useMemo, useState } from "react";
import type { SessionFacility } from "#contract/app-api/session.ts";
import type { SlotSearchQuery } from "#contract/app-api/slots.ts";
import { todayIn } from "#contract/time/zoned-time.ts";
import { slotsQuery } from "#src/api/slots-queries.ts";
import type { SlotOrder } from "./group-slots.ts";
import { rememberSlotSearch } from "#src/scheduling/last-slot-search.ts";
import { defaultAppointmentType, isRunnable, resolveSlotFilters } from "./slot-filters.ts";
import { timeFilterOf } from "./slot-time-filter.ts";
import type { AppointmentTypeOption } from "#src/scheduling/use-slot-describer.ts";

// The slot finder's search as the URL holds it (ADR 0007): the filters with
// their defaults filled in, the slots query they run, the search the list on
// screen answers, and the times/days and order that only shape the list.

/** Never fetched (the query is disabled until the filters resolve). */
export const NO_FILTERS: SlotSearchQuery = { appointmentTypeId: "", startDate: "", endDate: "" };

interface SlotSearchDefaults {
  appointmentTypes: readonly AppointmentTypeOption[];
  facility: SessionFacility | null;
  userZone: string;
}

export function useSlotSearch({ appointmentTypes, facility, userZone }: SlotSearchDefaults) {
  const params = useSearch({ from: "/slots" });
  useEffect(() => rememberSlotSearch(params), [params]);
  const navigate = useNavigate({ from: "/slots" });

  // Defaults: the first appointment type, the header's facility, today in its zone.
  const today = todayIn(facility?.timezone ?? userZone, Date.now());
  const firstTypeId = defaultAppointmentType(appointmentTypes)?.id ?? null;
  const filters = useMemo(() => resolveSlotFilters(params, { appointmentTypeId: firstTypeId, facilityId: facility?.id ?? null, today }), [params, firstTypeId, facility?.id, today]);
  const filtersKey = filters ? JSON.stringify(filters) : "";
  const canRun = filters !== null && isRunnable(filters);
  const slots = useQuery({ ...slotsQuery(filters ?? NO_FILTERS), enabled: canRun });

  // The search the list on screen answers (while new filters load, the previous list stays up).
  const [shownFilters, setShownFilters] = useState<SlotSearchQuery | null>(null);
  useEffect(() => {
    if (slots.data && !slots.isPlaceholderData) setShownFilters(filters);
  }, [slots.data, slots.isPlaceholderData, filters]);

  // Times of day and weekdays narrow the list the search answered (the service has no such filter).
  const { startsFrom, startsBefore, days: weekdayParam } = params;
  const timeFilter = useMemo(() => timeFilterOf({ startsFrom, startsBefore, days: weekdayParam }), [startsFrom, startsBefore, weekdayParam]);
  const order: SlotOrder = params.order === "time" ? "time" : "provider";

  return { params, navigate, filters, filtersKey, canRun, slots, shownFilters, timeFilter, order };
}
