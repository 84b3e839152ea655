import { useQuery } from "@tanstack/react-query";
import { useMemo, useState, type KeyboardEvent as ReactKeyboardEvent } from "react";
import { MAX_SLOT_SEARCH_FACILITY_DAYS } from "#contract/app-api/slots.ts";
import { appointmentTypesQuery, facilitiesQuery } from "#src/api/directory-queries.ts";
import { ApiErrorNotice } from "#src/components/shell/api-error-notice.tsx";
import { useCurrentFacility } from "#src/components/shell/current-facility.tsx";
import { Notice } from "#src/components/ui/notice.tsx";
import { Skeleton } from "#src/components/ui/skeleton.tsx";
import { useBridge } from "#src/bridge/bridge-provider.tsx";
import { isOtherZone } from "#src/lib/time-format.ts";
import { useHolds } from "#src/scheduling/holds-provider.tsx";
import { slotKey } from "#src/scheduling/slot-identity.ts";
import { NextAvailable } from "./next-available.tsx";
import { PatientAppointments } from "./patient-appointments.tsx";
import { SlotFilterForm } from "./slot-filter-form.tsx";
import { effectiveSlotLength, windowStartingOn } from "./slot-filters.ts";
import { EmptyListNotice, FiltersChangedNotice, FreedSlotNotice, PreviousSearchNotice, SlotGoneNotice } from "./slot-list-notices.tsx";
import { heldForOtherPatients } from "./held-in-list.ts";
import { SlotList } from "./slot-list.tsx";
import { ResultsToolbar } from "./slot-results-toolbar.tsx";
import { completenessText, formatLocalDay } from "#src/scheduling/slot-text.ts";
import { describeTimeFilter } from "#src/scheduling/slot-time-filter.ts";
import { useFilterOptions } from "./use-filter-options.ts";
import { canJumpToFirstAvailable, useFirstAvailable } from "./use-first-available.ts";
import { useFreedSlots } from "./use-freed-slots.ts";
import { useHoldOnSelect } from "./use-hold-on-select.ts";
import { useListedSlots } from "./use-listed-slots.ts";
import { useRunSearch } from "./use-run-search.ts";
import { appointmentTypeOf, useSlotDescriber } from "#src/scheduling/use-slot-describer.ts";
import { NO_FILTERS, useSlotSearch } from "./use-slot-search.ts";
import { useVanishedSlot } from "./use-vanished-slot.ts";
import { AddToWaitlist } from "#src/scheduling/waitlist/add-to-waitlist.tsx";

// The slot finder (front desk, patient on the phone): filters in the URL,
// slots by day and provider in the facility's zone, how fresh the list is,
// "First available" on one key, and a chosen slot checked live once, held,
// and booked in the EHR over the bridge. Each of those is a hook of its own
// (use-*.ts here); this view wires them and lays the page out.

/** With fewer slots than this, the next available date of each provider is offered too. */
const THIN_RESULT = 5;

