import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLimiter } from "./upstream-limiter.ts";

// RATE_LIMIT_SCOPE=organization is the one limiter once per organization
// (ADR 0026): each has the whole limit and no reserve, and one organization
// filling its window leaves the others theirs.

describe("createLimiter, scope organization", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const perOrganization = () => createLimiter({ scope: "organization", limit: 5, windowMs: 1_000, maxQueueMs: 200 }, Date.now);

  it("each organization has the whole limit: one filling its window does not hold another", async () => {
    const limiter = perOrganization();
    await Promise.all(Array.from({ length: 5 }, () => limiter.acquire("org-a")));
    await expect(limiter.acquire("org-a")).rejects.toMatchObject({ code: "rate_limited", retryAfterSeconds: 1 });
    await Promise.all(Array.from({ length: 5 }, () => limiter.acquire("org-b")));
    expect(limiter.budget()).toEqual({
      limit: 5,
      organizations: [
        { organization: "org-a", sent: 5, allowance: 5 },
        { organization: "org-b", sent: 5, allowance: 5 },
      ],
    });
    expect(limiter.stats()).toEqual({ queued: 0, rejected: 1 });
  });

  it("a 429 holds only its organization", async () => {
    const limiter = perOrganization();
    limiter.learn("org-a", { retryAt: 500 });
    expect(limiter.resumesAt("org-a")).toBe(500);
    expect(limiter.resumesAt("org-b")).toBe(-Infinity);
    await limiter.acquire("org-b");
  });

  it("forgets an organization idle for a window, keeping its counts in the stats", async () => {
    const limiter = perOrganization();
    await limiter.acquire("org-a");
    await expect(Promise.all(Array.from({ length: 6 }, () => limiter.acquire("org-b")))).rejects.toMatchObject({ code: "rate_limited" });
    await vi.advanceTimersByTimeAsync(1_000);
    await limiter.acquire("org-c");
    expect(limiter.budget().organizations.map((entry) => entry.organization)).toEqual(["org-c"]);
    expect(limiter.stats().rejected).toBe(1);
  });
});
