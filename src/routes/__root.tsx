import { useQuery, type QueryClient } from "@tanstack/react-query";
import { createRootRouteWithContext, Outlet } from "@tanstack/react-router";
import { canUseWaitlist } from "#contract/app-api/waitlist.ts";
import { sessionQuery } from "../api/session-query.ts";
import { useBridge } from "../bridge/bridge-provider.tsx";
import { ApiError } from "../api/bff-client.ts";
import { Notice } from "../components/ui/notice.tsx";
import { signInUrl } from "../features/standalone/standalone-queries.ts";
import { AppHeader } from "../components/shell/app-header.tsx";
import { ApiErrorNotice } from "../components/shell/api-error-notice.tsx";
import { CurrentFacilityProvider } from "../components/shell/current-facility.tsx";
import { lazyPart } from "../components/shell/lazy-part.tsx";
import { MainNav } from "../components/shell/main-nav.tsx";
import { PatientBanner } from "../components/shell/patient-banner.tsx";
import { PagePlaceholder } from "../components/ui/skeleton.tsx";
import { HoldsProvider } from "../scheduling/holds-provider.tsx";
import type { AppLink } from "../bridge/app-link.ts";

// Neither is needed for the first paint (the bar shows once the user holds or picks a slot, the alert once an
// offer arrives): their code loads as the shell first renders, not before it (DESIGN.md's bundle budget).
const WaitlistOffersAlert = lazyPart("waitlist offers", () => import("../features/waitlist/waitlist-offers-alert.tsx").then((module) => module.WaitlistOffersAlert));
const HoldsBar = lazyPart("your holds", () => import("../features/holds/holds-bar.tsx").then((module) => module.HoldsBar), { failureClassName: "sticky bottom-0 z-20 p-2" });

/** What every route's beforeLoad and loader are given. */
export interface RouterContext {
  queryClient: QueryClient;
  /** How the user signed in: in the EHR, or outside it (a standalone sign-in); null only before anyone is (no loader runs then). */
  appMode: AppLink["mode"] | null;
}

// The identity (the EHR's handshake, or the standalone sign-in) is established
// before the router renders or loads anything (main.tsx, AppConnection), so
// every route's loader can read the BFF; this layout is the signed-in shell.
export const Route = createRootRouteWithContext<RouterContext>()({
  component: SessionShell,
});

function SessionShell() {
  const { context, bridge } = useBridge();
  const session = useQuery(sessionQuery());
  if (session.isPending) {
    return <PagePlaceholder label="Loading your session…" className="p-3" />;
  }
  if (session.isError && bridge.mode === "standalone" && session.error instanceof ApiError && session.error.status === 401) {
    // The sign-in's session cookie expired or was signed out elsewhere.
    return (
      <main className="mx-auto max-w-xl p-4">
        <Notice tone="warning" title="Your sign-in has ended" actions={<a href={signInUrl(`${window.location.pathname}${window.location.search}`)} className="inline-flex min-h-9 items-center rounded-md bg-brand-700 px-4 text-sm font-medium text-white hover:bg-brand-800">Sign in again</a>}>
          Sign-ins last 8 hours. Sign in again to carry on.
        </Notice>
      </main>
    );
  }
  // A failed re-read of a session already known (Tandem's server restarting) keeps the app, and any note being typed, in place.
  if (session.data === undefined) {
    return (
      <main className="mx-auto max-w-xl p-4">
        <ApiErrorNotice
          error={session.error}
          onRetry={() => {
            void bridge
              .freshToken()
              .catch(() => undefined)
              .then(() => session.refetch());
          }}
        />
      </main>
    );
  }
  // The session read again and refused (the organization uninstalled or suspended Tandem while it was open): said above
  // the view (an alert, so announced), which stays with whatever is typed in it; each save, check or hold refused says
  // it again where it happened. Not sticky: the note's save bar holds the top of the frame. The live events read the
  // session again until Tandem is active again.
  const refusedNow = session.isError && session.error instanceof ApiError && session.error.status === 403 ? session.error : null;
  return (
    <CurrentFacilityProvider key={session.data.context.facilityId ?? "none"} facilities={session.data.facilities} initialId={session.data.context.facilityId}>
      <div className="flex min-h-full flex-col">
        <AppHeader session={session.data} organizationName={context.organizationName} />
        <PatientBanner session={session.data} />
        <MainNav session={session.data} />
        <HoldsProvider>
          <main className="min-w-0 flex-1 p-3">
            {refusedNow ? (
              <div className="mb-3" data-testid="session-refused">
                <ApiErrorNotice error={refusedNow} />
              </div>
            ) : null}
            {/* In the page's flow above the view: a waitlist offer shows whatever view is open, and never covers it. Its code is not fetched for a role without the waitlist. */}
            {canUseWaitlist(session.data.user.roles) ? <WaitlistOffersAlert session={session.data} /> : null}
            <Outlet />
          </main>
          <HoldsBar />
        </HoldsProvider>
      </div>
    </CurrentFacilityProvider>
  );
}
