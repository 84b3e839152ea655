import { defaultRangeExtractor, useWindowVirtualizer, type Range } from "@tanstack/react-virtual";
import { memo, useCallback, useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type Ref } from "react";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import type { GroupedSlot, SlotDay, SlotRow } from "./group-slots.ts";
import { moveForKey, moveInGrid, slotGridOf } from "./slot-navigation.ts";
import type { UserTimeSettings } from "#src/lib/use-time-display.tsx";
import { useLatest } from "#src/lib/use-latest.ts";
import { formatZoneCity, isOtherZone, zoneAbbreviation } from "#src/lib/time-format.ts";
import { capacityText, clockChangeText, formatLocalDay, formatSlotTime, schedulesText, slotAccessibleName, slotZoneName } from "#src/scheduling/slot-text.ts";
import { ClockChangeIcon } from "#src/components/ui/icons.tsx";

// The slots, by day and provider, as one keyboard stop: a roving tabindex
// (WAI-ARIA APG grid navigation, see slot-navigation.ts) over plain buttons,
// so Enter and Space select natively and each slot has a full accessible
// name. Moving never selects.
//
// The list draws only the day headings and rows on screen, at every size
// (TanStack Virtual on the frame's own scroll: the page scrolls, not a box),
// plus the row of the tab stop, so Tab always lands in the list and the
// keyboard can move to a row not yet drawn: it is drawn, then focused and
// scrolled into view. A large group lists thousands of slots; drawing a
// default search's 700 whole cost about 80 ms a search (ADR 0007).

export interface SlotListHandle {
  /** Focuses a slot and scrolls it to the middle of the screen, drawing its row first if it is not drawn. */
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
  /** Whom a held slot is held for, by key, when not the patient open now ("Ortiz, Christopher"). */
  heldForOthers: ReadonlyMap<string, string>;
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
  /** Whom it is held for, when not the patient open now. */
  heldFor: string | undefined;
  isPending: boolean;
  isFirst: boolean;
  /** In time order, a slot names its provider (its row does not). */
  showsProvider: boolean;
  /** In time order over several facilities, a slot names its facility too. */
  showsFacility: boolean;
  register: (key: string, element: HTMLButtonElement) => () => void;
  onSelect: (slot: Slot) => void;
  onFocusSlot: (entry: GroupedSlot, row: SlotRow, date: string) => void;
}

