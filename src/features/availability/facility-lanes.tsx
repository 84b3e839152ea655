import { Popover } from "radix-ui";
import { memo, useCallback, useMemo, useState, type ReactNode } from "react";
import { localDateOf } from "#contract/time/zoned-time.ts";
import { formatLocalDay, formatWallTime, type TimeDisplay } from "#src/lib/time-format.ts";
import { useTimeDisplay } from "#src/lib/use-time-display.tsx";
import { ClockChangeIcon } from "#src/components/ui/icons.tsx";
import { buildAgenda, type AgendaStack } from "./agenda-model.ts";
import { bandSpanText, clockShiftText, concurrencyText, dayLengthText, legendKey } from "./availability-text.ts";
import { bandButtonLabel, bandDataAttributes } from "./band-button.ts";
import { BandDetails, type TemplateInfo } from "./band-details.tsx";
import type { BandGrid } from "./band-navigation.ts";
import { useBandFocus } from "./use-band-focus.ts";
import { bandLook } from "./band-style.ts";
import { LoadFill, loadText, type LoadIndex } from "./band-load.tsx";
import { wallMinutesFrom, type WeekWindow } from "./week-window.ts";
import type { Band, GridModel } from "./week-model.ts";

// The whole facility's week as lanes: one row per provider, one column per
// day, and in each cell the provider's bands of that day in time order. A
// provider's overlapping templates are one stack with the most bookable at
// once written on it; every band is as wide as its cell, so its label always
// fits. Under each day's heading a time axis spans the hours shown (noon ticked), and each
// cell draws its stacks on a track against that axis, so when providers are
// bookable can be compared down a column at a glance. Bands are buttons (one tab stop for the table, arrow keys move as in
// the week grid: band-navigation.ts) whose details open in a popover.

export interface FacilityLanesProps {
  grid: GridModel;
  week: WeekWindow;
  today: string;
  infoOf: (band: Band) => TemplateInfo;
  providerName: (providerKey: string) => string;
  load: LoadIndex;
  /** The wall-clock hours the time axis spans (those of the week grid). */
  hours: { fromHour: number; toHour: number };
}

/** Where a span of wall minutes lies on the axis of `hours`, in percent of its width. */
function axisSpan(fromMinute: number, toMinute: number, hours: FacilityLanesProps["hours"]): { left: number; width: number } {
  const start = hours.fromHour * 60;
  const length = (hours.toHour - hours.fromHour) * 60;
  const clamp = (minute: number) => Math.min(Math.max(minute - start, 0), length);
  const left = (clamp(fromMinute) / length) * 100;
  return { left, width: Math.max(0, (clamp(toMinute) / length) * 100 - left) };
}

/** Noon, when within the hours shown: a tick on the axis and on every track, to tell mornings from afternoons. */
const noonOf = (hours: FacilityLanesProps["hours"]) => (hours.fromHour < 12 && hours.toHour > 12 ? axisSpan(720, 720, hours).left : null);

/** The hours shown, as a scale under a day's heading: the first and last hour at its ends, noon ticked. */
function TimeAxis({ hours, locale }: { hours: FacilityLanesProps["hours"]; locale: string }) {
  const noon = noonOf(hours);
  return (
    <span aria-hidden="true" data-testid="availability-lane-axis" className="relative mt-1 flex h-3.5 justify-between whitespace-nowrap border-t border-slate-400 pt-0.5 text-[10px] font-normal leading-none text-slate-600 tabular-nums">
      {noon === null ? null : <span className="absolute -top-1 h-1.5 border-l border-slate-500" style={{ left: `${noon}%` }} />}
      <span>{formatWallTime(hours.fromHour * 60, locale)}</span>
      <span>{formatWallTime(hours.toHour * 60, locale)}</span>
    </span>
  );
}

/** The cell's stacks on the axis: a track with a bar where each stack lies, darker where more can be booked at once. */
function LaneTrack({ stacks, date, week, hours }: { stacks: readonly AgendaStack[]; date: string; week: WeekWindow; hours: FacilityLanesProps["hours"] }) {
  return (
    <span aria-hidden="true" data-testid="availability-lane-track" className="relative mb-1 block h-2 rounded-sm bg-slate-100 ring-1 ring-slate-300">
      {noonOf(hours) === null ? null : <span className="absolute inset-y-0 border-l border-dashed border-slate-400" style={{ left: `${noonOf(hours)}%` }} />}
      {stacks.map((stack) => {
        const { left, width } = axisSpan(wallMinutesFrom(date, stack.startMs, week.zone), wallMinutesFrom(date, stack.endMs, week.zone), hours);
        return <span key={stack.key} data-testid="availability-lane-bar" className={`absolute inset-y-0 rounded-sm ${stack.bands.length > 1 ? "bg-slate-800" : "bg-slate-500"}`} style={{ left: `${left}%`, width: `${width}%` }} />;
      })}
    </span>
  );
}

