import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { APP_ERROR_CODES, appErrorBody } from "#contract/app-api/errors.ts";
import { ORG_A_ID } from "../../emulator/world/identities.ts";
import { IntakeThread } from "../clinic/intake-thread.ts";
import type { BffConfig } from "../env.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { createBffHarness, type BffHarness, type BffHarnessOptions, type UpstreamInterceptor } from "../testing/bff-harness.ts";
import { Exposition } from "../testing/prometheus-text.ts";
import { createMetricsApp } from "../metrics/metrics-server.ts";

// Issue 34 item 1, through the real BFF and the emulator: at the large
// scale one slot search (9 facilities, 62 days, the shortest type) was
// answered with 30-35 MB of JSON, and taking it in ran the BFF out of heap,
// cutting every user. Every upstream body is read as it arrives, at most
// UPSTREAM_MAX_BODY_BYTES of it; past that it is cut off, refused with a
// 4xx that says what to narrow, and nothing of it is kept.

const MAX_BODY_BYTES = 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;
/** The answers these tests send: 32 times the limit. */
const OVERSIZED_BYTES = 32 * MAX_BODY_BYTES;

let store: Store;
let harness: BffHarness | null = null;
/** Stands between the BFF and the emulator while set. */
let intercept: UpstreamInterceptor | null = null;

beforeAll(async () => {
  store = await createStore();
}, 60_000);

afterAll(async () => {
  await store.close();
});

afterEach(async () => {
  intercept = null;
  await harness?.close();
  harness = null;
});

async function start(configOverrides: Partial<BffConfig> = {}, clinicOptions?: BffHarnessOptions["clinicOptions"]): Promise<BffHarness> {
  harness = await createBffHarness(store, {
    configOverrides: { upstreamMaxBodyBytes: MAX_BODY_BYTES, ...configOverrides },
    interceptUpstream: (request, forward) => (intercept ? intercept(request, forward) : forward(request)),
    clinicOptions,
  });
  return harness;
}

/**
 * An answer body this test controls: the service's own JSON, then blanks
 * (still valid JSON) up to `totalBytes`, made only as the BFF pulls them.
 * `holdAt`: the bytes after which it waits for `release()`.
 */
function oversizedBody(json: string, totalBytes: number, holdAt = Number.POSITIVE_INFINITY) {
  const prefix = new TextEncoder().encode(json);
  let pulled = 0;
  let isCancelled = false;
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let reachedHold = () => undefined as void;
  const held = new Promise<void>((resolve) => {
    reachedHold = resolve;
  });
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (pulled === 0) {
          controller.enqueue(prefix);
          pulled += prefix.byteLength;
          return;
        }
        if (pulled >= totalBytes) {
          controller.close();
          return;
        }
        if (pulled >= holdAt) {
          reachedHold();
          await released;
        }
        controller.enqueue(new Uint8Array(CHUNK_BYTES).fill(0x20));
        pulled += CHUNK_BYTES;
      },
      cancel() {
        isCancelled = true;
      },
    },
    // Nothing made ahead of the reader: `pulled` is what the BFF asked for.
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled, isCancelled: () => isCancelled, held, release };
}

/** The emulator's answer to `request`, its body replaced by `body` (no Content-Length: it arrives as a stream). */
async function answerWith(request: Request, forward: (request: Request) => Promise<Response>, makeBody: (json: string) => ReadableStream<Uint8Array>): Promise<Response> {
  const answer = await forward(request);
  const headers = new Headers(answer.headers);
  headers.delete("content-length");
  return new Response(makeBody(await answer.text()), { status: answer.status, headers });
}

function slotSearchPath(h: BffHarness, dayOffset = 0): string {
  const org = h.emulator.emulator.state.org(ORG_A_ID);
  const facility = org?.ehr.facilities.find((candidate) => candidate.isVisible);
  const type = org?.ehr.appointmentTypes[0];
  if (!facility || !type) throw new Error("no facility or appointment type");
  const day = (offset: number) => new Date(h.now() + offset * 86_400_000).toISOString().slice(0, 10);
  return `/api/slots?${new URLSearchParams({ appointmentTypeId: type.id, facilityIds: facility.id, startDate: day(1 + dayOffset), endDate: day(14 + dayOffset) }).toString()}`;
}

