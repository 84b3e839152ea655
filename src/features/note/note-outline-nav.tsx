import { useId, useState, type MouseEvent } from "react";
import { flushSync } from "react-dom";
import { ChevronRightIcon } from "#src/components/ui/icons.tsx";
import { focusNoteTarget } from "./focus-note-target.ts";
import type { NoteOutline } from "./note-outline.ts";

// "On this note": a link to every part of the note view, empty sections
// marked "(empty)" in text. Following a link moves focus there (and scrolls)
// without touching the URL, so the router (and the EHR frame's history) is
// left alone. A sticky list on wide screens, scrolling on its own when the
// frame is short; a disclosure on narrow ones (the EHR frame may be ~400px
// wide).

export function NoteOutlineNav({ outline }: { outline: NoteOutline }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const headingId = useId();

  const onLinkClick = (event: MouseEvent<HTMLAnchorElement>, targetId: string) => {
    // Let the browser handle opening in a new tab or window.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    // Close the narrow-screen list first, so the scroll lands on the target's place after the list is gone.
    flushSync(() => setOpen(false));
    focusNoteTarget(targetId);
  };

  return (
    <nav aria-labelledby={headingId} data-testid="section-index" className="text-sm">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
        className="flex min-h-9 w-full items-center justify-between gap-2 rounded-lg border border-slate-300 bg-white px-3 text-left font-medium text-slate-800 hover:bg-slate-50 lg:hidden"
      >
        <span>
          On this note <span className="font-normal text-slate-600">({outline.summary})</span>
        </span>
        <span className={`transition-transform ${open ? "rotate-90" : ""}`}>
          <ChevronRightIcon className="h-4 w-4" />
        </span>
      </button>
      <h2 id={headingId} className="mb-1 hidden px-2 text-xs font-semibold tracking-wide text-slate-600 uppercase lg:block">
        On this note
      </h2>
      <ol id={listId} className={`${open ? "mt-1 block rounded-lg border border-slate-200 bg-white p-1" : "hidden"} lg:mt-0 lg:block lg:border-0 lg:bg-transparent lg:p-0`}>
        {outline.entries.map((entry) => (
          <li key={entry.id}>
            <a
              href={`#${entry.id}`}
              onClick={(event) => onLinkClick(event, entry.id)}
              data-empty={entry.isEmpty ? "true" : undefined}
              className={`flex min-h-6 items-baseline justify-between gap-2 rounded-md px-2 py-0.5 hover:bg-slate-100 hover:text-brand-800 ${entry.isEmpty ? "text-slate-600" : "font-medium text-slate-800"}`}
            >
              <span>{entry.title}</span> {entry.marker ? <span className="text-xs font-normal text-slate-600">{entry.marker}</span> : null}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
