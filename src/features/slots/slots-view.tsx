import { useQuery } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from "react";
import type { SlotSearchQuery, SlotSearchResponse } from "../../../contract/app-api/slots.ts";
import type { Slot } from "../../../contract/clinic-api/schedule.ts";
import { todayIn } from "../../../contract/time/zoned-time.ts";
import { appointmentTypesQuery, facilitiesQuery, providersQuery } from "../../api/directory-queries.ts";
import { slotsQuery } from "../../api/slots-queries.ts";
import { ApiErrorNotice } from "../../components/shell/api-error-notice.tsx";
import { useCurrentFacility } from "../../components/shell/current-facility.tsx";
import { Button } from "../../components/ui/button.tsx";
import type { PickerOption } from "../../components/ui/multi-select-picker.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { useBridge } from "../../bridge/bridge-provider.tsx";
import { useHolds } from "../holds/holds-provider.tsx";
import { PatientAppointments } from "./patient-appointments.tsx";
import { heldSlotsMissingFromList } from "./held-in-list.ts";
import { countSlots, earliestSlot, groupSlotsByDay, groupSlotsByTime, slotKey, type GroupedSlot, type SlotOrder, type SlotRow } from "./group-slots.ts";
import { rememberSlotSearch } from "./last-slot-search.ts";
import { freedEarlierSlots, type FreedSlot } from "./freed-slots.ts";
import { SlotFilterForm } from "./slot-filter-form.tsx";
import { describeTimeFilter, isTimeFilterActive, matchesTimeFilter, NO_TIME_FILTER, sameTimeFilter, timeFilterOf, toTimeFilterParams, type SlotTimeFilter } from "./slot-time-filter.ts";
import { defaultAppointmentType, isRunnable, resolveSlotFilters, toSlotSearchParams, widenedWindow, windowDays, windowStartingOn } from "./slot-filters.ts";
import { SlotList, type SlotListHandle } from "./slot-list.tsx";
import type { SelectionParams } from "./slot-selection-flow.ts";
import type { UserTimeSettings } from "../../lib/use-time-display.tsx";
import { formatZoneName, isOtherZone } from "../../lib/time-format.ts";
import { completenessText, formatLocalDay, formatSlotTimeInText, freshnessText } from "./slot-text.ts";
import { appointmentTypeOf, useSlotDescriber, type AppointmentTypeOption } from "./use-slot-describer.ts";

// The slot finder (front desk, patient on the phone): filters in the URL,
// slots by day and provider in the facility's zone, how fresh the list is,
// "First available" on one key, and a chosen slot checked live once, held,
// and booked in the EHR over the bridge.

/** With fewer slots than this, the next available date of each provider is offered too. */
const THIN_RESULT = 5;
/** Never fetched (the query is disabled until the filters resolve). */
const NO_FILTERS: SlotSearchQuery = { appointmentTypeId: "", startDate: "", endDate: "" };

function isTextEntry(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest("input, textarea, select, [contenteditable=''], [contenteditable='true'], [data-no-shortcuts]") !== null;
}

function isShortcut(event: KeyboardEvent | ReactKeyboardEvent, key: string): boolean {
  return event.key.toLowerCase() === key && !event.ctrlKey && !event.metaKey && !event.altKey && !event.repeat;
}

