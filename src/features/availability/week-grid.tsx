import { Popover } from "radix-ui";
import { memo, useId, useMemo, useRef, useState, type CSSProperties } from "react";
import { localDateOf } from "#contract/time/zoned-time.ts";
import { formatLocalDay, formatTime, formatWallTime, type TimeDisplay } from "#src/lib/time-format.ts";
import { useTimeDisplay } from "#src/lib/use-time-display.tsx";
import { bandSpanText, clockShiftText, concurrencyText, dayLengthText, legendKey, overlapText } from "./availability-text.ts";
import type { DaySegment, OverlapSpan } from "./band-layout.ts";
import { BandDetails, type TemplateInfo } from "./band-details.tsx";
import type { BandGrid } from "./band-navigation.ts";
import { useBandFocus } from "./use-band-focus.ts";
import { bandLook } from "./band-style.ts";
import { loadText, type LoadIndex } from "./band-load.tsx";
import { bandButtonLabel, bandDataAttributes } from "./band-button.ts";
import type { BandLoad } from "#contract/app-api/availability-load.ts";
import type { Band, GridModel } from "./week-model.ts";
import { wallMinutesFrom, type WeekDay, type WeekWindow } from "./week-window.ts";
import { ClockChangeIcon, ContinuesIcon } from "#src/components/ui/icons.tsx";

// One week grid: a table whose column headers are the days (with their real
// length on a clock-change day) and whose one body row holds each day's
// bands at their local wall-clock times, overlapping bands side by side;
// a second row says, in words, the summed capacity where bands overlap.
// Bands are buttons with a full accessible name and one tab stop per grid
// (arrow keys move, band-navigation.ts); focus, hover or a click shows a
// band's details in a Radix Popover.

const HOUR_PX = 40;
const AXIS_REM = 3.25;
const GUTTER_REM = 1.25;
const MIN_DAY_REM = 7.5;
/** Wide enough for a band's time on one line ("12:30 PM–12:30 PM" at 11 px) beside another: overlapping bands wrap their names rather than cut them. */
const LANE_REM = 7;
/** Height from which a band shows its time under its name (two lines of text). */
const TIME_LINE_PX = 26;
/** Height from which a band also shows its capacity. */
const DETAIL_LINES_PX = 40;

export interface WeekGridProps {
  grid: GridModel;
  /** The booked load of the bands, when read (ADR 0020). */
  load: LoadIndex;
  week: WeekWindow;
  hours: { fromHour: number; toHour: number };
  today: string;
  /** The facility view: bands name their provider. */
  showsProvider: boolean;
  infoOf: (band: Band) => TemplateInfo;
  /** Visible label of the scrolling region (it names the grid). */
  label: string;
}

interface BandItemProps {
  band: Band;
  bandLoad: BandLoad | null;
  segment: DaySegment;
  info: TemplateInfo;
  legendIndex: number;
  /** The facility's clock in the user's locale. */
  display: TimeDisplay;
  topPx: number;
  heightPx: number;
  gutterRem: number;
  showsProvider: boolean;
  isTabStop: boolean;
  register: (key: string, element: HTMLButtonElement | null) => void;
  onFocusBand: (key: string) => void;
}

function isNarrowViewport(): boolean {
  return typeof window !== "undefined" && window.matchMedia("(max-width: 40rem)").matches;
}

/** A band's wall-clock time without the zone (the grid's caption names it). */
const wallTime = (epochMs: number, display: TimeDisplay) => formatTime(epochMs, display, { zoneName: "omitted" });