const slotReadsUpstream = (h: BffHarness) => h.upstreamCount("GET", "/v2/schedule/slots");

describe("an upstream answer past UPSTREAM_MAX_BODY_BYTES", () => {
  it("a slot search answered with 32 MB: 422 search_too_large saying what to narrow; another user's read meanwhile is served; nothing is kept, so the same search asks the service again", async () => {
    const h = await start();
    const bodies: ReturnType<typeof oversizedBody>[] = [];
    intercept = async (request, forward) => {
      if (new URL(request.url).pathname !== "/v2/schedule/slots") return forward(request);
      return answerWith(request, forward, (json) => {
        // The first is held halfway, until another user has been served.
        const body = oversizedBody(json, OVERSIZED_BYTES, bodies.length === 0 ? MAX_BODY_BYTES / 2 : undefined);
        bodies.push(body);
        return body.stream;
      });
    };
    const frontDesk = await h.hostToken({ userId: h.userWithRole("Front Desk") });
    const searching = h.api(slotSearchPath(h), { token: frontDesk });
    await expect.poll(() => bodies.length).toBe(1);
    await bodies[0]?.held;

    // While the BFF is reading half of it, another user's reads are served.
    const physician = await h.hostToken({ userId: h.userWithRole("Physician") });
    expect((await h.api("/api/facilities", { token: physician })).status).toBe(200);
    expect((await h.api("/api/appointment-types", { token: physician })).status).toBe(200);
    bodies[0]?.release();

    const refused = await searching;
    expect(refused.status).toBe(422);
    const body = appErrorBody.parse(await refused.json());
    expect(body.code).toBe(APP_ERROR_CODES.searchTooLarge);
    expect(body.message).toMatch(/^This search is too large: choose fewer facilities or fewer days/);
    expect(body.message).toContain("The Clinic Data Service answered more than Tandem reads (over 1 MB)");
    expect(h.logLines.some((line) => line.includes("clinic: upstream answer larger than UPSTREAM_MAX_BODY_BYTES, not read"))).toBe(true);

    // Not retried (it would be as large again), not cached: the same search goes to the service again.
    expect(slotReadsUpstream(h)).toBe(1);
    const again = await h.api(slotSearchPath(h), { token: frontDesk });
    expect(again.status).toBe(422);
    expect(slotReadsUpstream(h)).toBe(2);

    // Once the service answers within the limit, the search is served.
    intercept = null;
    expect((await h.api(slotSearchPath(h), { token: frontDesk })).status).toBe(200);
  });

  it("is cut off at the limit: the BFF pulls at most the limit and one chunk of a 32 MB body, and cancels the rest", async () => {
    const h = await start();
    let body: ReturnType<typeof oversizedBody> | undefined;
    intercept = async (request, forward) => {
      if (new URL(request.url).pathname !== "/v2/schedule/slots") return forward(request);
      return answerWith(request, forward, (json) => {
        body = oversizedBody(json, OVERSIZED_BYTES);
        return body.stream;
      });
    };
    const response = await h.api(slotSearchPath(h, 1), { token: await h.hostToken() });
    expect(response.status).toBe(422);
    expect(body?.isCancelled()).toBe(true);
    expect(body?.pulled()).toBeLessThanOrEqual(MAX_BODY_BYTES + CHUNK_BYTES);
  });

  it("any other read past it: 502 upstream_too_large naming the clinic data service, not retried", async () => {
    const h = await start();
    intercept = async (request, forward) => {
      if (new URL(request.url).pathname !== "/v1/providers") return forward(request);
      return answerWith(request, forward, (json) => oversizedBody(json, OVERSIZED_BYTES).stream);
    };
    const response = await h.api("/api/providers", { token: await h.hostToken() });
    expect(response.status).toBe(502);
    const body = appErrorBody.parse(await response.json());
    expect(body).toMatchObject({ code: APP_ERROR_CODES.upstreamTooLarge, message: "The Clinic Data Service answered more than Tandem reads (over 1 MB)" });
    expect(h.upstreamCount("GET", "/v1/providers")).toBe(1);
  });
});

