// BENCH_DISABLE (not an operator setting): the performance mechanisms
// that earned their place (ADR 0029 and 0034, bench/RESULTS.md) keep a switch, so the
// next change of the service's bounds or of the load can measure them again
// the same way. Each counts its uses, so a run shows that one turned off did
// nothing (`tandem_bench_mechanism_uses_total`).

export const BENCH_MECHANISMS = [
  /** refresh-ahead.ts, with its sync probes. */
  "refresh-ahead",
  /** intake-thread.ts. */
  "intake-thread",
  /** shared-answer-store.ts (with REDIS_URL). */
  "shared-answers",
] as const;

export type BenchMechanism = (typeof BENCH_MECHANISMS)[number];

export class BenchSwitches {
  private readonly disabled: ReadonlySet<BenchMechanism>;
  private readonly uses = new Map<BenchMechanism, number>();

  constructor(disabled: Iterable<BenchMechanism> = []) {
    this.disabled = new Set(disabled);
  }

  isOn(mechanism: BenchMechanism): boolean {
    return !this.disabled.has(mechanism);
  }

  used(mechanism: BenchMechanism): void {
    this.uses.set(mechanism, (this.uses.get(mechanism) ?? 0) + 1);
  }

  report(): Record<BenchMechanism, { on: boolean; uses: number }> {
    const entries = BENCH_MECHANISMS.map((mechanism) => [mechanism, { on: this.isOn(mechanism), uses: this.uses.get(mechanism) ?? 0 }] as const);
    return Object.fromEntries(entries) as Record<BenchMechanism, { on: boolean; uses: number }>;
  }
}

/** Mechanism names separated by commas; throws naming the unknown ones. */
export function parseBenchDisable(text: string): BenchMechanism[] {
  const names = text
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const unknown = names.filter((name) => !(BENCH_MECHANISMS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new RangeError(`unknown mechanism ${unknown.map((name) => `"${name}"`).join(", ")}: give some of ${BENCH_MECHANISMS.join(", ")}`);
  return names as BenchMechanism[];
}
