import { queryOptions } from "@tanstack/react-query";
import { noteChangesResponse, noteViewResponse, type NoteViewPutRequest } from "#contract/app-api/note-changes.ts";
import { writableValues, type Note } from "#contract/clinic-api/note.ts";
import { sectionDigestsOf } from "#contract/note/section-digests.ts";
import { callBff } from "./bff-client.ts";
import { queryKeys } from "./query-keys.ts";

// What changed in the note since this user last looked (GET
// /api/notes/:id/changes), and recording what they look at now (PUT
// /api/notes/:id/view). The comparison belongs to one opening of the note:
// asked for as the note is (in parallel with it), never refetched while it
// is open (the view is recorded right after, so a refetch would answer
// "nothing"), and dropped from the cache as soon as no view uses it, so the
// next opening asks afresh. (An answer that arrives before the panel is
// drawn is dropped too, and the panel asks again: a second read, never a
// stale one.)

const notePath = (noteId: string) => `/api/notes/${encodeURIComponent(noteId)}`;

export const noteChangesQuery = (noteId: string) =>
  queryOptions({
    queryKey: queryKeys.note.changes(noteId),
    queryFn: ({ signal }) => callBff(`${notePath(noteId)}/changes`, noteChangesResponse, { signal }),
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

/** The note as shown: its writable fields' text and a digest per section (the BFF keeps no copy of the rest). */
export async function noteViewOf(note: Note): Promise<NoteViewPutRequest> {
  return { noteUpdatedAt: note.updatedAt, fields: writableValues(note), sectionDigests: await sectionDigestsOf(note) };
}

export async function recordNoteView(noteId: string, note: Note) {
  return callBff(`${notePath(noteId)}/view`, noteViewResponse, { method: "PUT", body: await noteViewOf(note) });
}
