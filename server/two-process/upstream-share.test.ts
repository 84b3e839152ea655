import { afterEach, describe, expect, it, vi } from "vitest";
import { sharedLimit } from "../clinic/clinic-client.ts";
import { createHarness, ORG_A } from "../clinic/testing/emulator-harness.ts";
import { readBffConfig } from "../env.ts";

// Issue 8: each BFF process takes its configured share of the upstream
// budget (UPSTREAM_RATE_SHARE), so two processes never exceed the service's
// limit together, with no database round trip per call. Needs no database.

/** The most requests inside any half-open interval [t, t + windowMs). */
function maxPerWindow(times: readonly number[], windowMs: number): number {
  return Math.max(0, ...times.map((start) => times.filter((t) => t >= start && t < start + windowMs).length));
}

afterEach(() => {
  vi.useRealTimers();
});

describe("UPSTREAM_RATE_SHARE", () => {
  it("defaults to 1 and takes a number in (0, 1]; anything else is refused naming the variable", () => {
    expect(readBffConfig({}).upstreamRateShare).toBe(1);
    expect(readBffConfig({ UPSTREAM_RATE_SHARE: "0.5" }).upstreamRateShare).toBe(0.5);
    expect(readBffConfig({ UPSTREAM_RATE_SHARE: "1" }).upstreamRateShare).toBe(1);
    for (const bad of ["0", "1.5", "-0.5", "half", ""]) expect(() => readBffConfig({ UPSTREAM_RATE_SHARE: bad })).toThrow(/UPSTREAM_RATE_SHARE: must be a number greater than 0 and at most 1/);
  });

  it("scales the limit down, never rounding up", () => {
    expect(sharedLimit(1000, 1)).toBe(1000);
    expect(sharedLimit(1000, 0.5)).toBe(500);
    expect(sharedLimit(1000, 1 / 3)).toBe(333);
    expect(sharedLimit(5, 0.5)).toBe(2);
    expect(() => sharedLimit(1000, 0)).toThrow(RangeError);
  });

  it("two clients with share 0.5 never exceed the service's limit together", async () => {
    vi.useFakeTimers({ now: 0 });
    const harness = createHarness();
    const limiter = { scope: "key" as const, limit: 10, windowMs: 1_000, maxQueueMs: 5_000, share: 0.5 };
    const processes = [harness.client({ limiter }), harness.client({ limiter })];
    const calls = processes.flatMap((client, process) =>
      Array.from({ length: 20 }, (_, index) => client.request("GET /v1/patients", { organizationId: ORG_A, query: { page: process * 100 + index + 1, pageSize: 1 } })),
    );
    await vi.advanceTimersByTimeAsync(4_000);
    await Promise.all(calls);
    const sentAt = harness.calls.map((call) => call.at);
    expect(sentAt).toHaveLength(40);
    expect(maxPerWindow(sentAt, 1_000)).toBe(10);
    // Each took its half: 5 per second.
    expect(sentAt.filter((at) => at === 0)).toHaveLength(10);
  });
});
