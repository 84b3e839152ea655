import { SECTION_FOCUS_ATTRIBUTE } from "./reading/note-section-list.tsx";

// Moves the reader to a part of the note, for the "On this note" links and
// the sign-off panel's links: focus goes there, not only the view, so the
// next Tab continues from that place (ADR 0008 "On this note"). A collapsed
// section is focused at its summary and stays closed ("Nothing recorded" is
// what there is to see); a target inside a collapsed body opens it. The
// URL's hash is left alone: the router owns the URL. The sticky save bar is
// kept clear by the document's scroll padding (use-sticky-scroll-padding.ts).

const FOCUSABLE = "input, textarea, select, button, a[href], summary, [tabindex]";

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Where focus lands for a target: its marked focus point, itself when focusable, else its first heading. */
function focusPointOf(target: HTMLElement): HTMLElement {
  const marked = target.querySelector<HTMLElement>(`[${SECTION_FOCUS_ATTRIBUTE}]`);
  if (marked) return marked;
  if (target.matches(FOCUSABLE)) return target;
  return target.querySelector<HTMLElement>("h2, h3") ?? target;
}

/** Focuses and scrolls to the element with this id; false when there is none. */
export function focusNoteTarget(targetId: string): boolean {
  const target = document.getElementById(targetId);
  if (target === null) return false;
  const point = focusPointOf(target);
  const details = point.closest("details");
  if (details && !details.open && point.closest("summary") === null) details.open = true;
  if (!point.matches(FOCUSABLE)) point.setAttribute("tabindex", "-1");
  point.focus({ preventScroll: true });
  // A field shows with its label above it; a part of the note from its top.
  const isField = point.matches("input, textarea, select");
  (isField ? point : target).scrollIntoView({ block: isField ? "center" : "start", behavior: prefersReducedMotion() ? "auto" : "smooth" });
  return true;
}
