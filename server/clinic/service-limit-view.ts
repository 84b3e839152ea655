import type { ServiceLimitReport } from "./service-limit-report.ts";

// What the service has said of one limiter scope's budget (the key's with
// `RATE_LIMIT_SCOPE=key`, an organization's with `organization`), which the
// limiter's own count cannot know (ADR 0017, addendum):
//
// - others' use: when an answer says fewer requests remain than the limiter
//   believes, someone else on the same budget spent the difference (another
//   BFF process, another app on the key). It is counted like the limiter's
//   own sends until the service's window ends.
// - a pause: after a 429, nothing goes to the scope until the service's
//   `Retry-After` has passed, whoever asks.
//
// The service is believed only when it says less is left, never more: a
// late answer from earlier in the window must not give back what was spent.

interface OthersUse {
  count: number;
  /** When the service's window that counts them ends. */
  leavesAt: number;
}

export class ServiceLimitView {
  /** Ordered by `leavesAt`, earliest first; one entry per window end (the service's reset is the same for a whole window). */
  private others: OthersUse[] = [];
  private othersTotal = 0;
  private pausedUntilMs = -Infinity;

  /**
   * Takes in a report heard at `now`, while the limiter believes `believed`
   * requests are left in the scope's window (the service's limit being the
   * limiter's, this process's share of it at most).
   */
  hear(report: ServiceLimitReport, now: number, believed: number): void {
    if (report.retryAt !== undefined) this.pausedUntilMs = Math.max(this.pausedUntilMs, report.retryAt);
    const remaining = report.remaining;
    if (remaining === undefined || remaining.count >= believed || remaining.until <= now) return;
    const count = believed - remaining.count;
    this.othersTotal += count;
    const same = this.others.find((other) => other.leavesAt === remaining.until);
    if (same) {
      same.count += count;
      return;
    }
    const index = this.others.findIndex((other) => other.leavesAt > remaining.until);
    this.others.splice(index < 0 ? this.others.length : index, 0, { count, leavesAt: remaining.until });
  }

  /** Forgets others' use whose window has ended. */
  prune(now: number): void {
    while (this.others[0] && this.others[0].leavesAt <= now) this.othersTotal -= this.others.shift()?.count ?? 0;
  }

  /** Others' use still counted (after `prune`). */
  othersCount(): number {
    return this.othersTotal;
  }

  /** When the scope may send again after a 429; in the past when it is not paused. */
  pausedUntil(): number {
    return this.pausedUntilMs;
  }

  isPaused(now: number): boolean {
    return now < this.pausedUntilMs;
  }

  /** Up to `count` times at which others' use leaves, earliest first, one per request. */
  leaveTimes(count: number): number[] {
    const times: number[] = [];
    for (const other of this.others) {
      for (let index = 0; index < other.count && times.length < count; index += 1) times.push(other.leavesAt);
      if (times.length >= count) break;
    }
    return times;
  }

  /** The next instant something here changes after `now` (others' use leaving, the pause ending); Infinity if none. */
  nextChange(now: number): number {
    let at = this.others[0]?.leavesAt ?? Infinity;
    if (this.pausedUntilMs > now) at = Math.min(at, this.pausedUntilMs);
    return at;
  }

  /** Nothing said still matters at `now` (after `prune`). */
  isIdle(now: number): boolean {
    return this.others.length === 0 && !this.isPaused(now);
  }
}
