// What an answer of the Clinic Data Service says of its own rate limit, for
// the limiters (ADR 0017, addendum). Seed 001 "Errors": a 429 carries
// `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` (Unix
// seconds) and `Retry-After` (seconds); the emulator, like many services,
// sends the first three on every answer it lets through, so they are read on
// any answer that has them.
//
// These headers come from outside and may be broken or hostile: a value that
// is not a non-negative number is ignored as if absent, and no wait is
// trusted beyond `maxWaitMs`, one window of the limit (seed 001 "Limits":
// 1000 per 60 s). An honest Retry-After or Reset never lies further than the
// end of the current window; a larger one (a clock far off, a proxy's
// mistake, a window of an hour we were never told of) would otherwise stop
// every user for as long as it says. Capped, the worst a lie costs is one
// window's pause and one more 429 after it.

/** A 429 that says nothing of when to come back: wait a second. */
export const DEFAULT_RETRY_AFTER_MS = 1_000;

export interface ServiceLimitReport {
  /** On an answer the service let through: `count` requests left in its window, which ends at `until` (client clock, ms). */
  remaining?: { count: number; until: number };
  /** On a 429: nothing more goes to this scope before then (client clock, ms). */
  retryAt?: number;
}

const WHOLE = /^\d+$/;
const SECONDS = /^\d+(\.\d+)?$/;
/** RFC 9110's IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`: `Date.parse` alone takes "-5" for a year. */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** `Retry-After` (seconds or an HTTP date), else `X-RateLimit-Reset`, as a wait from `now`; null when neither is usable. */
function statedWaitMs(headers: Headers, now: number): number | null {
  const retryAfter = headers.get("retry-after")?.trim();
  if (retryAfter) {
    if (SECONDS.test(retryAfter)) return Number(retryAfter) * 1000;
    const date = HTTP_DATE.test(retryAfter) ? Date.parse(retryAfter) : Number.NaN;
    if (!Number.isNaN(date)) return date - now;
  }
  return resetWaitMs(headers, now);
}

function resetWaitMs(headers: Headers, now: number): number | null {
  const reset = headers.get("x-ratelimit-reset")?.trim();
  return reset && WHOLE.test(reset) ? Number(reset) * 1000 - now : null;
}

/** What `status` and `headers` say of the limit at `now`; an empty report when they say nothing usable. */
export function readServiceLimit(status: number, headers: Headers, now: number, maxWaitMs: number): ServiceLimitReport {
  if (status === 429) {
    const waitMs = statedWaitMs(headers, now) ?? DEFAULT_RETRY_AFTER_MS;
    return { retryAt: now + Math.min(Math.max(0, waitMs), maxWaitMs) };
  }
  const remaining = headers.get("x-ratelimit-remaining")?.trim();
  if (!remaining || !WHOLE.test(remaining)) return {};
  // Without a reset, the count is taken to hold for a whole window from now, as the limiters count.
  const resetMs = resetWaitMs(headers, now) ?? maxWaitMs;
  // A window that has already ended says nothing of the one running now.
  if (resetMs <= 0) return {};
  return { remaining: { count: Number(remaining), until: now + Math.min(resetMs, maxWaitMs) } };
}