export function SlotsView() {
  const params = useSearch({ from: "/slots" });
  useEffect(() => rememberSlotSearch(params), [params]);
  const navigate = useNavigate({ from: "/slots" });
  const { facility } = useCurrentFacility();
  const types = useQuery(appointmentTypesQuery());
  const providers = useQuery(providersQuery());
  const facilities = useQuery(facilitiesQuery());
  const { describe, reader, providerName, facilityName, listedProviderName, listedFacilityName, zoneOf, fallbackZone, userZone, appointmentTypes, facilityList } = useSlotDescriber();
  const { context } = useBridge();

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

  // Slots a live check found gone stay off the list until a list read after that check arrives
  // (the cached list can lag the EHR by up to maxStalenessSeconds).
  const [seenGone, setSeenGone] = useState<ReadonlyMap<string, number>>(new Map());
  // Times of day and weekdays narrow the list the search answered (the service has no such filter).
  const { startsFrom, startsBefore, days: weekdayParam } = params;
  const timeFilter = useMemo(() => timeFilterOf({ startsFrom, startsBefore, days: weekdayParam }), [startsFrom, startsBefore, weekdayParam]);
  // Selecting: one strong check, then a hold that joins the user's holds (holds-provider.tsx).
  const { canHold, holds, select, selection, activity, flow } = useHolds();
  const listedSearch = shownFilters ?? filters;
  const listedSlots = useMemo(() => {
    if (!slots.data) return [];
    const listReadAtMs = Date.parse(slots.data.meta.sourceSyncedAt);
    // The user's own holds stay on the list they came from, marked Held (held-in-list.ts).
    const withHeld = [...slots.data.slots, ...heldSlotsMissingFromList(holds, slots.data.slots, listedSearch, zoneOf)];
    return withHeld.filter(
      (slot) => !((seenGone.get(slotKey(slot)) ?? -Infinity) >= listReadAtMs) && matchesTimeFilter(Date.parse(slot.startsAt), zoneOf(slot.facilityId), timeFilter),
    );
  }, [slots.data, seenGone, zoneOf, timeFilter, holds, listedSearch]);
  const order: SlotOrder = params.order === "time" ? "time" : "provider";
  const days = useMemo(
    () =>
      order === "time"
        ? groupSlotsByTime(listedSlots, { zoneOf, fallbackZone })
        : groupSlotsByDay(listedSlots, { zoneOf, fallbackZone, providerSortKey: providerName, facilitySortKey: facilityName }),
    [order, listedSlots, zoneOf, fallbackZone, providerName, facilityName],
  );
  const slotCount = useMemo(() => countSlots(days), [days]);
  const isMultiFacility = (shownFilters?.facilityIds?.length ?? filters?.facilityIds?.length ?? 1) > 1;

  const [isRoleNoticeShown, setRoleNoticeShown] = useState(false);
  const selectionParams = useRef<SelectionParams | null>(null);
  const source = shownFilters ?? filters;
  useEffect(() => {
    selectionParams.current = source
      ? { appointmentTypeId: source.appointmentTypeId, slotLengthMinutes: source.slotLengthMinutes, isNewPatient: source.isNewPatient ?? false, searchedFacilityIds: source.facilityIds, searchedProviderIds: source.providerIds }
      : null;
  }, [source]);

  // The slot the user is on (focused, not yet held): if a refresh drops it, say so.
  const watched = useRef<{ key: string; filtersKey: string; text: string } | null>(null);
  const [vanishedText, setVanishedText] = useState<string | null>(null);
  const heldKeys = useMemo(() => new Set(holds.map((held) => slotKey(held.slot))), [holds]);
  // A slot the user holds is not available to them: the mark and the jump go to the next one.
  const firstKey = useMemo(() => earliestSlot(days, heldKeys)?.key ?? null, [days, heldKeys]);
  const pendingKey = selection.kind === "checking" || selection.kind === "holding" ? slotKey(selection.slot) : null;
  const outcome = activity.outcome;

  // A slot that comes free (a cancellation reached the list) earlier than one the user holds or just booked, same provider and type.
  // Slots the user held in this page count as listed before: one they release coming back is not news.
  const previousList = useRef<{ filtersKey: string; keys: ReadonlySet<string> } | null>(null);
  const everHeld = useRef(new Set<string>());
  const [freed, setFreed] = useState<FreedSlot[]>([]);
  useEffect(() => {
    for (const held of holds) everHeld.current.add(slotKey(held.slot));
    if (!slots.data || slots.isPlaceholderData || !filters) return;
    const previous = previousList.current;
    previousList.current = { filtersKey, keys: new Set(slots.data.slots.map(slotKey)) };
    if (previous?.filtersKey !== filtersKey) return setFreed([]);
    const mine = outcome?.kind === "booked" ? [...holds, outcome.held] : holds;
    const known = new Set([...previous.keys, ...everHeld.current]);
    const found = freedEarlierSlots(known, slots.data.slots, mine, { appointmentTypeId: filters.appointmentTypeId, isNewPatient: filters.isNewPatient ?? false });
    if (found.length > 0) setFreed(found);
  }, [slots.data, slots.isPlaceholderData, filters, filtersKey, holds, outcome]);
  useEffect(() => {
    const gone = selection.kind === "gone" ? { slot: selection.slot, seenGoneAtMs: selection.seenGoneAtMs } : outcome?.kind === "booked" ? { slot: outcome.held.slot, seenGoneAtMs: outcome.seenGoneAtMs } : null;
    if (!gone) return;
    const key = slotKey(gone.slot);
    setSeenGone((current) => new Map(current).set(key, Math.max(current.get(key) ?? -Infinity, gone.seenGoneAtMs)));
  }, [selection, outcome]);
  const heldKeysRef = useRef(heldKeys);
  useEffect(() => {
    heldKeysRef.current = heldKeys;
  }, [heldKeys]);

  // Which search the list on screen answers: the previous one while new filters load.
  const displayedKey = slots.isPlaceholderData ? JSON.stringify(shownFilters) : filtersKey;
  const onFocusSlot = useCallback(
    (entry: GroupedSlot, _row: SlotRow, date: string) => {
      if (heldKeysRef.current.has(entry.key)) return;
      watched.current = {
        key: entry.key,
        filtersKey: displayedKey,
        text: `The ${formatSlotTimeInText(entry.startMs, entry.zone, reader)} slot with ${providerName(entry.slot.providerId)} on ${formatLocalDay(date, reader)} is no longer available.`,
      };
    },
    [displayedKey, providerName, reader],
  );

  useEffect(() => {
    const current = watched.current;
    if (!current || !slots.data || slots.isPlaceholderData || current.filtersKey !== filtersKey) return;
    if (!slots.data.slots.some((slot) => slotKey(slot) === current.key)) {
      setVanishedText(current.text);
      watched.current = null;
    }
  }, [slots.data, slots.isPlaceholderData, filtersKey]);

  // A list is actionable only while it belongs to the filters on screen (DESIGN.md): while a
  // search with new filters is in flight, the previous list stays up, marked stale and inert.
  const isListStale = slots.isPlaceholderData;

  const onSelect = useCallback(
    (slot: Slot) => {
      if (isListStale) return;
      if (!canHold) {
        setRoleNoticeShown(true);
        return;
      }
      const selectionFor = selectionParams.current;
      if (!selectionFor) return;
      watched.current = null;
      setVanishedText(null);
      select(slot, selectionFor);
    },
    [canHold, select, isListStale],
  );

  // After Search, focus goes to the results' summary once they are in (the form is rebuilt for the new filters).
  const summaryRef = useRef<HTMLParagraphElement>(null);
  const isSearchFocusPending = useRef(false);
  const isSearchSettled = !slots.isFetching && !slots.isPlaceholderData && (slots.data !== undefined || slots.isError);
  useEffect(() => {
    if (!isSearchFocusPending.current || !isSearchSettled) return;
    isSearchFocusPending.current = false;
    summaryRef.current?.focus();
  }, [isSearchSettled, slots.dataUpdatedAt, slots.errorUpdatedAt]);

  // Filters edited but not searched: the list still answers the previous search, and says so.
  const [isFilterDraftChanged, setFilterDraftChanged] = useState(false);

  const { refetch } = slots;
  const search = useCallback(
    (next: SlotSearchQuery, time: SlotTimeFilter = timeFilter) => {
      setVanishedText(null);
      watched.current = null;
      isSearchFocusPending.current = true;
      // A gone, refused or failed pick belongs to the list being replaced; one in flight carries on.
      if (flow.getState().kind !== "checking" && flow.getState().kind !== "holding") flow.cancel();
      if (JSON.stringify(next) === filtersKey && sameTimeFilter(time, timeFilter)) void refetch();
      else void navigate({ search: { ...toSlotSearchParams(next), ...toTimeFilterParams(time), order: params.order } });
    },
    [filtersKey, navigate, refetch, params.order, flow, timeFilter],
  );

  // "First available": the earliest slot across the chosen providers, on the F key or the button.
  const listRef = useRef<SlotListHandle>(null);
  const nextAvailableRef = useRef<HTMLHeadingElement>(null);
  const emptyRef = useRef<HTMLDivElement>(null);
  // "First available" shows the day in time order (the earliest is then the first slot of its day) and focuses it once laid out.
  const isFirstAvailablePending = useRef(false);
  const focusFirstAvailable = useCallback(() => {
    if (firstKey) listRef.current?.focusSlot(firstKey);
    else (nextAvailableRef.current ?? emptyRef.current)?.focus();
  }, [firstKey]);
  const jumpToFirstAvailable = useCallback(() => {
    if (order === "time") return focusFirstAvailable();
    isFirstAvailablePending.current = true;
    void navigate({ search: (previous) => ({ ...previous, order: "time" }) });
  }, [order, focusFirstAvailable, navigate]);
  useEffect(() => {
    if (!isFirstAvailablePending.current || order !== "time") return;
    isFirstAvailablePending.current = false;
    focusFirstAvailable();
  }, [order, focusFirstAvailable]);

  const onViewKeyDown = (event: ReactKeyboardEvent<HTMLElement>) => {
    if (!isShortcut(event, "f") || isTextEntry(event.target)) return;
    event.preventDefault();
    jumpToFirstAvailable();
  };
  // Focus on the page itself (nothing focused yet in the frame) counts as in the view too.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.target !== document.body || !isShortcut(event, "f")) return;
      event.preventDefault();
      jumpToFirstAvailable();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [jumpToFirstAvailable]);

  const providerOptions: PickerOption[] = useMemo(
    () =>
      [...(providers.data?.providers ?? [])]
        .sort((a, b) => a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName))
        .map((provider) => ({ value: provider.id, label: provider.displayName, detail: [provider.title, provider.roles.join(", ")].filter(Boolean).join(" · ") })),
    [providers.data],
  );
  const facilityOptions: PickerOption[] = useMemo(
    () => facilityList.map((candidate) => ({ value: candidate.id, label: candidate.name, detail: [candidate.city, candidate.timezone].filter(Boolean).join(" · ") })),
    [facilityList],
  );

  if (types.isError) {
    return (
      <ViewFrame>
        <ApiErrorNotice error={types.error} onRetry={() => void types.refetch()} />
      </ViewFrame>
    );
  }
  if (types.data && types.data.appointmentTypes.length === 0) {
    return (
      <ViewFrame>
        <Notice tone="info" title="No appointment types">
          This organization has no appointment types in the EHR, so there is nothing to book.
        </Notice>
      </ViewFrame>
    );
  }
  if (!facility && facilityList.length === 0 && !facilities.isPending) {
    return (
      <ViewFrame>
        <Notice tone="info" title="No facilities">
          You do not see any facility of this organization, so there are no slots to show.
        </Notice>
      </ViewFrame>
    );
  }

  const firstFreed = freed[0];
  const meta = slots.data?.meta;
  const completeness = meta ? completenessText(meta.completeness) : null;
  const shown = shownFilters ?? filters;
  const isThin = slots.data !== undefined && slotCount < THIN_RESULT;
  const showsOtherZones = days.some((day) => day.rows.some((row) => row.slots[0] && isOtherZone(row.slots[0].startMs, row.zone, userZone)));

  return (
    <ViewFrame onKeyDown={onViewKeyDown}>
      {filters && types.data ? (
        <SlotFilterForm
          key={`${filtersKey}|${JSON.stringify(timeFilter)}`}
          applied={filters}
          appliedTime={timeFilter}
          appointmentTypes={types.data.appointmentTypes}
          facilityOptions={facilityOptions}
          providerOptions={providerOptions}
          isLoadingProviders={providers.isPending}
          isSearching={slots.isFetching}
          onSearch={search}
          onChangedChange={setFilterDraftChanged}
        />
      ) : (
        <div aria-busy="true" aria-label="Loading the filters" className="grid grid-cols-1 gap-3 rounded-lg border border-slate-200 bg-white p-3 sm:grid-cols-2 lg:grid-cols-3">
          {Array.from({ length: 6 }, (_, index) => (
            <Skeleton key={index} className="h-14 w-full" />
          ))}
        </div>
      )}

      {filters && !canRun ? (
        <Notice tone="warning" title="This search cannot run as it stands">
          The link's dates are not a window the service accepts (the end on or after the start, at most 62 days). Correct the dates above and search.
        </Notice>
      ) : null}
      {isRoleNoticeShown ? (
        <Notice tone="info" title="Your role can look up slots but not hold them">
          Ask a front-desk colleague or a scheduler to hold and book this time.
        </Notice>
      ) : null}

      <PatientAppointments patientId={context.patientId ?? null} providerName={listedProviderName} facilityName={listedFacilityName} zoneOf={zoneOf} reader={reader} />

      <section data-testid="slot-results" aria-label="Free slots" aria-busy={slots.isFetching} className="space-y-3">
        <ResultsToolbar
          summaryRef={summaryRef}
          data={slots.data}
          slotCount={slotCount}
          shown={shown}
          isFetching={slots.isFetching}
          isPlaceholderData={slots.isPlaceholderData}
          hasFailed={slots.isError && !slots.isFetching && !slots.data}
          reader={reader}
          facilityZone={fallbackZone}
          showsOtherZones={showsOtherZones}
          narrowing={describeTimeFilter(timeFilter, reader.locale)}
          onRefresh={() => void slots.refetch()}
          onFirstAvailable={jumpToFirstAvailable}
          order={order}
          onOrderChange={(next) => void navigate({ search: (previous) => ({ ...previous, order: next }) })}
        />
        {completeness ? (
          <Notice tone="warning" title="This list may be incomplete">
            {completeness}
          </Notice>
        ) : null}
        {slots.isError ? <ApiErrorNotice error={slots.error} onRetry={() => void slots.refetch()} /> : null}
        {firstFreed ? (
          <div data-testid="freed-slot-notice">
            <Notice
              tone="info"
              title="An earlier time has come free"
              actions={
                <>
                  <Button variant="secondary" onClick={() => onSelect(firstFreed.slot)} disabled={isListStale}>
                    Hold {describe.time(firstFreed.slot)}
                  </Button>
                  <Button variant="ghost" onClick={() => setFreed([])}>
                    Dismiss
                  </Button>
                </>
              }
            >
              {describe.phrase(firstFreed.slot)} is free now, earlier than the {describe.time(firstFreed.instead.slot)} {holds.some((held) => held.id === firstFreed.instead.id) ? "you hold" : "you just booked"}.
            </Notice>
          </div>
        ) : null}
        {vanishedText && selection.kind !== "gone" ? (
          <div data-testid="slot-gone-notice">
            <Notice
              tone="warning"
              title="A slot you were on has gone"
              actions={
                <Button variant="secondary" onClick={() => setVanishedText(null)}>
                  Dismiss
                </Button>
              }
            >
              {vanishedText} It was taken or removed in the EHR; the list shows what is free now.
            </Notice>
          </div>
        ) : null}

        {canRun && slots.isPending ? <ResultsSkeleton /> : null}
        {slots.data && slotCount === 0 && isTimeFilterActive(timeFilter) && slots.data.slots.length > 0 ? (
          <div ref={emptyRef} tabIndex={-1} className="outline-none">
            <Notice
              tone="info"
              title="No free slots at these times and days"
              actions={
                <Button variant="secondary" onClick={() => search(shown ?? filters ?? NO_FILTERS, NO_TIME_FILTER)}>
                  Show all times and days
                </Button>
              }
            >
              The search found {slots.data.slots.length} free {slots.data.slots.length === 1 ? "slot" : "slots"}, but none {describeTimeFilter(timeFilter, reader.locale)}.
            </Notice>
          </div>
        ) : slots.data && slotCount === 0 && shown ? (
          <div ref={emptyRef} tabIndex={-1} className="outline-none">
            <Notice
              tone="info"
              title="No free slots in this window"
              actions={
                <>
                  {windowDays(shown) < 28 ? (
                    <Button variant="secondary" onClick={() => search(widenedWindow(shown, 28))}>
                      Widen to 4 weeks
                    </Button>
                  ) : windowDays(shown) < 62 ? (
                    <Button variant="secondary" onClick={() => search(widenedWindow(shown, 62))}>
                      Widen to 62 days
                    </Button>
                  ) : null}
                  {shown.providerIds && shown.providerIds.length > 0 ? (
                    <Button variant="secondary" onClick={() => search({ ...shown, providerIds: undefined })}>
                      Search all providers
                    </Button>
                  ) : null}
                </>
              }
            >
              Nothing is free for these filters {shown.startDate === shown.endDate ? `on ${formatLocalDay(shown.startDate, reader)}` : `from ${formatLocalDay(shown.startDate, reader)} to ${formatLocalDay(shown.endDate, reader)}`}. Widen the window, choose other providers or facilities, or jump to a provider's next available date below.
            </Notice>
          </div>
        ) : null}
        {isFilterDraftChanged && slots.data && !isListStale && shown ? (
          <div data-testid="filters-changed">
            <Notice tone="info" title="The filters have changed">
              The list below is still for your last search ({searchLabel(shown, appointmentTypes)}). Press Search to update it.
            </Notice>
          </div>
        ) : null}
        {days.length > 0 && isListStale && shownFilters ? (
          <Notice tone="info" title="This list is from your previous search">
            It is for {searchLabel(shownFilters, appointmentTypes)} and cannot be held. The results for the new filters replace it as soon as they arrive.
          </Notice>
        ) : null}
        {days.length > 0 ? (
          <div data-testid="slot-list" data-stale={isListStale ? "true" : "false"} inert={isListStale} className={isListStale ? "opacity-50 grayscale" : undefined}>
            <SlotList
              ref={listRef}
              days={days}
              providerName={providerName}
              facilityName={isMultiFacility ? facilityName : null}
              reader={reader}
              heldKeys={heldKeys}
              pendingKey={pendingKey}
              firstKey={firstKey}
              onSelect={onSelect}
              onFocusSlot={onFocusSlot}
            />
          </div>
        ) : null}
        {isThin && slots.data && shown ? (
          <NextAvailable
            headingRef={nextAvailableRef}
            nextAvailableByProvider={slots.data.nextAvailableByProvider}
            shown={shown}
            providerName={providerName}
            reader={reader}
            onMove={(date) => search(windowStartingOn(shown, date))}
          />
        ) : null}
      </section>
    </ViewFrame>
  );
}