const BandItem = memo(function BandItem({ band, bandLoad, segment, info, legendIndex, display, topPx, heightPx, gutterRem, showsProvider, isTabStop, register, onFocusBand }: BandItemProps) {
  const [isOpen, setOpen] = useState(false);
  const isPinned = useRef(false);
  const timer = useRef<number | undefined>(undefined);
  const contentId = useId();
  const look = bandLook(legendIndex, band.isInactive);
  const key = legendKey(legendIndex);
  const zone = display.zone;
  const start = wallTime(band.startMs, display);
  const end = wallTime(band.endMs, display);
  const endsNextDay = localDateOf(band.endMs, zone) > band.date;
  const realMinutes = (band.endMs - band.startMs) / 60_000;
  const wallMinutes = wallMinutesFrom(band.date, band.endMs, zone) - wallMinutesFrom(band.date, band.startMs, zone);
  const isClockChanged = Math.round(realMinutes) !== Math.round(wallMinutes);
  const label = bandButtonLabel(band, info, display, bandLoad);
  const later = (open: boolean, ms: number) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setOpen(open), ms);
  };
  const cancel = () => window.clearTimeout(timer.current);
  const style: CSSProperties = {
    ...look.style,
    top: topPx,
    height: Math.max(heightPx, 14),
    left: `calc((100% - ${gutterRem}rem) * ${segment.lane / segment.laneCount})`,
    width: `calc((100% - ${gutterRem}rem) / ${segment.laneCount} - 2px)`,
  };
  const showsTime = heightPx >= TIME_LINE_PX;
  const showsCapacity = heightPx >= DETAIL_LINES_PX;
  return (
    <li className="contents">
      <Popover.Root
        open={isOpen}
        onOpenChange={(open) => {
          cancel();
          if (!open) isPinned.current = false;
          setOpen(open);
        }}
      >
        <Popover.Trigger asChild>
          <button
            type="button"
            ref={(element) => register(band.key, element)}
            {...bandDataAttributes(band, bandLoad)}
            data-lanes={segment.laneCount}
            tabIndex={isTabStop ? 0 : -1}
            aria-label={label}
            aria-describedby={isOpen ? contentId : undefined}
            style={style}
            className="absolute flex flex-col items-stretch justify-start overflow-hidden rounded-md border-l-4 border-y border-r px-1 py-0.5 text-left text-[11px] leading-tight shadow-sm hover:z-10 hover:ring-2 hover:ring-slate-500 focus-visible:z-10 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-900"
            onClick={(event) => {
              // A click pins the details open (a hover may already have opened them); a second click closes them.
              event.preventDefault();
              cancel();
              const shouldClose = isOpen && isPinned.current;
              isPinned.current = !shouldClose;
              setOpen(!shouldClose);
            }}
            onFocus={(event) => {
              onFocusBand(band.key);
              if (event.currentTarget.matches(":focus-visible")) {
                cancel();
                setOpen(true);
              }
            }}
            onBlur={() => {
              if (!isPinned.current) later(false, 0);
            }}
            onPointerEnter={(event) => {
              if (event.pointerType === "mouse") later(true, 250);
            }}
            onPointerLeave={(event) => {
              if (event.pointerType === "mouse" && !isPinned.current) later(false, 200);
            }}
          >
            <span aria-hidden="true" className="flex min-w-0 items-baseline gap-1">
              <span className="shrink-0 font-bold">{key}</span>
              <span data-testid="availability-band-name" className="min-w-0 break-words font-medium">
                {showsProvider ? `${info.providerShortName} · ` : ""}
                {info.name}
              </span>
            </span>
            {showsTime ? (
              <span aria-hidden="true" data-testid="availability-band-time" className="block break-words tabular-nums">
                {segment.isContinuation ? `until ${end}` : isClockChanged ? bandSpanText(band.startMs, band.endMs, false, display) : `${start}–${end}${endsNextDay ? " +1" : ""}`}
              </span>
            ) : null}
            {showsCapacity ? (
              <span aria-hidden="true" className="block break-words">
                {band.isInactive ? "inactive" : concurrencyText(band.instance.concurrency)}
                {bandLoad ? ` · ${loadText(bandLoad)}` : ""}
                {band.isFromService ? " · service" : ""}
              </span>
            ) : null}
          </button>
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content
            // Beside the band where there is room; below it on a phone, where a 20rem box fits beside nothing (the width is
            // asked only of an open band: a media query per band drawn showed in the profile).
            side={isOpen && isNarrowViewport() ? "bottom" : "right"}
            align="start"
            sideOffset={6}
            collisionPadding={8}
            onOpenAutoFocus={(event) => event.preventDefault()}
            onCloseAutoFocus={(event) => event.preventDefault()}
            onPointerEnter={cancel}
            onPointerLeave={(event) => {
              if (event.pointerType === "mouse" && !isPinned.current) later(false, 200);
            }}
            aria-label={`${info.name}: details`}
            className="z-50 w-[min(20rem,calc(100vw-1rem))] rounded-lg border border-slate-300 bg-white p-3 text-slate-900 shadow-lg"
          >
            <div id={contentId}>
              <BandDetails band={band} info={info} display={display} legendKey={key} />
            </div>
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
    </li>
  );
});

