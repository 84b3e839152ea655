import { noteDraft, type NoteDraftBody, type NoteDraftPutRequest } from "#contract/app-api/note.ts";
import { tabCopies } from "#src/api/kept-drafts.ts";

// This tab's copy of a note's draft, kept from the keystroke until the BFF
// has the text (ADR 0008, issue 35): sessionStorage only, never localStorage,
// since it holds patient data; and which of the two copies to offer on open.

// Kept under the organization and user who typed it (ADR 0025): on a shared
// workstation, the next user to open the same note in this tab is never
// offered the previous one's text.
const copies = tabCopies<NoteDraftBody>("note-draft", noteDraft);

export const readSessionDraft = (noteId: string): NoteDraftBody | null => copies.read(noteId);

export function writeSessionDraft(noteId: string, body: NoteDraftPutRequest): boolean {
  // The copy keeps the text only; what the PUT releases is for the BFF.
  return copies.write(noteId, { fields: body.fields, baseline: body.baseline, noteVersion: body.noteVersion, updatedAt: new Date().toISOString() });
}

/**
 * Whether this tab can keep a copy at all: a browser that blocks a cross-site
 * frame's storage (third-party storage blocked, as this Chromium does by
 * default) denies sessionStorage to the app inside the EHR.
 */
export function canKeepInTab(): boolean {
  try {
    const probe = "tandem.storage-probe";
    window.sessionStorage.setItem(probe, "1");
    window.sessionStorage.removeItem(probe);
    return true;
  } catch {
    return false;
  }
}

export const removeSessionDraft = (noteId: string): void => copies.remove(noteId);

/**
 * The draft to offer on open: this tab's copy when there is one, else the BFF's. The copy is kept from the
 * keystroke until the BFF acknowledges a draft holding it (draft-keeping.ts), so one still here holds text the
 * BFF may lack. Never chosen by `updatedAt`: the copy's stamp is the browser's clock and the BFF's its own, and
 * comparing the two lost text typed just before a reload (issue 35 item 2).
 */
export function pickDraft(fromBff: NoteDraftBody | null, fromSession: NoteDraftBody | null): { draft: NoteDraftBody | null; where: "bff" | "session" | null } {
  if (fromSession) return { draft: fromSession, where: "session" };
  return fromBff ? { draft: fromBff, where: "bff" } : { draft: null, where: null };
}
