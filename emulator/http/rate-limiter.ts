import type { Clock } from "../clock.ts";

// Seed 001 "Limits": 1000 requests per 60 s. DESIGN.md: the emulator counts
// per key and organization. A fixed window aligned to the emulator's clock.

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  resetAt: number;
  retryAfterSeconds: number;
  limited: boolean;
}

/** What one bucket (`key|organization`) has seen since start or the last reset (`GET /_sandbox/request-stats`). */
export interface RateLimitBucketTotals {
  bucket: string;
  /** Requests let through, counted against the limit. */
  counted: number;
  /** Requests refused with 429. */
  limited: number;
  /** The most requests counted in any one window so far. */
  peakWindowCount: number;
  /** The current window (its start on the emulator's clock, ms) and what it has counted. */
  windowStartMs: number;
  windowCount: number;
}

export class RateLimiter {
  private windows = new Map<string, { startMs: number; count: number }>();
  private totals = new Map<string, { counted: number; limited: number; peakWindowCount: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly limit = 1000,
    private readonly windowSeconds = 60,
  ) {}

  hit(bucket: string): RateLimitState {
    const now = this.clock.now();
    const windowMs = this.windowSeconds * 1000;
    const startMs = Math.floor(now / windowMs) * windowMs;
    let window = this.windows.get(bucket);
    if (!window || window.startMs !== startMs) {
      window = { startMs, count: 0 };
      this.windows.set(bucket, window);
    }
    const limited = window.count >= this.limit;
    if (!limited) window.count += 1;
    this.tally(bucket, limited, window.count);
    const resetMs = startMs + windowMs;
    return {
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.count),
      resetAt: Math.ceil(resetMs / 1000),
      retryAfterSeconds: Math.max(1, Math.ceil((resetMs - now) / 1000)),
      limited,
    };
  }

  /** Cumulative counts per bucket (read-only; for the sandbox's request stats). */
  totalsByBucket(): RateLimitBucketTotals[] {
    return [...this.totals].map(([bucket, totals]) => {
      const window = this.windows.get(bucket);
      return { bucket, ...totals, windowStartMs: window?.startMs ?? 0, windowCount: window?.count ?? 0 };
    });
  }

  get settings(): { limit: number; windowSeconds: number } {
    return { limit: this.limit, windowSeconds: this.windowSeconds };
  }

  reset(): void {
    this.windows.clear();
    this.totals.clear();
  }

  private tally(bucket: string, limited: boolean, windowCount: number): void {
    let totals = this.totals.get(bucket);
    if (!totals) {
      totals = { counted: 0, limited: 0, peakWindowCount: 0 };
      this.totals.set(bucket, totals);
    }
    if (limited) totals.limited += 1;
    else totals.counted += 1;
    totals.peakWindowCount = Math.max(totals.peakWindowCount, windowCount);
  }
}
