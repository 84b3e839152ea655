import type { ReactNode } from "react";
import { Skeleton } from "#src/components/ui/skeleton.tsx";

// What the standalone sign-in shows while it checks who is signed in, apart
// from the gate itself: the gate's code loads only outside the EHR, and this
// stands in while it does (app-connection.tsx).

export function StandaloneFrame({ children }: { children: ReactNode }) {
  return <main className="mx-auto max-w-xl space-y-4 p-4">{children}</main>;
}

export function CheckingSignIn() {
  return (
    <StandaloneFrame>
      <div aria-busy="true" className="space-y-3">
        <p className="sr-only">Checking your sign-in…</p>
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-24 w-full" />
      </div>
    </StandaloneFrame>
  );
}
