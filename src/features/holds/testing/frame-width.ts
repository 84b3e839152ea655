import { vi } from "vitest";
import { NARROW_FRAME_QUERY } from "../use-fold.ts";

/** The frame's width, as the media query the holds bar asks about sees it (undo with `vi.unstubAllGlobals`). */
export function frameIsNarrow(isNarrow: boolean) {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: query === NARROW_FRAME_QUERY && isNarrow,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}
