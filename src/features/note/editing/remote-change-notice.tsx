import { useEffect, useRef, useState } from "react";
import { Button } from "#src/components/ui/button.tsx";
import { Notice } from "#src/components/ui/notice.tsx";
import { WRITABLE_FIELD_INFO, type WritableNoteField } from "../writable-fields.ts";
import type { NoteEditor } from "./use-note-editor.ts";

// What the user is told when the note changed in the EHR while they had
// unsaved text, and, once the note is read-only, a way to take that text
// with them (the clipboard, or a selectable box where the frame may not
// write to it).

/** A label inside a sentence: "additional HPI comments", its initialisms kept. */
const inSentence = (label: string) => (/^[A-Z][a-z]/.test(label) ? `${label.charAt(0).toLowerCase()}${label.slice(1)}` : label);
const listOf = (fields: WritableNoteField[]) => fields.map((field) => inSentence(WRITABLE_FIELD_INFO[field].label)).join(", ");

export function RemoteChangeNotice({ editor }: { editor: NoteEditor }) {
  const notice = editor.remoteChangeNotice;
  if (!notice) return null;
  const { updatedFields, conflictFields } = notice;
  return (
    <section data-testid="remote-change-notice" aria-label="The note changed in the EHR">
      <Notice
        tone="info"
        title="This note was changed in the EHR while you were editing"
        actions={
          <Button variant="secondary" onClick={editor.dismissRemoteChange}>
            Dismiss
          </Button>
        }
      >
        <p>
          {updatedFields.length > 0 ? `Fields you had not touched were updated (${listOf(updatedFields)}). ` : "The fields you had not touched are unchanged. "}
          {conflictFields.length > 0
            ? // Not "someone": it may be the same user, in another tab.
              `Text you were editing also changed there (${listOf(conflictFields)}): choose which text to keep at the field.`
            : "Your unsaved text was kept as it is."}
        </p>
      </Notice>
    </section>
  );
}

export function ReadOnlyDraftCopy({ editor }: { editor: NoteEditor }) {
  const [copy, setCopy] = useState<"idle" | "copied" | "manual">("idle");
  const manualBox = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (copy === "manual") manualBox.current?.select();
  }, [copy]);

  const hasText = editor.hasUnsavedChanges || editor.draftOffer !== null;
  if (editor.readOnlyReason === null || !hasText) return null;
  const text = editor.draftText();

  const copyText = async () => {
    try {
      if (!("clipboard" in navigator)) throw new Error("no clipboard");
      await navigator.clipboard.writeText(text);
      setCopy("copied");
    } catch {
      // The EHR's frame may not allow the clipboard: show the text to copy by hand.
      setCopy("manual");
    }
  };

  return (
    <section data-testid="read-only-draft-copy" aria-labelledby="read-only-draft-copy-title" className="space-y-2 rounded-lg border border-slate-300 bg-white p-3">
      <h2 id="read-only-draft-copy-title" className="text-sm font-semibold">
        Your unsaved text
      </h2>
      <p className="text-sm text-slate-700">The note can no longer be changed here. Copy your text to use it elsewhere, for example in an addendum in the EHR.</p>
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="secondary" onClick={() => void copyText()}>
          Copy my unsaved text
        </Button>
        <p role="status" className="text-sm text-slate-700">
          {copy === "copied" ? "Copied to the clipboard." : copy === "manual" ? "Copying was not allowed here: select the text below and copy it (Ctrl+C, or Cmd+C on a Mac)." : ""}
        </p>
      </div>
      {copy === "manual" ? (
        <div className="space-y-1">
          <label htmlFor="read-only-draft-copy-text" className="text-xs font-medium">
            Your unsaved text, to copy
          </label>
          <textarea ref={manualBox} id="read-only-draft-copy-text" readOnly value={text} rows={6} className="block w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 text-sm leading-6 field-sizing-content max-h-[50vh]" />
        </div>
      ) : null}
    </section>
  );
}
