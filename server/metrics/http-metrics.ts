import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { Counter, Histogram, type Registry } from "prom-client";
import { APP_ERROR_CODES } from "#contract/app-api/errors.ts";
import { KNOWN_ERROR_CODES } from "#contract/clinic-api/envelope.ts";
import type { AppEnv } from "../http/app-env.ts";

// docs/operations.md "The metrics": every request the public app answers, by route template
// (never the raw path), method and status class; and the 429s and 503s users
// were sent, by error code. Labels stay bounded: an unknown method or code is
// counted as `other`.

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const REFUSAL_STATUSES = new Set([429, 503]);
// A 503 may pass on a code of the service's, whose value space is open.
const KNOWN_CODES = new Set<string>([...Object.values(APP_ERROR_CODES), ...KNOWN_ERROR_CODES]);

/** Seconds; finer at the low end, where the BFF's own work is measured (DESIGN.md: 1 ms added). */
export const HTTP_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Mounted first on the public app. */
export function recordHttpRequests(registry: Registry): MiddlewareHandler<AppEnv> {
  const duration = new Histogram({
    name: "tandem_http_request_duration_seconds",
    help: "Requests the BFF answered and how long each took to its response headers (a live-event stream: to its opening), by Hono route template, method and status class",
    labelNames: ["route", "method", "status_class"] as const,
    buckets: HTTP_DURATION_BUCKETS,
    registers: [registry],
  });
  const refusals = new Counter({
    name: "tandem_http_refusals_total",
    help: "429 and 503 answers sent to users, by status and error code (`other` for a code Tandem does not know, `none` without an error body)",
    labelNames: ["status", "code"] as const,
    registers: [registry],
  });
  return async (c, next) => {
    const startedAt = performance.now();
    await next();
    const status = c.res.status;
    // The route that answered: a middleware's (`/api/*`) when it refused before any route was reached.
    duration.observe({ route: routePath(c), method: METHODS.has(c.req.method) ? c.req.method : "other", status_class: `${Math.floor(status / 100)}xx` }, (performance.now() - startedAt) / 1000);
    if (REFUSAL_STATUSES.has(status)) {
      const code = c.get("errorCode");
      refusals.inc({ status: String(status), code: code === undefined ? "none" : KNOWN_CODES.has(code) ? code : "other" });
    }
  };
}
