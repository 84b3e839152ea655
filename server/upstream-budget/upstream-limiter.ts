import { randomUUID } from "node:crypto";
import { FairShareLimiter, type LimiterBudget, type LimiterCounters } from "./fair-share-limiter.ts";
import type { ServiceLimitReport } from "./service-limit-report.ts";
import type { SharedBudget } from "./send-log.ts";

// One FairShareLimiter per scope (ADR 0026): `key`, one for the key;
// `organization`, one per organization with no reserve. Idle ones are
// dropped, swept once a window.

export interface LimiterOptions {
  /** DESIGN.md: the service does not say what its limit counts per; `key` can never exceed it. */
  scope: "key" | "organization";
  /** Per window, every process together; default 1000 (seed 001 "Limits"). */
  limit?: number;
  windowMs?: number;
  maxQueueMs?: number;
  /** Each user's own requests per window (user-request-quota.ts, which the client builds from it); none when absent. */
  perUser?: number;
  /** shared-budget.ts; none: this process alone. Closed with the limiter. */
  shared?: SharedLimiterOptions;
}

export type SharedLimiterOptions = Omit<SharedBudget, "scope" | "process"> & { process?: string };

export interface UpstreamLimiter {
  acquire(bucket: string): Promise<void>;
  learn(bucket: string, report: ServiceLimitReport): void;
  /** When the bucket's scope may send again after a 429. */
  resumesAt(bucket: string): number;
  stats(): LimiterCounters;
  budget(): LimiterBudget;
  close(): void;
}

export const limiterWindowMs = (options: LimiterOptions | undefined) => options?.windowMs ?? 60_000;

export function createLimiter(options: LimiterOptions | undefined, now: () => number): UpstreamLimiter {
  const limit = options?.limit ?? 1000;
  const windowMs = limiterWindowMs(options);
  const perOrganization = options?.scope === "organization";
  const shared = options?.shared;
  const process = shared?.process ?? randomUUID();
  const counters: LimiterCounters = { queued: 0, rejected: 0 };
  const limiters = new Map<string, FairShareLimiter>();
  const scopeOf = (bucket: string) => (perOrganization ? `organization:${bucket}` : "key");
  const limiterOf = (bucket: string) => {
    const scope = scopeOf(bucket);
    let limiter = limiters.get(scope);
    if (!limiter) {
      limiter = new FairShareLimiter({ limit, windowMs, maxQueueMs: options?.maxQueueMs ?? 2_000, now, counters, ...(perOrganization && { reserve: 0 }), ...(shared && { shared: { ...shared, scope, process } }) });
      limiters.set(scope, limiter);
    }
    return limiter;
  };
  let lastSweep = now();
  const sweep = () => {
    if (now() - lastSweep < windowMs) return;
    lastSweep = now();
    for (const [scope, limiter] of limiters) {
      if (!limiter.isIdle()) continue;
      limiter.close();
      limiters.delete(scope);
    }
  };
  return {
    acquire(bucket) {
      sweep();
      return limiterOf(bucket).acquire(bucket);
    },
    learn: (bucket, report) => limiterOf(bucket).learn(bucket, report),
    resumesAt: (bucket) => limiters.get(scopeOf(bucket))?.resumesAt() ?? -Infinity,
    stats: () => ({ ...counters }),
    budget: () => ({ limit, organizations: [...limiters.values()].flatMap((limiter) => limiter.budget().organizations) }),
    close() {
      for (const limiter of limiters.values()) limiter.close();
      limiters.clear();
      shared?.log.close().catch(() => undefined);
    },
  };
}
