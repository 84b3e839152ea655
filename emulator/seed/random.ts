// A seeded PRNG (mulberry32) and the few helpers the generators need. The
// world must be byte-identical for the same seed and clock, so nothing here
// touches Math.random, Date.now or the host's zone.

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform 32-bit unsigned integer. */
  uint32(): number;
  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** Uniform float in [min, max). */
  float(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** Pick by relative weight. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T;
  chance(probability: number): boolean;
  /** A version-4 UUID, lower-case. */
  uuid(): string;
  /** Lower-case hexadecimal characters. */
  hex(length: number): string;
  /** Decimal digits; the first is never 0. */
  digits(length: number): string;
  shuffle<T>(items: readonly T[]): T[];
  /** `count` distinct items (all of them when there are fewer), in random order. */
  sample<T>(items: readonly T[], count: number): T[];
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

export function createRandom(seed: number): Random {
  let state = seed >>> 0;

  const uint32 = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  const next = (): number => uint32() / 4_294_967_296;
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));

  const pick = <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new RangeError("pick from an empty list");
    return items[Math.floor(next() * items.length)] as T;
  };

  const shuffle = <T>(items: readonly T[]): T[] => {
    const copy = items.slice();
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      const held = copy[i] as T;
      copy[i] = copy[j] as T;
      copy[j] = held;
    }
    return copy;
  };

  const word8 = (word: number): string =>
    (HEX[word >>> 24] ?? "00") + (HEX[(word >>> 16) & 0xff] ?? "00") + (HEX[(word >>> 8) & 0xff] ?? "00") + (HEX[word & 0xff] ?? "00");

  return {
    next,
    uint32,
    int,
    float: (min, max) => min + next() * (max - min),
    pick,
    weighted: (entries) => {
      const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
      let roll = next() * total;
      for (const [value, weight] of entries) {
        roll -= weight;
        if (roll < 0) return value;
      }
      const last = entries[entries.length - 1];
      if (last === undefined) throw new RangeError("weighted pick from an empty list");
      return last[0];
    },
    chance: (probability) => next() < probability,
    uuid: () => {
      const a = word8(uint32());
      const b = word8(((uint32() & 0xffff0fff) | 0x00004000) >>> 0);
      const c = word8(((uint32() & 0x3fffffff) | 0x80000000) >>> 0);
      const d = word8(uint32());
      return `${a}-${b.slice(0, 4)}-${b.slice(4)}-${c.slice(0, 4)}-${c.slice(4)}${d}`;
    },
    hex: (length) => {
      let out = "";
      while (out.length < length) out += HEX[uint32() & 0xff] ?? "00";
      return out.slice(0, length);
    },
    digits: (length) => {
      let out = String(int(1, 9));
      while (out.length < length) out += String(int(0, 9));
      return out;
    },
    shuffle,
    sample: (items, count) => shuffle(items).slice(0, count),
  };
}

/**
 * A sub-seed for one part of the world (an organization's patients, its
 * templates…), so that changing how one part is generated leaves the others'
 * sequences untouched. FNV-1a over the labels, mixed with the seed.
 */
export function deriveSeed(seed: number, ...labels: readonly (string | number)[]): number {
  let hash = 0x811c9dc5 ^ (seed >>> 0);
  for (const label of labels) {
    const text = `${String(label)}\u0000`;
    for (let i = 0; i < text.length; i++) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
  }
  // One avalanche round so neighbouring seeds diverge at once.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b) >>> 0;
  hash ^= hash >>> 13;
  return hash >>> 0;
}

/** The random stream for one labelled part of the world. */
export function randomFor(seed: number, ...labels: readonly (string | number)[]): Random {
  return createRandom(deriveSeed(seed, ...labels));
}
