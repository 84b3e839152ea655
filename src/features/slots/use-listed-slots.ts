import { useEffect, useMemo, useState } from "react";
import type { HeldSlot, SlotSearchQuery, SlotSearchResponse } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import type { HoldOutcome } from "#src/scheduling/held-slots-controller.ts";
import { heldKeysOnList, heldSlotsMissingFromList } from "./held-in-list.ts";
import { countSlots, earliestSlot, groupSlotsByDay, groupSlotsByTime, placedSlot, type SlotDay, type SlotOrder } from "./group-slots.ts";
import { slotKey, slotsByKey } from "#src/scheduling/slot-identity.ts";
import type { SelectionState } from "#src/scheduling/slot-selection-flow.ts";
import { matchesTimeFilter, type SlotTimeFilter } from "#src/scheduling/slot-time-filter.ts";

// The list the slot finder shows, from the search's answer: the user's own
// holds kept on it (held-in-list.ts), slots a live check found gone left off,
// the times and days applied, grouped by day (by provider or in time order),
// and the first slot the user can still take.
//
// A large group's answer has about 24,000 slots: it is grouped once per
// answer and order, not again when the holds change (the Held marks are a set
// of keys beside the list) nor when the same filters come back as a new object.

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

const NOTHING_MISSING: readonly Slot[] = [];

/** `value` as first seen while `key` stays the same: a recomputed value equal to the last keeps the last's identity. */
function useSameWhileKey<T>(value: T, key: string): T {
  return useMemo(() => value, [key]);
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

  const search = useSameWhileKey(listedSearch, listedSearch ? JSON.stringify(listedSearch) : "");
  // The user's own holds stay on the list they came from, marked Held (held-in-list.ts); the same ones read again are the same.
  const answeredSlots = data?.slots;
  const missingHeld = useMemo(() => (answeredSlots ? heldSlotsMissingFromList(holds, answeredSlots, search, zoneOf) : NOTHING_MISSING), [answeredSlots, holds, search, zoneOf]);
  const sameMissingHeld = useSameWhileKey(missingHeld, missingHeld.map((slot) => `${slotKey(slot)}|${slot.endsAt}`).join(","));

  // A read again with no slot changed keeps its list (TanStack Query's structural sharing): its time matters only against what a check saw gone.
  const listReadAtMs = data && seenGone.size > 0 ? Date.parse(data.meta.sourceSyncedAt) : null;
  const listedSlots = useMemo(() => {
    if (!answeredSlots) return [];
    const withHeld = sameMissingHeld.length === 0 ? answeredSlots : [...answeredSlots, ...sameMissingHeld];
    return withHeld.filter((slot) => {
      const placed = placedSlot(slot, zoneOf(slot.facilityId));
      return !(listReadAtMs !== null && (seenGone.get(placed.key) ?? -Infinity) >= listReadAtMs) && matchesTimeFilter(placed.startMs, placed.zone, timeFilter);
    });
  }, [answeredSlots, listReadAtMs, sameMissingHeld, seenGone, zoneOf, timeFilter]);

  // Each order is grouped once per list (a fresh cache whenever what grouping reads changes):
  // switching back to an order already shown costs nothing.
  const groupings = useMemo(() => new Map<SlotOrder, SlotDay[]>(), [listedSlots, zoneOf, fallbackZone, providerName, facilityName]);
  const days = useMemo(() => {
    const remembered = groupings.get(order);
    if (remembered) return remembered;
    const grouped =
      order === "time"
        ? groupSlotsByTime(listedSlots, { zoneOf, fallbackZone })
        : groupSlotsByDay(listedSlots, { zoneOf, fallbackZone, providerSortKey: providerName, facilitySortKey: facilityName });
    groupings.set(order, grouped);
    return grouped;
  }, [groupings, order, listedSlots, zoneOf, fallbackZone, providerName, facilityName]);

  const foundHeldKeys = useMemo(() => heldKeysOnList(holds, listedSlots, search), [holds, listedSlots, search]);
  const heldKeys = useSameWhileKey(foundHeldKeys, [...foundHeldKeys].sort().join(","));
  // "N free slots": the user's own held ones are on the list but not free.
  const slotCount = useMemo(() => {
    const listedByKey = slotsByKey(listedSlots);
    let held = 0;
    for (const key of heldKeys) held += listedByKey.get(key)?.length ?? 0;
    return countSlots(days) - held;
  }, [days, listedSlots, heldKeys]);
  // A slot the user holds is not available to them: the mark and the jump go to the next one.
  const firstKey = useMemo(() => earliestSlot(days, heldKeys)?.key ?? null, [days, heldKeys]);

  return { days, slotCount, heldKeys, firstKey };
}
