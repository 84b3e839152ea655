import { rateLimitedError, UpstreamError } from "./upstream-error.ts";

// DESIGN.md "Upstream": the service allows 1000 requests per 60 s (seed 001
// "Limits") and does not say what it counts per, so the bucket is
// configurable (`key` by default: the reading that can never exceed the
// limit). A sliding window, not a fixed one: no `windowMs` interval, wherever
// it starts, ever holds more than `limit` sends. A request that would exceed
// waits in a FIFO queue when its turn comes within `maxQueueMs`, and fails
// fast otherwise, so a user never waits on a queue that cannot drain in time.

const closedError = () => new UpstreamError({ status: 503, code: "upstream_unavailable", message: "The clinic client is closed" });

export interface RateLimiterOptions {
  limit: number;
  windowMs: number;
  maxQueueMs: number;
  now: () => number;
}

interface Waiter {
  /** When the waiter's turn is planned: the basis of the next waiter's estimate. */
  plannedAt: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

interface Bucket {
  /** Send times still inside the window, oldest first, from `head`. */
  sent: number[];
  head: number;
  waiters: Waiter[];
  timer: ReturnType<typeof setTimeout> | null;
}

export interface RateLimiterStats {
  queued: number;
  rejected: number;
}

/** Each organization's use of the window now: `sent` of the `allowance` it may send without waiting on anyone. */
export interface LimiterBudget {
  /** Sends allowed in any window (this process's share of the service's limit). */
  limit: number;
  organizations: { organization: string; sent: number; allowance: number }[];
}

export class SlidingWindowLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly counters: RateLimiterStats = { queued: 0, rejected: 0 };
  private closed = false;

  constructor(private readonly options: RateLimiterOptions) {
    if (options.limit < 1) throw new RangeError("limiter limit must be at least 1");
  }

  /** Resolves when a request may be sent now (its send is counted); rejects with `rate_limited` when its turn is too far. */
  acquire(key: string): Promise<void> {
    if (this.closed) return Promise.reject(closedError());
    const now = this.options.now();
    const bucket = this.bucketOf(key);
    this.prune(bucket, now);
    const live = bucket.sent.length - bucket.head;
    if (bucket.waiters.length === 0 && live < this.options.limit) {
      bucket.sent.push(now);
      return Promise.resolve();
    }
    const plannedAt = this.plannedTurn(bucket, now);
    const waitMs = plannedAt - now;
    if (waitMs > this.options.maxQueueMs) {
      this.counters.rejected += 1;
      return Promise.reject(rateLimitedError(waitMs / 1000, `Too many requests to the Clinic Data Service; try again in ${Math.ceil(waitMs / 1000)} s`));
    }
    this.counters.queued += 1;
    return new Promise<void>((resolve, reject) => {
      bucket.waiters.push({ plannedAt, resolve, reject });
      this.schedule(bucket, key);
    });
  }

  stats(): RateLimiterStats {
    return { ...this.counters };
  }

  /** Every bucket has the whole limit to itself. */
  budget(): LimiterBudget {
    const now = this.options.now();
    const organizations: LimiterBudget["organizations"] = [];
    for (const [organization, bucket] of this.buckets) {
      this.prune(bucket, now);
      const sent = bucket.sent.length - bucket.head;
      if (sent > 0 || bucket.waiters.length > 0) organizations.push({ organization, sent, allowance: this.options.limit });
    }
    return { limit: this.options.limit, organizations };
  }

  close(): void {
    this.closed = true;
    for (const bucket of this.buckets.values()) {
      if (bucket.timer) clearTimeout(bucket.timer);
      for (const waiter of bucket.waiters) waiter.reject(closedError());
    }
    this.buckets.clear();
  }

  private bucketOf(key: string): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { sent: [], head: 0, waiters: [], timer: null };
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  /** A send at `t` counts until `t + windowMs` (exclusive). */
  private prune(bucket: Bucket, now: number): void {
    const cutoff = now - this.options.windowMs;
    while (bucket.head < bucket.sent.length && (bucket.sent[bucket.head] ?? Infinity) <= cutoff) bucket.head += 1;
    if (bucket.head > 1024 && bucket.head * 2 > bucket.sent.length) {
      bucket.sent = bucket.sent.slice(bucket.head);
      bucket.head = 0;
    }
  }

  /**
   * The earliest time a new request at the back of the queue may be sent:
   * it is send number `live + queued` of the sequence (live sends, then the
   * waiters' planned sends), so it must wait until the send `limit` places
   * before it has left the window.
   */
  private plannedTurn(bucket: Bucket, now: number): number {
    const live = bucket.sent.length - bucket.head;
    const index = live + bucket.waiters.length - this.options.limit;
    if (index < 0) return now;
    const before = index < live ? bucket.sent[bucket.head + index] : bucket.waiters[index - live]?.plannedAt;
    return Math.max(now, (before ?? now) + this.options.windowMs);
  }

  private schedule(bucket: Bucket, key: string): void {
    if (bucket.timer !== null) return;
    const oldest = bucket.sent[bucket.head];
    const live = bucket.sent.length - bucket.head;
    const delay = live < this.options.limit || oldest === undefined ? 0 : Math.max(1, oldest + this.options.windowMs - this.options.now());
    bucket.timer = setTimeout(() => {
      bucket.timer = null;
      this.drain(bucket, key);
    }, delay);
  }

  private drain(bucket: Bucket, key: string): void {
    const now = this.options.now();
    this.prune(bucket, now);
    while (bucket.waiters.length > 0 && bucket.sent.length - bucket.head < this.options.limit) {
      const waiter = bucket.waiters.shift();
      bucket.sent.push(now);
      waiter?.resolve();
    }
    if (bucket.waiters.length > 0) this.schedule(bucket, key);
    else if (bucket.sent.length === bucket.head) this.buckets.delete(key);
  }
}
