import type { AllWritableFieldValues } from "#contract/app-api/note.ts";
import type { WritableNoteField } from "#contract/clinic-api/note.ts";
import { WRITABLE_NOTE_FIELDS } from "../writable-fields.ts";
import {
  canTypeIn,
  conflictsOf,
  dirtyFieldsOf,
  draftKeptOf,
  draftOfferOf,
  fieldStatusText,
  draftUnkeptText,
  readOnlyReasonOf,
  saveRequestOf,
  statusOf,
  type DraftOfferView,
  type EditorState,
  type EditorStatus,
  type FieldConflict,
  type RemoteChangeNotice,
} from "./editor-state.ts";

// What the note view reads of the editor's state, derived in one place (a
// pure function, so each render of the hook returns one consistent view).

export interface NoteEditorView {
  values: AllWritableFieldValues;
  dirtyFields: WritableNoteField[];
  hasUnsavedChanges: boolean;
  status: EditorStatus;
  readOnlyReason: string | null;
  /** The fields take typing: not read-only, and no stored draft waiting for Restore or Discard. */
  canType: boolean;
  /** There is something to save now (nothing in flight, no conflict to decide). */
  canSave: boolean;
  conflicts: Partial<Record<WritableNoteField, FieldConflict>>;
  /** Each field's own status ("Changed, not saved yet"); empty when there is nothing to say. */
  fieldStatus: Record<WritableNoteField, string>;
  draftOffer: DraftOfferView | null;
  remoteChangeNotice: RemoteChangeNotice | null;
  /** Where the latest text is kept: the BFF, this tab only, or not yet. */
  draftKept: "bff" | "session" | null;
  /** The latest text is on screen only: the draft could not be stored (it is tried again), and why; null when it is kept. */
  draftUnkeptText: string | null;
}

export function noteEditorViewOf(state: EditorState): NoteEditorView {
  const dirtyFields = dirtyFieldsOf(state);
  const fieldStatus = Object.fromEntries(WRITABLE_NOTE_FIELDS.map((field) => [field, fieldStatusText(state, field)])) as Record<WritableNoteField, string>;
  return {
    values: {
      additionalHpiComments: state.fields.additionalHpiComments.value,
      impressionsPlansComments: state.fields.impressionsPlansComments.value,
      otherExamComments: state.fields.otherExamComments.value,
      stickyNoteDescription: state.fields.stickyNoteDescription.value,
    },
    dirtyFields,
    hasUnsavedChanges: dirtyFields.length > 0,
    status: statusOf(state),
    readOnlyReason: readOnlyReasonOf(state),
    canType: canTypeIn(state),
    canSave: saveRequestOf(state) !== null,
    conflicts: conflictsOf(state),
    fieldStatus,
    draftOffer: draftOfferOf(state),
    remoteChangeNotice: state.remoteChange,
    draftKept: draftKeptOf(state),
    draftUnkeptText: draftUnkeptText(state),
  };
}
