// @vitest-environment happy-dom
import { act, screen } from "@testing-library/react";
import { Component, type ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderWithUser } from "#src/testing/render.tsx";
import { reportBffAnswered } from "#src/api/bff-reachability.ts";
import { lazyPart } from "./lazy-part.tsx";

// A part whose code loads lazily: drawn once it arrives; a notice in its
// place, with a reload, when its code cannot be fetched; any other error it
// throws is not taken for a loading failure.

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

class Outer extends Component<{ children: ReactNode }, { caught: string | null }> {
  override state = { caught: null as string | null };
  static getDerivedStateFromError(error: unknown) {
    return { caught: error instanceof Error ? error.message : String(error) };
  }
  override render() {
    return this.state.caught === null ? this.props.children : <p>Caught outside: {this.state.caught}</p>;
  }
}

describe("a lazily loaded part", () => {
  afterEach(() => vi.restoreAllMocks());

  it("shows its fallback, then the part once its code is in", async () => {
    const Part = lazyPart("a greeting", () => Promise.resolve(Greeting), { fallback: <p>Loading…</p> });
    renderWithUser(<Part name="Ada" />);
    expect(screen.getByText("Loading…")).toBeTruthy();
    expect(await screen.findByText("Hello Ada")).toBeTruthy();
  });

  it("says in its place that its code could not be loaded, naming it, and offers a reload; the rest stays", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const Part = lazyPart("your holds", () => Promise.reject(new TypeError("Failed to fetch dynamically imported module")));
    renderWithUser(
      <div>
        <p>The slot list</p>
        <Part />
      </div>,
    );
    expect(await screen.findByRole("alert")).toHaveProperty("textContent", expect.stringContaining("Tandem could not load your holds"));
    expect(screen.getByRole("button", { name: "Reload Tandem" })).toBeTruthy();
    expect(screen.getByText("The slot list")).toBeTruthy();
  });

  it("fetches its code again by itself once Tandem's server answers again, and draws the part (a restart, not a new version)", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const load = vi.fn<() => Promise<typeof Greeting>>().mockRejectedValueOnce(new TypeError("Failed to fetch dynamically imported module")).mockResolvedValue(Greeting);
    const Part = lazyPart("a greeting", load);
    renderWithUser(<Part name="Ada" />);
    expect(await screen.findByRole("alert")).toHaveProperty("textContent", expect.stringContaining("It is fetched again once the server answers"));
    act(() => reportBffAnswered());
    expect(await screen.findByText("Hello Ada")).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("stops fetching by itself after two more tries (the code is gone: a newer Tandem), leaving the reload", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const load = vi.fn(() => Promise.reject(new TypeError("Failed to fetch dynamically imported module")));
    const Part = lazyPart("your holds", load);
    renderWithUser(<Part />);
    await screen.findByRole("alert");
    for (let answer = 0; answer < 4; answer += 1) {
      act(() => reportBffAnswered());
      await screen.findByRole("alert");
    }
    expect(load).toHaveBeenCalledTimes(3);
    expect(screen.getByRole("button", { name: "Reload Tandem" })).toBeTruthy();
  });

  it("lets an error of the part's own rendering go on to what catches errors outside it", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const Broken = () => {
      throw new Error("a bug in the part");
    };
    const Part = lazyPart("a broken part", () => Promise.resolve(Broken));
    renderWithUser(
      <Outer>
        <Part />
      </Outer>,
    );
    expect(await screen.findByText("Caught outside: a bug in the part")).toBeTruthy();
    expect(screen.queryByText(/Tandem could not load/)).toBeNull();
  });
});
