import type { SlotSearchQuery } from "#contract/app-api/slots.ts";
import { addDays } from "#contract/time/zoned-time.ts";
import type { SlotSearchAnswer } from "#src/api/slot-search-parts.ts";
import { Button } from "#src/components/ui/button.tsx";
import { formatNumber, formatZoneName } from "#src/lib/time-format.ts";
import type { UserTimeSettings } from "#src/lib/use-time-display.tsx";
import type { SlotOrder } from "./group-slots.ts";
import { canJumpToFirstAvailable } from "./use-first-available.ts";
import { formatLocalDay, freshnessText } from "#src/scheduling/slot-text.ts";

// Above the slot list: what the list is (count, window, narrowing, how fresh),
// and its controls (order, First available, Refresh).

export interface ResultsToolbarProps {
  summaryRef: React.Ref<HTMLParagraphElement>;
  data: SlotSearchAnswer | undefined;
  slotCount: number;
  shown: SlotSearchQuery | null;
  /** The length of the slots listed (the search's, else its type's default). */
  slotLengthMinutes: number | undefined;
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

export function ResultsToolbar({ summaryRef, data, slotCount, shown, slotLengthMinutes, isFetching, isPlaceholderData, hasFailed, reader, facilityZone, narrowing, showsOtherZones, onRefresh, onFirstAvailable, order, onOrderChange }: ResultsToolbarProps) {
  const canJump = canJumpToFirstAvailable({ data, isPlaceholderData, isFetching, slotCount });
  return (
    <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 rounded-lg border border-slate-200 bg-white p-3">
      <div className="min-w-0 space-y-1 text-sm">
        <p ref={summaryRef} tabIndex={-1} role="status" data-testid="slot-summary" className="font-medium outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
          {isPlaceholderData
            ? "Searching with the new filters; the previous list is shown meanwhile…"
            : hasFailed
              ? "The search did not complete: no list for these filters yet."
              : data && shown
              ? listSummary({ data, slotCount, shown, slotLengthMinutes, narrowing, isFetching, reader })
              : isFetching
                ? "Searching…"
                : "Choose filters and search."}
        </p>
        {data ? (
          <p data-testid="slot-freshness" className="text-slate-700">
            Slots {freshnessText(data.meta, facilityZone, reader, Date.now())}
            {isFetching && !isPlaceholderData && data.isComplete ? <span className="ml-1 text-slate-600">· refreshing…</span> : null}
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
        <Button data-testid="first-available" variant="primary" aria-keyshortcuts="f" title="Jump to the earliest slot (F)" onClick={onFirstAvailable} disabled={!canJump}>
          First available <kbd className="rounded border border-white/60 px-1 text-xs">F</kbd>
        </Button>
        <Button variant="secondary" onClick={onRefresh} disabled={!data && !shown}>
          Refresh
        </Button>
      </div>
    </div>
  );
}

interface ListSummaryInput {
  data: SlotSearchAnswer;
  slotCount: number;
  shown: SlotSearchQuery;
  slotLengthMinutes: number | undefined;
  narrowing: string | null;
  isFetching: boolean;
  reader: UserTimeSettings;
}

/** "1,212 free slots, Mon, Dec 1 to Sun, Dec 14, 20 min each"; of a wide search whose later days are loading or failed, the days listed and those missing. */
function listSummary({ data, slotCount, shown, slotLengthMinutes, narrowing, isFetching, reader }: ListSummaryInput): string {
  const day = (date: string) => formatLocalDay(date, reader, { short: true });
  const what = `${formatNumber(slotCount)} free ${slotCount === 1 ? "slot" : "slots"}`;
  const how = `${slotLengthMinutes === undefined ? "" : `, ${slotLengthMinutes} min each`}${narrowing ? `, ${narrowing}` : ""}`;
  if (data.isComplete) return `${what}, ${day(shown.startDate)} to ${day(shown.endDate)}${how}`;
  if (isFetching) return `${what} so far, ${day(shown.startDate)} to ${day(data.loadedThrough)}${how}; the days to ${day(shown.endDate)} are loading…`;
  return `${what}, ${day(shown.startDate)} to ${day(data.loadedThrough)}${how}; the days from ${day(addDays(data.loadedThrough, 1))} to ${day(shown.endDate)} could not be loaded.`;
}
