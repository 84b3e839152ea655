// @vitest-environment happy-dom
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderWithUser } from "#src/testing/render.tsx";
import { StandaloneGate } from "./standalone-gate.tsx";

// The standalone gate while Tandem's server is down (a restart): a reload
// then opens the kept shell (ADR 0033), and the sign-in check must wait for
// the server and go on by itself, not stop at the browser's "Failed to
// fetch" (found walking a reload outside the EHR during a restart at 400 px).

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

afterEach(() => {
  vi.unstubAllGlobals();
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
});
