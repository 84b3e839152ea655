import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { UpstreamError } from "./upstream-error.ts";
import { createHarness, expectNoKeyLeak, ORG_A, track, type Harness } from "./testing/emulator-harness.ts";

// DESIGN.md "Upstream": on 429 wait Retry-After; retry only idempotent reads;
// the limiter never lets more than `limit` requests out per window. Failures
// are made by the emulator's own fault injection (`/_sandbox/faults`).

let harness: Harness;
let noteId: string;

beforeAll(async () => {
  harness = createHarness();
  const first = (await harness.sandboxNotes(ORG_A)).find((note) => note.status !== "signed");
  if (!first) throw new Error("no unsigned note in the sandbox");
  noteId = first.id;
});
beforeEach(async () => {
  await harness.reset();
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(() => {
  expectNoKeyLeak(harness);
});

const patients = { organizationId: ORG_A, query: { page: 1 } };

describe("429 from the service", () => {
  it("waits Retry-After (1 s from the emulator), then retries and succeeds", async () => {
    vi.useFakeTimers();
    const client = harness.client();
    await harness.fault({ method: "GET", path: "/v1/patients", status: 429, count: 1 });
    const call = track(client.read("GET /v1/patients", patients).then((answer) => answer.data()));
    await vi.advanceTimersByTimeAsync(999);
    expect(harness.count("GET", "/v1/patients")).toBe(1);
    expect(call.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const data = await call.promise;
    expect(data.patients.length).toBeGreaterThan(0);
    expect(harness.count("GET", "/v1/patients")).toBe(2);
    expect(client.stats().retries).toBe(1);
  });

  it("retries writes too: a 429 means the request was not processed", async () => {
    vi.useFakeTimers();
    const client = harness.client();
    await harness.fault({ method: "PATCH", path: "/v1/notes/{noteId}", status: 429, count: 1 });
    const call = track(client.send("PATCH /v1/notes/{noteId}", { organizationId: ORG_A, params: { noteId }, body: { stickyNoteDescription: "after 429" } }));
    await vi.advanceTimersByTimeAsync(1_000);
    const note = await call.promise;
    expect(note.soapNote.stickyNote.description).toBe("after 429");
    expect(harness.count("PATCH", `/v1/notes/${noteId}`)).toBe(2);
  });

  it("a Retry-After beyond maxRetryAfterMs fails at once with 503 rate_limited and retryAfterSeconds", async () => {
    const client = harness.client({ retry: { maxRetryAfterMs: 500 } });
    await harness.fault({ method: "GET", path: "/v1/patients", status: 429, count: 1 });
    const error = await client.read("GET /v1/patients", patients).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 503, code: "rate_limited", retryAfterSeconds: 1, upstreamStatus: 429 });
    expect(harness.count("GET", "/v1/patients")).toBe(1);
  });
});

describe("retries of reads, never of writes", () => {
  it("a read that gets a 500 once is retried and succeeds: two upstream calls", async () => {
    const client = harness.client();
    await harness.fault({ method: "GET", path: "/v1/patients", status: 500, count: 1 });
    const data = (await client.read("GET /v1/patients", patients)).data();
    expect(data.pagination.page).toBe(1);
    expect(harness.count("GET", "/v1/patients")).toBe(2);
  });

  it("gives up after retry.reads retries and surfaces the service's code", async () => {
    const client = harness.client({ retry: { reads: 2 } });
    await harness.fault({ method: "GET", path: "/v1/patients", code: "server_unresponsive", count: 5 });
    await expect(client.read("GET /v1/patients", patients).then((answer) => answer.data())).rejects.toMatchObject({ status: 503, code: "server_unresponsive", upstreamTraceId: expect.stringMatching(/^trc_/) as unknown });
    expect(harness.count("GET", "/v1/patients")).toBe(3);
  });

  it("501 is not retried", async () => {
    const client = harness.client();
    await harness.fault({ method: "GET", path: "/v1/patients", status: 501, code: "not_implemented", count: 1 });
    await expect(client.read("GET /v1/patients", patients).then((answer) => answer.data())).rejects.toMatchObject({ status: 501, code: "not_implemented" });
    expect(harness.count("GET", "/v1/patients")).toBe(1);
  });

  it("a PATCH that gets a 500 is sent once and the error is surfaced", async () => {
    const client = harness.client();
    await harness.fault({ method: "PATCH", path: "/v1/notes/{noteId}", status: 500, count: 1 });
    await expect(client.send("PATCH /v1/notes/{noteId}", { organizationId: ORG_A, params: { noteId }, body: { stickyNoteDescription: "x" } })).rejects.toMatchObject({
      status: 502,
      code: "internal_error",
      upstreamStatus: 500,
    });
    expect(harness.count("PATCH", `/v1/notes/${noteId}`)).toBe(1);
  });

  it("network errors: reads retried (503 upstream_unavailable at the end), writes sent once", async () => {
    const client = harness.client({ retry: { reads: 2 } });
    harness.transport = () => Promise.reject(new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) }));
    await expect(client.read("GET /v1/patients", patients).then((answer) => answer.data())).rejects.toMatchObject({ status: 503, code: "upstream_unavailable", message: expect.stringContaining("ECONNREFUSED") as unknown });
    expect(harness.count("GET", "/v1/patients")).toBe(3);
    // A refused connection never carried the write: its answer is not lost, it never left.
    await expect(client.send("POST /v2/tasks", { organizationId: ORG_A, body: { noteId, providerId: "p", notes: "n", assigneeIds: ["p"] } })).rejects.toMatchObject({
      code: "upstream_unavailable",
      answerLost: false,
    });
    expect(harness.count("POST", "/v2/tasks")).toBe(1);
    // A reset after sending (node:http puts the code on the error itself) may have followed the service's action.
    harness.transport = () => Promise.reject(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }));
    await expect(client.send("POST /v2/tasks", { organizationId: ORG_A, body: { noteId, providerId: "p", notes: "n", assigneeIds: ["p"] } })).rejects.toMatchObject({
      code: "upstream_unavailable",
      answerLost: true,
      message: expect.stringContaining("whether the change was applied is unknown") as unknown,
    });
    expect(harness.count("POST", "/v2/tasks")).toBe(2);
  });

  it("a call that does not answer within timeoutMs fails with 504 upstream_timeout", async () => {
    const client = harness.client({ timeoutMs: 20, retry: { reads: 1 } });
    harness.transport = (request) =>
      new Promise((_resolve, reject) => {
        request.signal.addEventListener("abort", () => reject(request.signal.reason instanceof Error ? request.signal.reason : new Error("aborted")));
      });
    await expect(client.read("GET /v1/patients", patients).then((answer) => answer.data())).rejects.toMatchObject({ status: 504, code: "upstream_timeout" });
    expect(harness.count("GET", "/v1/patients")).toBe(2);
  });
});

