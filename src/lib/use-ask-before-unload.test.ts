// @vitest-environment happy-dom
import { renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useAskBeforeUnload } from "./use-ask-before-unload.ts";

const unload = () => {
  const event = new Event("beforeunload", { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

describe("useAskBeforeUnload", () => {
  it("asks only while told to, and stops once unmounted", () => {
    const { rerender, unmount } = renderHook(({ isAsking }) => useAskBeforeUnload(isAsking), { initialProps: { isAsking: false } });
    expect(unload()).toBe(false);
    rerender({ isAsking: true });
    expect(unload()).toBe(true);
    unmount();
    expect(unload()).toBe(false);
  });
});
