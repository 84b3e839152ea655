import { usePrefetchQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { Note } from "#contract/clinic-api/note.ts";
import { noteChangesQuery, recordNoteView } from "#src/api/note-changes-queries.ts";
import { noteQuery } from "#src/api/note-queries.ts";

// What changed since the user last looked, and recording that they have
// looked now. The view is recorded only once the comparison has come back
// and the note on screen is the one it was made with: a comparison that
// failed leaves the last view as it was, so what changed is still shown next
// time. After that, the view follows the note on screen (the user's own
// saves, a change read while they look), so what they have seen here is not
// reported to them again.

/** Asks what changed as soon as the note is asked for, so the panel is not a round trip behind the note. */
export function usePrefetchNoteChanges(noteId: string): void {
  usePrefetchQuery(noteChangesQuery(noteId));
}

export function useNoteChanges(noteId: string, note: Note) {
  const queryClient = useQueryClient();
  const changes = useQuery(noteChangesQuery(noteId));
  const recordedFor = useRef<string | null>(null);
  const comparedWith = changes.data?.noteUpdatedAt;
  const shownUpdatedAt = note.updatedAt;
  const { refetch } = changes;

  useEffect(() => {
    if (comparedWith === undefined) return;
    if (recordedFor.current === null && comparedWith !== shownUpdatedAt) {
      // Two reads a moment apart saw two versions: bring the older one up to date first. The
      // service's text timestamps have one fixed format, so they compare as text.
      if (comparedWith > shownUpdatedAt) void queryClient.invalidateQueries({ queryKey: noteQuery(noteId).queryKey, exact: true });
      else void refetch();
      return;
    }
    if (recordedFor.current === shownUpdatedAt) return;
    recordedFor.current = shownUpdatedAt;
    // A view that could not be recorded is not retried until the note changes: the next opening shows these changes again.
    recordNoteView(noteId, note).catch(() => undefined);
  }, [comparedWith, shownUpdatedAt, note, noteId, queryClient, refetch]);

  return changes;
}
