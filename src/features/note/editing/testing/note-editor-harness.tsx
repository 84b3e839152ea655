import type { NoteDraftBody } from "#contract/app-api/note.ts";
import type { Note } from "#contract/clinic-api/note.ts";
import { UserTimeSettingsProvider } from "#src/lib/use-time-display.tsx";
import { WRITABLE_NOTE_FIELDS } from "#src/features/note/writable-fields.ts";
import { DraftRestoreNotice } from "../draft-restore-notice.tsx";
import { ReadOnlyDraftCopy } from "../read-only-draft-copy.tsx";
import { RemoteChangeNotice } from "../remote-change-notice.tsx";
import { handleSaveShortcut, SaveStatusBar } from "../save-status-bar.tsx";
import { useNoteEditor } from "../use-note-editor.ts";
import { WritableFieldEditor } from "../writable-field-editor.tsx";

// The note editor as the note view puts it together (note-view.tsx
// NoteWorkspace): the save bar, the kept-draft and remote-change notices, the
// read-only copy box and the four writable fields, wired by useNoteEditor to
// the BFF, without the reading sections, tasks and images around them. The
// reader is pinned to New York in US English, so times read the same on any
// machine. Render it again with another `note` for a re-read of the note.

export interface NoteEditorHarnessProps {
  note: Note;
  initialDraft?: NoteDraftBody | null;
  canEdit?: boolean;
  cannotEditReason?: string;
}

export function NoteEditorHarness({ note, initialDraft = null, canEdit = true, cannotEditReason }: NoteEditorHarnessProps) {
  return (
    <UserTimeSettingsProvider settings={{ locale: "en-US", userZone: "America/New_York" }}>
      <Editor note={note} initialDraft={initialDraft} canEdit={canEdit} cannotEditReason={cannotEditReason} />
    </UserTimeSettingsProvider>
  );
}

function Editor({ note, initialDraft, canEdit, cannotEditReason }: Required<Omit<NoteEditorHarnessProps, "cannotEditReason">> & { cannotEditReason: string | undefined }) {
  const timezone = note.facility.timezone;
  const editor = useNoteEditor({ noteId: note.id, note, initialDraft, canEdit, ...(cannotEditReason ? { cannotEditReason } : {}), timezone });
  return (
    <div onKeyDown={(event) => handleSaveShortcut(event, editor)}>
      <SaveStatusBar editor={editor} timezone={timezone} />
      <DraftRestoreNotice editor={editor} />
      <RemoteChangeNotice editor={editor} />
      <ReadOnlyDraftCopy editor={editor} />
      {WRITABLE_NOTE_FIELDS.map((field) => (
        <WritableFieldEditor key={field} field={field} editor={editor} />
      ))}
    </div>
  );
}
