import { describe, expect, it } from "vitest";
import { takeBudget } from "./take-budget.ts";
import { UpstreamError } from "./upstream-error.ts";

// The budget's refusals reach the BFF's callers as the client's own errors,
// with the status, code, message and Retry-After they had before the budget
// was a component of its own (ADR 0032). A hand-moved clock.

function budgetOf(options: { limit?: number; perUser?: number; user?: string; maxQueueMs?: number }) {
  const clock = { now: 0 };
  const budget = takeBudget({ scope: "key", limit: options.limit ?? 10, perUser: options.perUser, maxQueueMs: options.maxQueueMs ?? 0 }, () => options.user, () => clock.now);
  return { clock, budget };
}

describe("takeBudget", () => {
  it("past a user's quota: 429 rate_limited with the seconds until the oldest request leaves the window", () => {
    const { clock, budget } = budgetOf({ perUser: 2, user: "org-a|alice" });
    budget.chargeUser();
    clock.now = 15_000;
    budget.chargeUser();
    let refusal: unknown;
    try {
      budget.chargeUser();
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(UpstreamError);
    expect(refusal).toMatchObject({ status: 429, code: "rate_limited", retryAfterSeconds: 45, upstreamStatus: null });
    expect((refusal as UpstreamError).message).toBe("You have made more requests to the clinic's data service than Tandem allows one person (2 in 60 s); try again in 45 s");
    expect(budget.stats().rejectedByUser).toBe(1);
    budget.close();
  });

  it("no user, or no quota: nothing is counted", () => {
    for (const { budget } of [budgetOf({ perUser: 1 }), budgetOf({ user: "org-a|alice" })]) {
      for (let index = 0; index < 3; index += 1) expect(() => budget.chargeUser()).not.toThrow();
      budget.close();
    }
  });

  it("no room in the budget in time: 503 rate_limited with the wait", async () => {
    const { budget } = budgetOf({ limit: 1 });
    await budget.acquire("org-a");
    const refusal = await budget.acquire("org-a").catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(UpstreamError);
    expect(refusal).toMatchObject({ status: 503, code: "rate_limited", retryAfterSeconds: 60, message: "Too many requests to the Clinic Data Service; try again in 60 s" });
    expect(budget.stats()).toMatchObject({ rejected: 1 });
    budget.close();
  });

  it("closed with a request waiting: 503 upstream_unavailable, as a closed client answers", async () => {
    const { budget } = budgetOf({ limit: 1, maxQueueMs: 120_000 });
    await budget.acquire("org-a");
    const waiting = budget.acquire("org-a");
    budget.close();
    await expect(waiting).rejects.toMatchObject({ status: 503, code: "upstream_unavailable", message: "The clinic client is closed" });
  });
});
