import { UpstreamError } from "./upstream-error.ts";

// ADR 0017: one session must not use up its
// organization's fair share of the service. Each user (organization and
// user id) may have at most `limit` requests reach the service in any
// `windowMs` (sliding); the client asks only for requests that go upstream,
// so answers from the cache or joined to a read already in flight are free.
// Past the limit the BFF answers 429 `rate_limited` with Retry-After.

export interface UserRequestQuotaOptions {
  limit: number;
  windowMs: number;
  now: () => number;
}

function userLimitedError(limit: number, windowMs: number, waitMs: number): UpstreamError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new UpstreamError({
    status: 429,
    code: "rate_limited",
    message: `You have made more requests to the clinic's data service than Tandem allows one person (${limit} in ${Math.round(windowMs / 1000)} s); try again in ${seconds} s`,
    retryAfterSeconds: seconds,
  });
}

export class UserRequestQuota {
  /** Per user, the times of requests still in the window, oldest first. */
  private readonly sent = new Map<string, number[]>();
  private lastSweep = 0;
  private rejections = 0;

  constructor(private readonly options: UserRequestQuotaOptions) {
    if (!(options.limit >= 1)) throw new RangeError("per-user limit must be at least 1");
  }

  /**
   * Counts one request of `user` now, or throws 429 `rate_limited` when it
   * already has `limit` in the window. Returns a refund, for a request that
   * did not reach the service after all (the key's limiter refused it).
   */
  take(user: string): () => void {
    const now = this.options.now();
    this.sweep(now);
    const times = this.sent.get(user) ?? [];
    this.sent.set(user, times);
    const cutoff = now - this.options.windowMs;
    while (times.length > 0 && (times[0] ?? Infinity) <= cutoff) times.shift();
    const oldest = times[0];
    if (times.length >= this.options.limit && oldest !== undefined) {
      this.rejections += 1;
      throw userLimitedError(this.options.limit, this.options.windowMs, oldest + this.options.windowMs - now);
    }
    times.push(now);
    let refunded = false;
    return () => {
      if (refunded) return;
      refunded = true;
      const index = times.lastIndexOf(now);
      if (index >= 0) times.splice(index, 1);
    };
  }

  rejected(): number {
    return this.rejections;
  }

  /** Forgets users with nothing in the window, at most once a window. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.options.windowMs) return;
    this.lastSweep = now;
    const cutoff = now - this.options.windowMs;
    for (const [user, times] of this.sent) if ((times.at(-1) ?? -Infinity) <= cutoff) this.sent.delete(user);
  }
}
