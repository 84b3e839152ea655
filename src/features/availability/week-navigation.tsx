import { useId } from "react";
import { Button } from "#src/components/ui/button.tsx";
import { formatLocalDay, formatLocalDayRange } from "#src/lib/time-format.ts";
import { isLocalDate } from "./week-window.ts";
import { ChevronLeftIcon, ChevronRightIcon } from "#src/components/ui/icons.tsx";

// Previous week, today's week (and day), next week (also on P, T and N), the next week with any
// availability when empty weeks lie between, and a date to jump to.

interface WeekNavigationProps {
  startDate: string;
  endDate: string;
  isThisWeek: boolean;
  zoneText: string;
  /** The user's locale, for the week's dates. */
  locale: string;
  onMove: (weeks: number) => void;
  onThisWeek: () => void;
  onPickDate: (date: string) => void;
  /** The next week with any band, when it is not simply the next week (empty weeks between, or none this week); null otherwise. */
  nextWithBands: string | null;
}

export function WeekNavigation({ startDate, endDate, isThisWeek, zoneText, locale, onMove, onThisWeek, onPickDate, nextWithBands }: WeekNavigationProps) {
  const id = useId();
  return (
    <div className="flex flex-wrap items-end justify-between gap-x-4 gap-y-2 rounded-lg border border-slate-200 bg-white p-3">
      <div className="min-w-0">
        <h2 id={`${id}-week`} className="text-base font-semibold" aria-live="polite">
          Week of {formatLocalDayRange(startDate, endDate, locale)}
        </h2>
        <p className="text-xs text-slate-700">Monday to Sunday, times in the facility's zone: {zoneText}</p>
      </div>
      <div role="group" aria-labelledby={`${id}-week`} className="flex flex-wrap items-end gap-2">
        <Button variant="secondary" data-testid="week-previous" aria-keyshortcuts="p" title="Previous week (P)" onClick={() => onMove(-1)}>
          <ChevronLeftIcon /> Previous<span className="sr-only"> week</span>
        </Button>
        <Button variant="secondary" data-testid="week-this" aria-keyshortcuts="t" title="Today's week (T)" aria-pressed={isThisWeek} onClick={onThisWeek}>
          Today
        </Button>
        <Button variant="secondary" data-testid="week-next" aria-keyshortcuts="n" title="Next week (N)" onClick={() => onMove(1)}>
          Next<span className="sr-only"> week</span> <ChevronRightIcon />
        </Button>
        {nextWithBands !== null ? (
          <Button variant="secondary" data-testid="week-next-available" onClick={() => onPickDate(nextWithBands)}>
            Next with availability: {formatLocalDay(nextWithBands, locale, { style: "short", weekday: false })} <ChevronRightIcon />
          </Button>
        ) : null}
        <div className="min-w-0">
          <label htmlFor={`${id}-date`} className="block text-xs text-slate-700">
            Go to date
          </label>
          <input
            id={`${id}-date`}
            type="date"
            data-testid="week-date"
            value={startDate}
            onChange={(event) => {
              if (isLocalDate(event.target.value)) onPickDate(event.target.value);
            }}
            className="min-h-9 rounded-md border border-slate-300 bg-white px-2 text-sm"
          />
        </div>
      </div>
    </div>
  );
}