/** A continuation of a band from the previous day: drawn, not a stop of its own (the band's name says where it ends). */
function ContinuationItem({ band, segment, info, legendIndex, display, topPx, heightPx, gutterRem }: Omit<BandItemProps, "isTabStop" | "register" | "onFocusBand" | "showsProvider" | "bandLoad">) {
  const look = bandLook(legendIndex, band.isInactive);
  return (
    <li
      aria-hidden="true"
      data-testid="availability-band-continuation"
      style={{
        ...look.style,
        top: topPx,
        height: Math.max(heightPx, 14),
        left: `calc((100% - ${gutterRem}rem) * ${segment.lane / segment.laneCount})`,
        width: `calc((100% - ${gutterRem}rem) / ${segment.laneCount} - 2px)`,
        borderStyle: "dashed",
      }}
      className="absolute overflow-hidden rounded-md border px-1 py-0.5 text-[11px] leading-tight opacity-80"
    >
      <span className="block break-words">
        <span className="font-bold">{legendKey(legendIndex)}</span> <ContinuesIcon /> {info.name}
      </span>
      {heightPx >= 28 ? <span className="block break-words tabular-nums">until {wallTime(band.endMs, display)}</span> : null}
    </li>
  );
}

function DayHeader({ day, id, isToday, locale }: { day: WeekDay; id: string; isToday: boolean; locale: string }) {
  const length = dayLengthText(day.lengthMinutes);
  const shiftText = day.clockShift ? clockShiftText(day.clockShift, locale) : null;
  return (
    <th id={id} scope="col" className={`border-b border-l border-slate-200 px-1 py-1.5 text-left align-top font-medium ${isToday ? "bg-brand-50" : "bg-white"}`}>
      <span className="block text-sm">{formatLocalDay(day.date, locale, { style: "short" })}</span>
      {isToday ? <span className="block text-xs font-semibold text-brand-800">Today</span> : null}
      {length ? (
        <span title={shiftText ?? undefined} className="mt-0.5 inline-flex items-center gap-1 rounded-full border border-amber-500 bg-amber-50 px-1.5 py-0.5 text-[11px] font-medium text-amber-950">
          <ClockChangeIcon />
          {length}
          {shiftText !== null ? <span className="sr-only">. {shiftText}</span> : null}
        </span>
      ) : null}
    </th>
  );
}

function OverlapMarker({ span, topPx, heightPx }: { span: OverlapSpan; topPx: number; heightPx: number }) {
  return (
    <div
      aria-hidden="true"
      style={{ top: topPx, height: Math.max(heightPx, 2), width: `${GUTTER_REM - 0.25}rem`, backgroundImage: "repeating-linear-gradient(45deg, rgba(146,64,14,0.25) 0 3px, transparent 3px 6px)" }}
      className="absolute right-0.5 flex justify-center overflow-hidden border-x border-amber-700 bg-amber-100 text-[10px] font-bold text-amber-950"
    >
      {heightPx >= 16 ? <span className="mt-0.5 rounded-sm bg-white/90 px-0.5 leading-none">{span.total}</span> : null}
    </div>
  );
}

