import type { NoteConflictDetails, NotePatchRequest, WritableFieldValues } from "#contract/app-api/note.ts";
import { SIGNED_NOTE_STATUS, WRITABLE_NOTE_FIELDS, writableValues, type Note, type NotePatchBody, type WritableNoteField } from "#contract/clinic-api/note.ts";
import type { NoteDraft } from "../store/store.ts";

// The rules of a note change (DESIGN.md "Rules"), kept free of I/O: which
// fields a request changes, whether its baseline still holds against the
// note as re-read, and what is left of a draft once the service confirmed.

export interface PlannedNoteChange {
  /** Exactly the fields the request names: the upstream PATCH changes only those. */
  upstreamBody: NotePatchBody;
  changedFields: WritableNoteField[];
  baseline: WritableFieldValues;
}

/** The change a request asks for, or a message naming what is wrong with it. */
export function planNoteChange(request: NotePatchRequest): PlannedNoteChange | { error: string } {
  const upstreamBody: NotePatchBody = {};
  const changedFields: WritableNoteField[] = [];
  for (const field of WRITABLE_NOTE_FIELDS) {
    const value = request[field];
    if (value === undefined) continue;
    upstreamBody[field] = value;
    changedFields.push(field);
  }
  if (changedFields.length === 0) return { error: `body: name at least one field to change (${WRITABLE_NOTE_FIELDS.join(", ")})` };
  const baseline = request.baseline ?? {};
  for (const field of WRITABLE_NOTE_FIELDS) {
    if (baseline[field] !== undefined && !changedFields.includes(field)) return { error: `baseline.${field}: a baseline is only for a field being changed` };
  }
  return { upstreamBody, changedFields, baseline };
}

/** Why the re-read note refuses the change, or null when it may go ahead. */
export function conflictWith(note: Note, change: PlannedNoteChange): NoteConflictDetails | null {
  const current = writableValues(note);
  const details = (reason: NoteConflictDetails["reason"], conflictingFields: WritableNoteField[]): NoteConflictDetails => ({
    reason,
    current,
    conflictingFields,
    noteStatus: note.status,
    noteVersion: note.version,
  });
  if (note.status === SIGNED_NOTE_STATUS) return details("note_signed", []);
  // A field that already holds the text being written overwrites no one's (the user's own save that got no answer in time and went through, say).
  const stale = change.changedFields.filter((field) => change.baseline[field] !== undefined && change.baseline[field] !== current[field] && change.upstreamBody[field] !== current[field]);
  return stale.length > 0 ? details("stale_baseline", stale) : null;
}

/** The signed-note refusal for a note the service refused as signed (its mirror may not say so yet). */
export function signedConflict(note: Note): NoteConflictDetails {
  return { reason: "note_signed", current: writableValues(note), conflictingFields: [], noteStatus: SIGNED_NOTE_STATUS, noteVersion: note.version };
}

/**
 * What is left of a draft once the service saved `saved`: a field the draft
 * holds with exactly the saved text is done; newer text typed since stays,
 * now starting from the saved text.
 * Null when nothing is left.
 */
export function draftAfterSave(draft: NoteDraft, saved: NotePatchBody, now: number): NoteDraft | null {
  const fields = { ...draft.fields };
  const baseline = { ...draft.baseline };
  for (const field of WRITABLE_NOTE_FIELDS) {
    const value = saved[field];
    if (value === undefined || fields[field] === undefined) continue;
    if (fields[field] === value) {
      delete fields[field];
      delete baseline[field];
    } else {
      // Typed on since: that text now starts from what was saved.
      baseline[field] = value;
    }
  }
  if (Object.keys(fields).length === 0) return null;
  return { ...draft, fields, baseline, updatedAt: now };
}
