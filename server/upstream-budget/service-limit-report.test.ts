import { describe, expect, it } from "vitest";
import { readServiceLimit } from "./service-limit-report.ts";

// What the limiters take from the service's rate-limit headers (seed 001
// "Errors"), and how far they trust them: nothing that is not a
// non-negative number, no wait beyond one window.

const NOW = Date.parse("2026-11-23T14:00:00.000Z");
const WINDOW_MS = 60_000;
const inSeconds = (ms: number) => String(Math.floor((NOW + ms) / 1000));

const read = (status: number, headers: Record<string, string>) => readServiceLimit(status, new Headers(headers), NOW, WINDOW_MS);

describe("readServiceLimit", () => {
  it("a 429: pause until Retry-After (seconds or an HTTP date), else X-RateLimit-Reset, else a second", () => {
    expect(read(429, { "retry-after": "7" })).toEqual({ retryAt: NOW + 7_000 });
    expect(read(429, { "retry-after": "1.5" })).toEqual({ retryAt: NOW + 1_500 });
    expect(read(429, { "retry-after": new Date(NOW + 9_000).toUTCString() })).toEqual({ retryAt: NOW + 9_000 });
    expect(read(429, { "x-ratelimit-reset": inSeconds(12_000) })).toEqual({ retryAt: NOW + 12_000 });
    expect(read(429, {})).toEqual({ retryAt: NOW + 1_000 });
  });

  it("a 429's Retry-After wins over its X-RateLimit-Remaining and Reset: the pause is what the service asked", () => {
    expect(read(429, { "retry-after": "2", "x-ratelimit-remaining": "0", "x-ratelimit-reset": inSeconds(50_000) })).toEqual({ retryAt: NOW + 2_000 });
  });

  it("an answer let through: what remains, until the reset, or for a window when there is none", () => {
    expect(read(200, { "x-ratelimit-remaining": "42", "x-ratelimit-reset": inSeconds(20_000) })).toEqual({ remaining: { count: 42, until: NOW + 20_000 } });
    expect(read(404, { "x-ratelimit-remaining": "3" })).toEqual({ remaining: { count: 3, until: NOW + WINDOW_MS } });
    expect(read(200, {})).toEqual({});
  });

  it("waits hours away are held to one window", () => {
    expect(read(429, { "retry-after": "21600" })).toEqual({ retryAt: NOW + WINDOW_MS });
    expect(read(429, { "retry-after": "99999999999999999999999" })).toEqual({ retryAt: NOW + WINDOW_MS });
    expect(read(429, { "x-ratelimit-reset": inSeconds(6 * 3_600_000) })).toEqual({ retryAt: NOW + WINDOW_MS });
    expect(read(200, { "x-ratelimit-remaining": "0", "x-ratelimit-reset": inSeconds(6 * 3_600_000) })).toEqual({ remaining: { count: 0, until: NOW + WINDOW_MS } });
  });

  it("negative, fractional, non-numeric and past values are ignored as if absent", () => {
    for (const retryAfter of ["-5", "NaN", "Infinity", "soon", "1e9", ""]) expect(read(429, { "retry-after": retryAfter })).toEqual({ retryAt: NOW + 1_000 });
    expect(read(429, { "retry-after": "-5", "x-ratelimit-reset": inSeconds(3_000) })).toEqual({ retryAt: NOW + 3_000 });
    // A reset already past: no pause at all (the service's window has ended).
    expect(read(429, { "x-ratelimit-reset": inSeconds(-30_000) })).toEqual({ retryAt: NOW });
    for (const remaining of ["-1", "NaN", "2.5", "lots", ""]) expect(read(200, { "x-ratelimit-remaining": remaining })).toEqual({});
    expect(read(200, { "x-ratelimit-remaining": "0", "x-ratelimit-reset": inSeconds(-1_000) })).toEqual({});
    expect(read(200, { "x-ratelimit-remaining": "5", "x-ratelimit-reset": "-3" })).toEqual({ remaining: { count: 5, until: NOW + WINDOW_MS } });
  });
});
