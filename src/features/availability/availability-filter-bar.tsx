import { useId } from "react";
import type { AvailabilityViewMode } from "./availability-filters.ts";
import { CheckIcon } from "#src/components/ui/icons.tsx";

// The filters: facility, provider (optional), view mode, inactive templates.
// Each applies at once (the week is cheap to draw: the templates are
// expanded in the browser), and lands in the URL.

export interface FilterOption {
  value: string;
  label: string;
}

interface AvailabilityFilterBarProps {
  facilityId: string;
  facilityOptions: FilterOption[];
  providerId: string | null;
  providerOptions: FilterOption[];
  /** Whether the week's templates, which the provider choices come from, are loading, could not be read, or were read. */
  providerChoices: "loading" | "unread" | "read";
  view: AvailabilityViewMode;
  /** The per-provider / whole-facility choice applies to the week grid only (a day is per provider, the agenda lists everyone by time). */
  showsViewChoice: boolean;
  showInactive: boolean;
  inactiveCount: number;
  onChange: (patch: { facilityId?: string; providerId?: string | null; view?: AvailabilityViewMode; showInactive?: boolean }) => void;
}

const selectClass = "min-h-9 w-full min-w-0 rounded-md border border-slate-300 bg-white px-2 text-sm";

export function AvailabilityFilterBar({ facilityId, facilityOptions, providerId, providerOptions, providerChoices, view, showsViewChoice, showInactive, inactiveCount, onChange }: AvailabilityFilterBarProps) {
  const id = useId();
  return (
    <div role="group" aria-label="Filters" className="grid grid-cols-1 gap-3 rounded-lg border border-slate-200 bg-white p-3 sm:grid-cols-2 lg:grid-cols-4">
      <div className="min-w-0">
        <label htmlFor={`${id}-facility`} className="mb-1 block text-sm font-medium">
          Facility
        </label>
        <select id={`${id}-facility`} data-testid="availability-facility" value={facilityId} onChange={(event) => onChange({ facilityId: event.target.value, providerId: null })} className={selectClass}>
          {facilityOptions.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <div className="min-w-0">
        <label htmlFor={`${id}-provider`} className="mb-1 block text-sm font-medium">
          Provider
        </label>
        <select
          id={`${id}-provider`}
          data-testid="availability-provider"
          value={providerId ?? ""}
          disabled={providerChoices === "loading"}
          onChange={(event) => onChange({ providerId: event.target.value === "" ? null : event.target.value })}
          className={`${selectClass} disabled:text-slate-400`}
        >
          <option value="">{providerChoices === "loading" ? "Loading…" : providerChoices === "unread" ? "All providers" : `All providers with templates here (${providerOptions.length})`}</option>
          {providerOptions.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="min-w-0" hidden={!showsViewChoice}>
        <legend className="mb-1 text-sm font-medium">Show</legend>
        <div className="inline-flex w-full rounded-md border border-slate-300 p-0.5">
          {(
            [
              ["provider", "Per provider"],
              ["facility", "Whole facility"],
            ] as const
          ).map(([value, text]) => (
            <label key={value} className={`flex min-h-8 flex-1 cursor-pointer items-center justify-center gap-1.5 rounded px-2 text-sm has-focus-visible:outline-2 has-focus-visible:outline-brand-600 ${view === value ? "bg-brand-700 font-medium text-white" : "text-slate-800 hover:bg-slate-100"}`}>
              <input type="radio" name={`${id}-view`} value={value} checked={view === value} onChange={() => onChange({ view: value })} className="sr-only" data-testid={`availability-view-${value}`} />
              {view === value ? <CheckIcon /> : null}
              {text}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex min-w-0 items-start gap-2 sm:pt-7">
        <input id={`${id}-inactive`} type="checkbox" data-testid="availability-show-inactive" checked={showInactive} onChange={(event) => onChange({ showInactive: event.target.checked })} className="mt-0.5 h-4 w-4 shrink-0 accent-brand-700" />
        <label htmlFor={`${id}-inactive`} className="text-sm">
          Show inactive templates{inactiveCount > 0 ? ` (${inactiveCount})` : ""}
          <span className="block text-xs text-slate-600">Greyed and marked “inactive”: not bookable.</span>
        </label>
      </div>
    </div>
  );
}
