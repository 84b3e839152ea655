import { RouteErrorNotice } from "#src/components/shell/route-error-notice.tsx";
import { Skeleton } from "#src/components/ui/skeleton.tsx";

// What the /note route shows while its loader reads the note, and when it
// could not: kept apart from the view so the router's own chunk stays small
// (only `component` is split out of a route file; DESIGN.md's bundle budget).

/** The route's pending view: the note is being read. */
export function NotePending() {
  return (
    <div aria-busy="true" className="space-y-3" data-testid="note-view" data-state="loading">
      <p className="sr-only">Loading the note…</p>
      <Skeleton className="h-20 w-full" />
      <Skeleton className="h-10 w-2/3" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

/** The route's error view: the note could not be read. */
export function NoteError({ error }: { error: unknown }) {
  return (
    <div data-testid="note-view" data-state="error">
      <RouteErrorNotice error={error} />
    </div>
  );
}
