import type { UseQueryResult } from "@tanstack/react-query";
import type { UseNavigateResult } from "@tanstack/react-router";
import { useCallback, useEffect, useRef } from "react";
import type { SlotSearchQuery } from "#contract/app-api/slots.ts";
import type { SlotSearchAnswer } from "#src/api/slot-search-parts.ts";
import type { SlotSelectionFlow } from "#src/scheduling/slot-selection-flow.ts";
import { toSlotSearchParams } from "./slot-filters.ts";
import { sameTimeFilter, toTimeFilterParams, type SlotTimeFilter } from "#src/scheduling/slot-time-filter.ts";

// Running a search from the form or a notice's button: the same filters are
// fetched again, new ones go to the URL (ADR 0007); once the answer is in,
// focus goes to the results' summary (the form is rebuilt for the new filters).

interface RunSearchInput {
  filtersKey: string;
  timeFilter: SlotTimeFilter;
  order: string | undefined;
  navigate: UseNavigateResult<"/slots">;
  slots: Pick<UseQueryResult<SlotSearchAnswer | undefined>, "data" | "isError" | "isFetching" | "isPlaceholderData" | "dataUpdatedAt" | "errorUpdatedAt" | "refetch">;
  flow: SlotSelectionFlow;
  /** Called as a search starts (the list being replaced takes its notices with it). */
  onSearch: () => void;
}

export function useRunSearch({ filtersKey, timeFilter, order, navigate, slots, flow, onSearch }: RunSearchInput) {
  const summaryRef = useRef<HTMLParagraphElement>(null);
  const isSearchFocusPending = useRef(false);
  // A wide search's first days count: its later days only add to the list below.
  const isSearchSettled = !slots.isPlaceholderData && (slots.data !== undefined || slots.isError) && (!slots.isFetching || slots.data?.isComplete === false);
  useEffect(() => {
    if (!isSearchFocusPending.current || !isSearchSettled) return;
    isSearchFocusPending.current = false;
    summaryRef.current?.focus();
  }, [isSearchSettled, slots.dataUpdatedAt, slots.errorUpdatedAt]);

  const { refetch } = slots;

  const search = useCallback(
    (next: SlotSearchQuery, time: SlotTimeFilter = timeFilter) => {
      onSearch();
      isSearchFocusPending.current = true;
      // A gone, refused or failed pick belongs to the list being replaced; one in flight carries on.
      if (flow.getState().kind !== "checking" && flow.getState().kind !== "holding") flow.cancel();
      const isSameSearch = JSON.stringify(next) === filtersKey && sameTimeFilter(time, timeFilter);
      if (isSameSearch) void refetch();
      // The same search too: the URL then says exactly it (defaults written out, a link's note of filters it could not use gone).
      // Not scrolled to the top (the router's default): the user stays at Search until the results take focus.
      void navigate({ search: { ...toSlotSearchParams(next), ...toTimeFilterParams(time), order }, replace: isSameSearch, resetScroll: false });
    },
    [filtersKey, navigate, refetch, order, flow, timeFilter, onSearch],
  );

  return { search, summaryRef };
}
