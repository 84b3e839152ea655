import { performance } from "node:perf_hooks";

/** Runs `task` `warmup` times unmeasured, then `runs` times; returns the sorted durations in ms. */
export async function measure(task: () => unknown, runs: number, warmup = 3): Promise<number[]> {
  for (let i = 0; i < warmup; i += 1) await task();
  const durations: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await task();
    durations.push(performance.now() - start);
  }
  return durations.sort((a, b) => a - b);
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));