function OverlapList({ overlaps, labelOf, locale }: { overlaps: readonly OverlapSpan[]; labelOf: (key: string) => string; locale: string }) {
  return (
    <ul className="space-y-1">
      {overlaps.map((span) => (
        <li key={span.startMs}>
          <span className="font-medium tabular-nums">
            {formatWallTime(span.startMinute, locale)}–{formatWallTime(span.endMinute, locale)}
          </span>{" "}
          <span data-testid="availability-overlap" data-starts-at={new Date(span.startMs).toISOString()} data-ends-at={new Date(span.endMs).toISOString()} data-total={span.total}>
            {overlapText(span.parts.map((part) => ({ label: labelOf(part.key), capacity: part.capacity })))}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** A day's summed capacities; in the facility view (many providers) the peak, with the whole list behind a disclosure. */
function OverlapCell({ overlaps, labelOf, isCollapsible, locale }: { overlaps: readonly OverlapSpan[]; labelOf: (key: string) => string; isCollapsible: boolean; locale: string }) {
  if (overlaps.length === 0) return <span className="sr-only">none</span>;
  if (!isCollapsible || overlaps.length <= 2) return <OverlapList overlaps={overlaps} labelOf={labelOf} locale={locale} />;
  const peak = overlaps.reduce((best, span) => (span.total > best.total ? span : best));
  return (
    <details>
      <summary className="cursor-pointer">
        Up to <span className="font-semibold">{peak.total} at once</span> ({formatWallTime(peak.startMinute, locale)}–{formatWallTime(peak.endMinute, locale)}); {overlaps.length} overlaps
      </summary>
      <div className="mt-1">
        <OverlapList overlaps={overlaps} labelOf={labelOf} locale={locale} />
      </div>
    </details>
  );
}

export const WeekGrid = memo(function WeekGrid({ grid, load, week, hours, today, showsProvider, infoOf, label }: WeekGridProps) {
  const id = useId();
  const display = useTimeDisplay(week.zone);
  const { locale } = display;
  const bandByKey = useMemo(() => new Map(grid.bands.map((band) => [band.key, band])), [grid.bands]);
  const legendIndex = useMemo(() => new Map(grid.templates.map((entry, index) => [entry.key, index])), [grid.templates]);
  const navigation: BandGrid = useMemo(
    () =>
      grid.days.map((day) =>
        day.segments
          .filter((segment) => !segment.isContinuation)
          .sort((a, b) => a.startMinute - b.startMinute || a.lane - b.lane)
          .map((segment) => ({ key: segment.key, startMinute: segment.startMinute })),
      ),
    [grid.days],
  );
  const { tabStop, register, onFocusBand, onKeyDown } = useBandFocus(navigation);

  const fromMinute = hours.fromHour * 60;
  const heightPx = (hours.toHour - hours.fromHour) * HOUR_PX;
  const toPx = (minute: number) => ((Math.min(Math.max(minute, fromMinute), hours.toHour * 60) - fromMinute) / 60) * HOUR_PX;
  // Each day as wide as its lanes need (a busy day in the facility view widens only itself).
  const dayRems = grid.days.map((day) => (day.laneCount > 1 ? day.laneCount * LANE_REM + GUTTER_REM : MIN_DAY_REM));
  const tableRem = AXIS_REM + dayRems.reduce((sum, rem) => sum + rem, 0);
  const hasOverlaps = grid.days.some((day) => day.overlaps.length > 0);
  const labelOf = (key: string) => {
    const band = bandByKey.get(key);
    if (!band) return "?";
    const info = infoOf(band);
    return showsProvider ? `${info.providerName}: ${info.name}` : info.name;
  };
  const hourMarks = Array.from({ length: hours.toHour - hours.fromHour }, (_, index) => hours.fromHour + index);

  return (
    <div role="region" aria-labelledby={`${id}-label`} className="min-w-0">
      <p id={`${id}-label`} className="mb-1 text-xs text-slate-700">
        {label}
        {week.days.length > 1 ? <span className={tableRem > 56 ? undefined : "lg:hidden"}> · scroll sideways for the whole week</span> : null}
      </p>
      <div className="overflow-x-auto rounded-md border border-slate-200 overscroll-x-contain">
        <table onKeyDown={onKeyDown} style={{ minWidth: `${tableRem}rem` }} className="w-full table-fixed border-separate border-spacing-0 bg-white">
          <colgroup>
            <col style={{ width: `${AXIS_REM}rem` }} />
            {week.days.map((day, index) => (
              <col key={day.date} style={{ width: `${dayRems[index] ?? MIN_DAY_REM}rem` }} />
            ))}
          </colgroup>
          <thead>
            <tr>
              <th id={`${id}-time`} scope="col" className="sticky left-0 z-20 border-b border-slate-200 bg-white px-1 text-left text-[11px] font-medium text-slate-600">
                Time
              </th>
              {week.days.map((day) => (
                <DayHeader key={day.date} day={day} id={`${id}-${day.date}`} isToday={day.date === today} locale={locale} />
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <th id={`${id}-hours`} scope="row" className="sticky left-0 z-20 border-slate-200 bg-white p-0 align-top">
                <span className="sr-only">
                  Bands, {formatWallTime(fromMinute, locale)} to {formatWallTime(hours.toHour * 60, locale)} local time
                </span>
                <div aria-hidden="true" className="relative" style={{ height: heightPx }}>
                  {hourMarks.map((hour) => (
                    <span key={hour} className="absolute right-1 -translate-y-1/2 text-[10px] text-slate-600 tabular-nums first:translate-y-0" style={{ top: (hour - hours.fromHour) * HOUR_PX }}>
                      {formatWallTime(hour * 60, locale)}
                    </span>
                  ))}
                </div>
              </th>
              {grid.days.map((layout, index) => {
                const day = week.days[index];
                if (!day) return null;
                const shift = day.clockShift && day.clockShift.toMinute > fromMinute && day.clockShift.fromMinute < hours.toHour * 60 ? day.clockShift : null;
                // The right gutter holds the overlap totals and the clock change's mark: bands never reach under them.
                const gutterRem = layout.overlaps.length > 0 || shift ? GUTTER_REM : 0;
                const primary = layout.segments.filter((segment) => !segment.isContinuation);
                return (
                  <td
                    key={layout.date}
                    data-testid="availability-day"
                    data-date={layout.date}
                    data-day-length-minutes={day.lengthMinutes}
                    headers={`${id}-hours ${id}-${layout.date}`}
                    className={`relative border-l border-slate-200 p-0 align-top ${layout.date === today ? "bg-brand-50/50" : ""}`}
                  >
                    <div
                      className="relative"
                      style={{ height: heightPx, backgroundImage: `repeating-linear-gradient(to bottom, #e2e8f0 0 1px, transparent 1px ${HOUR_PX}px)` }}
                    >
                      {layout.overlaps.map((span) => (
                        <OverlapMarker key={`${span.startMs}`} span={span} topPx={toPx(span.startMinute)} heightPx={toPx(span.endMinute) - toPx(span.startMinute)} />
                      ))}
                      <ul aria-label={`${formatLocalDay(layout.date, locale)}: ${primary.length === 0 ? "no bands" : `${primary.length} ${primary.length === 1 ? "band" : "bands"}`}`} className="absolute inset-0 z-[1]">
                        {layout.segments.map((segment) => {
                          const band = bandByKey.get(segment.key);
                          if (!band) return null;
                          const common = {
                            band,
                            segment,
                            info: infoOf(band),
                            legendIndex: legendIndex.get(band.templateKey) ?? 0,
                            display,
                            topPx: toPx(segment.startMinute),
                            heightPx: toPx(segment.endMinute) - toPx(segment.startMinute),
                            gutterRem,
                          };
                          return segment.isContinuation ? (
                            <ContinuationItem key={`${segment.key}|cont`} {...common} />
                          ) : (
                            <BandItem key={segment.key} {...common} bandLoad={load.ofBand(band)} showsProvider={showsProvider} isTabStop={segment.key === tabStop} register={register} onFocusBand={onFocusBand} />
                          );
                        })}
                      </ul>
                      {shift ? (
                        // At its real place on the wall clock: a stripe under the bands and a mark in the gutter beside them, never over a band's own label; outside the hours shown, the day's heading says it.
                        <>
                          <div
                            aria-hidden="true"
                            style={{ top: toPx(shift.fromMinute), height: Math.max(toPx(shift.toMinute) - toPx(shift.fromMinute), 3), backgroundImage: "repeating-linear-gradient(-45deg, rgba(180,83,9,0.35) 0 2px, transparent 2px 6px)" }}
                            className="pointer-events-none absolute inset-x-0 z-0 border-y border-amber-600 bg-amber-50/60"
                          />
                          <div
                            aria-hidden="true"
                            title={clockShiftText(shift, locale)}
                            data-testid="availability-clock-change"
                            data-kind={shift.kind}
                            style={{ top: toPx(shift.fromMinute), height: Math.max(toPx(shift.toMinute) - toPx(shift.fromMinute), 6), width: `${GUTTER_REM - 0.25}rem` }}
                            className="absolute right-0.5 z-[2] rounded-sm border border-amber-800 bg-amber-400"
                          />
                        </>
                      ) : null}
                    </div>
                  </td>
                );
              })}
            </tr>
            {hasOverlaps ? (
              <tr>
                <th id={`${id}-overlaps`} scope="row" className="sticky left-0 z-20 border-t border-slate-200 bg-white px-1 py-1 text-left align-top text-[11px] font-medium text-slate-700">
                  At once
                </th>
                {grid.days.map((layout) => (
                  <td key={layout.date} headers={`${id}-overlaps ${id}-${layout.date}`} className="border-t border-l border-slate-200 px-1 py-1 align-top text-[11px] leading-snug">
                    <OverlapCell overlaps={layout.overlaps} labelOf={labelOf} isCollapsible={showsProvider} locale={locale} />
                  </td>
                ))}
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
    </div>
  );
});
