import { useId, useMemo, useState, type MouseEvent } from "react";
import { flushSync } from "react-dom";
import type { Note } from "../../../../contract/clinic-api/note.ts";
import { SECTION_FOCUS_ATTRIBUTE } from "./note-section-list.tsx";
import { emptySectionIds, NOTE_SECTIONS } from "./note-sections.ts";
import { ChevronRightIcon } from "../../../components/ui/icons.tsx";

// A table of contents for long notes: a link per section, empty ones marked
// "(empty)" in text. Following a link scrolls the section into view and
// moves focus to its heading without touching the URL, so the router (and
// the EHR frame's history) is left alone. A compact sticky list on wide
// screens; a disclosure on narrow ones (the EHR frame may be ~400px wide).

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Scrolls a section into view and focuses its heading (or, when collapsed, its summary). */
export function goToSection(sectionId: string): boolean {
  const section = document.getElementById(sectionId);
  if (section === null) return false;
  section.scrollIntoView({ behavior: prefersReducedMotion() ? "auto" : "smooth", block: "start" });
  const target = section.querySelector<HTMLElement>(`[${SECTION_FOCUS_ATTRIBUTE}]`) ?? section;
  target.focus({ preventScroll: true });
  return true;
}

export function SectionIndex({ note }: { note: Note }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const empty = useMemo(() => new Set(emptySectionIds(note)), [note]);
  const filled = NOTE_SECTIONS.length - empty.size;

  const onLinkClick = (event: MouseEvent<HTMLAnchorElement>, sectionId: string) => {
    // Let the browser handle opening in a new tab or window.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    // Close the narrow-screen list first, so the scroll lands on the section's place after the list is gone.
    flushSync(() => setOpen(false));
    goToSection(sectionId);
  };

  return (
    <nav aria-label="Note sections" data-testid="section-index" className="text-sm lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:overflow-y-auto">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
        className="flex min-h-9 w-full items-center justify-between gap-2 rounded-lg border border-slate-300 bg-white px-3 font-medium text-slate-800 hover:bg-slate-50 lg:hidden"
      >
        <span>
          Sections <span className="font-normal text-slate-600">({filled} of {NOTE_SECTIONS.length} with content)</span>
        </span>
        <span className={`transition-transform ${open ? "rotate-90" : ""}`}>
          <ChevronRightIcon className="h-4 w-4" />
        </span>
      </button>
      <p className="mb-1 hidden px-2 text-xs font-semibold tracking-wide text-slate-600 uppercase lg:block">On this note</p>
      <ol id={listId} className={`${open ? "mt-1 block rounded-lg border border-slate-200 bg-white p-1" : "hidden"} lg:mt-0 lg:block lg:border-0 lg:bg-transparent lg:p-0`}>
        {NOTE_SECTIONS.map((section) => {
          const isEmpty = empty.has(section.id);
          return (
            <li key={section.id}>
              <a
                href={`#${section.id}`}
                onClick={(event) => onLinkClick(event, section.id)}
                data-empty={isEmpty ? "true" : undefined}
                className={`flex items-baseline justify-between gap-2 rounded-md px-2 py-1 hover:bg-slate-100 hover:text-brand-800 ${isEmpty ? "text-slate-600" : "font-medium text-slate-800"}`}
              >
                <span>{section.title}</span>{" "}
                {isEmpty ? <span className="text-xs font-normal text-slate-600">(empty)</span> : null}
              </a>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
