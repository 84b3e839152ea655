import { useQuery } from "@tanstack/react-query";
import { useRouter, useSearch } from "@tanstack/react-router";
import { useCallback, useEffect, useMemo, useState, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from "react";
import { addDays, localDateOf, todayIn } from "#contract/time/zoned-time.ts";
import { availabilityLoadWindowQuery, availabilityWindowQuery } from "#src/api/availability-queries.ts";
import { appointmentTypesQuery, facilitiesQuery, providersQuery } from "#src/api/directory-queries.ts";
import { sessionQuery } from "#src/api/session-query.ts";
import { ApiErrorNotice, useApiErrorDescription } from "#src/components/shell/api-error-notice.tsx";
import { useCurrentFacility } from "#src/components/shell/current-facility.tsx";
import { Notice } from "#src/components/ui/notice.tsx";
import { Skeleton } from "#src/components/ui/skeleton.tsx";
import { isolateText } from "#src/lib/bidi.ts";
import { formatDayAndTime, formatLocalDay, formatZoneName, zoneAbbreviation, type TimeDisplay } from "#src/lib/time-format.ts";
import { useTimeDisplay, useUserTimeSettings } from "#src/lib/use-time-display.tsx";
import { useMediaQuery } from "#src/lib/use-media-query.ts";
import { AgendaList } from "./agenda-list.tsx";
import { FacilityLanes } from "./facility-lanes.tsx";
import { indexLoad, NO_LOAD } from "./band-load.tsx";
import { AvailabilityFilterBar, type FilterOption } from "./availability-filter-bar.tsx";
import { resolveAvailabilityFilters, toAvailabilitySearchParams, type AvailabilityFilters } from "./availability-filters.ts";
import { cachedIdKey } from "#contract/ids.ts";
import { AvailabilityLegend } from "./availability-legend.tsx";
import { bookingsUnreadText, differsText, freshnessText } from "./availability-text.ts";
import { visibleHours } from "./band-layout.ts";
import type { AvailabilityInstance } from "./expand-template.ts";
import { buildWeekModel, groupIntoGrids } from "./week-model.ts";
import { WeekGrid } from "./week-grid.tsx";
import { WeekNavigation } from "./week-navigation.tsx";
import { currentWeekStart, shiftWeek, weekWindow, type WeekWindow } from "./week-window.ts";
import { DayStrip, LayoutSwitch } from "./layout-switch.tsx";
import { nextBandByProvider, nextWeekWithBands, openingWeek } from "./availability-jumps.ts";
import { InfoIcon } from "#src/components/ui/icons.tsx";
import { useTemplateInfo } from "./use-template-info.ts";
import { useWeekShortcuts } from "./use-week-shortcuts.ts";

// Provider availability for schedulers: a week (Monday to Sunday in the
// facility's zone) drawn from the browser's own expansion of the templates
// (the contract's, so any week can be paged to at once), checked against the
// service's instances for that week; per provider or for the whole facility.

const DEFAULT_HOURS = { fromHour: 8, toHour: 18 };
const NO_QUERY = { startDate: "1970-01-01", endDate: "1970-01-01" };

export function AvailabilityView() {
  const params = useSearch({ from: "/availability" });
  // `router.navigate` rather than `useNavigate`: with a second lazy view importing `useNavigate`, Vite 8's chunking
  // splits the entry into three chunks (about 3 KB gzip more initial JavaScript, measured).
  const router = useRouter();
  const { facility: currentFacility } = useCurrentFacility();
  const session = useQuery(sessionQuery());
  const facilities = useQuery(facilitiesQuery());
  const providers = useQuery(providersQuery());
  const types = useQuery(appointmentTypesQuery());
  const { userZone } = useUserTimeSettings();

  const facilityList = useMemo((): { id: string; name: string; timezone: string }[] => facilities.data?.facilities ?? session.data?.facilities ?? [], [facilities.data, session.data]);
  const chosenId = params.facilityId ?? currentFacility?.id ?? null;
  const facility = chosenId === null ? null : (facilityList.find((candidate) => cachedIdKey(candidate.id) === cachedIdKey(chosenId)) ?? (currentFacility && cachedIdKey(currentFacility.id) === cachedIdKey(chosenId) ? currentFacility : null));
  const zone = facility?.timezone ?? currentFacility?.timezone ?? userZone;
  const nowMs = Date.now();
  const display = useTimeDisplay(zone);
  const today = todayIn(zone, nowMs);
  const thisWeek = currentWeekStart(zone, nowMs);
  // Without a week in the URL, the week of the next bookable time (this week's may be over, on a Saturday); known once
  // the facility's templates are in, and remembered for the facility and provider it was worked out for.
  const [opening, setOpening] = useState<{ scope: string; week: string } | null>(null);
  const openingScope = `${params.facilityId ?? currentFacility?.id ?? ""}|${params.providerId ?? ""}|${thisWeek}`;
  const isOpeningKnown = params.startDate !== undefined || opening?.scope === openingScope;
  const defaultWeek = opening?.scope === openingScope ? opening.week : thisWeek;
  const filters = resolveAvailabilityFilters(params, { facilityId: currentFacility?.id ?? null, thisWeek: defaultWeek, today });
  const week = useMemo(() => weekWindow(filters?.startDate ?? thisWeek, zone), [filters?.startDate, thisWeek, zone]);
  // A week's grid needs about 40rem; a narrower panel starts on the agenda, and the user's choice is kept in the URL.
  const isNarrow = useMediaQuery("(max-width: 40rem)");
  const layout = filters?.layout ?? (isNarrow ? "agenda" : "week");
  const dayWindow = useMemo((): WeekWindow | null => {
    const day = week.days.find((candidate) => candidate.date === filters?.day);
    return day ? { startDate: day.date, endDate: day.date, zone: week.zone, days: [day] } : null;
  }, [week, filters?.day]);

  const query = filters ? { facilityId: filters.facilityId, startDate: week.startDate, endDate: week.endDate } : NO_QUERY;
  const availability = useQuery({ ...availabilityWindowQuery(query), enabled: filters !== null });
  const data = availability.data;
  // The booked load of the same week (ADR 0020): drawn on the bands once in; the week is drawn without it meanwhile.
  const loadQuery = useQuery({ ...availabilityLoadWindowQuery({ facilityId: filters?.facilityId ?? "", startDate: week.startDate, endDate: week.endDate }), enabled: filters !== null });
  const load = useMemo(() => (loadQuery.data ? indexLoad(loadQuery.data) : NO_LOAD), [loadQuery.data]);
  const isChecking = availability.isPlaceholderData || (availability.isFetching && !data);

  const update = useCallback(
    (patch: Partial<AvailabilityFilters>) => {
      if (!filters) return;
      // A filter or week change is the same view: it keeps its place (the router would scroll to the top).
      void router.navigate({ to: "/availability", search: toAvailabilitySearchParams({ ...filters, ...patch }), resetScroll: false });
    },
    [filters, router],
  );
  const move = useCallback(
    (action: "previous" | "next" | "this") => {
      if (!filters) return;
      // The day layout keeps its weekday: a week on from Wednesday is Wednesday.
      if (action === "this") update({ startDate: thisWeek, day: today });
      else update({ startDate: shiftWeek(filters.startDate, action === "next" ? 1 : -1), day: addDays(filters.day, action === "next" ? 7 : -7) });
    },
    [filters, thisWeek, today, update],
  );

  const onViewKeyDown = useWeekShortcuts(move);

  // Names: providers (raw UUIDs in the picker, `prv_` in templates) and appointment types.
  const providerNames = useMemo(() => new Map((providers.data?.providers ?? []).map((provider) => [cachedIdKey(provider.id), provider])), [providers.data]);
  // EHR names go into sentences and labels: isolated, so a right-to-left or overriding name cannot reorder them.
  const providerName = useCallback((key: string) => isolateText(providerNames.get(key)?.displayName ?? "Unlisted provider"), [providerNames]);
  const providerShortName = useCallback((key: string) => isolateText(providerNames.get(key)?.lastName ?? "Unlisted"), [providerNames]);
  const typeNames = useMemo(() => new Map((types.data?.appointmentTypes ?? []).map((type) => [cachedIdKey(type.id), isolateText(type.name)])), [types.data]);

  const providerKey = filters?.providerId ? cachedIdKey(filters.providerId) : null;
  const showInactive = filters?.showInactive ?? false;
  // The previous week's templates are expanded for this week while this week's answer loads (placeholder data).
  const templates = data?.templates;
  const shownTemplates = useMemo(() => (templates ?? []).filter((template) => providerKey === null || cachedIdKey(template.providerId) === providerKey), [templates, providerKey]);
  const nextWithBands = useMemo(() => {
    const found = nextWeekWithBands(shownTemplates, week.startDate, zone);
    return found === shiftWeek(week.startDate, 1) ? null : found;
  }, [shownTemplates, week.startDate, zone]);
  // Recomputed once a minute at most (a band ending moves a provider's next one on), not on every render.
  const nowMinute = Math.floor(nowMs / 60_000);
  const nextBands = useMemo(() => nextBandByProvider(shownTemplates, today, nowMinute * 60_000), [shownTemplates, today, nowMinute]);
  const nextOpening = params.startDate === undefined && data && !availability.isPlaceholderData ? openingWeek(nextBands.values(), thisWeek, zone) : null;
  useEffect(() => {
    // Decided once per facility, provider and week: a band ending while the user reads does not move the week away.
    if (nextOpening !== null && opening?.scope !== openingScope) setOpening({ scope: openingScope, week: nextOpening });
  }, [nextOpening, opening, openingScope]);
  const serviceInstances = data && !availability.isPlaceholderData ? data.instances : null;
  const model = useMemo(
    () => (templates ? buildWeekModel({ templates, serviceInstances, week, providerKey, showInactive }) : null),
    [templates, serviceInstances, week, providerKey, showInactive],
  );
  const grids = useMemo(() => {
    if (!model) return [];
    if (layout === "week") return groupIntoGrids(model, week, { mode: filters?.view ?? "provider", providerName });
    if (layout === "day" && dayWindow) {
      // One day: a grid per provider, stacked, so any number of providers fits a narrow panel.
      const day = dayWindow.days[0];
      const bands = day ? model.bands.filter((band) => band.endMs > day.startMs && band.startMs < day.endMs) : [];
      return groupIntoGrids({ ...model, bands }, dayWindow, { mode: "provider", providerName }).filter((grid) => grid.bands.length > 0);
    }
    return [];
  }, [model, week, dayWindow, layout, filters?.view, providerName]);
  // The agenda lists every provider by time: its legend is the whole facility's.
  const agendaTemplates = useMemo(() => (model && layout === "agenda" ? (groupIntoGrids(model, week, { mode: "facility", providerName })[0]?.templates ?? []) : []), [model, week, layout, providerName]);
  // Each grid shows its own hours (at least 08:00-18:00): one provider's night shift does not stretch everyone's grid.
  const hoursOf = useMemo(() => new Map(grids.map((grid) => [grid.key, visibleHours(grid.days)])), [grids]);

  const templateInfo = useTemplateInfo({ providerName, providerShortName, typeNames, today });

  const providerOptions: FilterOption[] = useMemo(() => {
    const keys = new Map<string, string>();
    for (const template of data?.templates ?? []) keys.set(cachedIdKey(template.providerId), template.providerId);
    if (filters?.providerId && !keys.has(cachedIdKey(filters.providerId))) keys.set(cachedIdKey(filters.providerId), filters.providerId);
    return [...keys.entries()].map(([key, value]) => ({ value, label: providerName(key) })).sort((a, b) => a.label.localeCompare(b.label));
  }, [data?.templates, filters?.providerId, providerName]);
  const facilityOptions: FilterOption[] = useMemo(() => facilityList.map((candidate) => ({ value: candidate.id, label: candidate.name })), [facilityList]);
  const inactiveCount = model?.templates.filter((entry) => !entry.template.active).length ?? 0;
  const unreadable = model?.templates.filter((entry) => entry.unreadableReason !== null) ?? [];
  const zoneText = `${formatZoneName(zone)} (${zoneAbbreviation(week.days[0]?.startMs ?? nowMs, zone)})`;

  if (!filters) {
    return (
      <ViewFrame>
        <Notice tone="info" title="No facilities">
          You do not see any facility of this organization, so there is no availability to show.
        </Notice>
      </ViewFrame>
    );
  }

  const selectedProviderName = providerKey ? providerName(providerKey) : null;
  const facilityName = facility ? isolateText(facility.name) : "this facility";

  return (
    <ViewFrame onKeyDown={onViewKeyDown}>
      <AvailabilityFilterBar
        facilityId={facilityOptions.find((option) => cachedIdKey(option.value) === cachedIdKey(filters.facilityId))?.value ?? filters.facilityId}
        facilityOptions={facilityOptions.some((option) => cachedIdKey(option.value) === cachedIdKey(filters.facilityId)) ? facilityOptions : [{ value: filters.facilityId, label: facility?.name ?? "Unlisted facility" }, ...facilityOptions]}
        providerId={providerOptions.find((option) => providerKey !== null && cachedIdKey(option.value) === providerKey)?.value ?? filters.providerId}
        providerOptions={providerOptions}
        // Without the week's templates the number of providers with some is unknown, not 0.
        providerChoices={data ? "read" : availability.isPending ? "loading" : "unread"}
        view={filters.view}
        showsViewChoice={layout === "week"}
        showInactive={filters.showInactive}
        inactiveCount={inactiveCount}
        onChange={(patch) => update(patch)}
      />
      <WeekNavigation
        startDate={week.startDate}
        endDate={week.endDate}
        isThisWeek={week.startDate === thisWeek}
        zoneText={zoneText}
        locale={display.locale}
        onMove={(weeks) => move(weeks > 0 ? "next" : "previous")}
        onThisWeek={() => move("this")}
        onPickDate={(date) => update({ startDate: shiftWeek(date, 0), day: date })}
        nextWithBands={nextWithBands}
      />
      <div className="flex flex-col gap-2">
        <LayoutSwitch layout={layout} onChange={(next) => update({ layout: next })} />
        {layout === "day" ? <DayStrip days={week.days} day={filters.day} today={today} locale={display.locale} onPick={(date) => update({ layout: "day", day: date })} /> : null}
      </div>

      <section aria-label="Availability this week" aria-busy={isChecking} className="space-y-3">
        <div className="space-y-1 text-sm" role="status">
          {data ? (
            <p data-testid="availability-freshness" className="text-slate-700">
              Templates {freshnessText(data.meta, display, nowMs)}
              {isChecking ? <span className="ml-1 text-slate-600">· checking this week with the service…</span> : null}
            </p>
          ) : null}
          {loadQuery.data ? (
            <p data-testid="availability-load-freshness" className="text-slate-700">
              Bookings {freshnessText(loadQuery.data.meta, display, nowMs)}; holds not counted
            </p>
          ) : loadQuery.isError && data && !availability.isError ? (
            // Only beside a drawn week: when the week itself failed, its own error says what to do.
            <BookingsUnread error={loadQuery.error} onRetry={() => void loadQuery.refetch()} />
          ) : data ? (
            <p className="text-slate-600">Reading bookings…</p>
          ) : null}
          {model?.comparison && model.comparison.differingBandCount > 0 ? (
            <p data-testid="availability-differs" className="rounded-md border border-slate-300 bg-slate-50 px-2 py-1 text-slate-800">
              <InfoIcon className="mr-1 h-[1em] w-[1em]" />
              {differsText(model.comparison.differingBandCount)}
            </p>
          ) : null}
        </div>
        {availability.isError ? <ApiErrorNotice error={availability.error} onRetry={() => void availability.refetch()} /> : null}
        {unreadable.length > 0 ? (
          <Notice tone="warning" title={`Tandem cannot read the repeat rule of ${unreadable.length === 1 ? "one template" : `${unreadable.length} templates`}`}>
            {unreadable.map((entry) => entry.template.name).join(", ")}: listed in the legend, and drawn from the service's schedule where it lists them. Check {unreadable.length === 1 ? "this template" : "these templates"} in the EHR.
          </Notice>
        ) : null}

        {(!data && availability.isPending) || (data && !isOpeningKnown) ? <GridSkeleton /> : null}
        {model && isOpeningKnown && model.templates.length === 0 && !availability.isPlaceholderData ? (
          <Notice tone="info" title={selectedProviderName ? `${selectedProviderName} has no availability templates at ${facilityName}` : `No availability templates at ${facilityName}`}>
            {selectedProviderName ? "Choose all providers, or another facility." : "The EHR lists no availability for this facility. Choose another facility."}
          </Notice>
        ) : null}
        {model && isOpeningKnown && model.templates.length > 0 ? (
          <div data-testid="availability-week" data-start-date={week.startDate} data-layout={layout} data-state={isChecking ? "checking" : "ready"} data-load-state={loadQuery.data ? "ready" : loadQuery.isError ? "error" : "loading"} className={`space-y-3 ${isChecking ? "opacity-80" : ""}`}>
            {layout === "agenda" ? (
              <section aria-label={`Agenda, week of ${formatLocalDay(week.startDate, display.locale, { style: "short", weekday: false, year: true })}`} className="rounded-lg border border-slate-200 bg-slate-50 p-3">
                <AgendaList bands={model.bands} templates={agendaTemplates} week={week} today={today} infoOf={templateInfo.ofBand} providerName={providerName} load={load} />
                <AvailabilityLegend templates={agendaTemplates} infoOf={templateInfo.ofEntry} showsProvider isInactiveShown={filters.showInactive} locale={display.locale} />
              </section>
            ) : null}
            {layout === "day" && grids.length === 0 ? <p data-testid="availability-day-empty" data-date={filters.day} className="rounded-lg border border-slate-200 bg-white p-3 text-sm text-slate-700">No bookable time on {formatLocalDay(filters.day, display.locale)}.</p> : null}
            {grids.map((grid) => {
              const title = grid.providerKey ? providerName(grid.providerKey) : facilityName;
              const activeBands = grid.bands.filter((band) => !band.isCarriedIn && !band.isInactive).length;
              const hasBands = grid.bands.length > 0;
              return (
                <section key={grid.key} aria-labelledby={`availability-grid-${grid.key}`} data-testid="availability-grid" data-provider-id={grid.providerKey ?? undefined} className="rounded-lg border border-slate-200 bg-white p-3 [contain-intrinsic-size:auto_36rem] [content-visibility:auto]">
                  <h2 id={`availability-grid-${grid.key}`} className="mb-1 flex flex-wrap items-baseline gap-x-2 text-base font-semibold">
                    <span>{title}</span>
                    {grid.providerKey ? <NextBand instance={nextBands.get(grid.providerKey) ?? null} display={display} onJump={(date) => update({ startDate: shiftWeek(date, 0), day: date })} /> : null}
                    <span className="text-xs font-normal text-slate-600">
                      {grid.templates.length} {grid.templates.length === 1 ? "template" : "templates"} · {activeBands} bookable {activeBands === 1 ? "band" : "bands"} {layout === "day" ? "this day" : "this week"}
                    </span>
                  </h2>
                  {hasBands && layout === "week" && grid.providerKey === null ? (
                    <FacilityLanes grid={grid} week={week} today={today} infoOf={templateInfo.ofBand} providerName={providerName} load={load} hours={hoursOf.get(grid.key) ?? DEFAULT_HOURS} />
                  ) : hasBands ? (
                    <WeekGrid grid={grid} load={load} week={layout === "day" && dayWindow ? dayWindow : week} hours={hoursOf.get(grid.key) ?? DEFAULT_HOURS} today={today} showsProvider={grid.providerKey === null} infoOf={templateInfo.ofBand} label={`${title}, ${layout === "day" ? formatLocalDay(filters.day, display.locale, { style: "short", year: true }) : `week of ${formatLocalDay(week.startDate, display.locale, { style: "short", weekday: false, year: true })}`}, ${zoneAbbreviation(week.days[0]?.startMs ?? nowMs, zone)}`} />
                  ) : (
                    <p className="text-sm text-slate-700">No bookable time this week.</p>
                  )}
                  <AvailabilityLegend templates={grid.templates} infoOf={templateInfo.ofEntry} showsProvider={grid.providerKey === null} isInactiveShown={filters.showInactive} locale={display.locale} />
                </section>
              );
            })}
          </div>
        ) : null}
      </section>
    </ViewFrame>
  );
}

/** "Next bookable: Tue 1 Dec, 09:00": a jump to the provider's next band (a band under way counts). */
function NextBand({ instance, display, onJump }: { instance: AvailabilityInstance | null; display: TimeDisplay; onJump: (date: string) => void }) {
  if (!instance) return <span className="text-xs font-normal text-slate-600">no bookable band within a year</span>;
  const startMs = Date.parse(instance.startsAt);
  return (
    <button type="button" data-testid="availability-next-band" data-starts-at={instance.startsAt} onClick={() => onJump(localDateOf(startMs, display.zone))} className="rounded text-xs font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900 focus-visible:outline-2 focus-visible:outline-brand-600">
      Next bookable: {formatDayAndTime(startMs, display)}
    </button>
  );
}

function ViewFrame({ children, onKeyDown }: { children: ReactNode; onKeyDown?: (event: ReactKeyboardEvent<HTMLElement>) => void }) {
  return (
    <section data-testid="availability-view" aria-labelledby="availability-title" onKeyDown={onKeyDown} className="mx-auto max-w-6xl min-w-0 space-y-3">
      <h1 id="availability-title" className="text-lg font-semibold">
        Availability
      </h1>
      {children}
    </section>
  );
}

function GridSkeleton() {
  return (
    <div aria-busy="true" aria-label="Loading availability" data-testid="availability-loading" className="space-y-2 rounded-lg border border-slate-200 bg-white p-3">
      <Skeleton className="h-5 w-48" />
      <div className="grid grid-cols-8 gap-1">
        {Array.from({ length: 8 }, (_, column) => (
          <div key={column} className="space-y-1">
            <Skeleton className="h-6 w-full" />
            <Skeleton className={`w-full ${column % 3 === 0 ? "h-40" : column % 3 === 1 ? "h-28" : "h-52"}`} />
          </div>
        ))}
      </div>
    </div>
  );
}

/** The line under a drawn week whose bookings failed: what failed and, for a rate limit, its wait counting down. */
function BookingsUnread({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const described = useApiErrorDescription(error);
  return (
    <p data-testid="availability-load-error" className="text-slate-700">
      {bookingsUnreadText(described)}{" "}
      <button type="button" onClick={onRetry} disabled={described.waitSecondsLeft !== null && described.waitSecondsLeft > 0} className="font-medium text-brand-800 underline underline-offset-2 disabled:text-slate-500 disabled:no-underline">
        Try again
      </button>
    </p>
  );
}
