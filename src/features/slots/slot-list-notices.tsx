import type { SlotSearchQuery } from "#contract/app-api/slots.ts";
import { Button } from "#src/components/ui/button.tsx";
import { Notice } from "#src/components/ui/notice.tsx";
import type { UserTimeSettings } from "#src/lib/use-time-display.tsx";
import type { FreedSlot } from "./freed-slots.ts";
import { widenedWindow, widestWindowDays, windowDays } from "./slot-filters.ts";
import { formatLocalDay } from "#src/scheduling/slot-text.ts";
import { describeTimeFilter, isTimeFilterActive, NO_TIME_FILTER, type SlotTimeFilter } from "#src/scheduling/slot-time-filter.ts";
import { appointmentTypeOf, type AppointmentTypeOption, type SlotDescriber } from "#src/scheduling/use-slot-describer.ts";

// What the slot finder says about the list on screen: an earlier time come
// free, a slot the user was on gone, nothing free (and how to widen), and
// which search the list still answers while the filters differ.

/** "New Patient Visit, 40 min, new patient": what a list was searched for. */
function searchLabel(query: SlotSearchQuery, types: readonly AppointmentTypeOption[]): string {
  const type = appointmentTypeOf(types, query.appointmentTypeId);
  const minutes = query.slotLengthMinutes ?? (query.isNewPatient ? type?.newPatientDurationMinutes : type?.defaultDurationMinutes);
  return [type?.name ?? "another appointment type", minutes ? `${minutes} min` : null, query.isNewPatient ? "new patient" : null].filter(Boolean).join(", ");
}

interface FreedSlotNoticeProps {
  freed: FreedSlot;
  /** The slot it is earlier than is still held (else it was just booked). */
  isInsteadHeld: boolean;
  describe: SlotDescriber;
  isListStale: boolean;
  onHold: () => void;
  onDismiss: () => void;
}

export function FreedSlotNotice({ freed, isInsteadHeld, describe, isListStale, onHold, onDismiss }: FreedSlotNoticeProps) {
  return (
    <div data-testid="freed-slot-notice">
      <Notice
        tone="info"
        title="An earlier time has come free"
        actions={
          <>
            <Button variant="secondary" onClick={onHold} disabled={isListStale}>
              Hold {describe.time(freed.slot)}
            </Button>
            <Button variant="ghost" onClick={onDismiss}>
              Dismiss
            </Button>
          </>
        }
      >
        {describe.phrase(freed.slot)} is free now, earlier than the {describe.time(freed.instead.slot)} {isInsteadHeld ? "you hold" : "you just booked"}.
      </Notice>
    </div>
  );
}

export function SlotGoneNotice({ text, onDismiss }: { text: string; onDismiss: () => void }) {
  return (
    <div data-testid="slot-gone-notice">
      <Notice
        tone="warning"
        title="A slot you were on has gone"
        actions={
          <Button variant="secondary" onClick={onDismiss}>
            Dismiss
          </Button>
        }
      >
        {text} It was taken or removed in the EHR; the list shows what is free now.
      </Notice>
    </div>
  );
}

interface EmptyListNoticeProps {
  emptyRef: React.Ref<HTMLDivElement>;
  /** How many slots the search found before the times and days narrowed them. */
  foundCount: number;
  timeFilter: SlotTimeFilter;
  shown: SlotSearchQuery | null;
  /** What "Show all times and days" searches again when no search is shown yet. */
  fallbackSearch: SlotSearchQuery;
  reader: UserTimeSettings;
  onSearch: (next: SlotSearchQuery, time?: SlotTimeFilter) => void;
}

/** No slot on the list: the times and days hid them all, or nothing is free in the window. */
export function EmptyListNotice({ emptyRef, foundCount, timeFilter, shown, fallbackSearch, reader, onSearch }: EmptyListNoticeProps) {
  if (isTimeFilterActive(timeFilter) && foundCount > 0) {
    return (
      <div ref={emptyRef} tabIndex={-1} className="outline-none">
        <Notice
          tone="info"
          title="No free slots at these times and days"
          actions={
            <Button variant="secondary" onClick={() => onSearch(shown ?? fallbackSearch, NO_TIME_FILTER)}>
              Show all times and days
            </Button>
          }
        >
          The search found {foundCount} free {foundCount === 1 ? "slot" : "slots"}, but none {describeTimeFilter(timeFilter, reader.locale)}.
        </Notice>
      </div>
    );
  }
  if (!shown) return null;
  // 4 weeks first, then as wide as the search may span (62 days, fewer over many facilities).
  const widest = widestWindowDays(shown);
  const widerDays = windowDays(shown) < 28 && widest > 28 ? 28 : widest;
  return (
    <div ref={emptyRef} tabIndex={-1} className="outline-none">
      <Notice
        tone="info"
        title="No free slots in this window"
        actions={
          <>
            {windowDays(shown) < widerDays ? (
              <Button variant="secondary" onClick={() => onSearch(widenedWindow(shown, widerDays))}>
                {widerDays === 28 ? "Widen to 4 weeks" : `Widen to ${widerDays} days`}
              </Button>
            ) : null}
            {shown.providerIds && shown.providerIds.length > 0 ? (
              <Button variant="secondary" onClick={() => onSearch({ ...shown, providerIds: undefined })}>
                Search all providers
              </Button>
            ) : null}
          </>
        }
      >
        Nothing is free for these filters {shown.startDate === shown.endDate ? `on ${formatLocalDay(shown.startDate, reader)}` : `from ${formatLocalDay(shown.startDate, reader)} to ${formatLocalDay(shown.endDate, reader)}`}. Widen the window, choose other providers or facilities, or jump to a provider's next available date below.
      </Notice>
    </div>
  );
}

export function FiltersChangedNotice({ shown, appointmentTypes }: { shown: SlotSearchQuery; appointmentTypes: readonly AppointmentTypeOption[] }) {
  return (
    <div data-testid="filters-changed">
      <Notice tone="info" title="The filters have changed">
        The list below is still for your last search ({searchLabel(shown, appointmentTypes)}). Press Search to update it.
      </Notice>
    </div>
  );
}

export function PreviousSearchNotice({ shown, appointmentTypes }: { shown: SlotSearchQuery; appointmentTypes: readonly AppointmentTypeOption[] }) {
  return (
    <Notice tone="info" title="This list is from your previous search">
      It is for {searchLabel(shown, appointmentTypes)} and cannot be held. The results for the new filters replace it as soon as they arrive.
    </Notice>
  );
}
