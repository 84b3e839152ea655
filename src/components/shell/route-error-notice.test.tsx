// @vitest-environment happy-dom
import { createRootRoute, createRoute } from "@tanstack/react-router";
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderRoute } from "#src/testing/render-route.tsx";

// The router's error view for every route (main.tsx's defaultErrorComponent):
// a view that fails to draw says so in its place, as Tandem's own fault, with
// a reload, never the router's bare "Something went wrong!".

function routeDrawing(component: () => never) {
  return createRoute({ getParentRoute: () => createRootRoute(), path: "/broken", component });
}

afterEach(() => vi.restoreAllMocks());

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