interface BandChipProps {
  band: Band;
  load: LoadIndex;
  info: TemplateInfo;
  legendIndex: number;
  display: TimeDisplay;
  isTabStop: boolean;
  register: (key: string, element: HTMLButtonElement | null) => void;
  onFocusBand: (key: string) => void;
}

function BandChip({ band, load, info, legendIndex, display, isTabStop, register, onFocusBand }: BandChipProps) {
  const bandLoad = load.ofBand(band);
  const [isOpen, setOpen] = useState(false);
  const look = bandLook(legendIndex, band.isInactive);
  const key = legendKey(legendIndex);
  const endsNextDay = localDateOf(band.endMs, display.zone) > band.date;
  const label = bandButtonLabel(band, info, display, bandLoad);
  return (
    <Popover.Root open={isOpen} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <button
          type="button"
          ref={(element) => register(band.key, element)}
          {...bandDataAttributes(band, bandLoad)}
          tabIndex={isTabStop ? 0 : -1}
          aria-label={label}
          style={look.style}
          onFocus={() => onFocusBand(band.key)}
          className="block w-full min-w-0 rounded border-l-4 border-y border-r px-1 py-0.5 text-left text-[11px] leading-tight focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-900"
        >
          <span aria-hidden="true" className="flex min-w-0 items-baseline gap-1">
            <span className="shrink-0 font-bold">{key}</span>
            <span className="min-w-0 break-words font-medium">{info.name}</span>
          </span>
          <span aria-hidden="true" className="block tabular-nums">
            {bandSpanText(band.startMs, band.endMs, endsNextDay, display)}
          </span>
          <span aria-hidden="true" className="block">
            {band.isInactive ? "inactive" : concurrencyText(band.instance.concurrency)}
            {band.isFromService ? " · service" : ""}
          </span>
          {bandLoad ? <LoadFill load={bandLoad} className="mt-0.5" /> : null}
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          side="bottom"
          align="start"
          sideOffset={4}
          collisionPadding={8}
          onOpenAutoFocus={(event) => event.preventDefault()}
          aria-label={`${info.name}: details`}
          className="z-50 w-[min(20rem,calc(100vw-1rem))] rounded-lg border border-slate-300 bg-white p-3 text-slate-900 shadow-lg"
        >
          <BandDetails band={band} info={info} display={display} legendKey={key} />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function StackCell({ stack, display, children }: { stack: AgendaStack; display: TimeDisplay; children: ReactNode }) {
  if (stack.bands.length === 1) return <li className="min-w-0">{children}</li>;
  return (
    <li data-testid="availability-lane-stack" className="min-w-0 rounded-md border border-slate-400 bg-slate-50 p-0.5">
      <p className="px-0.5 text-[11px] font-semibold leading-tight">
        <span className="tabular-nums">{bandSpanText(stack.startMs, stack.endMs, localDateOf(stack.endMs, display.zone) > localDateOf(stack.startMs, display.zone), display)}</span>
        <span data-testid="availability-lane-peak" className="block">
          up to {stack.peakCapacity} at once
        </span>
      </p>
      <ul className="mt-0.5 space-y-0.5">{children}</ul>
    </li>
  );
}

export const FacilityLanes = memo(function FacilityLanes({ grid, week, today, infoOf, providerName, load, hours }: FacilityLanesProps) {
  const display = useTimeDisplay(week.zone);
  const { locale } = display;
  const days = useMemo(() => buildAgenda(grid.bands, week, providerName), [grid.bands, week, providerName]);
  const legendIndex = useMemo(() => new Map(grid.templates.map((entry, index) => [entry.key, index])), [grid.templates]);
  const providers = useMemo(() => {
    const keys = new Set(grid.bands.filter((band) => !band.isCarriedIn).map((band) => band.providerKey));
    return [...keys].sort((a, b) => providerName(a).localeCompare(providerName(b)) || (a < b ? -1 : 1));
  }, [grid.bands, providerName]);
  const stacksOf = useCallback((date: string, providerKey: string) => days.find((day) => day.date === date)?.stacks.filter((stack) => stack.providerKey === providerKey) ?? [], [days]);
  // Arrow keys: Up/Down through a day's bands (provider by provider), Left/Right to the nearest in time on the next day.
  const navigation: BandGrid = useMemo(
    () =>
      week.days.map((day) =>
        providers.flatMap((providerKey) =>
          stacksOf(day.date, providerKey).flatMap((stack) => stack.bands.map((band) => ({ key: band.key, startMinute: wallMinutesFrom(day.date, band.startMs, week.zone) }))),
        ),
      ),
    [week, providers, stacksOf],
  );
  const { tabStop, register, onFocusBand, onKeyDown } = useBandFocus(navigation);

  return (
    <div className="overflow-x-auto rounded-md border border-slate-200 overscroll-x-contain">
      <table data-testid="availability-lanes" onKeyDown={onKeyDown} className="w-full min-w-[52rem] table-fixed border-separate border-spacing-0 bg-white text-left">
        <colgroup>
          <col className="w-36" />
          {week.days.map((day) => (
            <col key={day.date} />
          ))}
        </colgroup>
        <thead>
          <tr>
            <th scope="col" className="sticky left-0 z-10 border-b border-slate-200 bg-white px-2 py-1.5 align-bottom text-xs font-medium text-slate-600">
              Provider
              <span className="block font-normal">
                Bars: {formatWallTime(hours.fromHour * 60, locale)}–{formatWallTime(hours.toHour * 60, locale)}, local time
              </span>
            </th>
            {week.days.map((day) => {
              const length = dayLengthText(day.lengthMinutes);
              return (
                <th key={day.date} scope="col" className={`border-b border-l border-slate-200 px-1 py-1.5 align-top text-sm font-medium ${day.date === today ? "bg-brand-50" : ""}`}>
                  {formatLocalDay(day.date, locale, { style: "short" })}
                  {day.date === today ? <span className="block text-xs font-semibold text-brand-800">Today</span> : null}
                  {day.clockShift && length ? (
                    <span title={clockShiftText(day.clockShift, locale)} className="mt-0.5 inline-flex items-center gap-1 rounded-full border border-amber-500 bg-amber-50 px-1.5 py-0.5 text-[11px] font-medium text-amber-950">
                      <ClockChangeIcon />
                      {length}
                      <span className="sr-only">. {clockShiftText(day.clockShift, locale)}</span>
                    </span>
                  ) : null}
                  <TimeAxis hours={hours} locale={locale} />
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {providers.map((providerKey) => (
            <tr key={providerKey} data-testid="availability-lane" data-provider-id={providerKey}>
              <th scope="row" className="sticky left-0 z-10 border-b border-slate-200 bg-white px-2 py-1.5 align-top text-sm font-medium">
                <bdi>{providerName(providerKey)}</bdi>
              </th>
              {week.days.map((day) => {
                const stacks = stacksOf(day.date, providerKey);
                const dayLoad = stacks.length > 0 ? load.ofDay(providerKey, day.date) : null;
                return (
                  <td key={day.date} className={`border-b border-l border-slate-200 p-1 align-top ${day.date === today ? "bg-brand-50/50" : ""}`}>
                    {dayLoad ? (
                      <p data-testid="availability-day-load" data-taken={dayLoad.taken} data-capacity={dayLoad.capacity} className="mb-1 text-[11px] font-semibold tabular-nums text-slate-800">
                        Day: {loadText(dayLoad)}
                      </p>
                    ) : null}
                    {stacks.length === 0 ? (
                      <span className="sr-only">not bookable</span>
                    ) : (
                      <LaneTrack stacks={stacks} date={day.date} week={week} hours={hours} />
                    )}
                    {stacks.length === 0 ? null : (
                      <ul className="space-y-1">
                        {stacks.map((stack) => (
                          <StackCell key={stack.key} stack={stack} display={display}>
                            {stack.bands.map((band) => {
                              const chip = <BandChip key={band.key} band={band} load={load} info={infoOf(band)} legendIndex={legendIndex.get(band.templateKey) ?? 0} display={display} isTabStop={band.key === tabStop} register={register} onFocusBand={onFocusBand} />;
                              return stack.bands.length === 1 ? chip : <li key={band.key}>{chip}</li>;
                            })}
                          </StackCell>
                        ))}
                      </ul>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
});
