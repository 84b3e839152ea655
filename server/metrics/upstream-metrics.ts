import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { ClinicClient, UpstreamAttempt } from "../clinic/clinic-client.ts";

// docs/operations.md "The metrics": calls to the Clinic Data Service and the key's budget.
// Attempts are observed as they finish; the budget and the client's counters
// are read when Prometheus scrapes. Organization ids label only the budget
// figures (a few hundred organizations at most, and only those active in the
// limiter's window).

const UPSTREAM_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The observer the upstream client is given (`onAttempt`). */
export function recordUpstreamAttempts(registry: Registry): (attempt: UpstreamAttempt) => void {
  const duration = new Histogram({
    name: "tandem_upstream_request_duration_seconds",
    help: "Requests sent to the Clinic Data Service (each attempt, retries included) and how long each took, by method, path template and HTTP status (`timeout` or `unreachable` without one)",
    labelNames: ["method", "route", "status"] as const,
    buckets: UPSTREAM_DURATION_BUCKETS,
    registers: [registry],
  });
  return (attempt) => {
    const [method = "", route = ""] = attempt.route.split(" ");
    duration.observe({ method, route, status: String(attempt.status) }, attempt.seconds);
  };
}

/** A counter that follows a running total kept elsewhere. */
function followTotal(registry: Registry, name: string, help: string, read: () => number): void {
  let reported = 0;
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const total = read();
      if (total > reported) this.inc(total - reported);
      reported = total;
    },
  });
}

export function registerUpstreamGauges(registry: Registry, clinic: Pick<ClinicClient, "budget" | "stats">): void {
  new Gauge({
    name: "tandem_upstream_budget_remaining_ratio",
    help: "Per organization (`app`: calls made for none), the part of its allowance in the limiter's window it has not used: 1 nothing sent, 0 at or past it (it then only borrows what others leave). The allowance is its fair share of the key's budget (RATE_LIMIT_SCOPE=key) or the whole limit (organization)",
    labelNames: ["organization_id"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const { organization, sent, allowance } of clinic.budget().organizations) this.set({ organization_id: organization }, Math.max(0, allowance - sent) / allowance);
    },
  });
  new Gauge({
    name: "tandem_upstream_window_requests",
    help: "Per organization, requests sent to the service in the limiter's sliding window (60 s): by every BFF process when they share the budget (DATABASE_URL or REDIS_URL, ADR 0026), as of this process's last round with the store",
    labelNames: ["organization_id"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const { organization, sent } of clinic.budget().organizations) this.set({ organization_id: organization }, sent);
    },
  });
  new Gauge({
    name: "tandem_upstream_window_limit_requests",
    help: "Requests the limiter allows in its window: the service's limit, shared by every BFF process (ADR 0026), for the key or, with RATE_LIMIT_SCOPE=organization, for each organization",
    registers: [registry],
    collect() {
      this.set(clinic.budget().limit);
    },
  });
  followTotal(registry, "tandem_upstream_cache_hits_total", "Reads answered from the BFF's cache without a call to the service", () => clinic.stats().cacheHits);
  followTotal(registry, "tandem_upstream_coalesced_reads_total", "Reads that joined an identical read already on its way to the service", () => clinic.stats().coalesced);
  followTotal(registry, "tandem_upstream_shared_answer_hits_total", "Reads answered from the answers another BFF process kept in Redis (REDIS_URL) without a call to the service", () => clinic.stats().sharedAnswerHits);
  followTotal(registry, "tandem_upstream_refreshed_ahead_total", "Cached schedule reads read again in the background before they expired: once a newer sync of their mirror showed, or to find one near their bound", () => clinic.stats().refreshedAhead);
  followTotal(registry, "tandem_upstream_retries_total", "Attempts repeated after a failed read or a 429 from the service", () => clinic.stats().retries);
  const mechanismUses = new Map<string, number>();
  new Counter({
    name: "tandem_bench_mechanism_uses_total",
    help: "Bench only (BENCH_DISABLE): how often each performance mechanism of the upstream client did its work; `on` says whether it was on",
    labelNames: ["mechanism", "on"] as const,
    registers: [registry],
    collect() {
      for (const [mechanism, { on, uses }] of Object.entries(clinic.stats().benchMechanisms)) {
        this.inc({ mechanism, on: String(on) }, Math.max(0, uses - (mechanismUses.get(mechanism) ?? 0)));
        mechanismUses.set(mechanism, uses);
      }
    },
  });
  const intakeFailed = { failed: 0, timeout: 0 };
  new Counter({
    name: "tandem_upstream_intake_failures_total",
    help: "Answers of the service the intake thread could not take in: `failed` (its worker died, e.g. its heap ran out, or was closed) or `timeout` (no reply in 5 s). Each failed its read with 503 intake_failed; none is taken in on the event loop instead",
    labelNames: ["reason"] as const,
    registers: [registry],
    collect() {
      const stats = clinic.stats();
      const totals = { failed: stats.intakeFailures, timeout: stats.intakeTimeouts };
      for (const reason of ["failed", "timeout"] as const) {
        this.inc({ reason }, Math.max(0, totals[reason] - intakeFailed[reason]));
        intakeFailed[reason] = totals[reason];
      }
    },
  });
  const rejected = { key_budget: 0, user: 0 };
  new Counter({
    name: "tandem_upstream_limiter_rejections_total",
    help: "Requests the BFF refused before calling the service: `key_budget` the key's budget could not take them in time (users got 503 rate_limited), `user` past UPSTREAM_USER_LIMIT (429 rate_limited)",
    labelNames: ["limiter"] as const,
    registers: [registry],
    collect() {
      const stats = clinic.stats();
      const totals = { key_budget: stats.rejectedByLimiter, user: stats.rejectedByUserLimit };
      for (const limiter of ["key_budget", "user"] as const) {
        // Both series exist from the first scrape, so a rate over them is defined before the first rejection.
        this.inc({ limiter }, Math.max(0, totals[limiter] - rejected[limiter]));
        rejected[limiter] = totals[limiter];
      }
    },
  });
}
