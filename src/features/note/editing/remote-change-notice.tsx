import { Button } from "#src/components/ui/button.tsx";
import { Notice } from "#src/components/ui/notice.tsx";
import { WRITABLE_FIELD_INFO, type WritableNoteField } from "../writable-fields.ts";
import type { NoteEditor } from "./use-note-editor.ts";

// What the user is told when the note changed in the EHR while they had
// unsaved text.

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
