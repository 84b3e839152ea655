import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef } from "react";
import * as z from "zod/mini";
import { noteDraft, type AllWritableFieldValues, type NoteDraftBody, type NoteDraftPutRequest } from "../../../../contract/app-api/note.ts";
import { writableValues, type Note, type WritableNoteField } from "../../../../contract/clinic-api/note.ts";
import { deleteNoteDraft, isEhrFailure, markNoteSigned, noteConflictOf, noteDraftQuery, noteQuery, patchNote, saveNoteDraft } from "../../../api/note-queries.ts";
import { describeApiError } from "../../../components/shell/api-error-notice.tsx";
import { WRITABLE_FIELD_INFO, WRITABLE_NOTE_FIELDS } from "../writable-fields.ts";
import {
  canAutosave,
  canTypeIn,
  conflictsOf,
  dirtyFieldsOf,
  draftBodyOf,
  draftKeptOf,
  draftOfferOf,
  draftTextOf,
  editorReducer,
  fieldStatusText,
  initialEditorState,
  needsDraftDelete,
  needsDraftPut,
  readOnlyReasonOf,
  saveRequestOf,
  sentValuesOf,
  statusOf,
  type DraftOfferView,
  type EditorState,
  type EditorStatus,
  type FieldConflict,
  type RemoteChangeNotice,
  type ServerNote,
} from "./editor-state.ts";

// The note editor wired to the BFF: the draft PUT shortly after typing (this
// tab's sessionStorage only while the BFF cannot be reached), autosave a
// little later, explicit Save, and the answers fed to the state machine in
// editor-state.ts. Never an automatic retry of a failed save: the status
// says so and offers Retry (typing again re-arms autosave).

/** The draft is stored this long after typing stops… */
export const DRAFT_DEBOUNCE_MS = 800;
/** …and at least this often while typing goes on. */
export const DRAFT_MAX_WAIT_MS = 2_000;
/** The EHR is written this long after typing stops. */
export const AUTOSAVE_DEBOUNCE_MS = 3_000;
/** While the BFF cannot take the draft (kept in this tab meanwhile), it is tried again this often. */
export const DRAFT_RETRY_MS = 15_000;

const DEFAULT_CANNOT_EDIT_REASON = "Your role cannot change notes in Tandem.";

