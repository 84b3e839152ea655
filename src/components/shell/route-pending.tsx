import { PagePlaceholder } from "../ui/skeleton.tsx";

/**
 * A view whose route is still reading what it needs (its beforeLoad or loader: the session, the user's last
 * search, the pickers' lists), past the router's pendingMs: a busy placeholder where the view will be, under the
 * shell, instead of an empty frame while a slow EHR answers. Routes with a placeholder of their own (the note,
 * the waitlist) show theirs.
 */
export function RoutePending() {
  return (
    <PagePlaceholder label="Loading…" testId="route-loading" className="p-3" />
  );
}
