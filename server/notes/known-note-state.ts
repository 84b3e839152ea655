import { SIGNED_NOTE_STATUS, type Note } from "#contract/clinic-api/note.ts";
import type { NoteStateRecord } from "../store/store.ts";

// The service's mirror lags the EHR (seed 000: "some fields can lag"): a note
// signed in the EHR still reads `awaiting_sign` until the next sync, while a
// write to it is already refused. What the service has once said (a refusal
// as signed, or a read saying signed) is recorded and laid over every later
// read, so Tandem never shows a signed note as editable again.

/** The note as Tandem knows it: signed when the service has said so, whatever this read says. */
export function withKnownState(note: Note, known: NoteStateRecord | null): Note {
  if (known === null || note.status === SIGNED_NOTE_STATUS) return note;
  return { ...note, status: SIGNED_NOTE_STATUS };
}

export const isSignedNote = (note: Pick<Note, "status">): boolean => note.status === SIGNED_NOTE_STATUS;
