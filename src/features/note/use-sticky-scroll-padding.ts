import { useEffect } from "react";

// The save bar sticks to the top of the frame. While the note is open, the
// document's scroll padding is kept as tall as the bar, so whatever is
// scrolled to or focused (a link's target, the next field on Tab) lands
// below the bar instead of under it (WCAG 2.4.11, focus not obscured). The
// bar's height changes with its text and the frame's width, hence the
// observer.

const GAP_PX = 8;

export function useStickyScrollPadding(stickyElementId: string): void {
  useEffect(() => {
    const sticky = document.getElementById(stickyElementId);
    if (sticky === null || typeof ResizeObserver === "undefined") return;
    const root = document.documentElement;
    const apply = () => {
      root.style.scrollPaddingTop = `${sticky.offsetHeight + GAP_PX}px`;
    };
    apply();
    const observer = new ResizeObserver(apply);
    observer.observe(sticky);
    return () => {
      observer.disconnect();
      root.style.scrollPaddingTop = "";
    };
  }, [stickyElementId]);
}
