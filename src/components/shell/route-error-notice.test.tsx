// @vitest-environment happy-dom
import { queryOptions } from "@tanstack/react-query";
import { createRootRoute, createRootRouteWithContext, createRoute } from "@tanstack/react-router";
import { act, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { callBff } from "#src/api/bff-client.ts";
import { TANDEM_TROUBLE_REREAD_MS } from "#src/api/query-client.ts";
import { failure, installFakeBff, ok } from "#src/testing/fake-bff.ts";
import type { RouterContext } from "#src/routes/__root.tsx";
import { renderRoute } from "#src/testing/render-route.tsx";

// The router's error view for every route (main.tsx's defaultErrorComponent):
// a view that fails to draw says so in its place, as Tandem's own fault, with
// a reload, never the router's bare "Something went wrong!".

function routeDrawing(component: () => never) {
  return createRoute({ getParentRoute: () => createRootRoute(), path: "/broken", component });
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe("a view that fails to draw", () => {
  it("says Tandem stopped showing it, names Tandem as the system at fault, and offers a reload", async () => {
    // React reports the caught error on the console: expected here.
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const route = routeDrawing(() => {
      throw new RangeError('Invalid local date "": expected YYYY-MM-DD');
    });
    const { user } = renderRoute(route, { url: "/broken" });
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Tandem stopped showing this view");
    expect(alert.textContent).toContain("not in the EHR or the clinic data service");
    expect(alert.textContent).not.toContain("Invalid local date");
    expect(screen.queryByText(/Something went wrong/)).toBeNull();
    const reload = vi.fn();
    vi.spyOn(window, "location", "get").mockReturnValue({ ...window.location, reload });
    await user.click(screen.getByRole("button", { name: "Reload Tandem" }));
    expect(reload).toHaveBeenCalledOnce();
  });

  it("whose code did not arrive says Tandem's server did not send it, not that Tandem has a fault", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const route = routeDrawing(() => {
      throw new TypeError("Failed to fetch dynamically imported module: http://tandem.test/assets/note-x.js");
    });
    renderRoute(route, { url: "/broken" });
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Tandem could not load this view");
    expect(alert.textContent).toContain("Tandem's server did not send this part of the app");
    expect(alert.textContent).not.toContain("An error in Tandem itself");
  });
});


describe("a view whose read failed", () => {
  const thing = z.object({ name: z.string() });
  const thingQuery = queryOptions({ queryKey: ["thing"], queryFn: () => callBff("/api/thing", thing) });
  const storeDown = failure(503, { code: "store_unavailable", message: "Tandem's server could not use its database just now" });
  let loads = 0;
  beforeEach(() => {
    // The router reports the route's error on the console: expected here.
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  const routeReading = () =>
    createRoute({
      getParentRoute: () => createRootRouteWithContext<RouterContext>()(),
      path: "/thing",
      loader: ({ context }) => {
        loads += 1;
        return context.queryClient.ensureQueryData(thingQuery);
      },
      component: () => <p>The thing is here</p>,
    });

  it("on Tandem's server (its store): loads again by itself, and the failure goes once the read answers", async () => {
    const bff = installFakeBff();
    bff.once("GET", "/api/thing", storeDown);
    bff.once("GET", "/api/thing", storeDown);
    bff.on("GET", "/api/thing", ok(thing, { name: "thing" }));
    renderRoute(routeReading(), { url: "/thing" });
    expect((await screen.findByRole("alert")).textContent).toContain("Tandem's server is having trouble");
    const loadsAtFailure = loads;
    // Read again and failed again: the failure stays on screen, and the route does not load again (its pending view
    // would stand in for the failure each time) until the read answers.
    await act(() => vi.advanceTimersByTimeAsync(TANDEM_TROUBLE_REREAD_MS));
    expect(bff.calls("GET", "/api/thing")).toHaveLength(2);
    expect(loads).toBe(loadsAtFailure);
    expect(screen.getByRole("alert").textContent).toContain("Tandem's server is having trouble");
    await act(() => vi.advanceTimersByTimeAsync(TANDEM_TROUBLE_REREAD_MS));
    expect(await screen.findByText("The thing is here")).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("on the clinic data service: waits for Try again", async () => {
    const bff = installFakeBff();
    bff.once("GET", "/api/thing", failure(502, { code: "upstream_unavailable", message: "The clinic data service did not answer" }));
    bff.on("GET", "/api/thing", ok(thing, { name: "thing" }));
    const { user } = renderRoute(routeReading(), { url: "/thing" });
    const alert = await screen.findByRole("alert");
    await act(() => vi.advanceTimersByTimeAsync(TANDEM_TROUBLE_REREAD_MS * 2));
    expect(bff.calls("GET", "/api/thing")).toHaveLength(1);
    await user.click(within(alert).getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("The thing is here")).toBeTruthy();
  });
});
