import { createMemoryHistory, createRootRouteWithContext, createRouter, Outlet, RouterProvider, type AnyRoute } from "@tanstack/react-router";
import type { HostContext } from "#contract/bridge/messages.ts";
import type { AppLink } from "#src/bridge/app-link.ts";
import { LinkProvider } from "#src/bridge/bridge-provider.tsx";
import { RouteErrorNotice } from "#src/components/shell/route-error-notice.tsx";
import type { RouterContext } from "#src/routes/__root.tsx";
import { standaloneLink } from "./fake-bff.ts";
import { renderWithUser, testQueryClient, type Rendered } from "./render.tsx";

// A route of src/routes/ rendered by TanStack Router itself, under a bare
// root (no shell): its loader, pending, error and view components run as in
// the app, against the fake BFF (fake-bff.ts), inside a link of the mode
// asked for (as AppConnection provides it). For tests of what a route shows
// before, while and after its loader reads.

const HOST_CONTEXT: HostContext = { organizationName: "Riverside Health", patientId: null, noteId: null, appointmentId: null, facilityId: null };

export interface RouteOptions {
  /** The address opened, with its search ("/note?noteId=…"). */
  url: string;
  appMode?: AppLink["mode"];
  queryClient?: ReturnType<typeof testQueryClient>;
}

/** A router of `route` alone (a file route's `Route`, not yet in a tree) at `url`: `router.load()` runs its loader without drawing anything. */
export function routerOf(route: AnyRoute, { url, appMode = "embedded", queryClient = testQueryClient() }: RouteOptions) {
  const root = createRootRouteWithContext<RouterContext>()({ component: Outlet });
  const path = new URL(url, "http://tandem.test").pathname;
  // As the generated route tree attaches each file route for the app (routeTree.gen.ts), here to a tree of one.
  route.update({ id: path, path, getParentRoute: () => root } as Parameters<AnyRoute["update"]>[0]);
  return createRouter({
    routeTree: root.addChildren([route]),
    history: createMemoryHistory({ initialEntries: [url] }),
    context: { queryClient, appMode },
    // The pending view at once, as in a first load: a test reads it without waiting a second.
    defaultPendingMs: 0,
    // As the app's router (main.tsx).
    defaultErrorComponent: RouteErrorNotice,
  });
}

/** Renders `route` at `url`, as routerOf builds it, inside a link of `appMode`; returns the router too. */
export function renderRoute(route: AnyRoute, options: RouteOptions): Rendered & { router: ReturnType<typeof routerOf> } {
  const queryClient = options.queryClient ?? testQueryClient();
  const appMode = options.appMode ?? "embedded";
  const router = routerOf(route, { ...options, queryClient, appMode });
  const link: AppLink = { ...standaloneLink, mode: appMode };
  const ui = (
    <LinkProvider link={link} context={HOST_CONTEXT}>
      <RouterProvider router={router} />
    </LinkProvider>
  );
  return { ...renderWithUser(ui, { queryClient }), router };
}
