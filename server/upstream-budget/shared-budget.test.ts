import { createServer } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { openSharedBudget } from "./shared-budget.ts";
import { createLimiter } from "./upstream-limiter.ts";

// ADR 0026: a shared store that is down holds no request beyond a round's
// bound, and the process says so once, however many organizations' limiters
// fall back.

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe("openSharedBudget", () => {
  it("is none without REDIS_URL or DATABASE_URL: the embedded store's one process counts alone", () => {
    expect(openSharedBudget({ redisUrl: undefined, databaseUrl: undefined, databaseSchema: "public" }, { warn: vi.fn(), info: vi.fn() })).toBeUndefined();
  });

  it("Redis down: requests go at once on the local share, and the fallback is logged once for every organization", async () => {
    const logger = { warn: vi.fn(), info: vi.fn() };
    const shared = openSharedBudget({ redisUrl: `redis://127.0.0.1:${await closedPort()}`, databaseUrl: undefined, databaseSchema: "public" }, logger);
    const limiter = createLimiter({ scope: "organization", limit: 10, shared: shared && { ...shared, timeoutMs: 200 } }, Date.now);
    try {
      await Promise.all(["org-a", "org-b", "org-c"].flatMap((organization) => [limiter.acquire(organization), limiter.acquire(organization)]));
      const fallbacks = logger.warn.mock.calls.filter(([, message]) => String(message).includes("keeps to a local share of 5 per window"));
      expect(fallbacks).toHaveLength(1);
      expect(JSON.stringify(logger.warn.mock.calls)).not.toContain("redis://");
    } finally {
      limiter.close();
    }
  });
});
