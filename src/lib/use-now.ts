import { useEffect, useState } from "react";

/** The time now, read again every `everyMs` while mounted (null: not read again until it is a number). */
export function useNow(everyMs: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (everyMs === null) return;
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** Whether less than `forMs` has passed since `sinceMs`; renders again once it has (one timer, no ticking). */
export function useIsWithin(sinceMs: number, forMs: number): boolean {
  const [, setSpansEnded] = useState(0);
  const endsAtMs = sinceMs + forMs;
  useEffect(() => {
    const remainingMs = endsAtMs - Date.now();
    if (remainingMs <= 0) return;
    const timer = setTimeout(() => setSpansEnded((count) => count + 1), remainingMs);
    return () => clearTimeout(timer);
  }, [endsAtMs]);
  return Date.now() < endsAtMs;
}

/**
 * Whole seconds left of `seconds`, counted from the render that first saw `startedBy` (a new value restarts the
 * count), read again every second; null without `seconds`.
 */
export function useSecondsLeft(startedBy: unknown, seconds: number | null): number | null {
  const [start, setStart] = useState(() => ({ startedBy, atMs: Date.now() }));
  // A new start resets the count (state derived from a prop, reset during render as React's docs show).
  if (start.startedBy !== startedBy) setStart({ startedBy, atMs: Date.now() });
  const now = useNow(seconds === null ? null : 1_000);
  if (seconds === null) return null;
  return Math.max(0, Math.ceil((start.atMs + seconds * 1000 - Math.max(now, start.atMs)) / 1000));
}
