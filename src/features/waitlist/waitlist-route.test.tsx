// @vitest-environment happy-dom
import { QueryClient } from "@tanstack/react-query";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { appointmentTypesResponse, facilitiesResponse, providersResponse, session } from "#contract/app-api/session.ts";
import { waitlistResponse } from "#contract/app-api/waitlist.ts";
import { switchCacheIdentity } from "#src/api/cache-identity.ts";
import { waitlistQuery } from "#src/api/waitlist-queries.ts";
import { Route } from "#src/routes/waitlist.tsx";
import { failure, heldAnswer, installFakeBff, ok, type FakeBff } from "#src/testing/fake-bff.ts";
import { renderRoute, routerOf } from "#src/testing/render-route.tsx";
import { testQueryClient } from "#src/testing/render.tsx";
import { waitlistUserSession } from "./testing/waitlist-session.ts";

// The /waitlist route as the router runs it (issue 36 item 14): its loader
// reads the list with the view's own queryOptions, the route's pending view
// stands in meanwhile, and a list that could not be read is the route's error
// view, naming the system that failed, whose Try again loads the route again.

const SCHEDULER = waitlistUserSession("Scheduler");

let bff: FakeBff;
beforeEach(() => {
  switchCacheIdentity(new QueryClient(), { organizationId: "org_a", userId: "scheduler" });
  bff = installFakeBff();
  bff.on("GET", "/api/appointment-types", ok(appointmentTypesResponse, { appointmentTypes: [] }));
  bff.on("GET", "/api/facilities", ok(facilitiesResponse, { facilities: [] }));
  bff.on("GET", "/api/providers", ok(providersResponse, { providers: [] }));
});
afterEach(() => switchCacheIdentity(new QueryClient(), null));

describe("the /waitlist route", () => {
  it("reads no waiting patient on a preload (a hover over the tab): their names are read, and audited, when it is opened", async () => {
    bff.on("GET", "/api/session", ok(session, SCHEDULER));
    bff.on("GET", "/api/waitlist", ok(waitlistResponse, { entries: [], offers: [] }));
    await routerOf(Route, { url: "/waitlist", queryClient: testQueryClient() }).preloadRoute({ to: "/waitlist" });
    expect(bff.calls("GET", "/api/waitlist")).toEqual([]);
  });

  it("has its loader wait for the list, read with the view's own queryOptions, so the view draws it at once", async () => {
    bff.on("GET", "/api/session", ok(session, SCHEDULER));
    const list = heldAnswer();
    bff.once("GET", "/api/waitlist", list.answer);
    const queryClient = testQueryClient();
    const loaded = vi.fn();
    const loading = routerOf(Route, { url: "/waitlist", queryClient }).load().then(loaded);
    await waitFor(() => expect(bff.calls("GET", "/api/waitlist")).toHaveLength(1));
    // Whatever was queued behind the call has run: the load still waits for its answer.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(loaded).not.toHaveBeenCalled();
    list.release(ok(waitlistResponse, { entries: [], offers: [] }));
    await loading;
    expect(queryClient.getQueryData(waitlistQuery().queryKey)).toEqual({ entries: [], offers: [] });
  });

  it("shows its pending view while the loader reads the list, then the list, read once", async () => {
    bff.on("GET", "/api/session", ok(session, SCHEDULER));
    const list = heldAnswer();
    bff.once("GET", "/api/waitlist", list.answer);
    renderRoute(Route, { url: "/waitlist" });
    const loading = await screen.findByTestId("waitlist-loading");
    expect(loading.getAttribute("aria-busy")).toBe("true");
    expect(screen.getByRole("heading", { name: "Waitlist" })).toBeTruthy();
    list.release(ok(waitlistResponse, { entries: [], offers: [] }));
    expect((await screen.findByTestId("waitlist-empty")).textContent).toContain("No one is waiting");
    expect(screen.queryByTestId("waitlist-loading")).toBeNull();
    expect(bff.calls("GET", "/api/waitlist")).toHaveLength(1);
  });

  it("names the system when the list cannot be read, and Try again loads the route again", async () => {
    bff.on("GET", "/api/session", ok(session, SCHEDULER));
    bff.once("GET", "/api/waitlist", failure(503, { code: "store_unavailable", message: "Tandem's store did not answer in time" }));
    bff.once("GET", "/api/waitlist", ok(waitlistResponse, { entries: [], offers: [] }));
    const { user } = renderRoute(Route, { url: "/waitlist" });
    const problem = await screen.findByRole("alert");
    expect(problem.textContent).toContain("Tandem's server is having trouble");
    expect(screen.getByRole("heading", { name: "Waitlist" })).toBeTruthy();
    await user.click(within(problem).getByRole("button", { name: "Try again" }));
    expect((await screen.findByTestId("waitlist-empty")).textContent).toContain("No one is waiting");
    expect(bff.calls("GET", "/api/waitlist")).toHaveLength(2);
  });

  it("reads no list for a role the waitlist is not for", async () => {
    bff.on("GET", "/api/session", ok(session, { ...SCHEDULER, user: { ...SCHEDULER.user, roles: ["Physician"] } }));
    renderRoute(Route, { url: "/waitlist" });
    expect(await screen.findByText("The waitlist is for the front desk and schedulers")).toBeTruthy();
    expect(bff.calls("GET", "/api/waitlist")).toEqual([]);
  });
});