describe("the client's rate limiter (limit 5 per 1 s, queue up to 2 s)", () => {
  /** The most requests the emulator saw inside any [t, t + windowMs). */
  const maxPerWindow = (times: readonly number[], windowMs: number) => Math.max(0, ...times.map((start) => times.filter((t) => t >= start && t < start + windowMs).length));

  it("20 requests at once: never more than 5 reach the service in any second; 15 queue through, 5 fail fast", async () => {
    vi.useFakeTimers({ now: 0 });
    const client = harness.client({ limiter: { scope: "key", limit: 5, windowMs: 1_000, maxQueueMs: 2_000 } });
    const results = Array.from({ length: 20 }, (_, index) =>
      client.read("GET /v1/patients", { organizationId: ORG_A, query: { page: index + 1, pageSize: 1 } }).then((answer) => answer.data()).then(
        () => "ok" as const,
        (error: unknown) => error,
      ),
    );
    await vi.advanceTimersByTimeAsync(3_000);
    const settled = await Promise.all(results);
    const sentAt = harness.calls.map((call) => call.at);
    expect(sentAt).toEqual([0, 0, 0, 0, 0, 1000, 1000, 1000, 1000, 1000, 2000, 2000, 2000, 2000, 2000]);
    expect(maxPerWindow(sentAt, 1_000)).toBe(5);
    expect(settled.filter((result) => result === "ok")).toHaveLength(15);
    const rejected = settled.filter((result) => result instanceof UpstreamError);
    expect(rejected).toHaveLength(5);
    expect(rejected[0]).toMatchObject({ status: 503, code: "rate_limited", retryAfterSeconds: 3 });
    expect(client.stats()).toMatchObject({ upstreamRequests: 15, queuedForLimiter: 10, rejectedByLimiter: 5 });
  });

  it("scope organization: each organization has its own bucket", async () => {
    const client = harness.client({ limiter: { scope: "organization", limit: 2, windowMs: 60_000, maxQueueMs: 0 } });
    const orgB = "8c4e2d19-7a36-4b5f-a0e1-9d8c7b6a5f42";
    for (const page of [1, 2]) (await client.read("GET /v1/patients", { organizationId: ORG_A, query: { page } })).data();
    await expect(client.read("GET /v1/patients", { organizationId: ORG_A, query: { page: 3 } }).then((answer) => answer.data())).rejects.toMatchObject({ code: "rate_limited" });
    await expect(client.read("GET /v1/appointments", { organizationId: orgB }).then((answer) => answer.data())).resolves.toBeDefined();
  });
});

