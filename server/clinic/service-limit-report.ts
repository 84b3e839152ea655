// What an answer of the Clinic Data Service says of its own rate limit, for
// the limiter (ADR 0017, addendum). Seed 001 "Errors": a 429 carries
// `X-RateLimit-Limit`, `-Remaining`, `-Reset` (Unix seconds) and
// `Retry-After` (seconds); the emulator, like many services, sends the first
// three on every answer, so they are read on any answer that has them.
//
// These headers come from outside and may be broken or hostile: a value that
// is not a non-negative number is ignored as if absent, and no wait is
// trusted beyond `maxWaitMs`, one window of the limit. An honest wait never
// lies past the end of the current window; a larger one (a clock far off, a
// proxy's mistake) would otherwise stop every user for as long as it says.

export interface ServiceLimitReport {
  /** On an answer the service let through: `count` requests left in its window, which ends at `until` (client clock, ms). */
  remaining?: { count: number; until: number };
  /** On a 429: nothing more goes to this scope before then (client clock, ms). */
  retryAt?: number;
}

/** A 429 that says nothing of when to come back: wait a second. */
const DEFAULT_RETRY_AFTER_MS = 1_000;
const WHOLE = /^\d+$/;
const SECONDS = /^\d+(\.\d+)?$/;
/** RFC 9110's IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`: `Date.parse` alone takes "-5" for a year. */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

function resetWaitMs(headers: Headers, now: number): number | null {
  const reset = headers.get("x-ratelimit-reset")?.trim();
  return reset && WHOLE.test(reset) ? Number(reset) * 1000 - now : null;
}

/** `Retry-After` (seconds or an HTTP date), else `X-RateLimit-Reset`, as a wait from `now`; null when neither is usable. */
function statedWaitMs(headers: Headers, now: number): number | null {
  const retryAfter = headers.get("retry-after")?.trim() ?? "";
  if (SECONDS.test(retryAfter)) return Number(retryAfter) * 1000;
  if (HTTP_DATE.test(retryAfter) && !Number.isNaN(Date.parse(retryAfter))) return Date.parse(retryAfter) - now;
  return resetWaitMs(headers, now);
}

/** What `status` and `headers` say of the limit at `now`; an empty report when they say nothing usable. */
export function readServiceLimit(status: number, headers: Headers, now: number, maxWaitMs: number): ServiceLimitReport {
  if (status === 429) return { retryAt: now + Math.min(Math.max(0, statedWaitMs(headers, now) ?? DEFAULT_RETRY_AFTER_MS), maxWaitMs) };
  const remaining = headers.get("x-ratelimit-remaining")?.trim();
  if (!remaining || !WHOLE.test(remaining)) return {};
  // Without a reset, the count is taken to hold for a whole window from now, as the limiter counts.
  const resetMs = resetWaitMs(headers, now) ?? maxWaitMs;
  // A window that has already ended says nothing of the one running now.
  return resetMs <= 0 ? {} : { remaining: { count: Number(remaining), until: now + Math.min(resetMs, maxWaitMs) } };
}
