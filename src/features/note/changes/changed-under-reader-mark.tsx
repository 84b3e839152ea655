import { useId, useState } from "react";
import type { WritableNoteField } from "#contract/clinic-api/note.ts";
import { Button } from "#src/components/ui/button.tsx";
import { formatRecentTime } from "#src/lib/time-format.ts";
import { useTimeDisplay } from "#src/lib/use-time-display.tsx";
import { focusNoteTarget } from "../focus-note-target.ts";
import { WRITABLE_FIELD_INFO } from "../writable-fields.ts";
import type { ChangeMark } from "./changes-under-reader.ts";

// The mark at a field whose text changed in the EHR while the reader was
// looking (changes-under-reader.ts): when it reached the screen, on the
// facility's clock, and the text it replaced behind a disclosure button.
// Dismissing it puts the reader in the field, where the mark was.

export function ChangedUnderReaderMark({ field, mark, timezone, onDismiss }: { field: WritableNoteField; mark: ChangeMark; timezone: string; onDismiss: (field: WritableNoteField) => void }) {
  const [isOpen, setOpen] = useState(false);
  const id = useId();
  const display = useTimeDisplay(timezone);
  const info = WRITABLE_FIELD_INFO[field];
  const titleId = `${id}-title`;
  const replacedId = `${id}-replaced`;
  const isEmpty = mark.replaced.trim() === "";

  const dismiss = () => {
    onDismiss(field);
    focusNoteTarget(info.inputId);
  };

  return (
    <div role="group" aria-labelledby={titleId} data-testid={`changed-under-reader-${field}`} className="space-y-2 rounded-md border border-sky-300 bg-sky-50 px-3 py-2 text-sm text-slate-900">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p id={titleId} className="font-semibold text-sky-950">
          Changed in the EHR just now <span className="font-normal whitespace-nowrap text-slate-700">({formatRecentTime(mark.seenAtMs, Date.now(), display)})</span>
          <span className="sr-only">: {info.label}</span>
        </p>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" aria-expanded={isOpen} aria-controls={replacedId} onClick={() => setOpen((open) => !open)}>
            {isOpen ? "Hide the earlier text" : "Show the earlier text"}
          </Button>
          <Button variant="secondary" onClick={dismiss} aria-describedby={titleId}>
            Dismiss
          </Button>
        </div>
      </div>
      <div id={replacedId} hidden={!isOpen} className="rounded border-l-4 border-slate-300 bg-white px-2 py-1">
        <p className="text-xs font-semibold tracking-wide text-slate-700 uppercase">The text it replaced</p>
        <p data-testid="replaced-text" data-user-text="" className={`break-words whitespace-pre-wrap ${isEmpty ? "italic text-slate-700" : ""}`}>
          {isEmpty ? "(empty)" : mark.replaced}
        </p>
      </div>
    </div>
  );
}
