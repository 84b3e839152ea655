import { BudgetRefusal, createLimiter, limiterWindowMs, readServiceLimit, UserRequestQuota, type LimiterBudget, type LimiterOptions } from "../upstream-budget/index.ts";
import { rateLimitedError, UpstreamError } from "./upstream-error.ts";

// A read's step "take budget": the user's quota, then the upstream budget
// every process shares (server/upstream-budget/, ADR 0032). The one place the
// client calls the budget: its refusals become UpstreamErrors here, with the
// status the BFF answers (503 when the budget has no room in time, 429 past
// a user's own quota).

export interface ClientBudget {
  /** The limiter's window, which the service's report is read against. */
  windowMs: number;
  /** Counts a request of the caller's user against its quota, or throws 429; the refund gives it back if it never reached the service. */
  chargeUser(): () => void;
  /** Resolves when `organization` may send; rejects with 503 `rate_limited` when its turn is too far. */
  acquire(organization: string): Promise<void>;
  learn(organization: string, status: number, headers: Headers, now: number): void;
  /** When the organization's scope may send again after a 429. */
  resumesAt(organization: string): number;
  stats(): { queued: number; rejected: number; rejectedByUser: number };
  budget(): LimiterBudget;
  close(): void;
}

/** The refund of a request the user's quota did not count. */
export const noRefund = () => undefined;

/** `requester`: who a call is for (organization and user), which the per-user quota counts by. */
export function takeBudget(options: LimiterOptions | undefined, requester: (() => string | undefined) | undefined, now: () => number): ClientBudget {
  const limiter = createLimiter(options, now);
  const windowMs = limiterWindowMs(options);
  const perUser = options?.perUser;
  const userQuota = perUser === undefined ? null : new UserRequestQuota({ limit: perUser, windowMs, now });
  return {
    windowMs,
    chargeUser() {
      const user = userQuota ? requester?.() : undefined;
      if (!userQuota || user === undefined) return noRefund;
      try {
        return userQuota.take(user);
      } catch (error) {
        throw upstreamErrorOf(error);
      }
    },
    async acquire(organization) {
      try {
        await limiter.acquire(organization);
      } catch (error) {
        throw upstreamErrorOf(error);
      }
    },
    learn: (organization, status, headers, at) => limiter.learn(organization, readServiceLimit(status, headers, at, windowMs)),
    resumesAt: (organization) => limiter.resumesAt(organization),
    stats: () => ({ ...limiter.stats(), rejectedByUser: userQuota?.rejected() ?? 0 }),
    budget: () => limiter.budget(),
    close: () => limiter.close(),
  };
}

/** The same status, code, message and Retry-After as before the budget was a component of its own. */
function upstreamErrorOf(error: unknown): unknown {
  if (!(error instanceof BudgetRefusal)) return error;
  switch (error.code) {
    case "rate_limited":
      return rateLimitedError(error.retryAfterSeconds ?? 1, error.message);
    case "user_quota":
      return new UpstreamError({ status: 429, code: "rate_limited", message: error.message, retryAfterSeconds: error.retryAfterSeconds ?? 1 });
    case "closed":
      return new UpstreamError({ status: 503, code: "upstream_unavailable", message: "The clinic client is closed" });
  }
}
