// What an answer says of the service's own limit (ADR 0017 addendum; seed 001
// "Errors": `X-RateLimit-Limit`, `-Remaining`, `-Reset` in Unix seconds, and
// `Retry-After` on a 429), read on any answer that has them. They come from
// outside: a value that is not a non-negative number is ignored, and no wait
// is trusted beyond `maxWaitMs`, one window (an honest one never is longer; a
// clock far off would otherwise stop every user for as long as it says).

export interface ServiceLimitReport {
  /** `count` requests left in the service's window, which ends at `until` (client clock). */
  remaining?: { count: number; until: number };
  /** After a 429: nothing more goes to this scope before then. */
  retryAt?: number;
}

const WHOLE = /^\d+$/;
const SECONDS = /^\d+(\.\d+)?$/;
/** RFC 9110's IMF-fixdate: `Date.parse` alone takes "-5" for a year. */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

function resetWaitMs(headers: Headers, now: number): number | null {
  const reset = headers.get("x-ratelimit-reset")?.trim();
  return reset && WHOLE.test(reset) ? Number(reset) * 1000 - now : null;
}

/** `Retry-After` (seconds or an HTTP date), else `X-RateLimit-Reset`, as a wait from `now`. */
function statedWaitMs(headers: Headers, now: number): number | null {
  const retryAfter = headers.get("retry-after")?.trim() ?? "";
  if (SECONDS.test(retryAfter)) return Number(retryAfter) * 1000;
  if (HTTP_DATE.test(retryAfter) && !Number.isNaN(Date.parse(retryAfter))) return Date.parse(retryAfter) - now;
  return resetWaitMs(headers, now);
}

export function readServiceLimit(status: number, headers: Headers, now: number, maxWaitMs: number): ServiceLimitReport {
  // A 429 that says nothing of when to come back: a second.
  if (status === 429) return { retryAt: now + Math.min(Math.max(0, statedWaitMs(headers, now) ?? 1_000), maxWaitMs) };
  const remaining = headers.get("x-ratelimit-remaining")?.trim();
  if (!remaining || !WHOLE.test(remaining)) return {};
  // Without a reset the count holds for a window from now, as the limiter counts; a window already ended says nothing.
  const resetMs = resetWaitMs(headers, now) ?? maxWaitMs;
  return resetMs <= 0 ? {} : { remaining: { count: Number(remaining), until: now + Math.min(resetMs, maxWaitMs) } };
}
