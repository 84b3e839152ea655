// @vitest-environment happy-dom
import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useAskBeforeUnload } from "#src/lib/use-ask-before-unload.ts";
import { renderWithUser } from "#src/testing/render.tsx";
import { StandaloneGate } from "./standalone-gate.tsx";

// The standalone gate while Tandem's server is down (a restart): a reload
// then opens the kept shell (ADR 0033), and the sign-in check must wait for
// the server and go on by itself, not stop at the browser's "Failed to
// fetch" (found walking a reload outside the EHR during a restart at 400 px).

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

afterEach(() => {
  window.sessionStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("StandaloneGate", () => {
  it("while Tandem's server does not answer, says so in words and opens the sign-in by itself once it answers", async () => {
    // Down, then a proxy in front of it saying so, then back (the retries come after 1 s and 2 s).
    const fetch = vi
      .fn<() => Promise<Response>>()
      .mockRejectedValueOnce(new TypeError("Failed to fetch"))
      .mockResolvedValueOnce(json(502, { message: "Bad gateway" }))
      .mockResolvedValue(json(200, { signedIn: false }));
    vi.stubGlobal("fetch", fetch);
    renderWithUser(<StandaloneGate>{() => <p>the app</p>}</StandaloneGate>);

    expect(await screen.findByText("Tandem's server is not answering")).toBeTruthy();
    expect(screen.queryByText(/Failed to fetch/)).toBeNull();
    expect(await screen.findByRole("heading", { name: "Sign in to Tandem" }, { timeout: 8_000 })).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(3);
  }, 15_000);

  it("an answer that is not the server being down is an error with Try again, not a wait", async () => {
    const fetch = vi.fn(() => Promise.resolve(json(500, { code: "internal", message: "Tandem's server failed", trace_id: "t1" })));
    vi.stubGlobal("fetch", fetch);
    const { user } = renderWithUser(<StandaloneGate>{() => <p>the app</p>}</StandaloneGate>);

    expect(await screen.findByText("Tandem could not check your sign-in")).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(1);
    fetch.mockImplementation(() => Promise.resolve(json(200, { signedIn: false })));
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("heading", { name: "Sign in to Tandem" })).toBeTruthy();
  });

  it("Sign out says signed out only once Tandem's server has ended the sign-in: down, or a proxy saying so, it says the user is still signed in", async () => {
    const signedIn = { signedIn: true, user: { displayName: "Dr. Ada Brooks", email: "ada@example.test" }, organizations: [{ id: "org_a", name: "Riverside", facilityCount: 2 }], selectedOrganizationId: "org_a", expiresAt: "2026-12-03T23:00:00Z" };
    const logout = vi
      .fn<() => Promise<Response>>()
      .mockRejectedValueOnce(new TypeError("Failed to fetch"))
      .mockResolvedValueOnce(json(502, { message: "Bad gateway" }))
      .mockResolvedValue(json(200, { signedOut: true }));
    vi.stubGlobal(
      "fetch",
      vi.fn((path: string, init?: RequestInit) => {
        if (path === "/auth/session") return Promise.resolve(json(200, signedIn));
        if (path === "/auth/logout") return logout();
        // The live events' stream: open until the page leaves.
        return new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))));
      }),
    );
    const assign = vi.fn();
    vi.spyOn(window, "location", "get").mockReturnValue({ ...window.location, assign });
    const { user } = renderWithUser(<StandaloneGate>{() => <p>the app</p>}</StandaloneGate>);
    expect(await screen.findByText("the app")).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Sign out" }));
    expect((await screen.findByRole("alert")).textContent).toContain("You are still signed inTandem's server did not answer, so your sign-in has not ended. Try Sign out again in a moment.");
    expect(screen.getByText("the app")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Sign out" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toContain("Tandem's server answered 502, so your sign-in has not ended."));
    expect(assign).not.toHaveBeenCalled();

    await user.click(screen.getByRole("button", { name: "Sign out" }));
    expect(await screen.findByText("Signed out.")).toBeTruthy();
    expect(screen.queryByText("the app")).toBeNull();
    expect(assign).toHaveBeenCalledWith("/");
    expect(logout).toHaveBeenCalledTimes(3);
  });

  it("an organization chosen while Tandem's server does not answer says the server is not answering, not that the organization cannot be used", async () => {
    const signedIn = { signedIn: true, user: { displayName: "Dr. Ada Brooks", email: "ada@example.test" }, organizations: [{ id: "org_a", name: "Riverside", facilityCount: 2 }], selectedOrganizationId: null, expiresAt: "2026-12-03T23:00:00Z" };
    vi.stubGlobal(
      "fetch",
      vi.fn((path: string) => (path === "/auth/session" ? Promise.resolve(json(200, signedIn)) : Promise.reject(new TypeError("Failed to fetch")))),
    );
    const { user } = renderWithUser(<StandaloneGate>{() => <p>the app</p>}</StandaloneGate>);
    await user.click(await screen.findByRole("button", { name: "Continue" }));
    const notice = await screen.findByRole("status");
    expect(notice.textContent).toContain("Tandem's server is not answeringTandem's server did not answer: it may be restarting. Choose Continue again in a moment.");
    expect(screen.queryByText("That organization cannot be used")).toBeNull();
  });
  it("Sign out with a task typed and not yet created asks first: Stay keeps the user signed in; Sign out and discard leaves nothing Tandem kept in the tab", async () => {
    const signedIn = { signedIn: true, user: { displayName: "Dr. Ada Brooks", email: "ada@example.test" }, organizations: [{ id: "org_a", name: "Riverside", facilityCount: 2 }], selectedOrganizationId: "org_a", expiresAt: "2026-12-03T23:00:00Z" };
    const logout = vi.fn(() => Promise.resolve(json(200, { signedOut: true })));
    vi.stubGlobal(
      "fetch",
      vi.fn((path: string, init?: RequestInit) => {
        if (path === "/auth/session") return Promise.resolve(json(200, signedIn));
        if (path === "/auth/logout") return logout();
        return new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))));
      }),
    );
    const assign = vi.fn();
    vi.spyOn(window, "location", "get").mockReturnValue({ ...window.location, assign });
    window.sessionStorage.setItem("tandem.task-draft.organization|org_a|ada@example.test.note_1", JSON.stringify({ description: "Call the patient", assigneeIds: [] }));
    window.sessionStorage.setItem("another-app", "kept");
    function TaskForm() {
      useAskBeforeUnload(true, "a task not yet created");
      return <p>the app</p>;
    }
    const { user } = renderWithUser(<StandaloneGate>{() => <TaskForm />}</StandaloneGate>);
    expect(await screen.findByText("the app")).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Sign out" }));
    const question = await screen.findByRole("alertdialog", { name: "Sign out and discard what you typed?" });
    expect(question.textContent).toContain("Typed and not yet sent: a task not yet created. Signing out removes it from this browser; stay signed in to finish it.");
    // The safe answer is the one focused.
    expect(document.activeElement?.textContent).toBe("Stay signed in");
    await user.keyboard("{Enter}");
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(logout).not.toHaveBeenCalled();
    expect(screen.getByText("the app")).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Sign out" }));
    await user.click(await screen.findByRole("button", { name: "Sign out and discard" }));
    expect(await screen.findByText("Signed out.")).toBeTruthy();
    expect(logout).toHaveBeenCalledTimes(1);
    expect(assign).toHaveBeenCalledWith("/");
    expect(Object.keys(window.sessionStorage)).toEqual(["another-app"]);
  });

  it("Sign out with nothing unsent asks nothing", async () => {
    const signedIn = { signedIn: true, user: { displayName: "Dr. Ada Brooks", email: "ada@example.test" }, organizations: [{ id: "org_a", name: "Riverside", facilityCount: 2 }], selectedOrganizationId: "org_a", expiresAt: "2026-12-03T23:00:00Z" };
    vi.stubGlobal(
      "fetch",
      vi.fn((path: string, init?: RequestInit) => {
        if (path === "/auth/session") return Promise.resolve(json(200, signedIn));
        if (path === "/auth/logout") return Promise.resolve(json(200, { signedOut: true }));
        return new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))));
      }),
    );
    vi.spyOn(window, "location", "get").mockReturnValue({ ...window.location, assign: vi.fn() });
    function TaskForm() {
      useAskBeforeUnload(false, "a task not yet created");
      return <p>the app</p>;
    }
    const { user } = renderWithUser(<StandaloneGate>{() => <TaskForm />}</StandaloneGate>);
    await user.click(await screen.findByRole("button", { name: "Sign out" }));
    expect(await screen.findByText("Signed out.")).toBeTruthy();
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });
});

