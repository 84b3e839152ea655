import { useQuery } from "@tanstack/react-query";
import { createFileRoute, Navigate } from "@tanstack/react-router";
import { sessionQuery } from "../api/session-query.ts";

// The first view: a clinician with a note open in the EHR lands on that note;
// everyone else on the slot finder. The shell renders routes only once the
// session is loaded.
export const Route = createFileRoute("/")({
  component: FirstView,
});

function FirstView() {
  const session = useQuery(sessionQuery());
  if (!session.data) return null;
  const hasNoteInView = session.data.capabilities.canEditNotes && session.data.context.noteId !== null;
  return <Navigate to={hasNoteInView ? "/note" : "/slots"} replace />;
}
