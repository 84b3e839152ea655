import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, type Dispatch } from "react";
import { deleteNoteDraft, noteDraftQuery, saveNoteDraft } from "#src/api/note-queries.ts";
import { draftBodyOf, needsDraftDelete, needsDraftPut, type EditorAction, type EditorState } from "./editor-state.ts";
import { removeSessionDraft, writeSessionDraft } from "./session-draft.ts";

// Keeping the note's draft (ADR 0008): PUT to the BFF shortly after typing
// and at least every few seconds while it goes on, DELETE once nothing is
// dirty, one request at a time; this tab's copy while the BFF cannot be
// reached (tried again on a timer), and on leaving the page.

/** The draft is stored this long after typing stops… */
export const DRAFT_DEBOUNCE_MS = 800;
/** …and at least this often while typing goes on. */
export const DRAFT_MAX_WAIT_MS = 2_000;
/** While the BFF cannot take the draft (kept in this tab meanwhile), it is tried again this often. */
export const DRAFT_RETRY_MS = 15_000;

interface DraftSyncInput {
  noteId: string;
  state: EditorState;
  /** The last committed state: requests run later than the render that queued them. */
  latest: { readonly current: EditorState };
  dispatch: Dispatch<EditorAction>;
}

/** Runs the draft requests the state asks for; returns `syncDraft`, to store the draft now. */
export function useDraftSync({ noteId, state, latest, dispatch }: DraftSyncInput): () => void {
  const queryClient = useQueryClient();
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
  }, [noteId, queryClient, queueDraftRequest, latest, dispatch]);

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
  }, [noteId, queryClient, queueDraftRequest, latest]);

  return syncDraft;
}
