import { describe, expect, it } from "vitest";
import { bandMoveForKey, firstBand, moveBand, type BandGrid } from "./band-navigation.ts";

const GRID: BandGrid = [
  [{ key: "mon-8", startMinute: 480 }, { key: "mon-13", startMinute: 780 }],
  [],
  [{ key: "wed-9", startMinute: 540 }, { key: "wed-10", startMinute: 600 }, { key: "wed-16", startMinute: 900 }],
  [],
  [],
  [],
  [{ key: "sun-1", startMinute: 60 }],
];

describe("moving through bands with the keyboard", () => {
  it("maps keys to moves", () => {
    expect(bandMoveForKey("ArrowDown")).toBe("later");
    expect(bandMoveForKey("ArrowLeft")).toBe("previousDay");
    expect(bandMoveForKey("Enter")).toBeNull();
  });

  it("goes down the day, then on to the next day with bands", () => {
    expect(moveBand(GRID, "mon-8", "later")).toBe("mon-13");
    expect(moveBand(GRID, "mon-13", "later")).toBe("wed-9");
    expect(moveBand(GRID, "wed-9", "earlier")).toBe("mon-13");
    expect(moveBand(GRID, "sun-1", "later")).toBe("sun-1");
    expect(moveBand(GRID, "mon-8", "earlier")).toBe("mon-8");
  });

  it("goes sideways to the band nearest in time, skipping empty days", () => {
    expect(moveBand(GRID, "mon-13", "nextDay")).toBe("wed-16");
    expect(moveBand(GRID, "mon-8", "nextDay")).toBe("wed-9");
    expect(moveBand(GRID, "wed-10", "nextDay")).toBe("sun-1");
    expect(moveBand(GRID, "wed-10", "previousDay")).toBe("mon-8");
    expect(moveBand(GRID, "sun-1", "nextDay")).toBe("sun-1");
  });

  it("jumps to the week's ends, and recovers from a band that vanished", () => {
    expect(moveBand(GRID, "wed-10", "first")).toBe("mon-8");
    expect(moveBand(GRID, "wed-10", "last")).toBe("sun-1");
    expect(moveBand(GRID, "gone", "later")).toBe("mon-8");
    expect(firstBand([[], []])).toBeNull();
  });
});
