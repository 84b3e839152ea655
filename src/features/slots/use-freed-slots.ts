import { useCallback, useEffect, useRef, useState } from "react";
import type { HeldSlot, SlotSearchQuery } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import type { SlotSearchAnswer } from "#src/api/slot-search-parts.ts";
import type { HoldOutcome } from "#src/scheduling/held-slots-controller.ts";
import { useLatest } from "#src/lib/use-latest.ts";
import { freedEarlierSlots, type FreedSlot } from "./freed-slots.ts";
import { slotKey, slotsByKey } from "#src/scheduling/slot-identity.ts";

// "An earlier time has come free": each list read for the same search is
// compared with the one before it (freed-slots.ts decides what counts). Only
// a new read is compared: the holds changing against the same read finds
// nothing new, and a large group's read has about 24,000 slots. A wide
// search's later days arriving are not news either: only whole reads count.

interface FreedSlotsInput {
  data: SlotSearchAnswer | undefined;
  isPlaceholderData: boolean;
  filters: SlotSearchQuery | null;
  filtersKey: string;
  holds: readonly HeldSlot[];
  outcome: HoldOutcome | null;
}

/** The slots come free earlier than one the user holds or just booked, and a way to dismiss them. */
export function useFreedSlots({ data, isPlaceholderData, filters, filtersKey, holds, outcome }: FreedSlotsInput): { freed: FreedSlot[]; dismissFreed: () => void } {
  // A slot that comes free (a cancellation reached the list) earlier than one the user holds or just booked, same provider and type.
  // Slots the user held in this page count as listed before: one they release coming back is not news.
  const previousList = useRef<{ filtersKey: string; parts: readonly (readonly Slot[])[] } | null>(null);
  const everHeld = useRef(new Set<string>());
  const [freed, setFreed] = useState<FreedSlot[]>([]);
  const latest = useLatest({ filters, holds, outcome });
  // Declared first: a read and a hold arriving together are compared with the hold counted.
  useEffect(() => {
    for (const held of holds) everHeld.current.add(slotKey(held.slot));
  }, [holds]);
  useEffect(() => {
    const { filters, holds, outcome } = latest.current;
    if (!data || isPlaceholderData || !filters || !data.isComplete) return;
    const previous = previousList.current;
    previousList.current = { filtersKey, parts: data.parts.map((part) => part.slots) };
    if (previous?.filtersKey !== filtersKey) return setFreed([]);
    const mine = outcome?.kind === "booked" ? [...holds, outcome.held] : holds;
    // Nothing held or just booked, nothing freed earlier than it: a large group's read is not indexed for nothing.
    if (mine.length === 0) return;
    const known = { has: (key: string) => previous.parts.some((slots) => slotsByKey(slots).has(key)) || everHeld.current.has(key) };
    const found = freedEarlierSlots(known, data.slots, mine, { appointmentTypeId: filters.appointmentTypeId, isNewPatient: filters.isNewPatient ?? false });
    if (found.length > 0) setFreed(found);
  }, [data, isPlaceholderData, filtersKey, latest]);
  const dismissFreed = useCallback(() => setFreed([]), []);
  return { freed, dismissFreed };
}
