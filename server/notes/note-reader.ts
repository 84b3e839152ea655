import type { Note } from "#contract/clinic-api/note.ts";
import type { ClinicClient } from "../clinic/clinic-client.ts";
import type { NoteStateRecord, NoteStateRepository } from "../store/store.ts";
import { isSignedNote, withKnownState } from "./known-note-state.ts";

// Every read of a note goes through here: the service's answer with what
// Tandem already knows of the note's state laid over it, and a signature the
// read shows recorded (docs/decisions/0014-a-signed-note-stays-signed.md).

export interface NoteReader {
  /** The note as Tandem knows it (never cached). */
  read: (organizationId: string, noteId: string) => Promise<Note>;
  /** Remembers that the service said the note is signed; `onLearnedSigned` runs the first time only. */
  learnSigned: (organizationId: string, noteId: string, source: NoteStateRecord["source"]) => Promise<void>;
  isKnownSigned: (organizationId: string, noteId: string) => Promise<boolean>;
}

export function createNoteReader(deps: { clinic: ClinicClient; noteStates: NoteStateRepository; now: () => number; onLearnedSigned?: (organizationId: string, noteId: string) => void }): NoteReader {
  const learnSigned = async (organizationId: string, noteId: string, source: NoteStateRecord["source"]) => {
    // One statement decides whether this is news: the insert that did not conflict.
    if (await deps.noteStates.recordSigned(organizationId, noteId, source, deps.now())) deps.onLearnedSigned?.(organizationId, noteId);
  };
  return {
    read: async (organizationId, noteId) => {
      const [read, known] = await Promise.all([deps.clinic.read("GET /v1/notes/{noteId}", { organizationId, params: { noteId } }).then((answer) => answer.data()), deps.noteStates.get(organizationId, noteId)]);
      if (known === null && isSignedNote(read)) await learnSigned(organizationId, noteId, "read");
      return withKnownState(read, known);
    },
    learnSigned,
    isKnownSigned: async (organizationId, noteId) => (await deps.noteStates.get(organizationId, noteId)) !== null,
  };
}
