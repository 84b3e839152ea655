import { createFileRoute } from "@tanstack/react-router";
import { NoteView } from "../features/note/note-view.tsx";

/** Outside the EHR there is no note in context: the note to open is named in the URL (`?noteId=`). Inside it, the token's note wins. */
function validateNoteSearch(search: Record<string, unknown>): { noteId?: string } {
  const noteId = search.noteId;
  return typeof noteId === "string" && /^[0-9a-f-]{36}$/i.test(noteId) ? { noteId: noteId.toLowerCase() } : {};
}

// Thin (STYLE.md 6): in the EHR the note comes from the verified session's
// context, not the URL; the view, split into its own chunk, does the rest
// (src/features/note/).
export const Route = createFileRoute("/note")({
  validateSearch: validateNoteSearch,
  component: NoteRoute,
});

function NoteRoute() {
  const { noteId } = Route.useSearch();
  return <NoteView standaloneNoteId={noteId ?? null} />;
}
