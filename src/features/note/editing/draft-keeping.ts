import type { NoteDraftPutRequest } from "#contract/app-api/note.ts";
import { draftBodyOf, needsDraftPut, type EditorState } from "./editor-state.ts";

// When this tab's copy of the draft is written and when it may go (issue 35,
// ADR 0008): the text is in sessionStorage from the keystroke until the BFF
// has acknowledged a draft holding it, so neither a reload a moment after
// typing nor Tandem's server restarting loses a word. How soon a draft or a
// save that met Tandem's server down is tried again: bff-reachability.ts.

/** The copy this tab must hold now: the typed text the BFF has not acknowledged; null when there is none. */
export function sessionCopyOf(state: EditorState): NoteDraftPutRequest | null {
  return needsDraftPut(state) ? draftBodyOf(state) : null;
}

/**
 * The BFF answered a draft PUT (or the PUT of a draft found on open) sent at `sentRevision`: the tab's copy may
 * go only when nothing was typed since, since the copy then holds text the BFF does not have.
 */
export function isSessionCopyAcknowledged(state: EditorState, sentRevision: number): boolean {
  return state.draftRevision === sentRevision;
}