describe("an answer the intake thread cannot take in", () => {
  it("its worker runs out of heap: 503 intake_failed, logged and counted, never taken in on the event loop instead; the BFF goes on serving", async () => {
    // The production thread, its heap 4 MB instead of 96 MB: its worker dies "reaching memory limit", as the
    // 96 MB one did on the large sandbox's widest search (a worker that runs out inside JSON.parse itself can
    // take the whole process with it, which is why UPSTREAM_MAX_BODY_BYTES keeps answers well within its heap).
    const thread = new IntakeThread({ maxOldGenerationSizeMb: 4 });
    const h = await start({}, { intakeThread: thread });
    try {
      intercept = async (request, forward) => {
        if (new URL(request.url).pathname !== "/v2/schedule/slots") return forward(request);
        // The service's answer, padded with blanks to 256 KB: one the thread takes in (64 KB or more).
        return answerWith(request, forward, (json) => oversizedBody(json, 256 * 1024).stream);
      };
      const token = await h.hostToken();
      const scrape = async () => Exposition.parse(await (await createMetricsApp(h.bff.metrics).request("/metrics")).text());
      const response = await h.api(slotSearchPath(h, 2), { token });
      expect(response.status).toBe(503);
      const body = appErrorBody.parse(await response.json());
      expect(body.code).toBe(APP_ERROR_CODES.intakeFailed);
      expect(body.message).toMatch(/^Tandem could not read the Clinic Data Service's answer \(\d+ KB\): try again, or ask for less$/);
      const logged = h.logLines.find((line) => line.includes("clinic: the intake thread could not take in an answer"));
      expect(logged).toContain('"level":50');
      expect(logged).toContain('"reason":"failed"');
      expect(logged).toContain("reaching memory limit");
      expect((await scrape()).value("tandem_upstream_intake_failures_total", { reason: "failed" })).toBe(1);
      expect((await scrape()).value("tandem_upstream_intake_failures_total", { reason: "timeout" })).toBe(0);

      // The process is up: a small read is served; the same search, not kept, fails the same way and is counted again.
      expect((await h.api("/api/facilities", { token })).status).toBe(200);
      expect((await h.api(slotSearchPath(h, 2), { token })).status).toBe(503);
      expect((await scrape()).value("tandem_upstream_intake_failures_total", { reason: "failed" })).toBe(2);
    } finally {
      thread.close();
    }
  });
});

describe("many of the widest searches at once", () => {
  it("no more than two of the widest the contract allows are read from the service at once; the others wait their turn and are served; a cached answer does not wait", async () => {
    const h = await start({ upstreamMaxBodyBytes: 16 * 1024 * 1024 });
    const org = h.emulator.emulator.state.org(ORG_A_ID);
    const facilityIds = (org?.ehr.facilities ?? []).filter((facility) => facility.isVisible).map((facility) => facility.id);
    const typeId = org?.ehr.appointmentTypes[0]?.id ?? "";
    expect(facilityIds).toHaveLength(2);
    const day = (offset: number) => new Date(h.now() + offset * 86_400_000).toISOString().slice(0, 10);
    // Two facilities over 62 days: 124 facility-days, about the widest one search may be.
    const widest = (offset: number) => `/api/slots?${new URLSearchParams({ appointmentTypeId: typeId, facilityIds: facilityIds.join(","), startDate: day(offset), endDate: day(offset + 61) }).toString()}`;
    const token = await h.hostToken({ userId: h.userWithRole("Front Desk") });
    expect((await h.api(widest(100), { token })).status).toBe(200);

    const held: (() => void)[] = [];
    intercept = async (request, forward) => {
      if (new URL(request.url).pathname !== "/v2/schedule/slots") return forward(request);
      await new Promise<void>((resolve) => held.push(resolve));
      return forward(request);
    };
    const searches = Array.from({ length: 6 }, (_, index) => h.api(widest(index), { token }));
    await expect.poll(() => held.length).toBe(2);
    // However long the others are given, they stay at the gate (turns of the event loop, not time).
    for (let turn = 0; turn < 50; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(held.length).toBe(2);
    // The cached one is served while the gate is full.
    expect((await h.api(widest(100), { token })).status).toBe(200);

    let released = 0;
    while (released < 6) {
      await expect.poll(() => held.length).toBeGreaterThan(released);
      expect(held.length - released).toBeLessThanOrEqual(2);
      held[released]?.();
      released += 1;
    }
    expect((await Promise.all(searches)).map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });
});
