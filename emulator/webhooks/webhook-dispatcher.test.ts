import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EmulatorClock } from "../clock.ts";
import { signWebhook, webhookHeaders } from "./sign-webhook.ts";
import {
  createWebhookDispatcher,
  randomMessageId,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
  type WebhookEvent,
} from "./webhook-dispatcher.ts";

const SANDBOX_SECRET = "whsec_AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcY";
const OTHER_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const UNRELATED_SECRET = "whsec_" + Buffer.alloc(24, 7).toString("base64");

interface Received {
  headers: Record<string, string>;
  body: string;
}

interface Receiver {
  url: string;
  requests: Received[];
  close(): Promise<void>;
}

/** A real local HTTP receiver; `answer` picks the status for the n-th request (0-based). */
async function startReceiver(answer: (n: number, request: Received) => number = () => 200): Promise<Receiver> {
  const requests: Received[] = [];
  const app = new Hono();
  app.post("/hook", async (c) => {
    const request: Received = { headers: Object.fromEntries(c.req.raw.headers), body: await c.req.text() };
    const status = answer(requests.length, request);
    requests.push(request);
    return c.text("", status as 200);
  });
  let server: ServerType | undefined;
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => resolve(info.port));
  });
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        if (!server) return resolve();
        if ("closeAllConnections" in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An injected fetch that records requests and answers from `answer`. */
function recordingFetch(answer: (n: number) => number = () => 204): { fetch: typeof fetch; requests: Received[] } {
  const requests: Received[] = [];
  const fake = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    void input;
    const headers = Object.fromEntries(new Headers(init?.headers));
    const body = typeof init?.body === "string" ? init.body : "";
    const status = answer(requests.length);
    requests.push({ headers, body });
    return Promise.resolve(new Response(null, { status }));
  };
  return { fetch: fake, requests };
}

/** The library reads only `webhook-*`: rename the provider-prefixed headers first (DESIGN.md). */
function verify(secret: string, request: Received): unknown {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    headers[name.startsWith("svix-") ? `webhook-${name.slice("svix-".length)}` : name] = value;
  }
  return new Webhook(secret).verify(request.body, headers);
}

/** Seeded PRNG (mulberry32) for deterministic shuffles. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function event(n: number, type = "appointment.updated"): WebhookEvent {
  return { type, data: { id: `appt-${n}`, n }, timestamp: new Date(Date.UTC(2030, 0, 1, 0, 0, n)).toISOString() };
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/**
 * Retry timers on fake time (ADR 0011): what is still scheduled is read off the
 * timer queue, never waited for in real time. Only `setTimeout` is faked; the
 * injected fetch answers on promises alone.
 */
function fakeRetryTimers(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
}

function dispatcher(options: Partial<WebhookDispatcherOptions> = {}): WebhookDispatcher {
  const d = createWebhookDispatcher({
    clock: new EmulatorClock(Date.now(), true),
    signingSecrets: () => [SANDBOX_SECRET],
    ...options,
  });
  cleanups.push(() => d.close());
  return d;
}

async function receiver(answer?: (n: number, request: Received) => number): Promise<Receiver> {
  const r = await startReceiver(answer);
  cleanups.push(() => r.close());
  return r;
}

