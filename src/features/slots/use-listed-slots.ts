import { useEffect, useMemo, useState } from "react";
import type { HeldSlot, SlotSearchQuery, SlotSearchResponse } from "#contract/app-api/slots.ts";
import type { HoldOutcome } from "#src/scheduling/held-slots-controller.ts";
import { heldKeysOnList, heldSlotsMissingFromList } from "./held-in-list.ts";
import { countSlots, earliestSlot, groupSlotsByDay, groupSlotsByTime, placedSlot, type SlotOrder } from "./group-slots.ts";
import { slotKey } from "#src/scheduling/slot-identity.ts";
import type { SelectionState } from "#src/scheduling/slot-selection-flow.ts";
import { matchesTimeFilter, type SlotTimeFilter } from "./slot-time-filter.ts";

// The list the slot finder shows, from the search's answer: the user's own
// holds kept on it (held-in-list.ts), slots a live check found gone left off,
// the times and days applied, grouped by day (by provider or in time order),
// and the first slot the user can still take.

interface ListedSlotsInput {
  data: SlotSearchResponse | undefined;
  /** The search the list answers (the previous one while new filters load). */
  listedSearch: SlotSearchQuery | null;
  holds: readonly HeldSlot[];
  selection: SelectionState;
  outcome: HoldOutcome | null;
  timeFilter: SlotTimeFilter;
  order: SlotOrder;
  zoneOf: (facilityId: string) => string;
  fallbackZone: string;
  providerName: (providerId: string) => string;
  facilityName: (facilityId: string) => string;
}

export function useListedSlots({ data, listedSearch, holds, selection, outcome, timeFilter, order, zoneOf, fallbackZone, providerName, facilityName }: ListedSlotsInput) {
  // Slots a live check found gone stay off the list until a list read after that check arrives
  // (the cached list can lag the EHR by up to maxStalenessSeconds).
  const [seenGone, setSeenGone] = useState<ReadonlyMap<string, number>>(new Map());
  useEffect(() => {
    const gone = selection.kind === "gone" ? { slot: selection.slot, seenGoneAtMs: selection.seenGoneAtMs } : outcome?.kind === "booked" ? { slot: outcome.held.slot, seenGoneAtMs: outcome.seenGoneAtMs } : null;
    if (!gone) return;
    const key = slotKey(gone.slot);
    setSeenGone((current) => new Map(current).set(key, Math.max(current.get(key) ?? -Infinity, gone.seenGoneAtMs)));
  }, [selection, outcome]);

  const listedSlots = useMemo(() => {
    if (!data) return [];
    const listReadAtMs = Date.parse(data.meta.sourceSyncedAt);
    // The user's own holds stay on the list they came from, marked Held (held-in-list.ts).
    const withHeld = [...data.slots, ...heldSlotsMissingFromList(holds, data.slots, listedSearch, zoneOf)];
    return withHeld.filter((slot) => {
      const placed = placedSlot(slot, zoneOf(slot.facilityId));
      return !((seenGone.get(placed.key) ?? -Infinity) >= listReadAtMs) && matchesTimeFilter(placed.startMs, placed.zone, timeFilter);
    });
  }, [data, seenGone, zoneOf, timeFilter, holds, listedSearch]);
  const days = useMemo(
    () =>
      order === "time"
        ? groupSlotsByTime(listedSlots, { zoneOf, fallbackZone })
        : groupSlotsByDay(listedSlots, { zoneOf, fallbackZone, providerSortKey: providerName, facilitySortKey: facilityName }),
    [order, listedSlots, zoneOf, fallbackZone, providerName, facilityName],
  );
  const heldKeys = useMemo(() => heldKeysOnList(holds, listedSlots, listedSearch), [holds, listedSlots, listedSearch]);
  // "N free slots": the user's own held ones are on the list but not free.
  const slotCount = useMemo(() => countSlots(days) - (heldKeys.size === 0 ? 0 : listedSlots.filter((slot) => heldKeys.has(placedSlot(slot, zoneOf(slot.facilityId)).key)).length), [days, listedSlots, heldKeys, zoneOf]);
  // A slot the user holds is not available to them: the mark and the jump go to the next one.
  const firstKey = useMemo(() => earliestSlot(days, heldKeys)?.key ?? null, [days, heldKeys]);

  return { days, slotCount, heldKeys, firstKey };
}
