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

export class RateLimiter {
  private windows = new Map<string, { startMs: number; count: number }>();

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
    const resetMs = startMs + windowMs;
    return {
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.count),
      resetAt: Math.ceil(resetMs / 1000),
      retryAfterSeconds: Math.max(1, Math.ceil((resetMs - now) / 1000)),
      limited,
    };
  }

  reset(): void {
    this.windows.clear();
  }
}
