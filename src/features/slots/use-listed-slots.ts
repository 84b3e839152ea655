import { useCallback, useEffect, useMemo, useState } from "react";
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
// A large group's answer has about 24,000 slots: it is grouped a part at a
// time as its parts come (slot-search-parts.ts), once per part and order, not
// again when the holds change (the Held marks are a set of keys beside the
// list) nor when the same filters come back as a new object.

interface ListedSlotsInput {
  data: (SlotSearchResponse & { parts?: readonly AnsweredPart[] }) | undefined;
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

/** One part of the answer (slot-search-parts.ts): a run of days and its slots. */
interface AnsweredPart {
  startDate: string;
  endDate: string;
  slots: readonly Slot[];
}

/** A part's slots as listed (holds kept, gone ones and other times left off), and its days in each order grouped so far. */
interface ListedPart {
  slots: readonly Slot[];
  days: Map<SlotOrder, SlotDay[]>;
}

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
  // A wide search comes in parts (slot-search-parts.ts); any other answer is one part.
  const parts = useMemo(() => data?.parts ?? (data && search ? [{ startDate: search.startDate, endDate: search.endDate, slots: data.slots }] : []), [data, search]);
  const answeredLists = useMemo(() => parts.map((part) => part.slots), [parts]);
  // The user's own holds stay on the list they came from, marked Held (held-in-list.ts); the same ones read again are the same.
  const missingHeld = useMemo(() => heldSlotsMissingFromList(holds, answeredLists, search, zoneOf), [answeredLists, holds, search, zoneOf]);
  const sameMissingHeld = useSameWhileKey(missingHeld, missingHeld.map((slot) => `${slotKey(slot)}|${slot.endsAt}`).join(","));

  // A read again with no slot changed keeps its list (TanStack Query's structural sharing): its time matters only against what a check saw gone.
  const listReadAtMs = data && seenGone.size > 0 ? Date.parse(data.meta.sourceSyncedAt) : null;
  // Each part is listed and grouped (per order) once while what that reads stays the same: a part arriving, or a
  // switch back to an order shown before, groups nothing already grouped.
  const listedParts = useMemo(() => {
    const isShown = (slot: Slot) => {
      const placed = placedSlot(slot, zoneOf(slot.facilityId));
      return !(listReadAtMs !== null && (seenGone.get(placed.key) ?? -Infinity) >= listReadAtMs) && matchesTimeFilter(placed.startMs, placed.zone, timeFilter);
    };
    const dateOf = (slot: Slot) => placedSlot(slot, zoneOf(slot.facilityId)).date;
    const kept = new WeakMap<readonly Slot[], ListedPart>();
    return (part: AnsweredPart): ListedPart => {
      let listed = kept.get(part.slots);
      if (!listed) {
        const held = sameMissingHeld.filter((slot) => dateOf(slot) >= part.startDate && dateOf(slot) <= part.endDate);
        listed = { slots: (held.length === 0 ? part.slots : [...part.slots, ...held]).filter(isShown), days: new Map() };
        kept.set(part.slots, listed);
      }
      return listed;
    };
  }, [listReadAtMs, sameMissingHeld, seenGone, zoneOf, timeFilter]);
  const listedLists = useMemo(() => parts.map((part) => listedParts(part).slots), [parts, listedParts]);

  const groupOf = useCallback(
    (slots: readonly Slot[], by: SlotOrder) =>
      by === "time" ? groupSlotsByTime(slots, { zoneOf, fallbackZone }) : groupSlotsByDay(slots, { zoneOf, fallbackZone, providerSortKey: providerName, facilitySortKey: facilityName }),
    [zoneOf, fallbackZone, providerName, facilityName],
  );
  const groupings = useMemo(() => new Map<SlotOrder, SlotDay[]>(), [parts, listedParts, groupOf]);
  const days = useMemo(() => {
    const remembered = groupings.get(order);
    if (remembered) return remembered;
    const perPart = parts.map((part) => {
      const listed = listedParts(part);
      let grouped = listed.days.get(order);
      if (!grouped) {
        grouped = groupOf(listed.slots, order);
        listed.days.set(order, grouped);
      }
      return grouped;
    });
    // Parts are consecutive runs of local days, so their days follow one another; should a service's window days
    // differ from the facilities' local days, the parts' slots are grouped together instead.
    const joined = perPart.length === 1 ? (perPart[0] ?? []) : perPart.flat();
    const grouped = joined.every((day, index) => index === 0 || (joined[index - 1]?.date ?? "") < day.date) ? joined : groupOf(listedLists.flat(), order);
    groupings.set(order, grouped);
    return grouped;
  }, [groupings, order, parts, listedParts, listedLists, groupOf]);

  const foundHeldKeys = useMemo(() => heldKeysOnList(holds, listedLists, search), [holds, listedLists, search]);
  const heldKeys = useSameWhileKey(foundHeldKeys, [...foundHeldKeys].sort().join(","));
  // "N free slots": the user's own held ones are on the list but not free.
  const slotCount = useMemo(() => {
    let held = 0;
    for (const key of heldKeys) for (const list of listedLists) held += slotsByKey(list).get(key)?.length ?? 0;
    return countSlots(days) - held;
  }, [days, listedLists, heldKeys]);
  // A slot the user holds is not available to them: the mark and the jump go to the next one.
  const firstKey = useMemo(() => earliestSlot(days, heldKeys)?.key ?? null, [days, heldKeys]);

  return { days, slotCount, heldKeys, firstKey };
}
