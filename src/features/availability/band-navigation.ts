// Keyboard movement through a week grid's bands: one tab stop per grid (a
// roving tabindex, WAI-ARIA APG grid navigation). Up/Down go to the earlier/
// later band of the same day (then on to the neighbouring day), Left/Right to
// the band nearest in time on the previous/next day that has one, Home/End to
// the week's first/last band. Moving opens the band's details (focus does).

export interface BandCell {
  key: string;
  startMinute: number;
}

/** Each day's bands in the order they are drawn (by start, then lane). */
export type BandGrid = readonly (readonly BandCell[])[];

export type BandMove = "later" | "earlier" | "nextDay" | "previousDay" | "first" | "last";

export function bandMoveForKey(key: string): BandMove | null {
  switch (key) {
    case "ArrowDown":
      return "later";
    case "ArrowUp":
      return "earlier";
    case "ArrowRight":
      return "nextDay";
    case "ArrowLeft":
      return "previousDay";
    case "Home":
      return "first";
    case "End":
      return "last";
    default:
      return null;
  }
}

function locate(grid: BandGrid, key: string): { day: number; index: number } | null {
  for (let day = 0; day < grid.length; day += 1) {
    const index = grid[day]?.findIndex((cell) => cell.key === key) ?? -1;
    if (index >= 0) return { day, index };
  }
  return null;
}

function nearest(cells: readonly BandCell[], startMinute: number): string | null {
  let best: BandCell | null = null;
  for (const cell of cells) if (best === null || Math.abs(cell.startMinute - startMinute) < Math.abs(best.startMinute - startMinute)) best = cell;
  return best?.key ?? null;
}

/** The first band of the grid, or null when it has none. */
export function firstBand(grid: BandGrid): string | null {
  for (const cells of grid) if (cells.length > 0) return cells[0]?.key ?? null;
  return null;
}

function lastBand(grid: BandGrid): string | null {
  for (let day = grid.length - 1; day >= 0; day -= 1) {
    const cells = grid[day] ?? [];
    if (cells.length > 0) return cells.at(-1)?.key ?? null;
  }
  return null;
}

/** The band a move lands on; the same key at an edge; the first band when the key is not in the grid. */
export function moveBand(grid: BandGrid, currentKey: string, move: BandMove): string | null {
  const here = locate(grid, currentKey);
  if (!here) return firstBand(grid);
  const cells = grid[here.day] ?? [];
  const current = cells[here.index];
  switch (move) {
    case "first":
      return firstBand(grid);
    case "last":
      return lastBand(grid);
    case "later": {
      if (here.index + 1 < cells.length) return cells[here.index + 1]?.key ?? currentKey;
      for (let day = here.day + 1; day < grid.length; day += 1) if ((grid[day]?.length ?? 0) > 0) return grid[day]?.[0]?.key ?? currentKey;
      return currentKey;
    }
    case "earlier": {
      if (here.index > 0) return cells[here.index - 1]?.key ?? currentKey;
      for (let day = here.day - 1; day >= 0; day -= 1) if ((grid[day]?.length ?? 0) > 0) return grid[day]?.at(-1)?.key ?? currentKey;
      return currentKey;
    }
    case "nextDay":
    case "previousDay": {
      const step = move === "nextDay" ? 1 : -1;
      for (let day = here.day + step; day >= 0 && day < grid.length; day += step) {
        const target = nearest(grid[day] ?? [], current?.startMinute ?? 0);
        if (target !== null) return target;
      }
      return currentKey;
    }
  }
}
