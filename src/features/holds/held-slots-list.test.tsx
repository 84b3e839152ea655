// @vitest-environment happy-dom
import { screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderWithUser } from "#src/testing/render.tsx";
import { HeldSlotsList } from "./held-slots-list.tsx";
import { frameIsNarrow } from "./testing/frame-width.ts";
import { useFold } from "./use-fold.ts";

// The held slots' list in the holds bar: one line in a narrow frame until
// asked (issue 36 item 10), Show / Hide from the keyboard, and a new hold
// never made out of sight in a wide frame.

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The list as the holds bar wires it, with a button that adds a hold. */
function Holds({ initialCount }: { initialCount: number }) {
  const [count, setCount] = useState(initialCount);
  const { isFolded, toggleFold } = useFold(count);
  return (
    <>
      <button type="button" onClick={() => setCount(count + 1)}>
        Hold another
      </button>
      <HeldSlotsList
        heldCount={count}
        maybeHeldCount={0}
        isFolded={isFolded}
        onToggleFold={toggleFold}
        held={Array.from({ length: count }, (_, index) => (
          <li key={index}>Held slot {index + 1}</li>
        ))}
        maybeHeld={null}
      />
    </>
  );
}

describe("HeldSlotsList", () => {
  it("is one line in a narrow frame: the count and Show, which opens it from the keyboard and Hide folds it again", async () => {
    frameIsNarrow(true);
    const { user } = renderWithUser(<Holds initialCount={3} />);
    expect(screen.getByRole("heading", { name: /You are holding 3 slots$/ })).toBeTruthy();
    expect(screen.queryByRole("listitem")).toBeNull();
    const show = screen.getByRole("button", { name: "Show the held slots" });
    expect(show.getAttribute("aria-expanded")).toBe("false");

    await user.tab();
    await user.tab();
    expect(document.activeElement).toBe(show);
    await user.keyboard("{Enter}");
    expect(screen.getAllByRole("listitem")).toHaveLength(3);
    const hide = screen.getByRole("button", { name: "Hide the held slots" });
    expect(hide.getAttribute("aria-expanded")).toBe("true");
    await user.keyboard(" ");
    expect(screen.queryByRole("listitem")).toBeNull();
  });

  it("stays one line in a narrow frame when a hold is added; the count says so", async () => {
    frameIsNarrow(true);
    const { user } = renderWithUser(<Holds initialCount={2} />);
    await user.click(screen.getByRole("button", { name: "Hold another" }));
    expect(screen.getByRole("heading", { name: /You are holding 3 slots$/ })).toBeTruthy();
    expect(screen.queryByRole("listitem")).toBeNull();
  });

  it("shows the held slots in a wide frame; folded by hand, a new hold opens them again", async () => {
    frameIsNarrow(false);
    const { user } = renderWithUser(<Holds initialCount={2} />);
    expect(screen.getAllByRole("listitem")).toHaveLength(2);
    await user.click(screen.getByRole("button", { name: "Hide the held slots" }));
    expect(screen.queryByRole("listitem")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Hold another" }));
    expect(screen.getAllByRole("listitem")).toHaveLength(3);
  });
});
