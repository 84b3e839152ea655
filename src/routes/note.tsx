import { createFileRoute } from "@tanstack/react-router";
import { NoteView } from "../features/note/note-view.tsx";
import { noteIdSearchValue, readNoteLink } from "../features/note/recent/note-link.ts";

// Thin (STYLE.md 6): in the EHR the note comes from the verified session's
// context, not the URL. Outside it, `?noteId=` names the note to open (the
// recent-notes list links there), checked when read: a value that is not a
// note id gets a message, never a crash. The view, split into its own chunk,
// does the rest (src/features/note/).
export const Route = createFileRoute("/note")({
  validateSearch: (search: Record<string, unknown>): { noteId?: string } => {
    const noteId = noteIdSearchValue(search.noteId);
    return noteId === undefined ? {} : { noteId };
  },
  component: NoteRoute,
});

function NoteRoute() {
  const { noteId } = Route.useSearch();
  return <NoteView standaloneLink={readNoteLink(noteId)} />;
}