export function SlotsView() {
  const { facility } = useCurrentFacility();
  const types = useQuery(appointmentTypesQuery());
  const facilities = useQuery(facilitiesQuery());
  const { describe, reader, providerName, facilityName, listedProviderName, listedFacilityName, zoneOf, fallbackZone, userZone, appointmentTypes, facilityList } = useSlotDescriber();
  const { context } = useBridge();
  const { params, navigate, filters, filtersKey, canRun, slots, shownFilters, timeFilter, order, unreadFilters, pastWindow, today } = useSlotSearch({ appointmentTypes, facilityList, facility, userZone });
  // Selecting: one strong check, then a hold that joins the user's holds (holds-provider.tsx).
  const { canHold, holds, select, selection, activity, flow } = useHolds();
  const outcome = activity.outcome;
  const shown = shownFilters ?? slots.filters;

  const { freed, dismissFreed } = useFreedSlots({ data: slots.data, isPlaceholderData: slots.isPlaceholderData, filters: slots.filters, filtersKey: slots.filtersKey, holds, outcome });
  const { days, slotCount, heldKeys, firstKey } = useListedSlots({ data: slots.data, listedSearch: shown, holds, selection, outcome, timeFilter, order, zoneOf, fallbackZone, providerName, facilityName });
  const heldForOthers = useMemo(() => heldForOtherPatients(holds, heldKeys, context.patientId ?? null), [holds, heldKeys, context.patientId]);
  const isMultiFacility = (shownFilters?.facilityIds?.length ?? slots.filters?.facilityIds?.length ?? 1) > 1;
  const pendingKey = selection.kind === "checking" || selection.kind === "holding" ? slotKey(selection.slot) : null;

  // Which search the list on screen answers: the previous one while new filters load.
  const displayedKey = slots.isPlaceholderData ? JSON.stringify(shownFilters) : slots.filtersKey;
  const { vanishedText, onFocusSlot, forgetWatched, dismissVanished } = useVanishedSlot({ data: slots.data, isPlaceholderData: slots.isPlaceholderData, filtersKey: slots.filtersKey, displayedKey, heldKeys, providerName, reader });

  // A list is actionable only while it belongs to the filters on screen (DESIGN.md): while a
  // search with new filters is in flight, the previous list stays up, marked stale and inert.
  const isListStale = slots.isPlaceholderData;
  const { onSelect, isRoleNoticeShown } = useHoldOnSelect({ source: shown, isListStale, canHold, select, onSelecting: forgetWatched });
  const { search, summaryRef } = useRunSearch({ filtersKey, timeFilter, order: params.order, navigate, slots, flow, onSearch: forgetWatched });

  // Filters edited but not searched: the list still answers the previous search, and says so.
  const [isFilterDraftChanged, setFilterDraftChanged] = useState(false);

  const { listRef, nextAvailableRef, emptyRef, jumpToFirstAvailable, onViewKeyDown } = useFirstAvailable({
    order,
    firstKey,
    canJump: canJumpToFirstAvailable({ data: slots.data, isPlaceholderData: slots.isPlaceholderData, isFetching: slots.isFetching, slotCount }),
    navigate,
  });
  const { providerOptions, facilityOptions, isLoadingProviders } = useFilterOptions(facilityList);
  // Once per list, not on every render (a large group's list has thousands of rows).
  const showsOtherZones = useMemo(() => days.some((day) => day.rows.some((row) => row.slots[0] && isOtherZone(row.slots[0].startMs, row.zone, userZone))), [days, userZone]);

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
  // A wide search's later days may still be coming (slot-search-parts.ts): "none" and "few" wait for the whole list.
  const wholeList = slots.data?.isComplete ? slots.data : undefined;
  const isThin = wholeList !== undefined && slotCount < THIN_RESULT;

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
          isLoadingProviders={isLoadingProviders}
          isSearching={slots.isFetching}
          onSearch={search}
          onChangedChange={setFilterDraftChanged}
          today={today}
        />
      ) : (
        <div aria-busy="true" className="grid grid-cols-1 gap-3 rounded-lg border border-slate-200 bg-white p-3 sm:grid-cols-2 lg:grid-cols-3">
          <p className="sr-only">Loading the filters…</p>
          {Array.from({ length: 6 }, (_, index) => (
            <Skeleton key={index} className="h-14 w-full" />
          ))}
        </div>
      )}

      {unreadFilters.length > 0 ? (
        <div data-testid="unread-link-filters">
          <Notice tone="warning" title="Some of this link's filters could not be used">
            Tandem could not use the {new Intl.ListFormat("en", { type: "conjunction" }).format(unreadFilters)} in this link, so {unreadFilters.length === 1 ? "it takes its default" : "they take their defaults"}. Check the filters above and search.
          </Notice>
        </div>
      ) : null}
      {pastWindow ? (
        <div data-testid="past-link-window">
          <Notice tone="warning" title="This link's dates have passed">
            The link asks for {formatLocalDay(pastWindow.startDate, reader)}
            {pastWindow.endDate ? ` to ${formatLocalDay(pastWindow.endDate, reader)}` : " onwards"}. Times gone by cannot be held, so the search below starts today, {formatLocalDay(today, reader)}. Choose other dates above and search.
          </Notice>
        </div>
      ) : null}
      {filters && !canRun ? (
        <Notice tone="warning" title="This search cannot run as it stands">
          The link's search is not one Tandem runs (the end on or after the start, at most 62 days, and at most {MAX_SLOT_SEARCH_FACILITY_DAYS} facility-days: fewer days over many facilities). Correct it above and search.
        </Notice>
      ) : null}
      {isRoleNoticeShown ? (
        <Notice tone="info" title="Your role can look up slots but not hold them">
          Ask a front-desk colleague or a scheduler to hold and book this time.
        </Notice>
      ) : null}

      <AddToWaitlist search={canRun ? filters : null} times={timeFilter} />

      <PatientAppointments patientId={context.patientId ?? null} providerName={listedProviderName} facilityName={listedFacilityName} zoneOf={zoneOf} reader={reader} />

      <section data-testid="slot-results" aria-label="Free slots" aria-busy={slots.isFetching} className="space-y-3">
        <ResultsToolbar
          summaryRef={summaryRef}
          data={slots.data}
          slotCount={slotCount}
          shown={shown}
          slotLengthMinutes={shown ? effectiveSlotLength(shown, appointmentTypeOf(appointmentTypes, shown.appointmentTypeId)) : undefined}
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
          onOrderChange={(next) => void navigate({ search: (previous) => ({ ...previous, order: next }), resetScroll: false })}
        />
        {completeness ? (
          <Notice tone="warning" title="This list may be incomplete">
            {completeness}
          </Notice>
        ) : null}
        {slots.isError ? <ApiErrorNotice error={slots.error} onRetry={() => void slots.refetch()} /> : null}
        {firstFreed ? (
          <FreedSlotNotice
            freed={firstFreed}
            isInsteadHeld={holds.some((held) => held.id === firstFreed.instead.id)}
            describe={describe}
            isListStale={isListStale}
            onHold={() => onSelect(firstFreed.slot)}
            onDismiss={dismissFreed}
          />
        ) : null}
        {vanishedText && selection.kind !== "gone" ? <SlotGoneNotice text={vanishedText} onDismiss={dismissVanished} /> : null}

        {canRun && (slots.isPending || (slots.data && !wholeList && slotCount === 0 && slots.isFetching)) ? <ResultsSkeleton /> : null}
        {wholeList && slotCount === 0 ? (
          <EmptyListNotice emptyRef={emptyRef} foundCount={wholeList.slots.length} timeFilter={timeFilter} shown={shown} fallbackSearch={slots.filters ?? NO_FILTERS} reader={reader} onSearch={search} />
        ) : null}
        {isFilterDraftChanged && slots.data && !isListStale && shown ? <FiltersChangedNotice shown={shown} appointmentTypes={appointmentTypes} /> : null}
        {days.length > 0 && isListStale && shownFilters ? <PreviousSearchNotice shown={shownFilters} appointmentTypes={appointmentTypes} /> : null}
        {days.length > 0 ? (
          <div data-testid="slot-list" data-stale={isListStale ? "true" : "false"} inert={isListStale} className={isListStale ? "opacity-50 grayscale" : undefined}>
            <SlotList
              ref={listRef}
              days={days}
              providerName={providerName}
              facilityName={isMultiFacility ? facilityName : null}
              reader={reader}
              heldKeys={heldKeys}
              heldForOthers={heldForOthers}
              pendingKey={pendingKey}
              firstKey={firstKey}
              onSelect={onSelect}
              onFocusSlot={onFocusSlot}
            />
          </div>
        ) : null}
        {isThin && shown ? (
          <NextAvailable
            headingRef={nextAvailableRef}
            nextAvailableByProvider={wholeList.nextAvailableByProvider}
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
