import type { UseNavigateResult } from "@tanstack/react-router";
import { useCallback, useEffect, useRef, type KeyboardEvent as ReactKeyboardEvent } from "react";
import type { SlotSearchAnswer } from "#src/api/slot-search-parts.ts";
import type { SlotOrder } from "./group-slots.ts";
import type { SlotListHandle } from "./slot-list.tsx";

// "First available": the earliest slot across the chosen providers, on the F
// key or the button. It shows the day in time order (the earliest is then the
// first slot of its day) and focuses it once laid out; with no slot, focus
// goes to the next-available dates or the empty notice.

/**
 * Whether there is a first available slot to jump to: not before a list, not
 * in the previous search's list while new filters load, and not while a wide
 * search's first days have no slot and its later days load. The button and
 * the F key both follow it.
 */
export function canJumpToFirstAvailable({ data, isPlaceholderData, isFetching, slotCount }: { data: SlotSearchAnswer | undefined; isPlaceholderData: boolean; isFetching: boolean; slotCount: number }): boolean {
  if (data === undefined || isPlaceholderData) return false;
  return data.isComplete || !isFetching || slotCount > 0;
}

function isTextEntry(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest("input, textarea, select, [contenteditable=''], [contenteditable='true'], [data-no-shortcuts]") !== null;
}

function isShortcut(event: KeyboardEvent | ReactKeyboardEvent, key: string): boolean {
  return event.key.toLowerCase() === key && !event.ctrlKey && !event.metaKey && !event.altKey && !event.repeat;
}

export function useFirstAvailable({ order, firstKey, canJump, navigate }: { order: SlotOrder; firstKey: string | null; canJump: boolean; navigate: UseNavigateResult<"/slots"> }) {
  const listRef = useRef<SlotListHandle>(null);
  const nextAvailableRef = useRef<HTMLHeadingElement>(null);
  const emptyRef = useRef<HTMLDivElement>(null);
  const isFirstAvailablePending = useRef(false);
  const focusFirstAvailable = useCallback(() => {
    if (firstKey) listRef.current?.focusSlot(firstKey);
    else (nextAvailableRef.current ?? emptyRef.current)?.focus();
  }, [firstKey]);
  const jumpToFirstAvailable = useCallback(() => {
    if (!canJump) return;
    if (order === "time") return focusFirstAvailable();
    isFirstAvailablePending.current = true;
    void navigate({ search: (previous) => ({ ...previous, order: "time" }), resetScroll: false });
  }, [canJump, order, focusFirstAvailable, navigate]);
  useEffect(() => {
    if (!isFirstAvailablePending.current || order !== "time") return;
    isFirstAvailablePending.current = false;
    focusFirstAvailable();
  }, [order, focusFirstAvailable]);

  const onViewKeyDown = (event: ReactKeyboardEvent<HTMLElement>) => {
    if (!isShortcut(event, "f") || isTextEntry(event.target)) return;
    event.preventDefault();
    jumpToFirstAvailable();
  };
  // Focus on the page itself (nothing focused yet in the frame) counts as in the view too.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.target !== document.body || !isShortcut(event, "f")) return;
      event.preventDefault();
      jumpToFirstAvailable();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [jumpToFirstAvailable]);

  return { listRef, nextAvailableRef, emptyRef, jumpToFirstAvailable, onViewKeyDown };
}
