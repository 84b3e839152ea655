import { afterEach, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { EmulatorClock } from "../../emulator/clock.ts";
import { ORG_B_ID } from "../../emulator/world/identities.ts";
import type { ClinicClient, LimiterOptions } from "./clinic-client.ts";
import { BASE_URL, createHarness, DATA_KEY, expectNoKeyLeak, ORG_A, TEST_NOW, track, type Harness } from "./testing/emulator-harness.ts";
import { UpstreamError } from "./upstream-error.ts";

// Issue 34 item 6, ADR 0017 addendum: the limiter learns from the service.
// Another client on the same data key and organization (another BFF process,
// another app) spends the service's budget directly at the emulator; what
// Tandem then sends is counted by the emulator itself (`/_sandbox/request-
// stats`: requests let through and 429s, per key and organization). The
// emulator's clock follows the faked timers, so its rate-limit windows pass
// with them and no test waits in real time.

const ORG_B = ORG_B_ID;

let harness: Harness | null = null;

afterEach(() => {
  if (harness) expectNoKeyLeak(harness);
  harness = null;
  vi.useRealTimers();
});

/** An emulator allowing `limit` per `windowSeconds` (per key and organization), on a clock that runs with the faked timers from TEST_NOW (the start of a window). */
function start(service: { limit: number; windowSeconds: number }): Harness {
  vi.useFakeTimers({ now: TEST_NOW });
  harness = createHarness({ rateLimit: service.limit, rateLimitWindowSeconds: service.windowSeconds }, new EmulatorClock(TEST_NOW, false, () => Date.now()));
  return harness;
}

function clientOf(h: Harness, limiter: LimiterOptions): ClinicClient {
  return h.client({ limiter });
}

/** Another client on the same key spends `count` of the organization's window at the service directly. */
async function spendElsewhere(h: Harness, organizationId: string, count: number): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    const response = await h.emulator.app.fetch(new Request(`${BASE_URL}/v1/appointments?page=1&pageSize=1`, { headers: { authorization: `Bearer ${DATA_KEY}`, "x-organization-id": organizationId } }));
    expect(response.status).toBe(200);
  }
}

const requestStats = z.object({ buckets: z.array(z.object({ organizationId: z.nullable(z.string()), counted: z.number(), limited: z.number() })) });

/** What the service let through and refused with 429 for the key and `organizationId`, as it counted. */
async function serviceSaw(h: Harness, organizationId: string): Promise<{ counted: number; limited: number }> {
  const { buckets } = z.parse(requestStats, await h.sandbox("GET", "/request-stats"));
  const bucket = buckets.find((candidate) => candidate.organizationId === organizationId);
  return { counted: bucket?.counted ?? 0, limited: bucket?.limited ?? 0 };
}

/** Tandem's calls that reached the service for `organizationId`. */
const tandemCalls = (h: Harness, organizationId: string) => h.calls.filter((call) => call.headers.get("x-organization-id") === organizationId);

/** One page of the organization's appointments: each page its own read (nothing cached or joined). */
const read = (client: ClinicClient, organizationId: string, page: number) => client.read("GET /v1/appointments", { organizationId, query: { page, pageSize: 1 } }).then((answer) => answer.data());

describe("a 429 from the service holds everything waiting on its scope until Retry-After", () => {
  it("another client used the whole window: Tandem's first read gets the one 429, the reads asked meanwhile wait with it, and all succeed once the service's Retry-After (1 s) has passed", async () => {
    const h = start({ limit: 10, windowSeconds: 1 });
    const client = clientOf(h, { scope: "key", limit: 10, windowMs: 1_000, maxQueueMs: 2_000 });
    await spendElsewhere(h, ORG_A, 10);

    const first = track(read(client, ORG_A, 1));
    await vi.advanceTimersByTimeAsync(1);
    expect(await serviceSaw(h, ORG_A)).toEqual({ counted: 10, limited: 1 });
    const others = [2, 3, 4, 5, 6].map((page) => track(read(client, ORG_A, page)));

    await vi.advanceTimersByTimeAsync(997);
    // Nothing more reached the service while it said to wait.
    expect(tandemCalls(h, ORG_A)).toHaveLength(1);
    expect([first, ...others].some((call) => call.settled())).toBe(false);

    await vi.advanceTimersByTimeAsync(10);
    for (const call of [first, ...others]) expect((await call.promise).appointments).toHaveLength(1);
    expect(await serviceSaw(h, ORG_A)).toEqual({ counted: 16, limited: 1 });
    expect(tandemCalls(h, ORG_A).slice(1).every((call) => call.at >= TEST_NOW + 1_000)).toBe(true);
  });

  it("a Retry-After longer than a request may wait fails it at once with rate_limited and the service's wait; the next read fails the same way without asking the service again; a window later reads succeed", async () => {
    const h = start({ limit: 5, windowSeconds: 60 });
    const client = clientOf(h, { scope: "key" });
    await spendElsewhere(h, ORG_A, 5);

    const refused = await read(client, ORG_A, 1).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UpstreamError);
    expect(refused).toMatchObject({ status: 503, code: "rate_limited", retryAfterSeconds: 60, upstreamStatus: 429 });

    await vi.advanceTimersByTimeAsync(10_000);
    const again = await read(client, ORG_A, 2).catch((error: unknown) => error);
    expect(again).toMatchObject({ status: 503, code: "rate_limited", retryAfterSeconds: 50 });
    expect(await serviceSaw(h, ORG_A)).toEqual({ counted: 5, limited: 1 });

    await vi.advanceTimersByTimeAsync(50_000);
    expect((await read(client, ORG_A, 3)).appointments).toHaveLength(1);
    expect(await serviceSaw(h, ORG_A)).toEqual({ counted: 6, limited: 1 });
  });
});

