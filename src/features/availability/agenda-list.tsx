import { memo, useMemo } from "react";
import { localDateOf } from "#contract/time/zoned-time.ts";
import { formatLocalDay, formatTime, type TimeDisplay } from "#src/lib/time-format.ts";
import { useTimeDisplay } from "#src/lib/use-time-display.tsx";
import { ClockChangeIcon } from "#src/components/ui/icons.tsx";
import { buildAgenda, type AgendaDay, type AgendaStack } from "./agenda-model.ts";
import { bandSpanText, clockShiftText, concurrencyText, dayLengthText, legendKey } from "./availability-text.ts";
import type { TemplateInfo } from "./band-details.tsx";
import { bandLook } from "./band-style.ts";
import { LoadFill, type LoadIndex } from "./band-load.tsx";
import type { Band, TemplateEntry } from "./week-model.ts";
import type { WeekWindow } from "./week-window.ts";

// The agenda layout: the week as a list, day by day, for a narrow EHR panel
// (360-480 px) or anyone who would rather read than scan a grid. Each
// provider's overlapping bands are one entry with the most places bookable
// at once; every band's times, template and capacity are written out, so
// nothing needs hovering, and a clock change is said on its day and inside
// any band it falls in. The current week opens at today, its past days folded.

export interface AgendaListProps {
  bands: readonly Band[];
  /** Legend order (the letter and look of each template). */
  templates: readonly TemplateEntry[];
  week: WeekWindow;
  today: string;
  infoOf: (band: Band) => TemplateInfo;
  providerName: (providerKey: string) => string;
  load: LoadIndex;
}

const wallTime = (epochMs: number, display: TimeDisplay) => formatTime(epochMs, display, { zoneName: "omitted" });

function StackEntry({ stack, legendIndex, infoOf, providerName, display, date, load }: { stack: AgendaStack; legendIndex: ReadonlyMap<string, number>; infoOf: (band: Band) => TemplateInfo; providerName: string; display: TimeDisplay; date: string; load: LoadIndex }) {
  const endsNextDay = localDateOf(stack.endMs, display.zone) > date;
  return (
    <li data-testid="availability-agenda-entry" data-provider-id={stack.providerKey} className="rounded-md border border-slate-200 bg-white p-2">
      <p className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-semibold tabular-nums">{bandSpanText(stack.startMs, stack.endMs, endsNextDay, display)}</span>
        <bdi className="font-medium">{providerName}</bdi>
        <span data-testid="availability-agenda-peak" className="text-sm text-slate-700">
          {stack.peakCapacity === 0 ? "not bookable" : stack.bands.length > 1 ? `up to ${stack.peakCapacity} at once` : concurrencyText(stack.peakCapacity)}
        </span>
      </p>
      {stack.bands.length > 1 || stack.bands.some((band) => band.isInactive || band.isFromService) ? (
        <ul className="mt-1 space-y-0.5 text-sm">
          {stack.bands.map((band) => {
            const index = legendIndex.get(band.templateKey) ?? 0;
            const look = bandLook(index, band.isInactive);
            const info = infoOf(band);
            const bandLoad = load.ofBand(band);
            return (
              <li key={band.key} data-testid="availability-agenda-band" data-template-id={band.instance.templateId} data-starts-at={band.instance.startsAt} className="flex min-w-0 items-start gap-2">
                <span aria-hidden="true" style={look.style} className="mt-0.5 grid h-5 w-6 shrink-0 place-items-center rounded border-l-4 border-y border-r text-[11px] font-bold">
                  {legendKey(index)}
                </span>
                <span className="min-w-0">
                  <span className="font-medium">{info.name}</span> <span className="tabular-nums">{bandSpanText(band.startMs, band.endMs, localDateOf(band.endMs, display.zone) > date, display)}</span>
                  {", "}
                  {band.isInactive ? "inactive, not bookable" : concurrencyText(band.instance.concurrency)}
                  {band.isFromService ? ", as the service lists it" : ""}
                  {bandLoad ? <LoadFill load={bandLoad} className="mt-0.5 max-w-48 text-xs" /> : null}
                </span>
              </li>
            );
          })}
        </ul>
      ) : (
        <SingleBand band={stack.bands[0]} index={legendIndex.get(stack.bands[0]?.templateKey ?? "") ?? 0} info={stack.bands[0] ? infoOf(stack.bands[0]) : null} load={load} />
      )}
      {stack.overlaps.length > 0 ? (
        <p className="mt-1 text-xs text-slate-700">
          {stack.overlaps.map((span) => `${wallTime(span.startMs, display)}–${wallTime(span.endMs, display)}: ${span.total} at once`).join("; ")}
        </p>
      ) : null}
    </li>
  );
}

