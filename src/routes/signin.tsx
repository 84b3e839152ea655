import { createFileRoute, Navigate } from "@tanstack/react-router";

// Where a standalone sign-in that failed lands (/signin?error=…). The sign-in
// gate shows the page while nobody is signed in; once signed in, it leads on.
export const Route = createFileRoute("/signin")({
  component: () => <Navigate to="/" replace />,
});