/** "New Patient Visit, 40 min, new patient": what a list was searched for. */
function searchLabel(query: SlotSearchQuery, types: readonly AppointmentTypeOption[]): string {
  const type = appointmentTypeOf(types, query.appointmentTypeId);
  const minutes = query.slotLengthMinutes ?? (query.isNewPatient ? type?.newPatientDurationMinutes : type?.defaultDurationMinutes);
  return [type?.name ?? "another appointment type", minutes ? `${minutes} min` : null, query.isNewPatient ? "new patient" : null].filter(Boolean).join(", ");
}

function ViewFrame({ children, onKeyDown }: { children: React.ReactNode; onKeyDown?: (event: ReactKeyboardEvent<HTMLElement>) => void }) {
  return (
    <section aria-labelledby="slots-title" onKeyDown={onKeyDown} className="mx-auto max-w-6xl min-w-0 space-y-3">
      <h1 id="slots-title" className="text-lg font-semibold">
        Find a slot
      </h1>
      {children}
    </section>
  );
}

interface ResultsToolbarProps {
  summaryRef: React.Ref<HTMLParagraphElement>;
  data: SlotSearchResponse | undefined;
  slotCount: number;
  shown: SlotSearchQuery | null;
  isFetching: boolean;
  isPlaceholderData: boolean;
  /** The search failed with no list to show (its error is shown below the toolbar). */
  hasFailed: boolean;
  reader: UserTimeSettings;
  /** The header facility's zone: the freshness time is on its clock. */
  facilityZone: string;
  /** "starting 16:00 or later, Tue–Thu": the times and days the list is narrowed to, or null. */
  narrowing: string | null;
  showsOtherZones: boolean;
  onRefresh: () => void;
  onFirstAvailable: () => void;
  order: SlotOrder;
  onOrderChange: (order: SlotOrder) => void;
}

