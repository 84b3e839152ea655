import { Notice } from "#src/components/ui/notice.tsx";
import { noteRereadText } from "./note-reread-text.ts";
import { canKeepInTab } from "./session-draft.ts";
import type { NoteEditor } from "./use-note-editor.ts";

/** Shown above the note while its latest re-read failed; the editor below stays as it is. */
export function NoteRereadNotice({ error, editor }: { error: unknown; editor: NoteEditor }) {
  const text = noteRereadText(error, {
    hasUnsavedText: editor.hasUnsavedChanges || editor.draftOffer !== null,
    isDraftInBff: editor.draftKept === "bff",
    canKeepInTab: canKeepInTab(),
    isReadOnly: editor.readOnlyReason !== null,
  });
  return (
    <section data-testid="note-reread-notice" aria-label="The note could not be read again">
      <Notice tone="warning" title={text} />
    </section>
  );
}
