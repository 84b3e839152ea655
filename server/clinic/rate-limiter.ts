import type { ServiceLimitReport } from "./service-limit-report.ts";
import { ServiceLimitView } from "./service-limit-view.ts";
import { rateLimitedError, UpstreamError } from "./upstream-error.ts";

// DESIGN.md "Upstream": the service allows 1000 requests per 60 s (seed 001
// "Limits") and does not say what it counts per, so the bucket is
// configurable (`key` by default: the reading that can never exceed the
// limit). A sliding window, not a fixed one: no `windowMs` interval, wherever
// it starts, ever holds more than `limit` sends. A request that would exceed
// waits in a FIFO queue when its turn comes within `maxQueueMs`, and fails
// fast otherwise, so a user never waits on a queue that cannot drain in time.
//
// What the service says of a bucket (`learn`) is heeded for that bucket only:
// the use by others it reports counts like sends until its window ends, and
// after a 429 nothing goes until its Retry-After has passed; a waiter whose
// deadline (`maxQueueMs` after it asked) comes first fails at once.

const closedError = () => new UpstreamError({ status: 503, code: "upstream_unavailable", message: "The clinic client is closed" });

const tooManyError = (waitMs: number) => rateLimitedError(waitMs / 1000, `Too many requests to the Clinic Data Service; try again in ${Math.max(1, Math.ceil(waitMs / 1000))} s`);

export interface RateLimiterOptions {
  limit: number;
  windowMs: number;
  maxQueueMs: number;
  now: () => number;
}

interface Waiter {
  /** When the waiter's turn is planned: the basis of the next waiter's estimate. */
  plannedAt: number;
  /** It fails if still waiting then. */
  deadline: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

interface Bucket {
  /** Send times still inside the window, oldest first, from `head`. */
  sent: number[];
  head: number;
  waiters: Waiter[];
  timer: ReturnType<typeof setTimeout> | null;
  service: ServiceLimitView;
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
    if (bucket.waiters.length === 0 && this.canSend(bucket, now)) {
      bucket.sent.push(now);
      return Promise.resolve();
    }
    const plannedAt = this.plannedTurn(bucket, now);
    const waitMs = plannedAt - now;
    if (waitMs > this.options.maxQueueMs) {
      this.counters.rejected += 1;
      return Promise.reject(tooManyError(waitMs));
    }
    this.counters.queued += 1;
    return new Promise<void>((resolve, reject) => {
      bucket.waiters.push({ plannedAt, deadline: now + this.options.maxQueueMs, resolve, reject });
      this.schedule(bucket, key, now);
    });
  }

  /** Takes in what an answer for `key`'s bucket said of the service's limit (service-limit-report.ts). */
  learn(key: string, report: ServiceLimitReport): void {
    if (this.closed) return;
    const now = this.options.now();
    const bucket = this.bucketOf(key);
    this.prune(bucket, now);
    bucket.service.hear(report, now, this.options.limit - this.liveOf(bucket));
    if (bucket.waiters.length > 0) this.drain(bucket, key);
  }

  /** When `key`'s bucket may send again after a 429 (in the past when it may now). */
  resumesAt(key: string): number {
    return this.buckets.get(key)?.service.pausedUntil() ?? -Infinity;
  }

  stats(): RateLimiterStats {
    return { ...this.counters };
  }

