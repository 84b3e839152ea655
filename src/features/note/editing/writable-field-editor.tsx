import { useEffect, useId, useMemo, useRef, type ReactNode } from "react";
import { MAX_NOTE_FIELD_LENGTH } from "#contract/app-api/note.ts";
import { Badge } from "#src/components/ui/badge.tsx";
import { Button } from "#src/components/ui/button.tsx";
import { WRITABLE_FIELD_INFO, type WritableNoteField } from "../writable-fields.ts";
import { handleSaveShortcut } from "./save-status-bar.tsx";
import type { NoteEditor } from "./use-note-editor.ts";

// One writable field, edited in place: a labelled textarea that grows with
// its text, its own status read with it, and, when the EHR changed the field
// while the user was typing, both texts side by side with the choice at the
// field (told as the user's own when their other tab saved it). Read-only
// uses `readOnly`, so the text stays selectable. `mark` is
// shown between the label and the text (a change made under the reader).

const textareaClass =
  "block max-h-[60vh] min-h-24 w-full resize-y rounded-md border border-slate-300 bg-white px-3 py-2 text-sm leading-6 field-sizing-content read-only:bg-slate-50 read-only:text-slate-800";

export function WritableFieldEditor({ field, editor, mark }: { field: WritableNoteField; editor: NoteEditor; mark?: ReactNode }) {
  const info = WRITABLE_FIELD_INFO[field];
  const id = useId();
  const statusId = `${info.inputId}-status`;
  const labelId = `${id}-label`;
  const textarea = useRef<HTMLTextAreaElement>(null);
  const conflict = editor.conflicts[field];
  // Told once, as the choice appears: the other tab's save is remembered for a while only.
  const theirs = conflict?.theirs;
  const { isSavedInAnotherTab } = editor;
  const theirsFromAnotherTab = useMemo(() => theirs !== undefined && isSavedInAnotherTab(field, theirs), [theirs, field, isSavedInAnotherTab]);
  const status = editor.fieldStatus[field];
  const isChanged = editor.dirtyFields.includes(field);

  // The choice buttons go away with the choice, and the field's textarea is mounted anew outside the choice's
  // group: focus it once that render is committed (focusing it in the click would focus the one unmounted).
  const focusAfterChoice = useRef(false);
  useEffect(() => {
    if (conflict || !focusAfterChoice.current) return;
    focusAfterChoice.current = false;
    textarea.current?.focus();
  }, [conflict]);

  const resolve = (choice: "mine" | "theirs") => {
    focusAfterChoice.current = true;
    editor.resolveConflict(field, choice);
  };

  const input = (
    <textarea
      ref={textarea}
      id={info.inputId}
      value={editor.values[field]}
      onChange={(event) => editor.setValue(field, event.target.value)}
      onKeyDown={(event) => handleSaveShortcut(event, editor)}
      readOnly={!editor.canType}
      aria-describedby={statusId}
      maxLength={MAX_NOTE_FIELD_LENGTH}
      rows={3}
      className={textareaClass}
    />
  );

  return (
    <div data-testid={`field-editor-${field}`} data-changed={isChanged || undefined} className="space-y-1">
      <div className="flex flex-wrap items-center gap-2">
        <label id={labelId} htmlFor={info.inputId} className="text-sm font-medium">
          {info.label}
        </label>
        {isChanged ? <Badge className="border-amber-400 bg-amber-50 text-amber-900">Changed</Badge> : null}
      </div>
      {mark}
      {conflict ? (
        <div role="group" aria-labelledby={`${id}-conflict`} className="space-y-2 rounded-md border-2 border-amber-400 bg-amber-50 p-3">
          <p id={`${id}-conflict`} className="text-sm font-semibold text-amber-950">
            {theirsFromAnotherTab
              ? "You saved other text in this field in another tab while you were editing here. Choose which text to keep."
              : "This field was changed in the EHR while you were editing. Choose which text to keep."}
          </p>
          <div className="grid gap-3 md:grid-cols-2">
            <div className="min-w-0 space-y-1">
              <p className="text-xs font-semibold text-slate-800">Your text</p>
              {input}
            </div>
            <div className="min-w-0 space-y-1">
              <p id={`${id}-theirs`} className="text-xs font-semibold text-slate-800">
                {theirsFromAnotherTab ? "The EHR's text now, saved in your other tab" : "The EHR's text now"}
              </p>
              <textarea readOnly value={conflict.theirs} aria-labelledby={`${labelId} ${id}-theirs`} rows={3} className={textareaClass} />
            </div>
          </div>
          <p id={`${id}-keep-help`} className="text-xs text-slate-800">
            Keeping your text replaces the EHR&apos;s text when you save.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => resolve("mine")} aria-describedby={`${id}-keep-help`}>
              Keep my text
            </Button>
            <Button variant="secondary" onClick={() => resolve("theirs")}>
              Use the EHR&apos;s text
            </Button>
          </div>
        </div>
      ) : (
        input
      )}
      <p id={statusId} className="min-h-4 text-xs text-slate-700">
        {status}
      </p>
    </div>
  );
}
