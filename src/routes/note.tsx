import { createFileRoute } from "@tanstack/react-router";
import { NoteView } from "../features/note/note-view.tsx";

// Thin (STYLE.md 6): the note comes from the verified session's context, not
// the URL; the view, split into its own chunk, does the rest (src/features/note/).
export const Route = createFileRoute("/note")({
  component: NoteView,
});
