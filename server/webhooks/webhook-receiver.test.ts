import { Webhook } from "standardwebhooks";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LiveEventHub } from "../events/live-event-hub.ts";
import { InstallationRegistry } from "../installations/installation-registry.ts";
import { createLogger } from "../logger.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { createWebhookReceiver, MAX_WEBHOOK_BODY_BYTES } from "./webhook-receiver.ts";
import { WebhookProcessor } from "./webhook-processor.ts";
import { verifyWebhook } from "./verify-webhook.ts";

// Seed 001 "Signature verification" and "Delivery guarantees"; DESIGN.md
// "Webhooks". The receiver and the processor over a real (PGlite) store.

const SECRET = "whsec_AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcY";
const ROTATED = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const ORG = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
const logger = createLogger({ level: "silent", secrets: [] });

let store: Store;
let invalidations: string[];
let published: unknown[];
let processor: WebhookProcessor;

function receiver(secrets: string[] = [SECRET]) {
  return createWebhookReceiver({ inbox: store.inbox, secrets, logger, onStored: () => undefined });
}

function signed(body: string, options: { id?: string; timestampS?: number; secret?: string; style?: "standard" | "prefixed" } = {}): Record<string, string> {
  const id = options.id ?? `msg_${Math.random().toString(36).slice(2)}`;
  const timestampS = options.timestampS ?? Math.floor(Date.now() / 1000);
  const signature = new Webhook(options.secret ?? SECRET).sign(id, new Date(timestampS * 1000), body);
  const prefix = options.style === "prefixed" ? "svix" : "webhook";
  return { [`${prefix}-id`]: id, [`${prefix}-timestamp`]: String(timestampS), [`${prefix}-signature`]: signature, "content-type": "application/json" };
}

function appointmentEvent(id: string, status: string, updatedAt: string, type = status === "cancelled" ? "appointment.cancelled" : "appointment.updated") {
  return JSON.stringify({
    type,
    timestamp: updatedAt,
    data: {
      id,
      organizationId: ORG,
      integrationAppointmentId: `EHR-${id.slice(0, 4)}`,
      patientId: "p",
      providerUsersEhrId: "1001",
      facilityId: "fac-1",
      status,
      integrationStatus: status,
      previousStatus: null,
      cancelReasonName: null,
      scheduledStartDate: "2026-12-01T15:00:00.000Z",
      scheduledEndDate: "2026-12-01T15:30:00.000Z",
      updatedAt,
    },
  });
}

async function post(body: string, headers: Record<string, string>, secrets?: string[]) {
  return receiver(secrets).request("/", { method: "POST", body, headers });
}

beforeAll(async () => {
  store = await createStore();
});

afterAll(async () => {
  await store.close();
});

beforeEach(() => {
  invalidations = [];
  published = [];
  const hub = new LiveEventHub();
  hub.subscribe(ORG, (event) => published.push(event));
  processor = new WebhookProcessor({
    store,
    installations: new InstallationRegistry({ repository: store.installations, fetchInstallations: () => Promise.resolve([]), requiredScopes: ["read:appointments"], logger }),
    live: hub,
    invalidate: (organizationId, change) => invalidations.push([organizationId, change.routePrefix, change.facilityId, change.date].filter((part) => part !== undefined).join(" ")),
    logger,
  });
});

