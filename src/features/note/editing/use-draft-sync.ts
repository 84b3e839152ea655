import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useLayoutEffect, useRef, type Dispatch } from "react";
import type { NoteDraftPutRequest } from "#contract/app-api/note.ts";
import { finishBeforeSignOut } from "#src/api/before-sign-out.ts";
import { prepareWriteWhileLeaving } from "#src/api/bff-client.ts";
import { currentCacheIdentity, identityKey } from "#src/api/cache-identity.ts";
import { onBffAnswered, onTandemInactive, tandemRetryDelayMs } from "#src/api/bff-reachability.ts";
import { isInstallationInactive } from "#src/api/failing-system.ts";
import { noteDraftQuery, saveNoteDraft, saveNoteDraftWhileLeaving } from "#src/api/note-queries.ts";
import { isSessionCopyAcknowledged, sessionCopyOf } from "./draft-keeping.ts";
import { draftBodyOf, draftReleaseOf, needsDraftPut, needsDraftRelease, offeredDraftToKeep, type DraftSyncFailure, type EditorAction, type EditorState } from "./editor-state.ts";
import { removeSessionDraft, writeSessionDraft } from "./session-draft.ts";

// Keeping the note's draft (ADR 0008, issue 35): this tab's copy from the
// keystroke until the BFF has acknowledged a draft holding it
// (draft-keeping.ts); a PUT to the BFF shortly after typing and at least
// every few seconds while it goes on, one request at a time. The BFF keeps one
// draft per user and note, merged by field from every tab of the user: each
// PUT carries this tab's dirty fields and releases the ones it stored before
// and no longer holds (nothing dirty: a PUT that only releases), so one tab
// never drops what another typed. While the BFF cannot be reached the PUT is
// tried again on a short backoff, and at once when the browser is back
// online, the tab is shown again, or any other call to the BFF succeeds. A
// page left (a reload, a closed tab) with text the BFF has not acknowledged
// sends it as it goes (a keepalive PUT with a token got ready ahead): a
// browser may deny the EHR's cross-site frame its sessionStorage, as Chromium
// does when it blocks third-party cookies. Signing out (outside the EHR)
// stores it first (before-sign-out.ts).

const draftSyncFailureOf = (error: unknown): DraftSyncFailure => (isInstallationInactive(error) ? "inactive" : "unreached");

