import { Button } from "#src/components/ui/button.tsx";
import { Notice } from "#src/components/ui/notice.tsx";
import { formatRecentTime, type TimeDisplay } from "#src/lib/time-format.ts";
import { useTimeDisplay } from "#src/lib/use-time-display.tsx";
import { WRITABLE_FIELD_INFO } from "../writable-fields.ts";
import { DRAFT_NOTICE_ID } from "../sign-off/sign-off-checklist.ts";
import { ConfirmDialog } from "#src/components/ui/confirm-dialog.tsx";
import { CopyDraftText } from "./read-only-draft-copy.tsx";
import type { NoteEditor } from "./use-note-editor.ts";

// Unsaved text found when the note opens (left by a reload, a crash or an
// expired session): what it would change, field by field, and Restore or
// Discard. The fields take no typing until the user has chosen. On a note
// that can no longer be changed (signed in the EHR) the text is only shown,
// with Copy my unsaved text: it is never put back into an editor.

const PREVIEW_LENGTH = 160;

function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat === "") return "(empty)";
  return flat.length > PREVIEW_LENGTH ? `${flat.slice(0, PREVIEW_LENGTH)}…` : flat;
}

/** "9:40 AM" today, else "Thu, Dec 3, 9:40 AM", on the facility's clock. */
function whenText(iso: string, display: TimeDisplay): string {
  const epochMs = Date.parse(iso);
  return Number.isNaN(epochMs) ? "earlier" : formatRecentTime(epochMs, Date.now(), display);
}

const focusField = (inputId: string | undefined) => (inputId ? document.getElementById(inputId) : null);

export function DraftRestoreNotice({ editor }: { editor: NoteEditor }) {
  const display = useTimeDisplay(editor.timezone);
  const offer = editor.draftOffer;
  if (!offer) return null;
  const firstInputId = offer.rows[0] ? WRITABLE_FIELD_INFO[offer.rows[0].field].inputId : undefined;
  const isReadOnly = editor.readOnlyReason !== null;
  const restore = () => {
    editor.restoreDraft();
    // The notice goes away with the button in it: continue in the first restored field.
    setTimeout(() => focusField(firstInputId)?.focus(), 0);
  };
  return (
    <section id={DRAFT_NOTICE_ID} tabIndex={-1} data-testid="draft-restore-notice" aria-label="Unsaved text from earlier" className="outline-none">
      <Notice
        tone="warning"
        title={`You have unsaved text from ${whenText(offer.updatedAt, display)} on this note`}
        actions={
          <>
            {isReadOnly ? null : <Button onClick={restore}>Restore</Button>}
            <ConfirmDialog
              trigger={<Button variant="secondary">Discard</Button>}
              title="Discard your unsaved text?"
              description="The text listed here will be deleted and cannot be brought back. The note keeps its current text."
              cancelLabel="Keep it"
              confirmLabel="Discard the text"
              onConfirm={editor.discardDraft}
              focusAfterConfirm={() => focusField(firstInputId)}
            />
          </>
        }
      >
        {isReadOnly ? <p className="mb-2">{editor.readOnlyReason} Copy your text to use it elsewhere, for example in an addendum in the EHR.</p> : null}
        <ul className="space-y-3">
          {offer.rows.map((row) => (
            <li key={row.field}>
              <p className="font-semibold">{WRITABLE_FIELD_INFO[row.field].label}</p>
              <dl className="grid gap-x-3 gap-y-1 sm:grid-cols-[max-content_1fr]">
                <dt className="font-medium">Your text</dt>
                <dd className="min-w-0 break-words">{preview(row.draftText)}</dd>
                <dt className="font-medium">In the note now</dt>
                <dd className="min-w-0 break-words">{preview(row.noteText)}</dd>
              </dl>
              {row.noteChangedSinceDraft && !isReadOnly ? <p className="mt-1 text-xs font-medium">This field has changed in the EHR since; after Restore you choose which text to keep.</p> : null}
            </li>
          ))}
        </ul>
        {isReadOnly ? (
          <div className="mt-3 space-y-2">
            <CopyDraftText editor={editor} />
          </div>
        ) : null}
      </Notice>
    </section>
  );
}
