import type { SlotDay } from "./group-slots.ts";

// Keyboard movement through the slot list (a roving tabindex, WAI-ARIA APG
// grid pattern): each provider's row of a day is a row, its slots columns.
// Arrow keys move, Home/End go to the row's ends (with Ctrl, the list's),
// PageUp/PageDown go to the previous/next day. Moving never selects: only
// Enter or a click does (one strong check per selection).

export interface SlotGrid {
  rows: { day: number; keys: string[] }[];
}

export function slotGridOf(days: readonly SlotDay[]): SlotGrid {
  return { rows: days.flatMap((day, dayIndex) => day.rows.map((row) => ({ day: dayIndex, keys: row.slots.map((slot) => slot.key) }))) };
}

export type SlotMove = "next" | "previous" | "down" | "up" | "rowStart" | "rowEnd" | "first" | "last" | "nextDay" | "previousDay";

/** The move a key press asks for, or null for a key the list does not handle. */
export function moveForKey(event: { key: string; ctrlKey: boolean; metaKey: boolean }): SlotMove | null {
  const withModifier = event.ctrlKey || event.metaKey;
  switch (event.key) {
    case "ArrowRight":
      return "next";
    case "ArrowLeft":
      return "previous";
    case "ArrowDown":
      return "down";
    case "ArrowUp":
      return "up";
    case "Home":
      return withModifier ? "first" : "rowStart";
    case "End":
      return withModifier ? "last" : "rowEnd";
    case "PageDown":
      return "nextDay";
    case "PageUp":
      return "previousDay";
    default:
      return null;
  }
}

function locate(grid: SlotGrid, key: string | null): { row: number; column: number } | null {
  if (key === null) return null;
  for (let row = 0; row < grid.rows.length; row += 1) {
    const column = grid.rows[row]?.keys.indexOf(key) ?? -1;
    if (column >= 0) return { row, column };
  }
  return null;
}

const at = (grid: SlotGrid, row: number, column: number): string | null => {
  const keys = grid.rows[row]?.keys;
  if (!keys || keys.length === 0) return null;
  return keys[Math.max(0, Math.min(column, keys.length - 1))] ?? null;
};

/** The slot a move lands on; the same key at an edge; the first slot when the current one is not in the list. */
export function moveInGrid(grid: SlotGrid, currentKey: string | null, move: SlotMove): string | null {
  const lastRow = grid.rows.length - 1;
  if (lastRow < 0) return null;
  const here = locate(grid, currentKey);
  if (!here) return at(grid, 0, 0);
  const { row, column } = here;
  const rowLength = grid.rows[row]?.keys.length ?? 0;
  switch (move) {
    case "next":
      if (column + 1 < rowLength) return at(grid, row, column + 1);
      return row < lastRow ? at(grid, row + 1, 0) : currentKey;
    case "previous":
      if (column > 0) return at(grid, row, column - 1);
      return row > 0 ? at(grid, row - 1, Number.MAX_SAFE_INTEGER) : currentKey;
    case "down":
      return row < lastRow ? at(grid, row + 1, column) : currentKey;
    case "up":
      return row > 0 ? at(grid, row - 1, column) : currentKey;
    case "rowStart":
      return at(grid, row, 0);
    case "rowEnd":
      return at(grid, row, Number.MAX_SAFE_INTEGER);
    case "first":
      return at(grid, 0, 0);
    case "last":
      return at(grid, lastRow, Number.MAX_SAFE_INTEGER);
    case "nextDay": {
      const day = grid.rows[row]?.day ?? 0;
      const target = grid.rows.findIndex((candidate) => candidate.day > day);
      return target >= 0 ? at(grid, target, 0) : currentKey;
    }
    case "previousDay": {
      const day = grid.rows[row]?.day ?? 0;
      const previousDay = grid.rows.slice(0, row).findLast((candidate) => candidate.day < day)?.day;
      if (previousDay === undefined) return at(grid, 0, 0);
      const target = grid.rows.findIndex((candidate) => candidate.day === previousDay);
      return at(grid, target, 0);
    }
  }
}
