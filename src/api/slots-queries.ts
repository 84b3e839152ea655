import { experimental_streamedQuery as streamedQuery, keepPreviousData, queryOptions, type QueryFunction } from "@tanstack/react-query";
import { slotCheckResponse, type SlotCheckRequest, type SlotCheckResponse, type SlotSearchQuery } from "#contract/app-api/slots.ts";
import { callBff } from "./bff-client.ts";
import { queryKeys } from "./query-keys.ts";
import { slotSearchAnswer } from "./slot-search-answer.ts";
import { readSlotSearchOffThread } from "./slot-search-reader.ts";
import { combineSlotSearchParts, firstWindow, isWholeSearch, windowAfter, type SlotSearchPart } from "./slot-search-parts.ts";

// The slot finder's calls (DESIGN.md "The BFF's API"): the cached search,
// read in parts (slot-search-parts.ts), and the one strong check of a chosen
// slot (holds: holds-queries.ts). Keys from general to specific (STYLE.md 5,
// query-keys.ts); live `schedule.changed` events invalidate `queryKeys.slots.all`.

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

/** One part of the search: the answer for `window`, a run of its days. */
async function readPart(filters: SlotSearchQuery, window: SlotSearchQuery, signal: AbortSignal): Promise<SlotSearchPart> {
  const answer = await callBff(`/api/slots?${slotSearchQueryString(window)}`, slotSearchAnswer, { signal, fetchWith: readSlotSearchOffThread });
  return { startDate: window.startDate, endDate: window.endDate, searchEndDate: filters.endDate, answer };
}

/** The search's parts, earliest first, each read once the one before it is in, its days chosen from what those found. */
async function* readSearchParts(filters: SlotSearchQuery, signal: AbortSignal): AsyncGenerator<SlotSearchPart> {
  const found = { slots: false, nextAvailable: [] as readonly string[] };
  for (let window: SlotSearchQuery | null = firstWindow(filters); window !== null; window = windowAfter(filters, window, found)) {
    const part = await readPart(filters, window, signal);
    found.slots ||= part.answer.slots.length > 0;
    found.nextAvailable = Object.values(part.answer.nextAvailableByProvider);
    yield part;
  }
}

/** The search as one read, or streamed in parts when it is larger than one (worked out only when it runs: a view's filters may not be searchable yet). */
function readSearch(filters: SlotSearchQuery): QueryFunction<SlotSearchPart[]> {
  const streamed = streamedQuery<SlotSearchPart>({ streamFn: ({ signal }) => readSearchParts(filters, signal), refetchMode: "replace" });
  return (context) => {
    const first = firstWindow(filters);
    return first.endDate === filters.endDate ? readPart(filters, first, context.signal).then((part) => [part]) : streamed(context);
  };
}

export const slotsQuery = (filters: SlotSearchQuery) =>
  queryOptions({
    queryKey: queryKeys.slots.search(filters),
    // A search of one part is one read. Larger ones stream through TanStack Query's streamed query (still marked
    // experimental in v5): the list is there from the first part on (`isComplete` says when the rest has come); a
    // refetch keeps the list on screen and replaces it once whole.
    queryFn: readSearch(filters),
    select: combineSlotSearchParts,
    // Live events invalidate; a short stale time only spares a refetch on remount. A search left before its last
    // part came (its read cancelled) is read again whenever it is shown.
    staleTime: (query) => (isWholeSearch(query.state.data ?? []) ? 10_000 : 0),
    // A refetch (live event, new filters) keeps the list on screen until the answer arrives.
    placeholderData: keepPreviousData,
  });

/** The final `consistency=strong` read of one slot before a hold: a read, so it spends no token; the hold's token is asked for from the EHR beside it. */
export function checkSlot(selection: SlotCheckRequest): Promise<SlotCheckResponse> {
  return callBff("/api/slots/check", slotCheckResponse, { method: "POST", body: selection, isRead: true, writeFollows: true });
}
