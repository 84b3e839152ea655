import { describe, expect, it } from "vitest";
import { leftText, loadText } from "./band-load.tsx";

// The words of a band's load (ADR 0020): taken of the places, and what can
// still be booked, never a past position's free place.

describe("a band's load in words", () => {
  it("says how many places are taken of how many", () => {
    expect(loadText({ taken: 3, capacity: 12 })).toBe("3 of 12 taken");
    expect(loadText({ taken: 0, capacity: 0 })).toBe("no places");
  });

  it("says what is left for a band ahead, and only what is still to come for one under way or over", () => {
    expect(leftText({ capacity: 12, remaining: 9, open: 9 })).toBe("9 left");
    expect(leftText({ capacity: 12, remaining: 9, open: 4 })).toBe("4 left from now");
    expect(leftText({ capacity: 12, remaining: 9, open: 0 })).toBe("none left from now");
    expect(leftText({ capacity: 12, remaining: 0, open: 0 })).toBe("0 left");
    expect(leftText({ capacity: 0, remaining: 0, open: 0 })).toBe("");
  });
});
