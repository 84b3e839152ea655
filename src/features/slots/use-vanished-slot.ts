import { useCallback, useEffect, useRef, useState } from "react";
import type { SlotSearchResponse } from "#contract/app-api/slots.ts";
import type { UserTimeSettings } from "#src/lib/use-time-display.tsx";
import { useLatest } from "#src/lib/use-latest.ts";
import { type GroupedSlot, type SlotRow } from "./group-slots.ts";
import { slotKey } from "#src/scheduling/slot-identity.ts";
import { formatLocalDay, formatSlotTimeInText } from "#src/scheduling/slot-text.ts";

// The slot the user is on (focused, not yet held): if a refresh of the same
// search drops it, the view says so ("A slot you were on has gone").

interface VanishedSlotInput {
  data: SlotSearchResponse | undefined;
  isPlaceholderData: boolean;
  filtersKey: string;
  /** Which search the list on screen answers: the previous one while new filters load. */
  displayedKey: string;
  heldKeys: ReadonlySet<string>;
  providerName: (providerId: string) => string;
  reader: UserTimeSettings;
}

export function useVanishedSlot({ data, isPlaceholderData, filtersKey, displayedKey, heldKeys, providerName, reader }: VanishedSlotInput) {
  const watched = useRef<{ key: string; filtersKey: string; text: string } | null>(null);
  const [vanishedText, setVanishedText] = useState<string | null>(null);
  // Read when a slot takes focus, so the callback (on every slot button) does not change with each hold.
  const latestHeldKeys = useLatest(heldKeys);

  const onFocusSlot = useCallback(
    (entry: GroupedSlot, _row: SlotRow, date: string) => {
      if (latestHeldKeys.current.has(entry.key)) return;
      watched.current = {
        key: entry.key,
        filtersKey: displayedKey,
        text: `The ${formatSlotTimeInText(entry.startMs, entry.zone, reader)} slot with ${providerName(entry.slot.providerId)} on ${formatLocalDay(date, reader)} is no longer available.`,
      };
    },
    [displayedKey, providerName, reader, latestHeldKeys],
  );

  useEffect(() => {
    const current = watched.current;
    if (!current || !data || isPlaceholderData || current.filtersKey !== filtersKey) return;
    if (!data.slots.some((slot) => slotKey(slot) === current.key)) {
      setVanishedText(current.text);
      watched.current = null;
    }
  }, [data, isPlaceholderData, filtersKey]);

  /** The user moved on (picked a slot, searched again): stop watching and drop the notice. */
  const forgetWatched = useCallback(() => {
    setVanishedText(null);
    watched.current = null;
  }, []);
  const dismissVanished = useCallback(() => setVanishedText(null), []);

  return { vanishedText, onFocusSlot, forgetWatched, dismissVanished };
}
