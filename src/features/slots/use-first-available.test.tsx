// @vitest-environment happy-dom
import { renderHook } from "@testing-library/react";
import type { UseNavigateResult } from "@tanstack/react-router";
import { describe, expect, it, vi } from "vitest";
import { useFirstAvailable } from "./use-first-available.ts";

// The F key with focus on the page itself: it jumps only when the button
// beside the list would (canJumpToFirstAvailable), and does nothing otherwise.

function pressF() {
  document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "f", bubbles: true, cancelable: true }));
}

function renderFirstAvailable(canJump: boolean) {
  const navigate = vi.fn() as unknown as UseNavigateResult<"/slots"> & ReturnType<typeof vi.fn>;
  const rendered = renderHook((props: { canJump: boolean }) => useFirstAvailable({ order: "provider", firstKey: "slot-1", canJump: props.canJump, navigate }), { initialProps: { canJump } });
  return { navigate, ...rendered };
}

describe("the First available shortcut", () => {
  it("does nothing while there is nothing to jump to, and switches to time order once there is", () => {
    const { navigate, rerender } = renderFirstAvailable(false);
    pressF();
    expect(navigate).not.toHaveBeenCalled();
    rerender({ canJump: true });
    pressF();
    expect(navigate).toHaveBeenCalledTimes(1);
  });
});
