import { Hono } from "hono";
import type { Clock } from "../clock.ts";
import type { RateLimiter } from "../http/rate-limiter.ts";

// GET /_sandbox/request-stats: what the emulator's rate limiter has counted,
// per data key and organization (its bucket, DESIGN.md "The emulator"), since
// start or the last reset. Read-only; for benchmarks (`bench/load-bench.ts`)
// that need upstream requests per key per minute as the service saw them.
// Keys are shown masked (the sandbox keys are public, but no key is echoed whole).

/** `svc_dev_ak_5a0d…d4e5`: enough to tell the sandbox keys apart. */
export const maskKey = (key: string) => (key.length > 20 ? `${key.slice(0, 15)}…${key.slice(-4)}` : "…");

export function createRequestStatsRoutes({ limiter, clock }: { limiter: RateLimiter; clock: Clock }): Hono {
  const app = new Hono();
  app.get("/request-stats", (c) => {
    const buckets = limiter.totalsByBucket().map(({ bucket, windowStartMs, ...totals }) => {
      const separator = bucket.indexOf("|");
      const key = separator < 0 ? bucket : bucket.slice(0, separator);
      const organization = separator < 0 ? "-" : bucket.slice(separator + 1);
      return { key: maskKey(key), organizationId: organization === "-" ? null : organization, ...totals, windowStart: new Date(windowStartMs).toISOString() };
    });
    return c.json({ now: new Date(clock.now()).toISOString(), ...limiter.settings, buckets });
  });
  return app;
}
