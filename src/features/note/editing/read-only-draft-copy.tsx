import { useEffect, useId, useRef, useState } from "react";
import { Button } from "#src/components/ui/button.tsx";
import type { NoteEditor } from "./use-note-editor.ts";

// Once the note is read-only (signed in the EHR), a way to take the user's
// unsaved text with them: the clipboard, or a selectable box where the frame
// may not write to it. Text typed before the note turned read-only gets a box
// of its own (ReadOnlyDraftCopy); text kept from earlier is shown in the draft
// notice (draft-restore-notice.tsx), which carries the same button, so the
// user is told once.

/** Copy my unsaved text, and what came of it. */
export function CopyDraftText({ editor }: { editor: NoteEditor }) {
  const [copy, setCopy] = useState<"idle" | "copied" | "manual">("idle");
  const manualBox = useRef<HTMLTextAreaElement>(null);
  const manualBoxId = useId();
  useEffect(() => {
    if (copy === "manual") manualBox.current?.select();
  }, [copy]);
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
    <>
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
          <label htmlFor={manualBoxId} className="text-xs font-medium">
            Your unsaved text, to copy
          </label>
          <textarea ref={manualBox} id={manualBoxId} readOnly value={text} rows={6} className="block w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 text-sm leading-6 field-sizing-content max-h-[50vh]" />
        </div>
      ) : null}
    </>
  );
}

/** Text typed in this page before the note turned read-only; kept text from earlier is the draft notice's. */
export function ReadOnlyDraftCopy({ editor }: { editor: NoteEditor }) {
  if (editor.readOnlyReason === null || !editor.hasUnsavedChanges || editor.draftOffer !== null) return null;
  return (
    <section data-testid="read-only-draft-copy" aria-labelledby="read-only-draft-copy-title" className="space-y-2 rounded-lg border border-slate-300 bg-white p-3">
      <h2 id="read-only-draft-copy-title" className="text-sm font-semibold">
        Your unsaved text
      </h2>
      <p className="text-sm text-slate-700">The note can no longer be changed here. Copy your text to use it elsewhere, for example in an addendum in the EHR.</p>
      <CopyDraftText editor={editor} />
    </section>
  );
}