function ResultsToolbar({ summaryRef, data, slotCount, shown, isFetching, isPlaceholderData, hasFailed, reader, facilityZone, narrowing, showsOtherZones, onRefresh, onFirstAvailable, order, onOrderChange }: ResultsToolbarProps) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 rounded-lg border border-slate-200 bg-white p-3">
      <div className="min-w-0 space-y-1 text-sm">
        <p ref={summaryRef} tabIndex={-1} role="status" data-testid="slot-summary" className="font-medium outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
          {isPlaceholderData
            ? "Searching with the new filters; the previous list is shown meanwhile…"
            : hasFailed
              ? "The search did not complete: no list for these filters yet."
              : data && shown
              ? `${slotCount} free ${slotCount === 1 ? "slot" : "slots"}, ${formatLocalDay(shown.startDate, reader, { short: true })} to ${formatLocalDay(shown.endDate, reader, { short: true })}${narrowing ? `, ${narrowing}` : ""}`
              : isFetching
                ? "Searching…"
                : "Choose filters and search."}
        </p>
        {data ? (
          <p data-testid="slot-freshness" className="text-slate-700">
            Slots {freshnessText(data.meta, facilityZone, reader, Date.now())}
            {isFetching && !isPlaceholderData ? <span className="ml-1 text-slate-600">· refreshing…</span> : null}
          </p>
        ) : null}
        {showsOtherZones ? <p className="text-xs text-slate-600">Times are the facility's local time; the zone is named where it differs from yours ({formatZoneName(reader.userZone)}).</p> : null}
      </div>
      <div className="flex flex-wrap gap-2">
        <div role="group" aria-label="Show slots" className="inline-flex rounded-md border border-slate-300 bg-white p-0.5">
          {(
            [
              ["provider", "By provider"],
              ["time", "In time order"],
            ] as const
          ).map(([value, label]) => (
            <button
              key={value}
              type="button"
              data-testid={`order-${value}`}
              aria-pressed={order === value}
              onClick={() => onOrderChange(value)}
              className={`min-h-8 rounded px-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600 ${order === value ? "bg-brand-700 text-white" : "text-slate-800 hover:bg-slate-100"}`}
            >
              {label}
            </button>
          ))}
        </div>
        <Button data-testid="first-available" variant="primary" aria-keyshortcuts="f" title="Jump to the earliest slot (F)" onClick={onFirstAvailable} disabled={!data || isPlaceholderData}>
          First available <kbd className="rounded border border-white/60 px-1 text-xs">F</kbd>
        </Button>
        <Button variant="secondary" onClick={onRefresh} disabled={!data && !shown}>
          Refresh
        </Button>
      </div>
    </div>
  );
}

