import { useId } from "react";
import { formatLocalDay } from "#src/lib/time-format.ts";
import type { AvailabilityLayout } from "./availability-filters.ts";
import type { WeekDay } from "./week-window.ts";
import { CheckIcon } from "#src/components/ui/icons.tsx";

// How the week is laid out: the grid, one day, or the agenda (a list by day).
// The layout chosen lands in the URL; until then the width chooses (the grid
// where a week fits, the agenda in a narrow panel). The day layout adds a
// strip of the week's days to pick from.

const LAYOUTS: readonly [AvailabilityLayout, string][] = [
  ["week", "Week"],
  ["day", "Day"],
  ["agenda", "Agenda"],
];

export function LayoutSwitch({ layout, onChange }: { layout: AvailabilityLayout; onChange: (layout: AvailabilityLayout) => void }) {
  const id = useId();
  return (
    <fieldset className="min-w-0">
      <legend id={id} className="sr-only">
        Layout
      </legend>
      <div className="inline-flex rounded-md border border-slate-300 bg-white p-0.5">
        {LAYOUTS.map(([value, text]) => (
          <label key={value} className={`flex min-h-8 cursor-pointer items-center justify-center gap-1.5 rounded px-3 text-sm has-focus-visible:outline-2 has-focus-visible:outline-brand-600 ${layout === value ? "bg-brand-700 font-medium text-white" : "text-slate-800 hover:bg-slate-100"}`}>
            <input type="radio" name={`${id}-layout`} value={value} checked={layout === value} onChange={() => onChange(value)} className="sr-only" data-testid={`availability-layout-${value}`} />
            {layout === value ? <CheckIcon /> : null}
            {text}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function DayStrip({ days, day, today, locale, onPick }: { days: readonly WeekDay[]; day: string; today: string; locale: string; onPick: (date: string) => void }) {
  return (
    <div role="group" aria-label="Day" className="grid grid-cols-7 gap-1">
      {days.map((candidate) => (
        <button
          key={candidate.date}
          type="button"
          data-testid="availability-day-pick"
          data-date={candidate.date}
          aria-pressed={candidate.date === day}
          aria-label={`${formatLocalDay(candidate.date, locale)}${candidate.date === today ? ", today" : ""}`}
          onClick={() => onPick(candidate.date)}
          className={`min-h-11 min-w-0 rounded-md border px-0.5 text-center text-xs leading-tight focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 ${candidate.date === day ? "border-brand-700 bg-brand-700 font-semibold text-white" : candidate.date === today ? "border-brand-600 bg-brand-50 text-slate-900" : "border-slate-300 bg-white text-slate-800 hover:bg-slate-100"}`}
        >
          <span aria-hidden="true" className="block">
            {formatLocalDay(candidate.date, locale, { style: "short", month: false })}
          </span>
        </button>
      ))}
    </div>
  );
}
