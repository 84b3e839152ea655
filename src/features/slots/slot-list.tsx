import { memo, startTransition, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState, type KeyboardEvent, type Ref } from "react";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import type { GroupedSlot, SlotDay, SlotRow } from "./group-slots.ts";
import { moveForKey, moveInGrid, slotGridOf } from "./slot-navigation.ts";
import type { UserTimeSettings } from "#src/lib/use-time-display.tsx";
import { formatZoneCity, isOtherZone } from "#src/lib/time-format.ts";
import { capacityText, clockChangeText, formatLocalDay, formatSlotTime, schedulesText, slotAccessibleName, slotZoneName } from "#src/scheduling/slot-text.ts";
import { localTimeOf } from "#contract/time/zoned-time.ts";
import { ClockChangeIcon } from "#src/components/ui/icons.tsx";

// The slots, by day and provider, as one keyboard stop: a roving tabindex
// (WAI-ARIA APG grid navigation, see slot-navigation.ts) over plain buttons,
// so Enter and Space select natively and each slot has a full accessible
// name. Moving never selects.

export interface SlotListHandle {
  /** Focuses a slot and scrolls it into view. */
  focusSlot: (key: string) => void;
}

export interface SlotListProps {
  days: SlotDay[];
  providerName: (providerId: string) => string;
  /** Set when the search covers several facilities: rows and labels then name theirs. */
  facilityName: ((facilityId: string) => string) | null;
  /** The user's locale and zone: times on the facility's clock, its zone named where it differs. */
  reader: UserTimeSettings;
  /** Slots this user holds (the basket). */
  heldKeys: ReadonlySet<string>;
  pendingKey: string | null;
  /** The earliest slot of the list, marked for mouse and keyboard users alike. */
  firstKey: string | null;
  onSelect: (slot: Slot) => void;
  /** The user moved onto a slot (keyboard or pointer focus). */
  onFocusSlot: (entry: GroupedSlot, row: SlotRow, date: string) => void;
  ref?: Ref<SlotListHandle>;
}

interface SlotButtonProps {
  entry: GroupedSlot;
  row: SlotRow;
  date: string;
  providerName: string;
  facilityName: string | undefined;
  reader: UserTimeSettings;
  isTabStop: boolean;
  isHeld: boolean;
  isPending: boolean;
  isFirst: boolean;
  /** In time order, a slot names its provider (its row does not). */
  showsProvider: boolean;
  register: (key: string, element: HTMLButtonElement) => () => void;
  onSelect: (slot: Slot) => void;
  onFocusSlot: (entry: GroupedSlot, row: SlotRow, date: string) => void;
}

/** Memoised: moving through the list re-renders the two slots whose tab stop changed, not thousands. */
const SlotButton = memo(function SlotButton({ entry, row, date, providerName, facilityName, reader, isTabStop, isHeld, isPending, isFirst, showsProvider, register, onSelect, onFocusSlot }: SlotButtonProps) {
  const { slot } = entry;
  const schedules = schedulesText(slot.templateIds);
  const capacity = capacityText(slot.remainingCapacity);
  const label = slotAccessibleName({ slot, providerName, localDate: date, zone: entry.zone, reader, facilityName });
  const zoneText = slotZoneName(entry.startMs, entry.zone, reader);
  const notes = [isHeld ? "Held" : isPending ? "Checking…" : null, capacity, schedules].filter(Boolean).join(" · ");
  return (
    <button
      type="button"
      ref={(element) => (element ? register(entry.key, element) : undefined)}
      data-testid="slot"
      data-starts-at={slot.startsAt}
      data-provider-id={slot.providerId}
      data-facility-id={slot.facilityId}
      data-slot-key={entry.key}
      data-first-available={isFirst ? "true" : undefined}
      tabIndex={isTabStop ? 0 : -1}
      aria-label={`${isFirst ? "First available: " : ""}${label}${isHeld ? ", held by you" : ""}${isPending ? ", checking" : ""}`}
      aria-current={isHeld ? "true" : undefined}
      aria-busy={isPending ? true : undefined}
      onClick={() => onSelect(slot)}
      onFocus={() => onFocusSlot(entry, row, date)}
      className={`flex min-h-11 min-w-[5.5rem] flex-col items-start rounded-md border px-2 py-1 text-left leading-tight hover:border-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
        isHeld ? "border-brand-700 bg-brand-50 ring-1 ring-brand-700" : isFirst ? "border-2 border-emerald-700 bg-emerald-50" : "border-slate-300 bg-white"
      }`}
    >
      {isFirst ? (
        <span aria-hidden="true" className="text-[0.7rem] font-semibold tracking-wide text-emerald-900 uppercase">
          First available
        </span>
      ) : null}
      <span className="text-sm font-semibold tabular-nums">
        {formatSlotTime(entry.startMs, entry.zone, reader)}
        {zoneText ? <span className="ml-1 text-xs font-normal text-slate-600">{zoneText}</span> : null}
      </span>
      {showsProvider ? <span className="max-w-[9rem] truncate text-xs text-slate-800">{providerName}</span> : null}
      {notes ? <span className="text-xs text-slate-700">{notes}</span> : null}
    </button>
  );
});

