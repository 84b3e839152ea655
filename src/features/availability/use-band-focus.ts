import { useCallback, useRef, useState, type KeyboardEvent } from "react";
import { bandMoveForKey, firstBand, moveBand, type BandGrid } from "./band-navigation.ts";

// One tab stop for a grid of bands and arrow-key moves between them (a
// roving tabindex, WAI-ARIA APG grid navigation; the moves are
// band-navigation.ts's): the week and day grids and the facility lanes.

export interface BandFocus {
  /** The band that takes the grid's one tab stop. */
  tabStop: string | null;
  /** Each band's button, as it mounts and unmounts. */
  register: (key: string, element: HTMLButtonElement | null) => void;
  onFocusBand: (key: string) => void;
  /** On the element holding the bands: moves focus on the arrow keys, Home and End. */
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
}

export function useBandFocus(navigation: BandGrid): BandFocus {
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const tabStop = activeKey !== null && navigation.some((cells) => cells.some((cell) => cell.key === activeKey)) ? activeKey : firstBand(navigation);
  const register = useCallback((key: string, element: HTMLButtonElement | null) => {
    if (element) buttons.current.set(key, element);
    else buttons.current.delete(key);
  }, []);
  const onFocusBand = useCallback((key: string) => setActiveKey(key), []);
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const move = bandMoveForKey(event.key);
    const current = event.target instanceof HTMLElement ? event.target.dataset.bandKey : undefined;
    if (!move || !current || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const next = moveBand(navigation, current, move);
    if (next && next !== current) {
      const element = buttons.current.get(next);
      element?.focus();
      element?.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
  };
  return { tabStop, register, onFocusBand, onKeyDown };
}
