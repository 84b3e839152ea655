import type { SlotSearchQuery } from "#contract/app-api/slots.ts";
import { Button } from "#src/components/ui/button.tsx";
import type { UserTimeSettings } from "#src/lib/use-time-display.tsx";
import { formatLocalDay } from "#src/scheduling/slot-text.ts";

export interface NextAvailableProps {
  headingRef: React.Ref<HTMLHeadingElement>;
  nextAvailableByProvider: Record<string, string>;
  shown: SlotSearchQuery;
  providerName: (providerId: string) => string;
  reader: UserTimeSettings;
  onMove: (date: string) => void;
}

/** Each provider's next free date beyond this window (from the search's `nextAvailableByProvider`), with a button to move the window there. */
export function NextAvailable({ headingRef, nextAvailableByProvider, shown, providerName, reader, onMove }: NextAvailableProps) {
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
