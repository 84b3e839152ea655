import { BudgetRefusal } from "./budget-refusal.ts";

// ADR 0017: one session must not use up its organization's share. Each user
// may have at most `limit` requests reach the service in any `windowMs`
// (sliding); cached and joined reads are free. Past it: refused with the wait
// (the BFF answers 429 with Retry-After).

export class UserRequestQuota {
  /** Per user, the times of requests in the window, oldest first. */
  private readonly sent = new Map<string, number[]>();
  private lastSweep = 0;
  private rejections = 0;

  constructor(private readonly options: { limit: number; windowMs: number; now: () => number }) {
    if (!(options.limit >= 1)) throw new RangeError("per-user limit must be at least 1");
  }

  /** Counts one request of `user` now, or throws a `user_quota` refusal; the refund gives it back if it never reached the service. */
  take(user: string): () => void {
    const { limit, windowMs } = this.options;
    const now = this.options.now();
    if (now - this.lastSweep >= windowMs) {
      this.lastSweep = now;
      for (const [other, times] of this.sent) if ((times.at(-1) ?? -Infinity) <= now - windowMs) this.sent.delete(other);
    }
    const times = this.sent.get(user) ?? [];
    this.sent.set(user, times);
    while ((times[0] ?? Infinity) <= now - windowMs) times.shift();
    if (times.length >= limit) {
      this.rejections += 1;
      const seconds = Math.max(1, Math.ceil(((times[0] ?? now) + windowMs - now) / 1000));
      const message = `You have made more requests to the clinic's data service than Tandem allows one person (${limit} in ${Math.round(windowMs / 1000)} s); try again in ${seconds} s`;
      throw new BudgetRefusal("user_quota", message, seconds);
    }
    times.push(now);
    let refunded = false;
    return () => {
      const index = refunded ? -1 : times.lastIndexOf(now);
      refunded = true;
      if (index >= 0) times.splice(index, 1);
    };
  }

  rejected(): number {
    return this.rejections;
  }
}