export interface NoteEditor {
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

// ---- This tab's fallback copy (never localStorage: it holds patient data) ----

const sessionKey = (noteId: string) => `tandem.note-draft.${noteId}`;

function readSessionDraft(noteId: string): NoteDraftBody | null {
  try {
    const raw = window.sessionStorage.getItem(sessionKey(noteId));
    if (raw === null) return null;
    const parsed = z.safeParse(noteDraft, JSON.parse(raw) as unknown);
    return parsed.success ? parsed.data : null;
  } catch {
    return null; // storage blocked (sandboxed frame) or a mangled value
  }
}

function writeSessionDraft(noteId: string, body: NoteDraftPutRequest): boolean {
  try {
    const stored: NoteDraftBody = { ...body, updatedAt: new Date().toISOString() };
    window.sessionStorage.setItem(sessionKey(noteId), JSON.stringify(stored));
    return true;
  } catch {
    return false;
  }
}

function removeSessionDraft(noteId: string): void {
  try {
    window.sessionStorage.removeItem(sessionKey(noteId));
  } catch {
    // nothing was stored
  }
}

/** The newer of the BFF's draft and this tab's copy. */
function pickDraft(fromBff: NoteDraftBody | null, fromSession: NoteDraftBody | null): { draft: NoteDraftBody | null; where: "bff" | "session" | null } {
  if (fromSession && (!fromBff || Date.parse(fromSession.updatedAt) > Date.parse(fromBff.updatedAt))) return { draft: fromSession, where: "session" };
  return fromBff ? { draft: fromBff, where: "bff" } : { draft: null, where: null };
}

const serverNoteOf = (note: Note): ServerNote => ({ values: writableValues(note), version: note.version, status: note.status });
const labelOf = (field: WritableNoteField) => WRITABLE_FIELD_INFO[field].label;

export function useNoteEditor({ noteId, note, initialDraft, canEdit, cannotEditReason, timezone }: NoteEditorOptions): NoteEditor {
  const queryClient = useQueryClient();
  const cannotEdit = canEdit ? null : (cannotEditReason ?? DEFAULT_CANNOT_EDIT_REASON);
  const [state, dispatch] = useReducer(editorReducer, null, (): EditorState => {
    const picked = pickDraft(initialDraft, readSessionDraft(noteId));
    return initialEditorState({ note: serverNoteOf(note), cannotEditReason: cannotEdit, draft: picked.draft, draftWhere: picked.where });
  });

  // Timers and answers read the latest committed state, not the one of the render that scheduled them.
  const latest = useRef(state);
  useLayoutEffect(() => {
    latest.current = state;
  });

  const serverNote = useMemo(() => serverNoteOf(note), [note]);
  useEffect(() => {
    dispatch({ type: "noteRead", note: serverNote });
  }, [serverNote]);
  useEffect(() => {
    dispatch({ type: "permissionChanged", cannotEditReason: cannotEdit });
  }, [cannotEdit]);

  // ---- The draft: stored in the BFF, one request at a time ----

  const draftChain = useRef<Promise<void>>(Promise.resolve());
  /** Runs after the draft requests already queued, so a PUT and a DELETE never cross. */
  const queueDraftRequest = useCallback((request: () => Promise<void>) => {
    draftChain.current = draftChain.current.then(request).catch(() => undefined);
  }, []);
  const maxWaitTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const syncDraft = useCallback(() => {
    clearTimeout(maxWaitTimer.current);
    maxWaitTimer.current = undefined;
    queueDraftRequest(async () => {
      const current = latest.current;
      if (needsDraftDelete(current)) {
        removeSessionDraft(noteId);
        try {
          await deleteNoteDraft(noteId);
          queryClient.setQueryData(noteDraftQuery(noteId).queryKey, { draft: null });
          dispatch({ type: "draftCleared" });
        } catch {
          dispatch({ type: "draftSyncFailed" });
        }
        return;
      }
      const body = needsDraftPut(current) ? draftBodyOf(current) : null;
      if (body === null) return;
      const revision = current.draftRevision;
      try {
        const answer = await saveNoteDraft(noteId, body);
        removeSessionDraft(noteId);
        queryClient.setQueryData(noteDraftQuery(noteId).queryKey, answer);
        dispatch({ type: "draftStored", where: "bff", revision });
      } catch {
        dispatch(writeSessionDraft(noteId, body) ? { type: "draftStored", where: "session", revision } : { type: "draftSyncFailed" });
      }
    });
  }, [noteId, queryClient, queueDraftRequest]);

  const wantsPut = needsDraftPut(state);
  const wantsDelete = needsDraftDelete(state);
  useEffect(() => {
    if (!wantsPut) return;
    const debounce = setTimeout(syncDraft, DRAFT_DEBOUNCE_MS);
    maxWaitTimer.current ??= setTimeout(syncDraft, DRAFT_MAX_WAIT_MS);
    return () => clearTimeout(debounce);
  }, [state.draftRevision, wantsPut, syncDraft]);
  useEffect(() => {
    if (wantsDelete) syncDraft();
  }, [wantsDelete, syncDraft]);
  useEffect(() => {
    if (state.draftStore.failures === 0 || (!wantsPut && !wantsDelete)) return;
    const retry = setTimeout(syncDraft, DRAFT_RETRY_MS);
    return () => clearTimeout(retry);
  }, [state.draftStore.failures, wantsPut, wantsDelete, syncDraft]);

  // Leaving: the text not yet in the BFF goes there (fire-and-forget); a closing page keeps it in this tab too.
  useEffect(() => {
    const keepInTab = () => {
      const body = needsDraftPut(latest.current) ? draftBodyOf(latest.current) : null;
      if (body !== null) writeSessionDraft(noteId, body);
    };
    window.addEventListener("pagehide", keepInTab);
    return () => {
      window.removeEventListener("pagehide", keepInTab);
      clearTimeout(maxWaitTimer.current);
      maxWaitTimer.current = undefined;
      const body = needsDraftPut(latest.current) ? draftBodyOf(latest.current) : null;
      if (body === null) return;
      queueDraftRequest(async () => {
        try {
          const answer = await saveNoteDraft(noteId, body);
          removeSessionDraft(noteId);
          queryClient.setQueryData(noteDraftQuery(noteId).queryKey, answer);
        } catch {
          writeSessionDraft(noteId, body);
        }
      });
    };
  }, [noteId, queryClient, queueDraftRequest]);

  // ---- Saving to the EHR ----

  const saving = useRef(false);
  /** An explicit Save pressed while a save was in flight: run once that one is confirmed. */
  const saveQueued = useRef(false);
  /** The `changeRevision` last sent: autosave never re-sends the same text after a failure. */
  const attemptedRevision = useRef(-1);
  const autosaveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const runSave = useCallback(
    async (trigger: "auto" | "explicit") => {
      const current = latest.current;
      if (saving.current) {
        if (trigger === "explicit") saveQueued.current = true;
        return;
      }
      if (trigger === "auto" && current.changeRevision === attemptedRevision.current) return;
      const request = saveRequestOf(current);
      if (request === null) return;
      clearTimeout(autosaveTimer.current);
      saving.current = true;
      attemptedRevision.current = current.changeRevision;
      dispatch({ type: "saveStarted", sent: sentValuesOf(request) });
      try {
        const { note: saved } = await patchNote(noteId, request);
        dispatch({ type: "saveSucceeded", note: serverNoteOf(saved), atMs: Date.now() });
        queryClient.setQueryData(noteQuery(noteId).queryKey, { note: saved });
      } catch (error) {
        saveQueued.current = false;
        // The text did not reach the EHR: keep it in the draft store now, not after the typing debounce,
        // so a reload or a reopened note a moment later still has it (once the failure is in the state).
        setTimeout(syncDraft, 0);
        const conflict = noteConflictOf(error);
        if (conflict) {
          dispatch({ type: "saveConflict", details: conflict });
          if (conflict.reason === "note_signed") markNoteSigned(queryClient, noteId);
        } else if (isEhrFailure(error)) {
          dispatch({ type: "saveFailed", failure: { kind: "ehr" } });
        } else {
          const { title, canRetry } = describeApiError(error);
          dispatch({ type: "saveFailed", failure: { kind: "other", message: title, canRetry } });
        }
      } finally {
        saving.current = false;
      }
    },
    [noteId, queryClient, syncDraft],
  );

  const autosaveAllowed = canAutosave(state);
  useEffect(() => {
    if (!autosaveAllowed) return;
    const timer = setTimeout(() => void runSave("auto"), AUTOSAVE_DEBOUNCE_MS);
    autosaveTimer.current = timer;
    return () => clearTimeout(timer);
  }, [state.changeRevision, autosaveAllowed, runSave]);

  useEffect(() => {
    if (state.save.kind === "saved" && saveQueued.current) {
      saveQueued.current = false;
      void runSave("explicit");
    }
  }, [state.save, runSave]);

  useEffect(() => () => clearTimeout(autosaveTimer.current), []);

  // ---- What the view gets ----

  const save = useCallback(() => void runSave("explicit"), [runSave]);
  const setValue = useCallback((field: WritableNoteField, text: string) => dispatch({ type: "edited", field, value: text }), []);
  const resolveConflict = useCallback((field: WritableNoteField, choice: "mine" | "theirs") => dispatch({ type: "conflictResolved", field, choice }), []);
  const restoreDraft = useCallback(() => dispatch({ type: "draftRestored" }), []);
  const discardDraft = useCallback(() => dispatch({ type: "draftDiscarded" }), []);
  const dismissRemoteChange = useCallback(() => dispatch({ type: "remoteChangeDismissed" }), []);
  const draftText = useCallback(() => draftTextOf(state, labelOf), [state]);

  return useMemo((): NoteEditor => {
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
      timezone,
      setValue,
      save,
      retry: save,
      resolveConflict,
      restoreDraft,
      discardDraft,
      dismissRemoteChange,
      draftText,
    };
  }, [state, timezone, setValue, save, resolveConflict, restoreDraft, discardDraft, dismissRemoteChange, draftText]);
}
