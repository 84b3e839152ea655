import { QueryClientProvider } from "@tanstack/react-query";
import { createRouter, RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { onCacheIdentityChange } from "./api/cache-identity.ts";
import { createAppQueryClient } from "./api/query-client.ts";
import { AppConnection } from "./bridge/app-connection.tsx";
import { RouteErrorNotice } from "./components/shell/route-error-notice.tsx";
import { RoutePending } from "./components/shell/route-pending.tsx";
import { useBridge } from "./bridge/bridge-provider.tsx";
import { adoptPageStyleNonce } from "./lib/page-style-nonce.ts";
import { registerShellWorker } from "./offline/register-shell-worker.ts";
import { routeTree } from "./routeTree.gen.ts";
import "./styles.css";

adoptPageStyleNonce();

const queryClient = createAppQueryClient();

/** TanStack Router's defaults: a navigation's placeholder after a second, and then for at least half a second. */
const NAVIGATION_PENDING_MS = 1000;
const NAVIGATION_PENDING_MIN_MS = 500;

// `appMode` is set by ConnectedRouter below, which renders only once someone is signed in. The first load draws its
// placeholder at once, under the header, where the connection's placeholder was: with TanStack's default wait the frame
// went blank for up to a second between the two (found timing a boot). Once a view is on screen, a navigation keeps it
// for that second, as TanStack does, so a quick one draws no placeholder.
const router = createRouter({ routeTree, context: { queryClient, appMode: null }, defaultPreload: "intent", defaultErrorComponent: RouteErrorNotice, defaultPendingComponent: RoutePending, defaultPendingMs: 0, defaultPendingMinMs: 0 });
const stopWatchingFirstLoad = router.subscribe("onResolved", () => {
  stopWatchingFirstLoad();
  router.update({ ...router.options, defaultPendingMs: NAVIGATION_PENDING_MS, defaultPendingMinMs: NAVIGATION_PENDING_MIN_MS });
});

// Another organization or user: the previous one's data is gone from the cache, and every loader runs again for
// the new one (the views remount for it, but the router does not load again by itself). The first identity needs
// nothing: the router loads as it first renders. Not from within the render that switched (the standalone gate's).
let hadIdentity = false;
onCacheIdentityChange((identity) => {
  if (identity === null) return;
  if (hadIdentity) queueMicrotask(() => void router.invalidate());
  hadIdentity = true;
});

/** The router, told how the user signed in: a loader opens the note the EHR's session names, or the one a standalone link names. */
function ConnectedRouter() {
  const { bridge } = useBridge();
  return <RouterProvider router={router} context={{ appMode: bridge.mode }} />;
}

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}

registerShellWorker();

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        {/* The identity first: the router renders, and its loaders read the BFF, only once someone is signed in. */}
        <AppConnection>
          <ConnectedRouter />
        </AppConnection>
      </QueryClientProvider>
    </StrictMode>,
  );
}
