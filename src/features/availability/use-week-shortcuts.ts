import { useEffect, useCallback, type KeyboardEvent as ReactKeyboardEvent } from "react";

// The availability view's week keys: P (previous), N (next), T (this week),
// anywhere in the view except where the user types, and on the page itself
// while nothing in the frame has focus yet.

export type WeekMove = "previous" | "next" | "this";

const SHORTCUTS: Record<string, WeekMove> = { p: "previous", n: "next", t: "this" };

function isTextEntry(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest("input, textarea, select, [contenteditable=''], [contenteditable='true'], [data-no-shortcuts]") !== null;
}

function shortcutOf(event: KeyboardEvent | ReactKeyboardEvent): WeekMove | null {
  if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return null;
  return SHORTCUTS[event.key.toLowerCase()] ?? null;
}

/** Listens on the page for `move`'s keys; answers the view's own key handler. */
export function useWeekShortcuts(move: (action: WeekMove) => void): (event: ReactKeyboardEvent<HTMLElement>) => void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const action = shortcutOf(event);
      if (event.target !== document.body || !action) return;
      event.preventDefault();
      move(action);
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [move]);
  return useCallback(
    (event: ReactKeyboardEvent<HTMLElement>) => {
      const action = shortcutOf(event);
      if (!action || isTextEntry(event.target)) return;
      event.preventDefault();
      move(action);
    },
    [move],
  );
}