/** "From 08:00": an hour row's heading, in its zone. */
function hourHeading(row: SlotRow, reader: UserTimeSettings): string {
  const first = row.slots[0];
  if (!first) return "";
  const minutesIntoHour = Number(localTimeOf(first.startMs, first.zone).slice(3, 5));
  return `From ${formatSlotTime(first.startMs - minutesIntoHour * 60_000, first.zone, reader)}`;
}

function dayHeadingId(date: string) {
  return `slot-day-${date}`;
}

/** Slots drawn before the first paint of a new list; the days after them follow in a transition (a large group lists thousands). */
const FIRST_PAINT_SLOTS = 300;

/** The leading days holding about `budget` slots (at least one day). */
function leadingDays(days: readonly SlotDay[], budget: number): readonly SlotDay[] {
  let count = 0;
  const index = days.findIndex((day) => {
    count += day.rows.reduce((sum, row) => sum + row.slots.length, 0);
    return count >= budget;
  });
  return index < 0 ? days : days.slice(0, index + 1);
}

/** The days to draw now: the first screenfuls at once, the whole list right after that has painted. */
function useProgressiveDays(days: readonly SlotDay[]): { shownDays: readonly SlotDay[]; isPartial: boolean } {
  const [completeFor, setCompleteFor] = useState<readonly SlotDay[] | null>(null);
  const leading = useMemo(() => leadingDays(days, FIRST_PAINT_SLOTS), [days]);
  const isPartial = completeFor !== days && leading.length < days.length;
  useEffect(() => {
    if (!isPartial) return;
    const timer = setTimeout(() => startTransition(() => setCompleteFor(days)), 0);
    return () => clearTimeout(timer);
  }, [isPartial, days]);
  return { shownDays: isPartial ? leading : days, isPartial };
}

