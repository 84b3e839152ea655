import { describe, expect, it } from "vitest";
import { moveForKey, moveInGrid, type SlotGrid } from "./slot-navigation.ts";

// Day 0: Adams a1 a2 a3 / Brooks b1; day 1: Adams c1 c2.
const GRID: SlotGrid = {
  rows: [
    { day: 0, keys: ["a1", "a2", "a3"] },
    { day: 0, keys: ["b1"] },
    { day: 1, keys: ["c1", "c2"] },
  ],
};

describe("moving through slots with the keyboard", () => {
  it("maps keys to moves and leaves others alone", () => {
    expect(moveForKey({ key: "ArrowRight", ctrlKey: false, metaKey: false })).toBe("next");
    expect(moveForKey({ key: "Home", ctrlKey: true, metaKey: false })).toBe("first");
    expect(moveForKey({ key: "Enter", ctrlKey: false, metaKey: false })).toBeNull();
    expect(moveForKey({ key: "f", ctrlKey: false, metaKey: false })).toBeNull();
  });

  it("goes right along a row and on to the next row, stopping at the very end", () => {
    expect(moveInGrid(GRID, "a3", "next")).toBe("b1");
    expect(moveInGrid(GRID, "b1", "next")).toBe("c1");
    expect(moveInGrid(GRID, "c2", "next")).toBe("c2");
    expect(moveInGrid(GRID, "c1", "previous")).toBe("b1");
    expect(moveInGrid(GRID, "b1", "previous")).toBe("a3");
    expect(moveInGrid(GRID, "a1", "previous")).toBe("a1");
  });

  it("goes up and down between rows in the same column, clamped", () => {
    expect(moveInGrid(GRID, "a3", "down")).toBe("b1");
    expect(moveInGrid(GRID, "b1", "down")).toBe("c1");
    expect(moveInGrid(GRID, "c2", "up")).toBe("b1");
    expect(moveInGrid(GRID, "b1", "up")).toBe("a1");
  });

  it("jumps to row ends, list ends and days", () => {
    expect(moveInGrid(GRID, "a2", "rowEnd")).toBe("a3");
    expect(moveInGrid(GRID, "a2", "rowStart")).toBe("a1");
    expect(moveInGrid(GRID, "a2", "last")).toBe("c2");
    expect(moveInGrid(GRID, "c2", "first")).toBe("a1");
    expect(moveInGrid(GRID, "a2", "nextDay")).toBe("c1");
    expect(moveInGrid(GRID, "c2", "previousDay")).toBe("a1");
    expect(moveInGrid(GRID, "b1", "previousDay")).toBe("a1");
  });

  it("starts at the first slot when the current one is gone, and has nowhere to go in an empty list", () => {
    expect(moveInGrid(GRID, "gone", "next")).toBe("a1");
    expect(moveInGrid({ rows: [] }, null, "next")).toBeNull();
  });
});
