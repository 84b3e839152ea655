import type { ReactNode } from "react";
import { RouteErrorNotice } from "#src/components/shell/route-error-notice.tsx";
import { Skeleton } from "#src/components/ui/skeleton.tsx";

// What the /waitlist route shows while its loader reads the list, and when it
// could not: kept apart from the view so the router's own chunk stays small
// (only `component` is split out of a route file; DESIGN.md's bundle budget).

/** The route's pending view: the list is being read. */
export function WaitlistPending() {
  return (
    <WaitlistFrame>
      <div aria-busy="true" data-testid="waitlist-loading" className="space-y-2">
        <p className="sr-only">Loading the waitlist…</p>
        {Array.from({ length: 3 }, (_, index) => (
          <Skeleton key={index} className="h-24 w-full" />
        ))}
      </div>
    </WaitlistFrame>
  );
}

/** The route's error view: the list could not be read. */
export function WaitlistError({ error }: { error: unknown }) {
  return (
    <WaitlistFrame>
      <RouteErrorNotice error={error} />
    </WaitlistFrame>
  );
}

export function WaitlistFrame({ children, count }: { children: ReactNode; count?: number }) {
  return (
    <section aria-labelledby="waitlist-title" className="mx-auto max-w-6xl min-w-0 space-y-3">
      <h1 id="waitlist-title" className="text-lg font-semibold">
        Waitlist{count === undefined ? null : <span className="ml-2 text-sm font-normal text-slate-700">{count === 1 ? "1 patient waiting" : `${count} patients waiting`}</span>}
      </h1>
      {children}
    </section>
  );
}
