import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState, type Dispatch } from "react";
import { ApiError } from "#src/api/bff-client.ts";
import { onBffAnswered, onTandemInactive, tandemRetryDelayMs } from "#src/api/bff-reachability.ts";
import { isInstallationInactive } from "#src/api/failing-system.ts";
import { isSystemFailure, markNoteSigned, noteConflictOf, noteQuery, patchNote, saveFailureReasonOf } from "#src/api/note-queries.ts";
import { describeApiError } from "#src/components/shell/api-error-notice.tsx";
import { tellOtherTabsOfSave } from "../changes/saved-in-another-tab.ts";
import { canAutosave, needsDraftPut, offeredDraftToKeep, RESENT_FAILURES, saveRequestOf, saveRetryDelayMs, saveWaitingForTandem, sentValuesOf, serverNoteOf, type EditorAction, type EditorState } from "./editor-state.ts";

// Saving the note to the EHR (ADR 0008): autosave a little after typing
// stops, explicit Save (queued behind one in flight), and each answer fed to
// the state machine; a `note_signed` conflict marks the note signed. A save
// that failed is not retried by itself (typing again or Retry sends it),
// except one that met Tandem's server restarting or unreachable (issue 35):
// it goes again once the server answers (after the draft, so the text is in
// the draft store first) or on a short backoff, with the same baselines, so
// the BFF's conflict check applies as for any save; one that met Tandem not
// active for the organization, once the server answers again (reinstalled:
// while it is not, every call is refused, so none answers); one turned away as
// busy (429, not processed), once the service's Retry-After has passed; and one
// the EHR or the service failed or did not confirm, after 5, 15 and 45 s (then
// Retry), as sending the same text again is harmless.

/** The EHR is written this long after typing stops. */
export const AUTOSAVE_DEBOUNCE_MS = 3_000;

/** A save the EHR or the service failed or did not confirm is sent again after these waits, one per failure in a row. */
export const RESEND_WAITS_SECONDS = [5, 15, 45] as const;

interface NoteSaveInput {
  noteId: string;
  state: EditorState;
  /** The last committed state: a save sends what is on screen when it runs. */
  latest: { readonly current: EditorState };
  dispatch: Dispatch<EditorAction>;
  /** Stores the draft now (a failed save's text must outlive a reload). */
  syncDraft: () => void;
}

/** Runs autosave; returns the explicit Save (also Retry). */
export function useNoteSave({ noteId, state, latest, dispatch, syncDraft }: NoteSaveInput): () => void {
  const queryClient = useQueryClient();
  const saving = useRef(false);
  /** An explicit Save pressed while a save was in flight: run once that one is confirmed. */
  const saveQueued = useRef(false);
  /** The `changeRevision` last sent: autosave never re-sends the same text after a failure. */
  const attemptedRevision = useRef(-1);
  const autosaveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** Saves in a row that met Tandem's server down: the backoff's step. */
  const tandemFailures = useRef(0);
  /** Resends given a wait since the user last saved or typed: the step in RESEND_WAITS_SECONDS. */
  const resends = useRef(0);
  /** Successful answers of the BFF seen while a save waited for it, and how many of them a re-sent save followed. */
  const [tandemAnswers, setTandemAnswers] = useState(0);
  const resentForAnswers = useRef(0);

  const runSave = useCallback(
    /** `resend`: a failed save sent again by itself (not the user's Save, nor autosave after typing). */
    async (trigger: "auto" | "explicit" | "resend") => {
      const current = latest.current;
      if (saving.current) {
        if (trigger === "explicit") saveQueued.current = true;
        return;
      }
      if (trigger !== "resend") resends.current = 0;
      if (trigger === "auto" && current.changeRevision === attemptedRevision.current) return;
      const request = saveRequestOf(current);
      if (request === null) return;
      clearTimeout(autosaveTimer.current);
      saving.current = true;
      attemptedRevision.current = current.changeRevision;
      dispatch({ type: "saveStarted", sent: sentValuesOf(request) });
      tellOtherTabsOfSave(noteId, sentValuesOf(request));
      try {
        const { note: saved } = await patchNote(noteId, request);
        tandemFailures.current = 0;
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
        } else if (isSystemFailure(error) || isInstallationInactive(error)) {
          const reason = saveFailureReasonOf(error);
          tandemFailures.current = reason === "restarting" || reason === "unreached" ? tandemFailures.current + 1 : 0;
          let retryAfterSeconds = error instanceof ApiError ? error.body.retry_after_seconds : undefined;
          if (RESENT_FAILURES.has(reason)) {
            // Sent again after the next wait while tries are left, never sooner than the answer asked.
            const resendWait = RESEND_WAITS_SECONDS[resends.current++];
            retryAfterSeconds = resendWait && Math.max(resendWait, retryAfterSeconds ?? 0);
          }
          dispatch({ type: "saveFailed", failure: { kind: "system", reason, retryAfterSeconds } });
        } else {
          const { title, canRetry } = describeApiError(error);
          dispatch({ type: "saveFailed", failure: { kind: "other", message: title, canRetry } });
        }
      } finally {
        saving.current = false;
      }
    },
    [noteId, queryClient, syncDraft, latest, dispatch],
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

  // A save that met Tandem's server down goes again by itself: at once when the BFF answers any call, else on the
  // backoff (Tandem inactive: only when it answers); never before the draft is in the BFF (or the draft found on
  // open is), so the text is there first. The BFF back but refusing because Tandem is not active: a save waiting
  // for it to be reachable goes once, to learn so (the draft's own try tells it too: editor-state.ts).
  const waitingForTandem = saveWaitingForTandem(state);
  const draftSettled = !needsDraftPut(state) && offeredDraftToKeep(state) === null;
  useEffect(() => {
    const stopListening = onBffAnswered(() => {
      if (saveWaitingForTandem(latest.current) !== null) setTandemAnswers((count) => count + 1);
    });
    const stopListeningForRefusals = onTandemInactive(() => {
      if (saveWaitingForTandem(latest.current) === "down") setTandemAnswers((count) => count + 1);
    });
    return () => {
      stopListening();
      stopListeningForRefusals();
    };
  }, [latest]);
  useEffect(() => {
    if (waitingForTandem === null || !draftSettled) return;
    if (tandemAnswers > resentForAnswers.current) {
      resentForAnswers.current = tandemAnswers;
      void runSave("explicit");
      return;
    }
    if (waitingForTandem === "inactive") return;
    const retry = setTimeout(() => void runSave("explicit"), tandemRetryDelayMs(tandemFailures.current));
    return () => clearTimeout(retry);
  }, [waitingForTandem, draftSettled, tandemAnswers, runSave]);

  // A save the service turned away as busy goes again once its Retry-After has passed (each refusal its own wait);
  // one the EHR or the service failed or did not confirm, after its wait while tries are left.
  const retryMs = saveRetryDelayMs(state);
  useEffect(() => {
    if (retryMs === null) return;
    const retry = setTimeout(() => void runSave("resend"), retryMs);
    return () => clearTimeout(retry);
  }, [state.save, retryMs, runSave]);

  return useCallback(() => void runSave("explicit"), [runSave]);
}