describe("signature verification", () => {
  it("reproduces the official Standard Webhooks test vector, on the clock it is given", () => {
    const headers = new Headers({ "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek", "webhook-timestamp": "1614265330", "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=" });
    const verify = (atSeconds: number) => verifyWebhook('{"test": 2432232314}', headers, ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"], () => atSeconds * 1000);
    expect(verify(1614265330)).toEqual({ ok: true, messageId: "msg_p5jXN8AQM9LWM0D4loKWxJek" });
    expect(verify(1614265330 + 300)).toMatchObject({ ok: true });
    expect(verify(1614265330 + 301)).toEqual({ ok: false, status: 401, reason: "Message timestamp too old" });
    expect(verify(1614265330 - 301)).toEqual({ ok: false, status: 401, reason: "Message timestamp too new" });
    const tampered = new Headers(headers);
    tampered.set("webhook-signature", "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OF=");
    expect(verifyWebhook('{"test": 2432232314}', tampered, ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"], () => 1614265330_000)).toMatchObject({ ok: false, status: 401 });
    expect(verifyWebhook('{"test": 2432232315}', headers, ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"], () => 1614265330_000)).toMatchObject({ ok: false, status: 401 });
  });

  it.each(["standard", "prefixed"] as const)("accepts the %s header style", async (style) => {
    const body = appointmentEvent("a-style", "confirmed", "2026-11-22T10:00:00.000Z");
    const response = await post(body, signed(body, { style }));
    expect(response.status).toBe(200);
  });

  it("accepts any one of several signatures (the sender rotating its secret)", async () => {
    const body = appointmentEvent("a-rot", "confirmed", "2026-11-22T10:00:00.000Z");
    const headers = signed(body, { id: "msg_rotation" });
    const other = new Webhook(ROTATED).sign("msg_rotation", new Date(Number(headers["webhook-timestamp"]) * 1000), body);
    headers["webhook-signature"] = `${other} ${headers["webhook-signature"] ?? ""}`;
    expect((await post(body, headers)).status).toBe(200);
  });

  it("accepts a delivery signed with either of our secrets while we rotate ours", async () => {
    const body = appointmentEvent("a-ours", "confirmed", "2026-11-22T10:00:00.000Z");
    expect((await post(body, signed(body, { secret: ROTATED }), [SECRET, ROTATED])).status).toBe(200);
  });

  it.each([
    ["a forged signature", (body: string) => ({ ...signed(body), "webhook-signature": "v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=" }), 401],
    ["a stale timestamp (over 5 minutes old)", (body: string) => signed(body, { timestampS: Math.floor(Date.now() / 1000) - 301 }), 401],
    ["a future timestamp (over 5 minutes ahead)", (body: string) => signed(body, { timestampS: Math.floor(Date.now() / 1000) + 301 }), 401],
    ["missing headers", () => ({ "content-type": "application/json" }), 400],
    ["a body signed by another secret", (body: string) => signed(body, { secret: ROTATED }), 401],
  ])("refuses %s and leaves no trace", async (_case, headersFor, status) => {
    const body = appointmentEvent(`a-refused-${status}`, "confirmed", "2026-11-22T10:00:00.000Z");
    const headers: Record<string, string> = headersFor(body);
    const response = await post(body, headers);
    expect(response.status).toBe(status);
    const id = headers["webhook-id"];
    if (id) expect(await store.inbox.get(id)).toBeNull();
  });

  it("refuses a body over the size cap with 413", async () => {
    const body = JSON.stringify({ type: "test.event", timestamp: new Date().toISOString(), data: { pad: "x".repeat(MAX_WEBHOOK_BODY_BYTES) } });
    const response = await post(body, signed(body));
    expect(response.status).toBe(413);
  });

  it("keeps a verified body that is not the event envelope as a dead letter: answered 2xx (no retry, no loss), never processed, counted", async () => {
    const deadBefore = await store.inbox.countDeadLetters();
    for (const body of [JSON.stringify({ hello: "world" }), "not json at all", JSON.stringify({ type: "test.event", data: {}, timestamp: "yesterday" })]) {
      const headers = signed(body);
      const answer = await post(body, headers);
      expect(answer.status, body).toBe(200);
      expect(await answer.json()).toEqual({ received: true, duplicate: false, deadLetter: true });
      const kept = await store.inbox.get(headers["webhook-id"] ?? "");
      expect(kept?.deadLetterReason, body).toBeTruthy();
      expect(kept?.processedAt, body).not.toBeNull();
      expect(kept?.payload).toEqual({ rawBody: body });
    }
    expect(await store.inbox.countDeadLetters()).toBe(deadBefore + 3);
  });

  it("stores a verified event whose timestamp carries microseconds, no fraction, an offset or the seeds' database-style text (seed 001 says only ISO 8601), as sent", async () => {
    for (const timestamp of ["2026-11-24T10:00:00.123456Z", "2026-11-24T05:00:00.5-05:00", "2026-11-24T10:00:00Z", "2026-11-24 10:00:00.123456+00"]) {
      const body = JSON.stringify({ type: "test.event", data: { organizationId: ORG }, timestamp });
      const headers = signed(body);
      const answer = await post(body, headers);
      expect(await answer.json(), timestamp).toEqual({ received: true, duplicate: false });
      const stored = await store.inbox.get(headers["webhook-id"] ?? "");
      expect(stored?.deadLetterReason).toBeNull();
      expect(stored?.payload).toMatchObject({ timestamp });
    }
  });
});

describe("the inbox", () => {
  it("stores a delivery before answering 2xx; a duplicate hook-id is answered 2xx and processed once", async () => {
    const body = appointmentEvent("a-dup", "confirmed", "2026-11-22T10:00:00.000Z");
    const headers = signed(body, { id: "msg_duplicate" });
    const first = await post(body, headers);
    expect(await first.json()).toEqual({ received: true, duplicate: false });
    expect(await store.inbox.get("msg_duplicate")).toMatchObject({ processedAt: null });
    const again = await post(body, headers);
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    expect(await processor.drain()).toBeGreaterThanOrEqual(1);
    expect(await processor.drain()).toBe(0);
  });

  it("a crash between storing and processing loses nothing: a new processor picks the row up", async () => {
    const body = appointmentEvent("a-crash", "cancelled", "2026-11-22T11:00:00.000Z");
    await post(body, signed(body, { id: "msg_crash" }));
    // No drain here: the process "died". A later processor (start-up) handles it.
    await processor.drain();
    expect(await store.appointmentStates.get(ORG, "a-crash")).toMatchObject({ status: "cancelled" });
    expect((await store.inbox.get("msg_crash"))?.processedAt).not.toBeNull();
    // By facility and date only: the organization's other kept schedule reads stay.
    expect(invalidations).toEqual([`${ORG} GET /v2/schedule/slots fac-1 2026-12-01`, `${ORG} GET /v3/schedule/availability-templates fac-1 2026-12-01`, `${ORG} GET /v1/appointments fac-1 2026-12-01`]);
    expect(published).toContainEqual({ type: "schedule.changed", facilityId: "fac-1", date: "2026-12-01" });
  });
});

describe("ordering (seed 001 Delivery guarantees 3)", () => {
  it("shuffled and duplicated streams end at the latest updatedAt, never re-open a cancellation, and process each hook-id once", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ status: fc.constantFrom("confirmed", "arrived", "cancelled"), minute: fc.integer({ min: 0, max: 59 }) }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.integer(),
        async (changes, duplicates, seed) => {
          run += 1;
          const appointmentId = `prop-${run}-${Math.abs(seed)}`;
          // Distinct timestamps: one change per minute at most.
          const unique = [...new Map(changes.map((change) => [change.minute, change])).values()];
          const deliveries = unique.map((change, index) => ({ id: `msg_${appointmentId}_${index}`, body: appointmentEvent(appointmentId, change.status, `2026-11-22T12:${String(change.minute).padStart(2, "0")}:00.000Z`) }));
          const stream = [...deliveries, ...duplicates.map((n) => deliveries[n % deliveries.length]).filter((delivery) => delivery !== undefined)];
          const shuffled = fc.sample(fc.shuffledSubarray(stream, { minLength: stream.length, maxLength: stream.length }), { numRuns: 1, seed })[0] ?? stream;
          for (const delivery of shuffled) {
            await post(delivery.body, signed(delivery.body, { id: delivery.id }));
            // Process at random points, as the timer would.
            if (seed % 3 === 0) await processor.drain();
          }
          await processor.drain();
          const latest = unique.reduce((a, b) => (b.minute > a.minute ? b : a));
          expect((await store.appointmentStates.get(ORG, appointmentId))?.status).toBe(latest.status);
          for (const delivery of deliveries) expect((await store.inbox.get(delivery.id))?.attempts).toBe(1);
        },
      ),
      { numRuns: 40 },
    );
  });
});
