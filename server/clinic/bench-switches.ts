// Issue 37 item 2: each piece of the upstream client's performance machinery
// must earn its place in the 1,000-user load bench (bench/ablation-bench.ts:
// 5 runs on, 5 off). The two that did (bench/RESULTS.md, ADR 0029) keep
// their switches, so that the next change of the service's bounds or of the
// load can measure them again. BENCH_DISABLE turns pieces off for a bench run; it is
// not an operator setting. Each piece counts its uses, so a run can show
// that the piece it turned off did nothing (`tandem_bench_mechanism_uses_total`).

export const BENCH_MECHANISMS = [
  /** refresh-ahead.ts, with its sync probes (ADR 0022). */
  "refresh-ahead",
  /** Large shared answers taken in on worker threads, refreshes at nice 10 (intake-thread.ts, thread-priority.ts). */
  "intake-thread",
] as const;

export type BenchMechanism = (typeof BENCH_MECHANISMS)[number];

export class BenchSwitches {
  private readonly disabled: ReadonlySet<BenchMechanism>;
  private readonly counts = new Map<BenchMechanism, number>(BENCH_MECHANISMS.map((name) => [name, 0]));

  constructor(disabled: Iterable<BenchMechanism> = []) {
    this.disabled = new Set(disabled);
  }

  isOn(mechanism: BenchMechanism): boolean {
    return !this.disabled.has(mechanism);
  }

  /** The mechanism did its work once (a refresh sent, an answer taken in on a thread). */
  used(mechanism: BenchMechanism): void {
    this.counts.set(mechanism, (this.counts.get(mechanism) ?? 0) + 1);
  }

  /** Each mechanism: whether it is on, and how often it did its work. */
  report(): Record<BenchMechanism, { on: boolean; uses: number }> {
    return Object.fromEntries(BENCH_MECHANISMS.map((name) => [name, { on: this.isOn(name), uses: this.counts.get(name) ?? 0 }])) as Record<BenchMechanism, { on: boolean; uses: number }>;
  }
}

/** BENCH_DISABLE's text: mechanism names separated by commas; throws naming the unknown ones. */
export function parseBenchDisable(text: string): BenchMechanism[] {
  const names = text
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const unknown = names.filter((name) => !(BENCH_MECHANISMS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new RangeError(`unknown mechanism ${unknown.map((name) => `"${name}"`).join(", ")}: give some of ${BENCH_MECHANISMS.join(", ")}`);
  return names as BenchMechanism[];
}
