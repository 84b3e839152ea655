// The load bench's pseudo-random numbers and pacing: deterministic
// (the emulator seed's mulberry32), so two runs issue the same load.

import { createRandom } from "../../emulator/seed/random.ts";

export type Range = readonly [number, number];

export function random(seed: number): () => number {
  const generator = createRandom(seed);
  return () => generator.next();
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

export const between = (next: () => number, [low, high]: Range) => low + next() * (high - low);

export function pick<T>(next: () => number, items: readonly T[]): T {
  const item = items[Math.floor(next() * items.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
}