  /** Every bucket has the whole limit to itself, less what others spent of it as the service told. */
  budget(): LimiterBudget {
    const now = this.options.now();
    const organizations: LimiterBudget["organizations"] = [];
    for (const [organization, bucket] of this.buckets) {
      this.prune(bucket, now);
      const sent = bucket.sent.length - bucket.head;
      if (sent > 0 || bucket.waiters.length > 0) organizations.push({ organization, sent, allowance: Math.max(1, this.options.limit - bucket.service.othersCount()) });
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
      bucket = { sent: [], head: 0, waiters: [], timer: null, service: new ServiceLimitView() };
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  /** A send at `t` counts until `t + windowMs` (exclusive). */
  private prune(bucket: Bucket, now: number): void {
    bucket.service.prune(now);
    const cutoff = now - this.options.windowMs;
    while (bucket.head < bucket.sent.length && (bucket.sent[bucket.head] ?? Infinity) <= cutoff) bucket.head += 1;
    if (bucket.head > 1024 && bucket.head * 2 > bucket.sent.length) {
      bucket.sent = bucket.sent.slice(bucket.head);
      bucket.head = 0;
    }
  }

  /** Sends in the window, others' use the service told of included (after `prune`). */
  private liveOf(bucket: Bucket): number {
    return bucket.sent.length - bucket.head + bucket.service.othersCount();
  }

  private canSend(bucket: Bucket, now: number): boolean {
    return !bucket.service.isPaused(now) && this.liveOf(bucket) < this.options.limit;
  }

  /** Up to `count` times at which sends in the window leave it (others' use included), earliest first. */
  private leaveTimes(bucket: Bucket, count: number): number[] {
    const times = bucket.service.leaveTimes(count);
    const end = Math.min(bucket.sent.length, bucket.head + count);
    for (let index = bucket.head; index < end; index += 1) times.push((bucket.sent[index] ?? 0) + this.options.windowMs);
    return times.sort((a, b) => a - b).slice(0, count);
  }

  /**
   * The earliest time a new request at the back of the queue may be sent:
   * it is send number `live + queued` of the sequence (live sends, then the
   * waiters' planned sends), so it must wait until the send `limit` places
   * before it has left the window, and until a pause has ended.
   */
  private plannedTurn(bucket: Bucket, now: number): number {
    const live = this.liveOf(bucket);
    const index = live + bucket.waiters.length - this.options.limit;
    const paused = bucket.service.pausedUntil();
    if (index < 0) return Math.max(now, paused);
    const leaves = index < live ? this.leaveTimes(bucket, index + 1)[index] : (bucket.waiters[index - live]?.plannedAt ?? now) + this.options.windowMs;
    return Math.max(now, paused, leaves ?? now);
  }

  /** One timer per bucket with waiters: when room frees, the pause ends or the first deadline comes. */
  private schedule(bucket: Bucket, key: string, now: number): void {
    if (bucket.timer !== null) clearTimeout(bucket.timer);
    bucket.timer = null;
    const first = bucket.waiters[0];
    if (!first) return;
    let at = Math.min(first.deadline, bucket.service.nextChange(now));
    if (this.liveOf(bucket) >= this.options.limit) at = Math.min(at, this.leaveTimes(bucket, 1)[0] ?? at);
    else if (!bucket.service.isPaused(now)) at = now;
    bucket.timer = setTimeout(
      () => {
        bucket.timer = null;
        this.drain(bucket, key);
      },
      Math.max(0, at - now),
    );
  }

  private drain(bucket: Bucket, key: string): void {
    if (bucket.timer !== null) clearTimeout(bucket.timer);
    bucket.timer = null;
    const now = this.options.now();
    this.prune(bucket, now);
    while (bucket.waiters.length > 0 && this.canSend(bucket, now)) {
      const waiter = bucket.waiters.shift();
      bucket.sent.push(now);
      waiter?.resolve();
    }
    while (bucket.waiters[0] && (bucket.waiters[0].deadline <= now || bucket.waiters[0].deadline < bucket.service.pausedUntil())) {
      const waiter = bucket.waiters.shift();
      this.counters.rejected += 1;
      waiter?.reject(tooManyError(this.plannedTurn(bucket, now) - now));
    }
    if (bucket.waiters.length > 0) this.schedule(bucket, key, now);
    else if (bucket.sent.length === bucket.head && bucket.service.isIdle(now)) this.buckets.delete(key);
  }
}
