// DESIGN.md "Upstream": retry only idempotent reads, with jittered
// exponential backoff; on 429 wait `Retry-After` (read, and bounded, in
// service-limit-report.ts). Durations are options so
// tests never wait in real time.

export interface RetryOptions {
  /** Retries of a GET after a 5xx (not 501), a timeout or a network error. */
  reads: number;
  baseDelayMs: number;
  /** The longest `Retry-After` the client waits out; a longer one fails at once with `rate_limited`. */
  maxRetryAfterMs: number;
  /** Retries after a 429 (any method: the request was not processed). */
  rateLimited: number;
}

export const DEFAULT_RETRY: RetryOptions = { reads: 2, baseDelayMs: 100, maxRetryAfterMs: 5_000, rateLimited: 2 };

/** "Equal jitter": half of the exponential step fixed, half random, so retries of many callers spread out. */
export function backoffDelayMs(retry: number, baseDelayMs: number, random: () => number = Math.random): number {
  const step = baseDelayMs * 2 ** Math.max(0, retry - 1);
  return step / 2 + random() * (step / 2);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