describe("X-RateLimit-Remaining lower than the limiter's own count", () => {
  it("another client spent 15 of the window's 20: Tandem's reads slow to what is left and wait for the service's reset instead of meeting 429", async () => {
    const h = start({ limit: 20, windowSeconds: 10 });
    const client = clientOf(h, { scope: "key", limit: 20, windowMs: 10_000, maxQueueMs: 15_000 });
    await spendElsewhere(h, ORG_A, 15);

    // The first answer says 4 remain; the limiter believed 19.
    expect((await read(client, ORG_A, 1)).appointments).toHaveLength(1);
    const rest = Array.from({ length: 9 }, (_, index) => track(read(client, ORG_A, index + 2)));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(tandemCalls(h, ORG_A)).toHaveLength(5);
    expect(rest.filter((call) => call.settled())).toHaveLength(4);

    await vi.advanceTimersByTimeAsync(1);
    for (const call of rest) expect((await call.promise).appointments).toHaveLength(1);
    expect(await serviceSaw(h, ORG_A)).toEqual({ counted: 25, limited: 0 });
  });
});

describe("the scope in force (RATE_LIMIT_SCOPE)", () => {
  it("key: a 429 for one organization holds every organization's reads until Retry-After", async () => {
    const h = start({ limit: 5, windowSeconds: 1 });
    const client = clientOf(h, { scope: "key", limit: 10, windowMs: 1_000, maxQueueMs: 2_000 });
    await spendElsewhere(h, ORG_A, 5);

    const a = track(read(client, ORG_A, 1));
    await vi.advanceTimersByTimeAsync(1);
    const b = track(read(client, ORG_B, 1));
    await vi.advanceTimersByTimeAsync(997);
    expect(tandemCalls(h, ORG_B)).toHaveLength(0);
    expect(b.settled()).toBe(false);

    await vi.advanceTimersByTimeAsync(10);
    expect((await a.promise).appointments).toHaveLength(1);
    expect((await b.promise).appointments).toHaveLength(1);
    expect(await serviceSaw(h, ORG_A)).toEqual({ counted: 6, limited: 1 });
    expect(await serviceSaw(h, ORG_B)).toEqual({ counted: 1, limited: 0 });
  });

  it("organization: a 429 holds only that organization's reads; another organization's go at once", async () => {
    const h = start({ limit: 5, windowSeconds: 1 });
    const client = clientOf(h, { scope: "organization", limit: 5, windowMs: 1_000, maxQueueMs: 2_000 });
    await spendElsewhere(h, ORG_A, 5);

    const a = track(read(client, ORG_A, 1));
    await vi.advanceTimersByTimeAsync(1);
    const a2 = track(read(client, ORG_A, 2));
    const b = track(read(client, ORG_B, 1));
    await vi.advanceTimersByTimeAsync(1);
    expect((await b.promise).appointments).toHaveLength(1);
    expect(a.settled() || a2.settled()).toBe(false);
    expect(tandemCalls(h, ORG_A)).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(996);
    expect(tandemCalls(h, ORG_A)).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(10);
    expect((await a.promise).appointments).toHaveLength(1);
    expect((await a2.promise).appointments).toHaveLength(1);
    expect(await serviceSaw(h, ORG_A)).toEqual({ counted: 7, limited: 1 });
  });
});

describe("headers not worth trusting whole", () => {
  it("a Retry-After hours away is held to one window (60 s): the user is told 60 s, and Tandem asks again after it", async () => {
    const h = start({ limit: 1000, windowSeconds: 60 });
    const client = clientOf(h, { scope: "key" });
    h.rewrite = (_request, response) => {
      if (h.calls.length > 1) return response;
      const resetAt = String(Math.floor(Date.now() / 1000) + 6 * 3600);
      return new Response(response.body, { status: 429, headers: { "content-type": "application/json", "retry-after": "21600", "x-ratelimit-remaining": "0", "x-ratelimit-reset": resetAt } });
    };
    await expect(read(client, ORG_A, 1)).rejects.toMatchObject({ code: "rate_limited", retryAfterSeconds: 60 });
    await vi.advanceTimersByTimeAsync(30_000);
    await expect(read(client, ORG_A, 2)).rejects.toMatchObject({ code: "rate_limited", retryAfterSeconds: 30 });
    await vi.advanceTimersByTimeAsync(30_000);
    expect((await read(client, ORG_A, 3)).appointments).toHaveLength(1);
    expect(tandemCalls(h, ORG_A)).toHaveLength(2);
  });
});
