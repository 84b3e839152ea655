import { useCallback, useEffect, useMemo, useReducer } from "react";
import type { NoteDraftBody } from "#contract/app-api/note.ts";
import type { Note, WritableNoteField } from "#contract/clinic-api/note.ts";
import { useLatest } from "#src/lib/use-latest.ts";
import { WRITABLE_FIELD_INFO } from "../writable-fields.ts";
import { draftTextOf, editorReducer, initialEditorState, serverNoteOf, type EditorState } from "./editor-state.ts";
import { noteEditorViewOf, type NoteEditorView } from "./note-editor-view.ts";
import { pickDraft, readSessionDraft } from "./session-draft.ts";
import { useDraftSync } from "./use-draft-sync.ts";
import { useNoteSave } from "./use-note-save.ts";
import { wasSavedInAnotherTab } from "../changes/saved-in-another-tab.ts";

// The note editor wired to the BFF (ADR 0008): the state machine in
// editor-state.ts fed the note as read (baselines, conflicts, a signed note
// read-only) and the user's permission; the draft kept by use-draft-sync.ts;
// the EHR written by use-note-save.ts; what the view reads derived in
// note-editor-view.ts.

const DEFAULT_CANNOT_EDIT_REASON = "Your role cannot change notes in Tandem.";

export interface NoteEditor extends NoteEditorView {
  /** The facility's zone, for times. */
  timezone: string;
  setValue: (field: WritableNoteField, text: string) => void;
  save: () => void;
  retry: () => void;
  resolveConflict: (field: WritableNoteField, choice: "mine" | "theirs") => void;
  restoreDraft: () => void;
  discardDraft: () => void;
  dismissRemoteChange: () => void;
  /** All unsaved text as plain text, for copying. */
  draftText: () => string;
  /** Whether `text` in `field` is what the user saved moments ago in another tab of theirs (saved-in-another-tab.ts). */
  isSavedInAnotherTab: (field: WritableNoteField, text: string) => boolean;
}

export interface NoteEditorOptions {
  noteId: string;
  note: Note;
  /** The BFF's stored draft (`noteDraftQuery`), read once on open; later changes are ignored. */
  initialDraft: NoteDraftBody | null;
  canEdit: boolean;
  cannotEditReason?: string;
  timezone: string;
}

const labelOf = (field: WritableNoteField) => WRITABLE_FIELD_INFO[field].label;

export function useNoteEditor({ noteId, note, initialDraft, canEdit, cannotEditReason, timezone }: NoteEditorOptions): NoteEditor {
  const cannotEdit = canEdit ? null : (cannotEditReason ?? DEFAULT_CANNOT_EDIT_REASON);
  const [state, dispatch] = useReducer(editorReducer, null, (): EditorState => {
    const picked = pickDraft(initialDraft, readSessionDraft(noteId));
    return initialEditorState({ note: serverNoteOf(note), cannotEditReason: cannotEdit, draft: picked.draft, draftWhere: picked.where });
  });

  // Timers and answers read the latest committed state, not the one of the render that scheduled them.
  const latest = useLatest(state);

  // The note as read now: new baselines, conflicts with typed text, a signed note read-only (editor-state.ts).
  const serverNote = useMemo(() => serverNoteOf(note), [note]);
  useEffect(() => {
    dispatch({ type: "noteRead", note: serverNote });
  }, [serverNote]);
  useEffect(() => {
    dispatch({ type: "permissionChanged", cannotEditReason: cannotEdit });
  }, [cannotEdit]);

  const syncDraft = useDraftSync({ noteId, state, latest, dispatch });
  const save = useNoteSave({ noteId, state, latest, dispatch, syncDraft });

  const setValue = useCallback((field: WritableNoteField, text: string) => dispatch({ type: "edited", field, value: text }), []);
  const resolveConflict = useCallback((field: WritableNoteField, choice: "mine" | "theirs") => dispatch({ type: "conflictResolved", field, choice }), []);
  const restoreDraft = useCallback(() => dispatch({ type: "draftRestored" }), []);
  const discardDraft = useCallback(() => dispatch({ type: "draftDiscarded" }), []);
  const dismissRemoteChange = useCallback(() => dispatch({ type: "remoteChangeDismissed" }), []);
  const draftText = useCallback(() => draftTextOf(state, labelOf), [state]);
  const isSavedInAnotherTab = useCallback((field: WritableNoteField, text: string) => wasSavedInAnotherTab(noteId, field, text), [noteId]);

  return useMemo(
    (): NoteEditor => ({ ...noteEditorViewOf(state), timezone, setValue, save, retry: save, resolveConflict, restoreDraft, discardDraft, dismissRemoteChange, draftText, isSavedInAnotherTab }),
    [state, timezone, setValue, save, resolveConflict, restoreDraft, discardDraft, dismissRemoteChange, draftText, isSavedInAnotherTab],
  );
}
