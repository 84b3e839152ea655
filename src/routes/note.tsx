import { createFileRoute } from "@tanstack/react-router";
import { loadAsCurrentIdentity } from "../api/load-as-identity.ts";
import { noteDraftQuery, noteQuery } from "../api/note-queries.ts";
import { sessionQuery } from "../api/session-query.ts";
import { NoteError, NotePending } from "../features/note/note-route-states.tsx";
import { NoteView } from "../features/note/note-view.tsx";
import { noteToOpen } from "../features/note/note-to-open.ts";
import { noteIdSearchValue, readNoteLink } from "../features/note/recent/note-link.ts";

// Thin (STYLE.md 6): in the EHR the note comes from the verified session's
// context, not the URL. Outside it, `?noteId=` names the note to open (the
// recent-notes list links there), checked when read: a value that is not a
// note id gets a message, never a crash. The view, split into its own chunk,
// does the rest (src/features/note/).
//
// The loader reads the note and its stored draft, with the same queryOptions
// the view reads them with, for the note the view opens (note-to-open.ts:
// the session says which, and how the user signed in, from the router's
// context); meanwhile, and when the note could not be read, the route's
// pending and error views stand in.
export const Route = createFileRoute("/note")({
  validateSearch: (search: Record<string, unknown>): { noteId?: string } => {
    const noteId = noteIdSearchValue(search.noteId);
    return noteId === undefined ? {} : { noteId };
  },
  loaderDeps: ({ search }) => ({ noteId: search.noteId }),
  loader: ({ context: { queryClient, appMode }, deps, preload }) =>
    loadAsCurrentIdentity(async () => {
      // A hover over the Note tab reads no patient data (an audited PHI read the user never asked for); opening it does.
      if (preload) return;
      // A session that could not be read is the shell's to explain; once its retry reads it, the view reads the note.
      const session = await queryClient.ensureQueryData(sessionQuery()).catch(() => null);
      if (session === null || appMode === null) return;
      const toOpen = noteToOpen(session, appMode, readNoteLink(deps.noteId));
      if (toOpen.kind !== "note") return;
      // A draft that could not be read is not offered (the view goes on without it); a note that could not be, is the route's error.
      await Promise.all([queryClient.ensureQueryData(noteQuery(toOpen.noteId)), queryClient.ensureQueryData(noteDraftQuery(toOpen.noteId)).catch(() => undefined)]);
    }),
  pendingComponent: NotePending,
  errorComponent: NoteError,
  component: NoteRoute,
});

function NoteRoute() {
  const { noteId } = Route.useSearch();
  return <NoteView standaloneLink={readNoteLink(noteId)} />;
}
