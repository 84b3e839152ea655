import { useQuery } from "@tanstack/react-query";
import { createFileRoute, Navigate, redirect } from "@tanstack/react-router";
import type { Session } from "#contract/app-api/session.ts";
import { sessionQuery } from "../api/session-query.ts";

// The first view: a clinician with a note open in the EHR lands on that note;
// everyone else on the slot finder. Decided before anything renders, from the
// session (the identity is established before the router loads: main.tsx).
// A session that could not be read is the shell's to explain; once its retry
// reads it, the component leads on.
export const Route = createFileRoute("/")({
  beforeLoad: async ({ context: { queryClient } }) => {
    const session = await queryClient.ensureQueryData(sessionQuery()).catch(() => null);
    if (session !== null) redirect({ to: firstViewOf(session), replace: true, throw: true });
  },
  component: AfterSessionRetry,
});

function firstViewOf(session: Session): "/note" | "/slots" {
  return session.capabilities.canEditNotes && session.context.noteId !== null ? "/note" : "/slots";
}

function AfterSessionRetry() {
  const session = useQuery(sessionQuery());
  return session.data ? <Navigate to={firstViewOf(session.data)} replace /> : null;
}