describe("the per-user limit (ADR 0017): only requests that reach the service count", () => {
  const ORG_B = "8c4e2d19-7a36-4b5f-a0e1-9d8c7b6a5f42";
  const appointments = (organizationId: string, page: number) => ({ organizationId, query: { page, pageSize: 1 } });

  it("identical reads joined to one in flight count once, for the user who started it; past the limit, 429 rate_limited", async () => {
    const client = harness.client({ limiter: { scope: "key", perUser: 2 }, requester: () => "org-a|alice" });
    await Promise.all(Array.from({ length: 5 }, () => client.read("GET /v1/appointments", appointments(ORG_A, 1)).then((answer) => answer.data())));
    expect(harness.count("GET", "/v1/appointments")).toBe(1);
    (await client.read("GET /v1/appointments", appointments(ORG_A, 2))).data();
    await expect(client.read("GET /v1/appointments", appointments(ORG_A, 3)).then((answer) => answer.data())).rejects.toMatchObject({ status: 429, code: "rate_limited", retryAfterSeconds: 60 });
    expect(harness.count("GET", "/v1/appointments")).toBe(2);
    expect(client.stats()).toMatchObject({ coalesced: 4, rejectedByUserLimit: 1 });
  });

  it("a colleague asking the same read at the same moment as a user past the limit gets the answer, not that user's refusal", async () => {
    let requester = "org-a|alice";
    const client = harness.client({ limiter: { scope: "key", perUser: 1 }, requester: () => requester });
    (await client.read("GET /v1/appointments", appointments(ORG_A, 1))).data();
    const alice = client.read("GET /v1/appointments", appointments(ORG_A, 2)).then((answer) => answer.data());
    requester = "org-a|bob";
    const bob = client.read("GET /v1/appointments", appointments(ORG_A, 2)).then((answer) => answer.data());
    await expect(alice).rejects.toMatchObject({ status: 429 });
    await expect(bob).resolves.toBeDefined();
  });

  it("a request the key's limiter refuses never reached the service and is given back to the user", async () => {
    // One request per organization per minute, no queue.
    const client = harness.client({ limiter: { scope: "organization", limit: 1, maxQueueMs: 0, perUser: 2 }, requester: () => "org-a|alice" });
    (await client.read("GET /v1/appointments", appointments(ORG_A, 1))).data();
    await expect(client.read("GET /v1/appointments", appointments(ORG_A, 2)).then((answer) => answer.data())).rejects.toMatchObject({ status: 503, code: "rate_limited" });
    // Alice has had one request reach the service, so a second is allowed.
    await expect(client.read("GET /v1/appointments", appointments(ORG_B, 1)).then((answer) => answer.data())).resolves.toBeDefined();
    await expect(client.read("GET /v1/appointments", appointments(ORG_B, 2)).then((answer) => answer.data())).rejects.toMatchObject({ status: 429 });
    // Calls made for no one (background work) are not limited per user.
    const background = harness.client({ limiter: { scope: "key", perUser: 1 }, requester: () => undefined });
    for (const page of [1, 2, 3]) (await background.read("GET /v1/appointments", appointments(ORG_A, page))).data();
  });
});