export function SlotList({ days, providerName, facilityName, reader, heldKeys, pendingKey, firstKey, onSelect, onFocusSlot, ref }: SlotListProps) {
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const { shownDays, isPartial } = useProgressiveDays(days);
  const grid = useMemo(() => slotGridOf(days), [days]);
  const allKeys = useMemo(() => new Set(grid.rows.flatMap((row) => row.keys)), [grid]);
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const hasFocusWithin = useRef(false);
  const tabStop = activeKey !== null && allKeys.has(activeKey) ? activeKey : (grid.rows[0]?.keys[0] ?? null);

  const register = useCallback((key: string, element: HTMLButtonElement) => {
    buttons.current.set(key, element);
    return () => {
      if (buttons.current.get(key) === element) buttons.current.delete(key);
    };
  }, []);

  const focusSlot = useCallback((key: string) => {
    const element = buttons.current.get(key);
    if (!element) return;
    setActiveKey(key);
    element.focus({ preventScroll: true });
    element.scrollIntoView({ block: "center", inline: "nearest" });
  }, []);

  useImperativeHandle(ref, () => ({ focusSlot }), [focusSlot]);

  // The focused slot vanished in a refresh: keep the keyboard user in the list, on the next time
  // of the same provider and day, instead of dropping focus to the page. This move is not the
  // user's, so it is not reported as the slot they are on (the view tells them theirs has gone).
  const lastFocused = useRef<{ key: string; rowKey: string; startMs: number } | null>(null);
  const isRestoringFocus = useRef(false);
  useEffect(() => {
    const last = lastFocused.current;
    if (!hasFocusWithin.current || !last || allKeys.has(last.key)) return;
    const focused = document.activeElement;
    if (focused !== null && focused !== document.body) return;
    const row = days.flatMap((day) => day.rows).find((candidate) => candidate.key === last.rowKey);
    const replacement = row ? (row.slots.find((entry) => entry.startMs >= last.startMs) ?? row.slots.at(-1)) : undefined;
    const key = replacement?.key ?? tabStop;
    if (key === null) return;
    isRestoringFocus.current = true;
    setActiveKey(key);
    buttons.current.get(key)?.focus({ preventScroll: true });
    isRestoringFocus.current = false;
  }, [days, allKeys, tabStop]);

  const handleFocus = useCallback(
    (entry: GroupedSlot, row: SlotRow, date: string) => {
      setActiveKey(entry.key);
      lastFocused.current = { key: entry.key, rowKey: row.key, startMs: entry.startMs };
      if (!isRestoringFocus.current) onFocusSlot(entry, row, date);
    },
    [onFocusSlot],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const move = moveForKey(event);
    if (!move) return;
    const target = event.target instanceof HTMLElement ? event.target.dataset.slotKey : undefined;
    if (!target) return;
    const next = moveInGrid(grid, target, move);
    event.preventDefault();
    if (next && next !== target) focusSlot(next);
  };

  const showFacility = facilityName !== null;

  return (
    <div
      onKeyDown={onKeyDown}
      onFocus={() => {
        hasFocusWithin.current = true;
      }}
      onBlur={(event) => {
        hasFocusWithin.current = event.currentTarget.contains(event.relatedTarget);
      }}
      className="space-y-3"
      data-rendered={isPartial ? "partial" : "all"}
      aria-busy={isPartial || undefined}
    >
      {shownDays.map((day) => {
        const changes = day.clockChanges.map((change) => ({ ...change, text: clockChangeText(change.dayLengthMinutes) }));
        return (
          <section key={day.date} data-testid="slot-day" data-date={day.date} aria-labelledby={dayHeadingId(day.date)} className="rounded-lg border border-slate-200 bg-white p-3 [contain-intrinsic-size:auto_12rem] [content-visibility:auto]">
            <div className="mb-2 flex flex-wrap items-baseline gap-x-3 gap-y-1">
              <h2 id={dayHeadingId(day.date)} className="text-base font-semibold">
                {formatLocalDay(day.date, reader)}
              </h2>
              {changes.map((change) =>
                change.text ? (
                  <span key={change.zone} data-testid="clock-change" className="inline-flex items-center gap-1 rounded-full border border-amber-400 bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-950">
                    <ClockChangeIcon />
                    {change.text}
                    {day.clockChanges.length > 1 || isOtherZone(Date.now(), change.zone, reader.userZone) ? ` (${formatZoneCity(change.zone)})` : ""}
                  </span>
                ) : null,
              )}
            </div>
            <div className="space-y-2">
              {day.rows.map((row) => {
                const isHourRow = row.kind === "hour";
                const rowFacility = showFacility && !isHourRow ? facilityName(row.facilityId) : undefined;
                const headingId = `${row.key}-heading`.replace(/[^a-zA-Z0-9_-]/g, "-");
                return (
                  <div key={row.key} role="group" aria-labelledby={headingId} className="min-w-0">
                    <h3 id={headingId} className="mb-1 flex flex-wrap items-baseline gap-x-2 text-sm font-medium text-slate-800">
                      <span>{isHourRow ? hourHeading(row, reader) : providerName(row.providerId)}</span>
                      {rowFacility ? <span className="text-xs font-normal text-slate-600">{rowFacility}</span> : null}
                      <span className="text-xs font-normal text-slate-600">
                        {row.slots.length} {row.slots.length === 1 ? "slot" : "slots"}
                      </span>
                    </h3>
                    <ul className="flex flex-wrap gap-1.5">
                      {row.slots.map((entry) => (
                        <li key={entry.key}>
                          <SlotButton
                            entry={entry}
                            row={row}
                            date={day.date}
                            providerName={providerName(entry.slot.providerId)}
                            facilityName={showFacility ? facilityName(entry.slot.facilityId) : undefined}
                            reader={reader}
                            isTabStop={entry.key === tabStop}
                            isHeld={heldKeys.has(entry.key)}
                            isPending={entry.key === pendingKey}
                            isFirst={entry.key === firstKey}
                            showsProvider={isHourRow}
                            register={register}
                            onSelect={onSelect}
                            onFocusSlot={handleFocus}
                          />
                        </li>
                      ))}
                    </ul>
                  </div>
                );
              })}
            </div>
          </section>
        );
      })}
    </div>
  );
}