/** Memoised: moving through the list re-renders the two slots whose tab stop changed, not thousands. */
const SlotButton = memo(function SlotButton({ entry, row, date, providerName, facilityName, reader, isTabStop, isHeld, heldFor, isPending, isFirst, showsProvider, showsFacility, register, onSelect, onFocusSlot }: SlotButtonProps) {
  const { slot } = entry;
  const schedules = schedulesText(slot.templateIds);
  const capacity = capacityText(slot.remainingCapacity);
  const label = slotAccessibleName({ slot, providerName, localDate: date, zone: entry.zone, reader, facilityName });
  const zoneText = slotZoneName(entry.startMs, entry.zone, reader);
  const held = isHeld ? (heldFor === undefined ? "Held" : `Held for ${heldFor}`) : null;
  const notes = [held ?? (isPending ? "Checking…" : null), capacity, schedules].filter(Boolean).join(" · ");
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
      aria-label={`${isFirst ? "First available: " : ""}${label}${isHeld ? `, held by you${heldFor === undefined ? "" : ` for ${heldFor}`}` : ""}${isPending ? ", checking" : ""}`}
      aria-current={isHeld ? "true" : undefined}
      aria-busy={isPending ? true : undefined}
      onClick={() => onSelect(slot)}
      onFocus={() => onFocusSlot(entry, row, date)}
      className={`flex min-h-11 min-w-[5.5rem] scroll-mt-20 scroll-mb-48 flex-col items-start rounded-md border px-2 py-1 text-left leading-tight hover:border-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
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
      {/* Names wrap, never cut short: facilities of one group share the words they start with ("Riverside Health - …"). */}
      {showsProvider ? <span className="max-w-[9rem] text-xs break-words text-slate-800">{providerName}</span> : null}
      {showsFacility && facilityName ? <span className="max-w-[9rem] text-xs break-words text-slate-600">{facilityName}</span> : null}
      {notes ? <span className="max-w-[9rem] text-xs break-words text-slate-700">{notes}</span> : null}
    </button>
  );
});

/** "From 9:00 AM", or with the zones named where the list shows several, "From 9:00 AM EST · 8:00 AM CST": an hour row's heading. */
function hourHeading(row: SlotRow, namesZones: boolean, reader: UserTimeSettings): string {
  const first = row.slots[0];
  if (!first) return "";
  const hourStartMs = first.startMs - (first.startMs % 3_600_000);
  const times = row.zones.map((zone) => {
    const time = formatSlotTime(hourStartMs, zone, reader);
    return namesZones || isOtherZone(hourStartMs, zone, reader.userZone) ? `${time} ${zoneAbbreviation(hourStartMs, zone)}` : time;
  });
  return `From ${times.join(" · ")}${row.part ? `, part ${row.part.index} of ${row.part.count}` : ""}`;
}

function dayHeadingId(date: string) {
  return `slot-day-${date}`;
}

/** One drawn line of the list: a day's heading, or one row of that day (a provider's, or an hour's). */
type ListItem = { kind: "day"; day: SlotDay; key: string } | { kind: "row"; day: SlotDay; row: SlotRow; key: string };

function listItemsOf(days: readonly SlotDay[]): ListItem[] {
  return days.flatMap((day): ListItem[] => [{ kind: "day", day, key: `day|${day.date}` }, ...day.rows.map((row): ListItem => ({ kind: "row", day, row, key: row.key }))]);
}

/** Rows drawn beyond the screen's edges, so a quick scroll or an arrow key finds them drawn. */
const OVERSCAN_ROWS = 2;
const DAY_HEADING_PX = 44;
const ROW_HEADING_PX = 26;
/** A slot's room in a row, gap included: a provider's row shows times; an hour's also the provider and facility. */
const SLOT_PITCH_PX = { provider: { width: 100, height: 54 }, hour: { width: 170, height: 84 } } as const;

/** A row's height before it is measured: its slots wrapped at the list's width. */
function estimatedHeight(item: ListItem | undefined, listWidth: number): number {
  if (!item || item.kind === "day") return DAY_HEADING_PX;
  const pitch = SLOT_PITCH_PX[item.row.kind];
  const perLine = Math.max(1, Math.floor(listWidth / pitch.width));
  return ROW_HEADING_PX + Math.ceil(item.row.slots.length / perLine) * pitch.height + 8;
}

/** Whether an element is on screen, clear of the sticky bars at the top and bottom of the frame. */
function isWellInView(element: Element): boolean {
  const box = element.getBoundingClientRect();
  return box.top >= 64 && box.bottom <= window.innerHeight - 160;
}

export function SlotList({ days, providerName, facilityName, reader, heldKeys, heldForOthers, pendingKey, firstKey, onSelect, onFocusSlot, ref }: SlotListProps) {
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const container = useRef<HTMLDivElement>(null);
  const items = useMemo(() => listItemsOf(days), [days]);
  const grid = useMemo(() => slotGridOf(days), [days]);
  const itemOfKey = useMemo(() => {
    const indexes = new Map<string, number>();
    items.forEach((item, index) => {
      if (item.kind === "row") for (const entry of item.row.slots) indexes.set(entry.key, index);
    });
    return indexes;
  }, [items]);
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const hasFocusWithin = useRef(false);
  const tabStop = activeKey !== null && itemOfKey.has(activeKey) ? activeKey : (grid.rows[0]?.keys[0] ?? null);
  // A slot to focus once its row is drawn (the render after a move to a row off screen).
  const [focusRequest, setFocusRequest] = useState<{ key: string; block: ScrollLogicalPosition | null; serial: number } | null>(null);

  // Where the list starts on the page: notices above it come and go.
  const [listTop, setListTop] = useState(0);
  const [listWidth, setListWidth] = useState(1000);
  useLayoutEffect(() => {
    const element = container.current;
    if (!element) return;
    const box = element.getBoundingClientRect();
    const top = Math.round(box.top + window.scrollY);
    if (top !== listTop) setListTop(top);
    if (box.width > 0 && Math.abs(box.width - listWidth) > 40) setListWidth(box.width);
  });

  const slotTotal = grid.rows.reduce((sum, row) => sum + row.keys.length, 0);
  const tabStopItem = tabStop === null ? undefined : itemOfKey.get(tabStop);
  const requestedItem = focusRequest === null ? undefined : itemOfKey.get(focusRequest.key);
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = new Set(defaultRangeExtractor(range));
      for (const pinned of [tabStopItem, requestedItem]) if (pinned !== undefined) indexes.add(pinned);
      return [...indexes].sort((a, b) => a - b);
    },
    [tabStopItem, requestedItem],
  );
  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: (index) => estimatedHeight(items[index], listWidth),
    getItemKey: (index) => items[index]?.key ?? index,
    overscan: OVERSCAN_ROWS,
    scrollMargin: listTop,
    rangeExtractor,
  });

  const register = useCallback((key: string, element: HTMLButtonElement) => {
    buttons.current.set(key, element);
    return () => {
      if (buttons.current.get(key) === element) buttons.current.delete(key);
    };
  }, []);

  /** Focuses the slot, drawing its row first if needed; `block` scrolls it into view (null: no scroll). */
  const requestFocus = useCallback((key: string, block: ScrollLogicalPosition | null) => {
    setActiveKey(key);
    setFocusRequest((previous) => ({ key, block, serial: (previous?.serial ?? 0) + 1 }));
  }, []);

  useLayoutEffect(() => {
    if (!focusRequest) return;
    const element = buttons.current.get(focusRequest.key);
    if (!element) return;
    setFocusRequest(null);
    // Ringed even when the user came by mouse, or by a key with Ctrl (which browsers do not count as keyboard
    // use): the app moved the focus, perhaps far (First available, Ctrl+End), and the user must see where to.
    element.focus({ preventScroll: true, focusVisible: true });
    if (focusRequest.block === null) return;
    const block = focusRequest.block;
    element.scrollIntoView({ block, inline: "nearest" });
    // Rows above it drawn for the first time take their real height and can move it: bring it back.
    let frames = 0;
    const settle = () => {
      const current = buttons.current.get(focusRequest.key);
      if (!current || frames >= 5) return;
      frames += 1;
      if (!isWellInView(current)) current.scrollIntoView({ block, inline: "nearest" });
      requestAnimationFrame(settle);
    };
    requestAnimationFrame(settle);
  }, [focusRequest]);

  const focusSlot = useCallback((key: string) => requestFocus(key, "center"), [requestFocus]);
  useImperativeHandle(ref, () => ({ focusSlot }), [focusSlot]);

  // The focused slot vanished in a refresh: keep the keyboard user in the list, on the next time
  // of the same provider and day, instead of dropping focus to the page. This move is not the
  // user's, so it is not reported as the slot they are on (the view tells them theirs has gone).
  const lastFocused = useRef<{ key: string; rowKey: string; startMs: number } | null>(null);
  const isRestoringFocus = useRef(false);
  useEffect(() => {
    const last = lastFocused.current;
    if (!hasFocusWithin.current || !last || itemOfKey.has(last.key)) return;
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
  }, [days, itemOfKey, tabStop]);

  // The same object across renders (given to every row): it reads the latest `onFocusSlot`.
  const latestOnFocusSlot = useLatest(onFocusSlot);
  const handleFocus = useCallback(
    (entry: GroupedSlot, row: SlotRow, date: string) => {
      setActiveKey(entry.key);
      lastFocused.current = { key: entry.key, rowKey: row.key, startMs: entry.startMs };
      if (!isRestoringFocus.current) latestOnFocusSlot.current(entry, row, date);
    },
    [latestOnFocusSlot],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const move = moveForKey(event);
    if (!move) return;
    const target = event.target instanceof HTMLElement ? event.target.dataset.slotKey : undefined;
    if (!target) return;
    const next = moveInGrid(grid, target, move);
    event.preventDefault();
    if (next && next !== target) requestFocus(next, "nearest");
  };

  // Hour rows name their zones when the list shows more than one (New York and Chicago searched together).
  const namesZones = useMemo(() => new Set(days.flatMap((day) => day.rows.flatMap((row) => row.zones))).size > 1, [days]);

  // A row re-renders only when something of its own changes (one of its slots held, checked, the tab stop, First
  // available): a click, a hold or a search starting then redraws a row or two, not every row drawn. So the marks
  // go to the row they are in, and the callbacks stay the same objects.
  const latestOnSelect = useLatest(onSelect);
  const stableOnSelect = useCallback((slot: Slot) => latestOnSelect.current(slot), [latestOnSelect]);
  const heldByItem = useMemo(() => {
    const byItem = new Map<number, string[]>();
    for (const key of heldKeys) {
      const index = itemOfKey.get(key);
      const whom = heldForOthers.get(key);
      if (index !== undefined) byItem.set(index, [...(byItem.get(index) ?? []), whom === undefined ? key : `${key}\t${whom.replace(/\s/g, " ")}`]);
    }
    return byItem;
  }, [heldKeys, heldForOthers, itemOfKey]);
  const ifInItem = (key: string | null, index: number) => (key !== null && itemOfKey.get(key) === index ? key : null);

  return (
    <div
      ref={container}
      onKeyDown={onKeyDown}
      onFocus={() => {
        hasFocusWithin.current = true;
      }}
      onBlur={(event) => {
        hasFocusWithin.current = event.currentTarget.contains(event.relatedTarget);
      }}
      data-testid="slot-list-rows"
      data-slot-total={slotTotal}
      style={{ height: virtualizer.getTotalSize(), position: "relative" }}
    >
      {virtualizer.getVirtualItems().map((virtual) => {
        const item = items[virtual.index];
        if (!item) return null;
        return (
          <div
            key={virtual.key}
            data-index={virtual.index}
            ref={virtualizer.measureElement}
            className="absolute top-0 left-0 w-full pb-2"
            style={{ transform: `translateY(${virtual.start - virtualizer.options.scrollMargin}px)` }}
          >
            {item.kind === "day" ? (
              <DayHeading day={item.day} reader={reader} />
            ) : (
              <SlotRowGroup
                row={item.row}
                date={item.day.date}
                namesZones={namesZones}
                providerName={providerName}
                facilityName={facilityName}
                reader={reader}
                tabStop={ifInItem(tabStop, virtual.index)}
                heldInRow={heldByItem.get(virtual.index)?.join("\n") ?? ""}
                pendingKey={ifInItem(pendingKey, virtual.index)}
                firstKey={ifInItem(firstKey, virtual.index)}
                register={register}
                onSelect={stableOnSelect}
                onFocusSlot={handleFocus}
              />
            )}
          </div>
        );
      })}
    </div>
  );
}

function DayHeading({ day, reader }: { day: SlotDay; reader: UserTimeSettings }) {
  const changes = day.clockChanges.map((change) => ({ ...change, text: clockChangeText(change.dayLengthMinutes) }));
  return (
    <div data-testid="slot-day" data-date={day.date} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 border-b border-slate-200 pt-2">
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
  );
}

interface SlotRowGroupProps {
  row: SlotRow;
  date: string;
  namesZones: boolean;
  providerName: (providerId: string) => string;
  facilityName: ((facilityId: string) => string) | null;
  reader: UserTimeSettings;
  /** Each of these only when it is one of this row's slots (null, or "", otherwise), so the row is redrawn only for its own. */
  tabStop: string | null;
  /** The row's held slots' keys, one a line, each followed by a tab and whom it is held for when not the patient open now. */
  heldInRow: string;
  pendingKey: string | null;
  firstKey: string | null;
  register: (key: string, element: HTMLButtonElement) => () => void;
  onSelect: (slot: Slot) => void;
  onFocusSlot: (entry: GroupedSlot, row: SlotRow, date: string) => void;
}

const SlotRowGroup = memo(function SlotRowGroup({ row, date, namesZones, providerName, facilityName, reader, tabStop, heldInRow, pendingKey, firstKey, register, onSelect, onFocusSlot }: SlotRowGroupProps) {
  const heldFor = new Map(heldInRow === "" ? [] : heldInRow.split("\n").map((line) => line.split("\t") as [string, string | undefined]));
  const isHourRow = row.kind === "hour";
  const rowFacility = facilityName && !isHourRow ? facilityName(row.facilityId) : undefined;
  const headingId = `${row.key}-heading`.replace(/[^a-zA-Z0-9_-]/g, "-");
  return (
    <div role="group" aria-labelledby={headingId} data-row-key={row.key} className="min-w-0 rounded-lg border border-slate-200 bg-white p-2">
      <h3 id={headingId} className="mb-1 flex flex-wrap items-baseline gap-x-2 text-sm font-medium text-slate-800">
        <span>{isHourRow ? hourHeading(row, namesZones, reader) : providerName(row.providerId)}</span>
        {rowFacility ? (
          <>
            {" "}
            <span className="text-xs font-normal text-slate-600">{rowFacility}</span>
          </>
        ) : null}{" "}
        <span className="text-xs font-normal text-slate-600">
          {row.slots.length} {row.slots.length === 1 ? "slot" : "slots"}
        </span>
        <span className="sr-only">, {formatLocalDay(date, reader)}</span>
      </h3>
      <ul className="flex flex-wrap gap-1.5">
        {row.slots.map((entry) => (
          <li key={entry.key}>
            <SlotButton
              entry={entry}
              row={row}
              date={date}
              providerName={providerName(entry.slot.providerId)}
              facilityName={facilityName ? facilityName(entry.slot.facilityId) : undefined}
              reader={reader}
              isTabStop={entry.key === tabStop}
              isHeld={heldFor.has(entry.key)}
              heldFor={heldFor.get(entry.key)}
              isPending={entry.key === pendingKey}
              isFirst={entry.key === firstKey}
              showsProvider={isHourRow}
              showsFacility={isHourRow && facilityName !== null}
              register={register}
              onSelect={onSelect}
              onFocusSlot={onFocusSlot}
            />
          </li>
        ))}
      </ul>
    </div>
  );
});