function ResultsSkeleton() {
  return (
    <div aria-busy="true" aria-label="Loading slots" data-testid="slot-loading" className="space-y-3">
      {Array.from({ length: 3 }, (_, day) => (
        <div key={day} className="space-y-2 rounded-lg border border-slate-200 bg-white p-3">
          <Skeleton className="h-5 w-40" />
          <div className="flex flex-wrap gap-1.5">
            {Array.from({ length: 8 }, (_, slot) => (
              <Skeleton key={slot} className="h-11 w-[5.5rem]" />
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}

interface NextAvailableProps {
  headingRef: React.Ref<HTMLHeadingElement>;
  nextAvailableByProvider: Record<string, string>;
  shown: SlotSearchQuery;
  providerName: (providerId: string) => string;
  reader: UserTimeSettings;
  onMove: (date: string) => void;
}

/** Each provider's next free date beyond this window (from the search's `nextAvailableByProvider`), with a button to move the window there. */
function NextAvailable({ headingRef, nextAvailableByProvider, shown, providerName, reader, onMove }: NextAvailableProps) {
  const entries = Object.entries(nextAvailableByProvider)
    .filter(([, date]) => date < shown.startDate || date > shown.endDate)
    .map(([providerId, date]) => ({ providerId, date, name: providerName(providerId) }))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.name.localeCompare(b.name)));
  return (
    <section aria-labelledby="next-available-title" className="rounded-lg border border-slate-200 bg-white p-3">
      <h2 id="next-available-title" ref={headingRef} tabIndex={-1} className="text-base font-semibold outline-none focus-visible:outline-2 focus-visible:outline-brand-600">
        Next available after this window
      </h2>
      {entries.length === 0 ? (
        <p className="mt-1 text-sm text-slate-700">No provider in this search has a free slot in the weeks after this window either. Try other providers, facilities or another appointment type.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100">
          {entries.map((entry) => (
            <li key={entry.providerId} data-testid="next-available" data-provider-id={entry.providerId} data-date={entry.date} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <span className="min-w-0">
                <span className="font-medium">{entry.name}</span>: {formatLocalDay(entry.date, reader)}
              </span>
              <Button variant="secondary" aria-label={`Move the window to ${formatLocalDay(entry.date, reader)}, ${entry.name}'s next available date`} onClick={() => onMove(entry.date)}>
                Move window to {formatLocalDay(entry.date, reader, { short: true })}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