function SingleBand({ band, index, info, load }: { band: Band | undefined; index: number; info: TemplateInfo | null; load: LoadIndex }) {
  if (!band || !info) return null;
  const look = bandLook(index, band.isInactive);
  const bandLoad = load.ofBand(band);
  return (
    <p data-testid="availability-agenda-band" data-template-id={band.instance.templateId} data-starts-at={band.instance.startsAt} className="mt-1 flex min-w-0 items-start gap-2 text-sm">
      <span aria-hidden="true" style={look.style} className="mt-0.5 grid h-5 w-6 shrink-0 place-items-center rounded border-l-4 border-y border-r text-[11px] font-bold">
        {legendKey(index)}
      </span>
      <span className="min-w-0">
        <span className="font-medium">{info.name}</span>
        {bandLoad ? <LoadFill load={bandLoad} className="mt-0.5 max-w-48 text-xs" /> : null}
      </span>
    </p>
  );
}

/** One day of the agenda: its heading (today and a clock change marked) and its stacks. */
function AgendaDayItem({ day, week, today, display, legendIndex, infoOf, providerName, load }: { day: AgendaDay; week: WeekWindow; today: string; display: TimeDisplay; legendIndex: ReadonlyMap<string, number> } & Pick<AgendaListProps, "infoOf" | "providerName" | "load">) {
  const weekDay = week.days.find((candidate) => candidate.date === day.date);
  const length = weekDay ? dayLengthText(weekDay.lengthMinutes) : null;
  return (
    <li data-testid="availability-agenda-day" data-date={day.date} className="min-w-0">
      <h3 className={`mb-1 flex flex-wrap items-baseline gap-x-2 text-sm font-semibold ${day.date === today ? "text-brand-800" : ""}`}>
        <span>{formatLocalDay(day.date, display.locale)}</span>
        {day.date === today ? <span className="text-xs">Today</span> : null}
        {weekDay?.clockShift && length ? (
          <span className="inline-flex items-center gap-1 rounded-full border border-amber-500 bg-amber-50 px-1.5 py-0.5 text-[11px] font-medium text-amber-950">
            <ClockChangeIcon />
            {length}: {clockShiftText(weekDay.clockShift, display.locale)}
          </span>
        ) : null}
      </h3>
      {day.stacks.length === 0 ? (
        <p className="text-sm text-slate-600">No bookable time.</p>
      ) : (
        <ul className="space-y-1.5">
          {day.stacks.map((stack) => (
            <StackEntry key={stack.key} stack={stack} legendIndex={legendIndex} infoOf={infoOf} providerName={providerName(stack.providerKey)} display={display} date={day.date} load={load} />
          ))}
        </ul>
      )}
    </li>
  );
}

export const AgendaList = memo(function AgendaList({ bands, templates, week, today, infoOf, providerName, load }: AgendaListProps) {
  const display = useTimeDisplay(week.zone);
  const days = useMemo(() => buildAgenda(bands, week, providerName), [bands, week, providerName]);
  const legendIndex = useMemo(() => new Map(templates.map((entry, index) => [entry.key, index])), [templates]);
  // This week opens at today: its past days, nothing bookable left in them, fold away above it.
  const todayIndex = days.findIndex((day) => day.date >= today);
  const past = todayIndex > 0 ? days.slice(0, todayIndex) : [];
  const ahead = days.slice(past.length);
  const item = (day: AgendaDay) => <AgendaDayItem key={day.date} day={day} week={week} today={today} display={display} legendIndex={legendIndex} infoOf={infoOf} providerName={providerName} load={load} />;
  return (
    <div data-testid="availability-agenda" className="space-y-3">
      {past.length > 0 ? (
        <details data-testid="availability-agenda-past" className="rounded-md border border-slate-200 bg-slate-50 p-2">
          <summary className="cursor-pointer text-sm font-medium text-slate-800">
            Earlier this week: {past.length === 1 ? formatLocalDay(past[0]?.date ?? "", display.locale) : `${formatLocalDay(past[0]?.date ?? "", display.locale, { style: "short" })} to ${formatLocalDay(past.at(-1)?.date ?? "", display.locale, { style: "short" })}`} (past)
          </summary>
          <ol aria-label="Availability earlier this week, by day" className="mt-2 space-y-3">
            {past.map(item)}
          </ol>
        </details>
      ) : null}
      <ol aria-label="Availability by day" className="space-y-3">
        {ahead.map(item)}
      </ol>
    </div>
  );
});
