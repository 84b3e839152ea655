import type { Send, SharedBudget } from "./send-log.ts";

// Where one limiter's sends are counted (ADR 0026): here, or in rounds with
// the log every process shares (read every process's sends, let through what
// the rule chooses, record them: one atomic step). A round's sends count from
// the latest it may end (its 1 s bound), so none leaves the window early. A
// round that fails or ends past its bound never holds a request: the process
// falls back to a local share for a bound, and its sends are spent.

/** The organizations whose first waiters go over `window` under `limit`, one per send; changes nothing (a round may ask again). */
export type Choose = (window: readonly Send[], limit: number) => string[];

export class SendWindow {
  /** Sends in the window, oldest first: every process's as of the last round when shared. */
  sends: Send[] = [];
  /** Sends made while falling back, for the log. */
  private unrecorded: Send[] = [];
  private fallback: { limit: number; until: number } | null = null;
  private closed = false;
  private readonly process: string;
  private readonly boundMs: number;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly shared?: SharedBudget,
  ) {
    this.process = shared?.process ?? "local";
    this.boundMs = shared?.timeoutMs ?? 1_000;
  }

  /** The whole limit, or the local share while falling back. */
  limitNow(): number {
    return this.fallback?.limit ?? this.limit;
  }

  retryAt(): number {
    return this.fallback?.until ?? Infinity;
  }

  usesLog(now: number): boolean {
    return this.shared !== undefined && (this.fallback === null || now >= this.fallback.until);
  }

  prune(now: number): void {
    const cutoff = now - this.windowMs;
    if ((this.sends[0]?.at ?? Infinity) <= cutoff) this.sends = this.sends.filter((send) => send.at > cutoff);
  }

  here(now: number, choose: Choose): string[] {
    const chosen = choose(this.sends, this.limitNow());
    const sends = chosen.map((organization) => ({ organization, at: now, process: this.process }));
    this.sends.push(...sends);
    if (this.fallback) this.unrecorded.push(...sends);
    return chosen;
  }

  /** One round with the log: what it let through. On a failure or a late answer, falls back and counts `here`. */
  async round(now: number, clock: () => number, choose: Choose): Promise<string[]> {
    const shared = this.shared;
    if (!shared) return this.here(now, choose);
    try {
      const outcome = await this.exchange(shared, now, choose);
      const at = clock();
      if (this.closed) return [];
      this.unrecorded = [];
      this.sends = outcome.window;
      if (at <= now + this.boundMs) {
        if (this.fallback) shared.onRecovered?.();
        this.fallback = null;
        this.prune(at);
        return outcome.chosen;
      }
      // A stalled event loop or a slow store: the round's sends are spent, and the store too slow to share the budget by now.
      this.fallBack(shared, new Error(`the shared upstream budget (${shared.log.engine}) answered after ${at - now} ms, past its bound of ${this.boundMs} ms`), at);
    } catch (error) {
      if (this.closed) return [];
      this.fallBack(shared, error, now);
    }
    return this.here(clock(), choose);
  }

  close(): void {
    this.closed = true;
  }

  /** Records this process's unrecorded sends with what `choose` lets through; rejects past the bound (the step may still finish later). */
  private async exchange(shared: SharedBudget, now: number, choose: Choose): Promise<{ window: Send[]; chosen: string[] }> {
    const unrecorded = this.unrecorded.filter((send) => send.at > now - this.windowMs);
    let outcome: { window: Send[]; chosen: string[] } = { window: [], chosen: [] };
    const step = shared.log.exchange(shared.scope, now, this.windowMs, (logged) => {
      const window = [...logged, ...unrecorded].sort((a, b) => a.at - b.at);
      const chosen = choose(window, this.limit);
      const sends = chosen.map((organization) => ({ organization, at: now + this.boundMs, process: this.process }));
      outcome = { window: [...window, ...sends], chosen };
      return [...unrecorded, ...sends];
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the shared upstream budget (${shared.log.engine}) did not answer within ${this.boundMs} ms`)), this.boundMs);
    });
    await Promise.race([step, late]).finally(() => clearTimeout(timer));
    return outcome;
  }

  private fallBack(shared: SharedBudget, error: unknown, now: number): void {
    const first = this.fallback === null;
    const processes = new Set(this.sends.map((send) => send.process)).add(this.process).size;
    const limit = this.fallback?.limit ?? Math.max(1, Math.floor(this.limit / Math.max(2, processes)));
    this.fallback = { limit, until: now + this.boundMs };
    // Others' sends are theirs to count against their own local shares now.
    this.sends = this.sends.filter((send) => send.process === this.process);
    if (first) shared.onFallback?.(error, limit);
  }
}
