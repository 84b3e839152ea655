// @vitest-environment happy-dom
import { renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { unsentTexts } from "#src/api/before-sign-out.ts";
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
  it("names what Sign out would discard only while asking, once however many forms hold it", () => {
    const first = renderHook(({ isAsking }) => useAskBeforeUnload(isAsking, "a task not yet created"), { initialProps: { isAsking: false } });
    const second = renderHook(() => useAskBeforeUnload(true, "a task not yet created"));
    const waitlist = renderHook(() => useAskBeforeUnload(true, "a waitlist entry not yet added"));
    expect(unsentTexts()).toEqual(["a task not yet created", "a waitlist entry not yet added"]);
    second.unmount();
    expect(unsentTexts()).toEqual(["a waitlist entry not yet added"]);
    first.rerender({ isAsking: true });
    waitlist.unmount();
    expect(unsentTexts()).toEqual(["a task not yet created"]);
    first.rerender({ isAsking: false });
    expect(unsentTexts()).toEqual([]);
  });
});
