import { afterEach, describe, expect, it, vi } from "vitest";
import { sharedLimit } from "../clinic/clinic-client.ts";
import { createHarness, ORG_A } from "../clinic/testing/emulator-harness.ts";
import { DEFAULT_UPSTREAM_USER_LIMIT, readBffConfig } from "../env.ts";

// ADR 0009: each BFF process takes its configured share of the upstream
// budget (UPSTREAM_RATE_SHARE), so two processes never exceed the service's
// limit together, with no database round trip per call. ADR
// 0017: within each process's share, organizations share fairly, so an
// organization is served in every process it uses, also one that uses only
// one of them while another hammers both. Needs no database.

const ORG_B = "8c4e2d19-7a36-4b5f-a0e1-9d8c7b6a5f42";

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
      Array.from({ length: 20 }, (_, index) => client.read("GET /v1/patients", { organizationId: ORG_A, query: { page: process * 100 + index + 1, pageSize: 1 } }).then((answer) => answer.data())),
    );
    await vi.advanceTimersByTimeAsync(4_000);
    await Promise.all(calls);
    const sentAt = harness.calls.map((call) => call.at);
    expect(sentAt).toHaveLength(40);
    expect(maxPerWindow(sentAt, 1_000)).toBe(10);
    // Each took its half: 5 per second.
    expect(sentAt.filter((at) => at === 0)).toHaveLength(10);
  });

  it("with another organization hammering both processes, an organization served by one process only gets every read at once, and neither process nor both together exceed their share", async () => {
    vi.useFakeTimers({ now: 0 });
    const harness = createHarness();
    // Each process: 40 × 0.5 = 20 per second, 2 of them kept for newcomers, fair share (20 − 2) / 2 = 9.
    const limiter = { scope: "key" as const, limit: 40, windowMs: 1_000, maxQueueMs: 200, share: 0.5 };
    const [first, second] = [harness.client({ limiter }), harness.client({ limiter })];
    const read = (client: typeof first, organizationId: string, page: number) =>
      client.read("GET /v1/appointments", { organizationId, query: { page, pageSize: 1 } }).then((answer) => answer.data()).then(
        () => ({ ok: true, at: Date.now() }),
        () => ({ ok: false, at: Date.now() }),
      );
    const quiet: { askedAt: number; answer: Promise<{ ok: boolean; at: number }> }[] = [];
    const hammering: Promise<unknown>[] = [];
    let page = 0;
    for (let at = 0; at < 4_000; at += 50) {
      await vi.advanceTimersByTimeAsync(at - Date.now());
      // B: 3 reads a second, all through the first process (about half its fair share there).
      if (at % 350 === 0) quiet.push({ askedAt: at, answer: read(first, ORG_B, (page += 1)) });
      // A, from the second second: 10 distinct reads every 50 ms through each process.
      if (at >= 1_000) for (const client of [first, second]) for (let index = 0; index < 10; index += 1) hammering.push(read(client, ORG_A, (page += 1)));
    }
    await vi.advanceTimersByTimeAsync(2_000);
    await Promise.all(hammering);
    for (const { askedAt, answer } of quiet) expect(await answer).toEqual({ ok: true, at: askedAt });
    const sentAt = (organization?: string) => harness.calls.filter((call) => organization === undefined || call.headers.get("x-organization-id") === organization).map((call) => call.at);
    expect(maxPerWindow(sentAt(), 1_000)).toBeLessThanOrEqual(40);
    // A borrowed what B left unused: well over its fair share in each process (9 + 9), within the two shares.
    expect(maxPerWindow(sentAt(ORG_A), 1_000)).toBeGreaterThan(18);
  });
});

describe("UPSTREAM_USER_LIMIT", () => {
  it("defaults to 200 per 60 s and takes a whole number of at least 1; anything else is refused naming the variable", () => {
    expect(readBffConfig({}).upstreamUserLimit).toBe(DEFAULT_UPSTREAM_USER_LIMIT);
    expect(DEFAULT_UPSTREAM_USER_LIMIT).toBe(200);
    expect(readBffConfig({ UPSTREAM_USER_LIMIT: "300" }).upstreamUserLimit).toBe(300);
    for (const bad of ["0", "-1", "1.5", "many", ""]) expect(() => readBffConfig({ UPSTREAM_USER_LIMIT: bad })).toThrow(/UPSTREAM_USER_LIMIT: must be a whole number of requests per 60 s, at least 1/);
  });
});
