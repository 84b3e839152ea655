import { randomUUID } from "node:crypto";
import { FairShareLimiter, type FairShareStats, type LimiterBudget, type SharedBudget } from "../fair-share-limiter.ts";
import type { ServiceLimitReport } from "../service-limit-report.ts";
import type { SharedSendLog } from "./send-log.ts";

// The clinic client's limiter (ADR 0026): ADR 0017's fair share, for the
// key or per organization, alone or shared by every process through a log.

export interface LimiterOptions {
  /**
   * DESIGN.md: the service does not say what its limit counts per; `key` can
   * never exceed it, and is shared fairly among organizations; `organization`
   * gives each one a limiter of its own (one member, no reserve).
   */
  scope: "key" | "organization";
  /** The service's limit per window, for every process together; default 1000 (seed 001 "Limits"). */
  limit?: number;
  windowMs?: number;
  maxQueueMs?: number;
  /**
   * Requests one user may have reach the service per window (ADR 0017); none
   * when absent. Needs the client's `requester` to know whose a call is.
   */
  perUser?: number;
  /** The log every process of the deployment counts in (shared-budget.ts); none: this process counts alone. Closed with the limiter. */
  shared?: SharedLimiterOptions;
}

export type SharedLimiterOptions = Omit<SharedBudget, "scope" | "process"> & { log: SharedSendLog; process?: string };

export interface UpstreamLimiter {
  acquire(bucket: string): Promise<void>;
  /** What an answer said of the service's limit, for the bucket's scope. */
  learn(bucket: string, report: ServiceLimitReport): void;
  /** When the bucket's scope may send again after a 429. */
  resumesAt(bucket: string): number;
  stats(): FairShareStats;
  budget(): LimiterBudget;
  close(): void;
}

export const limiterWindowMs = (options: LimiterOptions | undefined) => options?.windowMs ?? 60_000;

export function createLimiter(options: LimiterOptions | undefined, now: () => number): UpstreamLimiter {
  const limit = options?.limit ?? 1000;
  const windowMs = limiterWindowMs(options);
  const maxQueueMs = options?.maxQueueMs ?? 2_000;
  const shared = options?.shared;
  const process = shared?.process ?? randomUUID();
  const sharedIn = (scope: string): SharedBudget | undefined => (shared ? { ...shared, scope, process } : undefined);
  const limiter =
    (options?.scope ?? "key") === "key"
      ? new FairShareLimiter({ limit, windowMs, maxQueueMs, now, shared: sharedIn("key") })
      : new PerOrganizationLimiter((organization) => new FairShareLimiter({ limit, windowMs, maxQueueMs, now, reserve: 0, shared: sharedIn(`organization:${organization}`) }), limit, windowMs, now);
  return {
    acquire: (bucket) => limiter.acquire(bucket),
    learn: (bucket, report) => limiter.learn(bucket, report),
    resumesAt: (bucket) => limiter.resumesAt(bucket),
    stats: () => limiter.stats(),
    budget: () => limiter.budget(),
    close: () => {
      limiter.close();
      shared?.log.close().catch(() => undefined);
    },
  };
}

/** `RATE_LIMIT_SCOPE=organization`: a limiter per organization, dropped once idle (swept at most once a window). */
class PerOrganizationLimiter implements UpstreamLimiter {
  private readonly limiters = new Map<string, FairShareLimiter>();
  private readonly closedCounters: FairShareStats = { queued: 0, rejected: 0 };
  private lastSweep: number;

  constructor(
    private readonly create: (organization: string) => FairShareLimiter,
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {
    this.lastSweep = now();
  }

  acquire(organization: string): Promise<void> {
    this.sweep();
    return this.of(organization).acquire(organization);
  }

  learn(organization: string, report: ServiceLimitReport): void {
    this.of(organization).learn(organization, report);
  }

  resumesAt(organization: string): number {
    return this.limiters.get(organization)?.resumesAt(organization) ?? -Infinity;
  }

  stats(): FairShareStats {
    const total = { ...this.closedCounters };
    for (const limiter of this.limiters.values()) {
      const stats = limiter.stats();
      total.queued += stats.queued;
      total.rejected += stats.rejected;
    }
    return total;
  }

  budget(): LimiterBudget {
    const organizations = [...this.limiters.values()].flatMap((limiter) => limiter.budget().organizations);
    return { limit: this.limit, organizations };
  }

  close(): void {
    for (const limiter of this.limiters.values()) limiter.close();
    this.limiters.clear();
  }

  private of(organization: string): FairShareLimiter {
    let limiter = this.limiters.get(organization);
    if (!limiter) {
      limiter = this.create(organization);
      this.limiters.set(organization, limiter);
    }
    return limiter;
  }

  private sweep(): void {
    const now = this.now();
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [organization, limiter] of this.limiters) {
      if (!limiter.isIdle()) continue;
      const stats = limiter.stats();
      this.closedCounters.queued += stats.queued;
      this.closedCounters.rejected += stats.rejected;
      limiter.close();
      this.limiters.delete(organization);
    }
  }
}