describe("signWebhook", () => {
  it("reproduces the Standard Webhooks test vector", () => {
    expect(
      signWebhook(["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"], "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}'),
    ).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("joins one signature per secret with a space", () => {
    const both = signWebhook([SANDBOX_SECRET, OTHER_SECRET], "msg_x", 1614265330, "{}");
    expect(both.split(" ")).toEqual([
      signWebhook([SANDBOX_SECRET], "msg_x", 1614265330, "{}"),
      signWebhook([OTHER_SECRET], "msg_x", 1614265330, "{}"),
    ]);
  });

  it("refuses to sign without a secret", () => {
    expect(() => signWebhook([], "msg_x", 1, "{}")).toThrow(/secret/);
  });

  it("names the headers per style", () => {
    expect(webhookHeaders("standard", "msg_x", 12.7, "v1,abc")).toEqual({
      "webhook-id": "msg_x",
      "webhook-timestamp": "12",
      "webhook-signature": "v1,abc",
    });
    expect(Object.keys(webhookHeaders("prefixed", "msg_x", 12, "v1,abc"))).toEqual(["svix-id", "svix-timestamp", "svix-signature"]);
  });
});

describe("createWebhookDispatcher", () => {
  it("posts a signed JSON envelope to a real receiver (standard headers)", async () => {
    const r = await receiver();
    const d = dispatcher();
    d.configure({ url: r.url, headerStyle: "standard" });
    const e = event(1, "appointment.created");
    const ids = d.send([e]);
    await d.idle();

    expect(ids).toHaveLength(1);
    expect(r.requests).toHaveLength(1);
    const [request] = r.requests;
    if (!request) throw new Error("no request");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["webhook-id"]).toBe(ids[0]);
    expect(request.headers["svix-id"]).toBeUndefined();
    expect(request.body).toBe(JSON.stringify({ type: e.type, data: e.data, timestamp: e.timestamp }));
    expect(verify(SANDBOX_SECRET, request)).toEqual(e);
    expect(() => verify(UNRELATED_SECRET, request)).toThrow();
    expect(d.attempts()).toMatchObject([{ messageId: ids[0], eventType: "appointment.created", attempt: 1, status: 200, outcome: "delivered" }]);
  });

  it("uses svix-* headers in the prefixed style, verifiable after renaming", async () => {
    const r = await receiver();
    const d = dispatcher();
    d.configure({ url: r.url, headerStyle: "prefixed" });
    const [id] = d.send([event(1)]);
    await d.idle();

    const [request] = r.requests;
    if (!request) throw new Error("no request");
    expect(request.headers["svix-id"]).toBe(id);
    expect(request.headers["svix-timestamp"]).toMatch(/^\d+$/);
    expect(request.headers["svix-signature"]).toMatch(/^v1,/);
    expect(request.headers["webhook-id"]).toBeUndefined();
    expect(verify(SANDBOX_SECRET, request)).toEqual(event(1));
  });

  it("signs with every secret during a rotation; either verifies", async () => {
    const r = await receiver();
    const d = dispatcher({ signingSecrets: () => [SANDBOX_SECRET, OTHER_SECRET] });
    d.configure({ url: r.url, headerStyle: "standard" });
    d.send([event(1)]);
    await d.idle();

    const [request] = r.requests;
    if (!request) throw new Error("no request");
    expect(request.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    expect(verify(SANDBOX_SECRET, request)).toEqual(event(1));
    expect(verify(OTHER_SECRET, request)).toEqual(event(1));
    expect(() => verify(UNRELATED_SECRET, request)).toThrow(/No matching signature/);
  });

  it("retries 500, 500, 200 with the same id, re-stamped and re-signed", async () => {
    const clock = new EmulatorClock(Date.now(), true);
    // Each answer moves the emulator clock a minute, so the three attempts carry distinct timestamps.
    const r = await receiver((n) => {
      clock.set({ advanceSeconds: 60 });
      return n < 2 ? 500 : 200;
    });
    const d = dispatcher({ clock });
    d.configure({ url: r.url, headerStyle: "standard", retrySchedule: [0.01, 0.02] });
    const [id] = d.send([event(1)]);
    await d.idle();

    expect(r.requests).toHaveLength(3);
    expect(r.requests.map((q) => q.headers["webhook-id"])).toEqual([id, id, id]);
    const stamps = r.requests.map((q) => Number(q.headers["webhook-timestamp"]));
    expect(stamps[1]! - stamps[0]!).toBe(60);
    expect(stamps[2]! - stamps[1]!).toBe(60);
    const signatures = new Set(r.requests.map((q) => q.headers["webhook-signature"]));
    expect(signatures.size).toBe(3);
    for (const request of r.requests) expect(verify(SANDBOX_SECRET, request)).toEqual(event(1));

    expect(d.attempts().map((a) => [a.messageId, a.attempt, a.status, a.outcome, a.signedAt])).toEqual([
      [id, 1, 500, "retrying", stamps[0]],
      [id, 2, 500, "retrying", stamps[1]],
      [id, 3, 200, "delivered", stamps[2]],
    ]);
    expect(d.attempts()[0]?.nextRetryInSeconds).toBe(0.01);
  });

  it("gives up after the last retry", async () => {
    fakeRetryTimers();
    const { fetch, requests } = recordingFetch(() => 503);
    const d = dispatcher({ fetch });
    d.configure({ url: "http://receiver.test/hook", headerStyle: "standard", retrySchedule: [0.01, 0.02] });
    d.send([event(1)]);
    await vi.runAllTimersAsync();
    await d.idle();

    expect(requests).toHaveLength(3);
    expect(d.attempts().map((a) => a.outcome)).toEqual(["retrying", "retrying", "failed"]);
    // Nothing else is scheduled.
    expect(vi.getTimerCount()).toBe(0);
  });

  it("logs network errors and bad URLs as failed attempts without throwing", async () => {
    const r = await receiver();
    const closedUrl = r.url;
    await r.close();
    const d = dispatcher();
    d.configure({ url: closedUrl, headerStyle: "standard", retrySchedule: [0.01] });
    expect(() => d.send([event(1)])).not.toThrow();
    await d.idle();
    expect(d.attempts().map((a) => [a.attempt, a.status, a.outcome])).toEqual([
      [1, null, "retrying"],
      [2, null, "failed"],
    ]);
    expect(d.attempts()[0]?.error).toBeTruthy();

    d.configure({ url: "not a url", headerStyle: "prefixed", retrySchedule: [] });
    expect(() => d.send([event(2)])).not.toThrow();
    await d.idle();
    expect(d.attempts().at(-1)).toMatchObject({ status: null, outcome: "failed", url: "not a url" });
  });

  it("treats a redirect as a failed attempt", async () => {
    const r = await receiver(() => 302);
    const d = dispatcher();
    d.configure({ url: r.url, headerStyle: "standard", retrySchedule: [] });
    d.send([event(1)]);
    await d.idle();
    expect(d.attempts()).toMatchObject([{ status: 302, outcome: "failed" }]);
  });

  it("delivers a batch in order, one after another", async () => {
    const r = await receiver();
    const d = dispatcher();
    d.configure({ url: r.url, headerStyle: "standard" });
    const ids = d.send([1, 2, 3, 4, 5].map((n) => event(n)));
    const more = d.send([event(6)]);
    await d.idle();
    expect(r.requests.map((q) => q.headers["webhook-id"])).toEqual([...ids, ...more]);
  });

  it("delivers every message twice with the same id when duplicate is on", async () => {
    const { fetch, requests } = recordingFetch();
    const d = dispatcher({ fetch });
    d.configure({ url: "http://receiver.test/hook", headerStyle: "standard", duplicate: true });
    const [a, b] = d.send([event(1), event(2)]);
    await d.idle();
    expect(requests.map((q) => q.headers["webhook-id"])).toEqual([a, a, b, b]);
    expect(requests[0]?.body).toBe(requests[1]?.body);
    expect(d.attempts().map((x) => [x.messageId, x.delivery])).toEqual([
      [a, 1],
      [a, 2],
      [b, 1],
      [b, 2],
    ]);
  });

  it("shuffles a batch with the injected random, delivering each message once", async () => {
    const { fetch, requests } = recordingFetch();
    const d = dispatcher({ fetch, random: seeded(42) });
    d.configure({ url: "http://receiver.test/hook", headerStyle: "standard", shuffle: true });
    const ids = d.send(Array.from({ length: 8 }, (_, n) => event(n)));
    await d.idle();
    const received = requests.map((q) => q.headers["webhook-id"] ?? "");
    expect(received).not.toEqual(ids);
    expect([...received].sort()).toEqual([...ids].sort());
    expect(new Set(received).size).toBe(8);

    // The same seed gives the same order.
    const again = recordingFetch();
    const d2 = dispatcher({ fetch: again.fetch, random: seeded(42), newMessageId: idsInOrder(ids) });
    d2.configure({ url: "http://receiver.test/hook", headerStyle: "standard", shuffle: true });
    d2.send(Array.from({ length: 8 }, (_, n) => event(n)));
    await d2.idle();
    expect(again.requests.map((q) => q.headers["webhook-id"])).toEqual(received);
  });

  it("stamps from the injected clock", async () => {
    const fixedMs = Date.UTC(2031, 4, 6, 7, 8, 9, 789);
    const { fetch, requests } = recordingFetch();
    const d = dispatcher({ fetch, clock: new EmulatorClock(fixedMs, true) });
    d.configure({ url: "http://receiver.test/hook", headerStyle: "standard" });
    d.send([event(1)]);
    await d.idle();
    const [request] = requests;
    if (!request) throw new Error("no request");
    expect(request.headers["webhook-timestamp"]).toBe(String(Math.floor(fixedMs / 1000)));
    expect(d.attempts()[0]).toMatchObject({ at: "2031-05-06T07:08:09.789Z", signedAt: Math.floor(fixedMs / 1000) });
    // Valid at that time, and stale by the library's 5-minute tolerance in real time.
    expect(() => verify(SANDBOX_SECRET, request)).toThrow(/too new/);
    vi.spyOn(Date, "now").mockReturnValue(fixedMs);
    expect(verify(SANDBOX_SECRET, request)).toEqual(event(1));
  });

  it("returns ids but delivers nothing without a target", async () => {
    const { fetch, requests } = recordingFetch();
    const d = dispatcher({ fetch });
    const ids = d.send([event(1), event(2)]);
    await d.idle();
    expect(ids).toHaveLength(2);
    expect(requests).toHaveLength(0);
    expect(d.attempts()).toEqual([]);
    expect(d.target()).toBeNull();
  });

  it("logs a missing signing secret as a failed attempt and sends nothing", async () => {
    const { fetch, requests } = recordingFetch();
    const d = dispatcher({ fetch, signingSecrets: () => [] });
    d.configure({ url: "http://receiver.test/hook", headerStyle: "standard", retrySchedule: [] });
    d.send([event(1)]);
    await d.idle();
    expect(requests).toHaveLength(0);
    expect(d.attempts()).toMatchObject([{ status: null, outcome: "failed", error: expect.stringMatching(/secret/) as unknown }]);
  });

  it("idle waits for retry timers; reset drops them with the target and the log", async () => {
    fakeRetryTimers();
    const { fetch, requests } = recordingFetch((n) => (n === 1 ? 200 : 500));
    const d = dispatcher({ fetch });
    d.configure({ url: "http://receiver.test/hook", headerStyle: "standard", retrySchedule: [0.05] });
    d.send([event(1)]);
    let firstIdle = false;
    void d.idle().then(() => {
      firstIdle = true;
    });
    // The first attempt failed; idle waits for its retry, 50 ms on.
    await vi.advanceTimersByTimeAsync(49);
    expect(requests).toHaveLength(1);
    expect(firstIdle).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await d.idle();
    expect(requests).toHaveLength(2);

    d.configure({ url: "http://receiver.test/hook", headerStyle: "standard", retrySchedule: [3600] });
    d.send([event(2)]);
    let idle = false;
    void d.idle().then(() => {
      idle = true;
    });
    // Just short of the hour: the attempt was made and its retry still waits.
    await vi.advanceTimersByTimeAsync(3_599_000);
    expect(idle).toBe(false);
    expect(requests).toHaveLength(3);
    expect(vi.getTimerCount()).toBe(1);

    d.reset();
    await d.idle();
    expect(idle).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    expect(d.target()).toBeNull();
    expect(d.attempts()).toEqual([]);
  });

  it("configure replaces the target and drops the old one's pending retries", async () => {
    const old = recordingFetch(() => 500);
    let useOld = true;
    const current = recordingFetch();
    const fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> =>
      useOld ? old.fetch(input, init) : current.fetch(input, init);
    fakeRetryTimers();
    const d = dispatcher({ fetch });
    d.configure({ url: "http://old.test/hook", headerStyle: "standard", retrySchedule: [0.02] });
    d.send([event(1)]);
    // The first attempt is made and fails; its retry waits 20 ms on the fake clock.
    await vi.advanceTimersByTimeAsync(0);
    expect(old.requests).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(1);
    useOld = false;
    d.configure({ url: "http://new.test/hook", headerStyle: "prefixed" });
    expect(d.target()).toEqual({ url: "http://new.test/hook", headerStyle: "prefixed" });
    expect(vi.getTimerCount()).toBe(0);
    await vi.runAllTimersAsync();
    await d.idle();
    expect(old.requests).toHaveLength(1);
    expect(current.requests).toHaveLength(0);
  });

  it("close stops further delivery", async () => {
    const { fetch, requests } = recordingFetch();
    const d = dispatcher({ fetch });
    d.configure({ url: "http://receiver.test/hook", headerStyle: "standard" });
    d.close();
    expect(d.send([event(1)])).toHaveLength(1);
    await d.idle();
    expect(requests).toHaveLength(0);
  });

  it("makes provider-shaped message ids by default", () => {
    expect(randomMessageId()).toMatch(/^msg_[0-9A-Za-z]{27}$/);
    expect(randomMessageId()).not.toBe(randomMessageId());
  });
});

function idsInOrder(ids: readonly string[]): () => string {
  let i = 0;
  return () => ids[i++] ?? `msg_extra${i}`;
}
