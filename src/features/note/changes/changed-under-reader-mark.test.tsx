// @vitest-environment happy-dom
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ChangedUnderReaderMark } from "./changed-under-reader-mark.tsx";

// A change made under the reader says "just now" while it is; read a minute
// later, the mark keeps its time and drops the "just now".

const SEEN_AT = Date.parse("2026-11-17T11:41:00Z");

beforeEach(() => {
  vi.useFakeTimers({ now: SEEN_AT });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const title = () => screen.getByTestId("mark").querySelector("p")?.textContent ?? "";

describe("ChangedUnderReaderMark", () => {
  it("says 'just now' for a minute, then only when", () => {
    render(
      <ChangedUnderReaderMark testId="mark" subject="Other exam comments" seenAtMs={SEEN_AT} timezone="America/New_York" onDismiss={() => undefined}>
        earlier
      </ChangedUnderReaderMark>,
    );
    expect(title()).toMatch(/^Changed in the EHR just now \(6:41 AM( EST)?\): Other exam comments$/);
    act(() => void vi.advanceTimersByTime(59_000));
    expect(title()).toContain("just now");
    act(() => void vi.advanceTimersByTime(1_000));
    expect(title()).toMatch(/^Changed in the EHR \(6:41 AM( EST)?\): Other exam comments$/);
  });

  it("a newer change under the reader says 'just now' again, and drops it a minute later", () => {
    const mark = (seenAtMs: number) => (
      <ChangedUnderReaderMark testId="mark" subject="Sticky note" seenAtMs={seenAtMs} savedInAnotherTab timezone="America/New_York" onDismiss={() => undefined}>
        earlier
      </ChangedUnderReaderMark>
    );
    const { rerender } = render(mark(SEEN_AT));
    act(() => void vi.advanceTimersByTime(120_000));
    expect(title()).not.toContain("just now");
    rerender(mark(Date.now()));
    expect(title()).toMatch(/^Saved by you in another tab just now \(6:43 AM( EST)?\): Sticky note$/);
    act(() => void vi.advanceTimersByTime(60_000));
    expect(title()).toMatch(/^Saved by you in another tab \(6:43 AM( EST)?\): Sticky note$/);
  });
});