/** The draft is stored this long after typing stops… */
export const DRAFT_DEBOUNCE_MS = 800;
/** …and at least this often while typing goes on. */
export const DRAFT_MAX_WAIT_MS = 2_000;

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
  const requestsInFlight = useRef(0);
  /** Whose text this is: the organization and user signed in when the editor opened (the app remounts for another, ADR 0025). */
  const typist = useRef(identityKey(currentCacheIdentity()));
  /**
   * Runs after the draft requests already queued, so a PUT and a DELETE never
   * cross; and only while the typist is still the one signed in: once another
   * user is, a request still queued (or the one sent as the editor closes)
   * would go with their token and store the previous user's text as theirs.
   * The text stays in this tab's copy, under its typist (session-draft.ts).
   */
  const queueDraftRequest = useCallback((request: () => Promise<void>) => {
    requestsInFlight.current += 1;
    draftChain.current = draftChain.current
      .then(() => (identityKey(currentCacheIdentity()) === typist.current ? request() : undefined))
      .catch(() => undefined)
      .finally(() => {
        requestsInFlight.current -= 1;
      });
  }, []);
  const maxWaitTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const putDraft = useCallback(
    async (body: NoteDraftPutRequest, revision: number) => {
      try {
        const answer = await saveNoteDraft(noteId, body);
        if (isSessionCopyAcknowledged(latest.current, revision)) removeSessionDraft(noteId);
        queryClient.setQueryData(noteDraftQuery(noteId).queryKey, answer);
        dispatch({ type: "draftStored", where: "bff", revision, stored: body.fields });
      } catch (error) {
        dispatch(writeSessionDraft(noteId, body) ? { type: "draftStored", where: "session", revision, cause: draftSyncFailureOf(error) } : { type: "draftSyncFailed", cause: draftSyncFailureOf(error) });
      }
    },
    [noteId, queryClient, latest, dispatch],
  );

  const syncDraft = useCallback(() => {
    clearTimeout(maxWaitTimer.current);
    maxWaitTimer.current = undefined;
    queueDraftRequest(async () => {
      const current = latest.current;
      if (needsDraftRelease(current)) {
        removeSessionDraft(noteId);
        const release = draftReleaseOf(current);
        try {
          if (release !== null) queryClient.setQueryData(noteDraftQuery(noteId).queryKey, await saveNoteDraft(noteId, release));
          dispatch({ type: "draftCleared" });
        } catch (error) {
          dispatch({ type: "draftSyncFailed", cause: draftSyncFailureOf(error) });
        }
        return;
      }
      const offered = offeredDraftToKeep(current);
      if (offered !== null) {
        try {
          const answer = await saveNoteDraft(noteId, offered);
          if (isSessionCopyAcknowledged(latest.current, current.draftRevision)) removeSessionDraft(noteId);
          queryClient.setQueryData(noteDraftQuery(noteId).queryKey, answer);
          dispatch({ type: "draftStored", where: "bff", revision: current.draftRevision, stored: offered.fields });
        } catch (error) {
          dispatch({ type: "draftSyncFailed", cause: draftSyncFailureOf(error) });
        }
        return;
      }
      const body = needsDraftPut(current) ? draftBodyOf(current) : null;
      if (body !== null) await putDraft(body, current.draftRevision);
    });
  }, [noteId, queryClient, queueDraftRequest, putDraft, latest, dispatch]);

  // This tab's copy, written in the same commit as the keystroke: a reload a moment later finds it.
  const sessionCopy = sessionCopyOf(state);
  useLayoutEffect(() => {
    if (sessionCopy === null) return;
    writeSessionDraft(noteId, sessionCopy);
    prepareWriteWhileLeaving();
    // Written once per change of the draft's content, not on every render.
  }, [noteId, state.draftRevision, sessionCopy !== null]);

  const wantsPut = needsDraftPut(state);
  const wantsRelease = needsDraftRelease(state);
  const wantsOfferKept = offeredDraftToKeep(state) !== null;
  useEffect(() => {
    if (!wantsPut) return;
    const debounce = setTimeout(syncDraft, DRAFT_DEBOUNCE_MS);
    maxWaitTimer.current ??= setTimeout(syncDraft, DRAFT_MAX_WAIT_MS);
    return () => clearTimeout(debounce);
  }, [state.draftRevision, wantsPut, syncDraft]);
  useEffect(() => {
    if (wantsRelease || wantsOfferKept) syncDraft();
  }, [wantsRelease, wantsOfferKept, syncDraft]);
  useEffect(() => {
    if (state.draftStore.failures === 0 || (!wantsPut && !wantsRelease && !wantsOfferKept)) return;
    const retry = setTimeout(syncDraft, tandemRetryDelayMs(state.draftStore.failures));
    return () => clearTimeout(retry);
  }, [state.draftStore.failures, wantsPut, wantsRelease, wantsOfferKept, syncDraft]);

  // Signing out (outside the EHR): the text goes to the BFF now, while the session can still store it.
  useEffect(
    () =>
      finishBeforeSignOut(() => {
        syncDraft();
        return draftChain.current;
      }),
    [syncDraft],
  );

  // Tandem's server may be back: try at once rather than at the next backoff step. Back but refusing because
  // Tandem is not active (another call was refused so): a draft that last found it unreachable tries once, to
  // learn so and say so; it then waits for Tandem to answer.
  useEffect(() => {
    const tryNow = () => {
      if (latest.current.draftStore.failures > 0 && requestsInFlight.current === 0) syncDraft();
    };
    const whenShown = () => {
      if (document.visibilityState === "visible") tryNow();
    };
    const stopListening = onBffAnswered(tryNow);
    const stopListeningForRefusals = onTandemInactive(() => {
      if (latest.current.draftStore.lastFailure === "unreached") tryNow();
    });
    window.addEventListener("online", tryNow);
    document.addEventListener("visibilitychange", whenShown);
    return () => {
      stopListening();
      stopListeningForRefusals();
      window.removeEventListener("online", tryNow);
      document.removeEventListener("visibilitychange", whenShown);
    };
  }, [latest, syncDraft]);

  // Leaving: the text not yet in the BFF goes there (fire-and-forget); a closing page keeps it in this tab too.
  useEffect(() => {
    const keepInTab = () => {
      const body = sessionCopyOf(latest.current);
      if (body === null) return;
      writeSessionDraft(noteId, body);
      saveNoteDraftWhileLeaving(noteId, body);
    };
    window.addEventListener("pagehide", keepInTab);
    return () => {
      window.removeEventListener("pagehide", keepInTab);
      clearTimeout(maxWaitTimer.current);
      maxWaitTimer.current = undefined;
      const body = sessionCopyOf(latest.current);
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
