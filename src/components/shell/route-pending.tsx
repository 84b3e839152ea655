import { Skeleton } from "../ui/skeleton.tsx";

/**
 * A view whose route is still reading what it needs (its beforeLoad or loader: the session, the user's last
 * search, the pickers' lists), past the router's pendingMs: a busy placeholder where the view will be, under the
 * shell, instead of an empty frame while a slow EHR answers. Routes with a placeholder of their own (the note,
 * the waitlist) show theirs.
 */
export function RoutePending() {
  return (
    <div aria-busy="true" data-testid="route-loading" className="space-y-3 p-3">
      <p className="sr-only">Loading…</p>
      <Skeleton className="h-10 w-full" />
      <Skeleton className="h-6 w-2/3" />
      <Skeleton className="h-40 w-full" />
    </div>
  );
}
