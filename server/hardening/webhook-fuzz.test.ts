import { count } from "drizzle-orm";
import fc from "fast-check";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APPOINTMENT_EVENT_TYPES, LIFECYCLE_EVENT_TYPES } from "#contract/clinic-api/events.ts";
import { ORG_A_ID, ORG_B_ID } from "../../emulator/world/identities.ts";
import { storeOnDatabase } from "../store/create-store.ts";
import { openDatabase, type DatabaseHandle } from "../store/database.ts";
import { webhookInbox } from "../store/schema.ts";
import type { Store } from "../store/store.ts";
import { HARNESS_NOW, createBffHarness, type BffHarness } from "../testing/bff-harness.ts";
import { MAX_WEBHOOK_BODY_BYTES, MAX_WEBHOOK_JSON_DEPTH } from "../webhooks/webhook-receiver.ts";
import { dateTimeLike, fuzzText, headerText, hugeString, idLike, junkJson, shapedObject } from "./testing/fuzz-arbitraries.ts";

// Fuzz, the webhook receiver (POST /webhooks/clinic): random
// bodies (huge, binary-ish, unicode), random and malformed webhook-* and
// svix-* headers, valid signatures over mutated bodies, old and future
// timestamps. Never a 5xx; nothing unsigned or badly signed is stored; a
// correctly signed event is stored once (a redelivery is a duplicate) and
// processed without an unhandled failure, known type or not.

const SECRET = "whsec_AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcY";
const OTHER_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const DATA_KEY = "svc_dev_ak_5a0d1e2f3a4b5c6d7e8f90a1b2c3d4e5";
const STACK_FRAME = /\bat [^\s()]+ \([^)]*:\d+:\d+\)|\bat (?:file:\/\/|node:|\/)[^\s]*:\d+:\d+/;

let handle: DatabaseHandle;
let store: Store;
let harness: BffHarness;

beforeAll(async () => {
  handle = await openDatabase({});
  store = storeOnDatabase(handle);
  harness = await createBffHarness(store);
  // Only the fuzzed deliveries reach the inbox.
  harness.emulator.emulator.dispatcher.configure(null);
}, 60_000);

afterAll(async () => {
  await harness.close();
  await store.close();
});

async function inboxRows(): Promise<number> {
  const [row] = await handle.db.select({ rows: count() }).from(webhookInbox);
  return row?.rows ?? 0;
}

/** Signed on the BFF's clock (the harness's pinned one). */
const nowS = () => Math.floor(harness.now() / 1000);
let sequence = 0;
const messageId = () => `msg_fuzz_${Date.now().toString(36)}_${(sequence += 1)}`;

function signedHeaders(body: string, options: { id?: string; timestampS?: number; secret?: string; style?: "webhook" | "svix" } = {}): Record<string, string> {
  const id = options.id ?? messageId();
  const timestampS = options.timestampS ?? nowS();
  const signature = new Webhook(options.secret ?? SECRET).sign(id, new Date(timestampS * 1000), body);
  const prefix = options.style ?? "webhook";
  return { [`${prefix}-id`]: id, [`${prefix}-timestamp`]: String(timestampS), [`${prefix}-signature`]: signature, "content-type": "application/json" };
}

const clip = (text: string, length = 300) => (text.length > length ? `${text.slice(0, length)}… (${text.length} chars)` : text);

interface Delivery {
  body: string | Uint8Array;
  headers: Record<string, string | undefined>;
}

function describeDelivery(delivery: Delivery, status?: number, answer?: string): string {
  const body = typeof delivery.body === "string" ? clip(delivery.body) : `<${delivery.body.length} bytes>`;
  const headers = Object.entries(delivery.headers).map(([name, value]) => `${name}: ${clip(String(value), 120)}`);
  return `${headers.join("\n")}\n${body}${status === undefined ? "" : `\n→ ${status} ${clip(answer ?? "")}`}`;
}

/** Posts one delivery and checks what holds for every answer; null when `Request` refuses the headers. */
async function deliver(delivery: Delivery): Promise<{ status: number; text: string; json: unknown } | null> {
  let request: Request;
  try {
    const headers = new Headers();
    for (const [name, value] of Object.entries(delivery.headers)) if (value !== undefined) headers.set(name, value);
    request = new Request("http://localhost/webhooks/clinic", { method: "POST", headers, body: delivery.body });
  } catch {
    return null;
  }
  const response = await harness.bff.app.fetch(request);
  const text = await response.text();
  const context = describeDelivery(delivery, response.status, text);
  expect(response.status, context).toBeLessThan(500);
  const everything = `${JSON.stringify([...response.headers])}\n${text}`;
  for (const secret of [DATA_KEY, SECRET, SECRET.slice("whsec_".length)]) expect(everything.includes(secret), context).toBe(false);
  expect(STACK_FRAME.test(everything), context).toBe(false);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  if (response.status >= 400) {
    // The receiver's refusals are `{code, message}` (no host session, so no trace id to quote).
    const body = json as { code?: unknown; message?: unknown } | null;
    expect(typeof body?.code === "string" && body.code.length > 0, context).toBe(true);
    expect(typeof body?.message === "string" && body.message.trim().length > 0, context).toBe(true);
  }
  return { status: response.status, text, json };
}

/** Over the receiver's limit: refused with 413 before anything else. */
const oversized = (body: string | Uint8Array) => (typeof body === "string" ? Buffer.byteLength(body) : body.length) > MAX_WEBHOOK_BODY_BYTES;

/** A delivery that must be refused: 4xx and nothing stored. */
async function expectRefused(delivery: Delivery, statuses: readonly number[] = [400, 401, 413]): Promise<void> {
  const before = await inboxRows();
  const answer = await deliver(delivery);
  if (!answer) return;
  expect(oversized(delivery.body) ? [413] : statuses, describeDelivery(delivery, answer.status, answer.text)).toContain(answer.status);
  expect(await inboxRows(), describeDelivery(delivery, answer.status, answer.text)).toBe(before);
}

const utcTimestamp = fc.integer({ min: -400, max: 400 }).map((days) => new Date(HARNESS_NOW + days * 86_400_000).toISOString());

/** Envelopes `{type, data, timestamp}` of every kind: appointment and lifecycle payloads (near-valid), unknown types, odd data. */
const envelope: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({
    type: fc.constantFrom(...APPOINTMENT_EVENT_TYPES),
    timestamp: utcTimestamp,
    data: shapedObject({
      id: idLike,
      organizationId: fc.constantFrom(ORG_A_ID, ORG_B_ID, ORG_A_ID.toUpperCase()),
      integrationAppointmentId: fuzzText,
      patientId: idLike,
      providerUsersEhrId: fuzzText,
      facilityId: idLike,
      status: fc.constantFrom("confirmed", "cancelled", "arrived", "completed", "", "\u0000"),
      integrationStatus: fuzzText,
      previousStatus: fc.option(fuzzText, { nil: null }),
      cancelReasonName: fc.option(fuzzText, { nil: null }),
      scheduledStartDate: fc.oneof(utcTimestamp, dateTimeLike),
      scheduledEndDate: fc.oneof(utcTimestamp, dateTimeLike),
      updatedAt: fc.oneof(utcTimestamp, dateTimeLike),
    }),
  }),
  fc.record({
    type: fc.constantFrom(...LIFECYCLE_EVENT_TYPES),
    timestamp: utcTimestamp,
    // Another organization than the harness's own: a lifecycle event must not uninstall org A mid-run.
    data: shapedObject({
      organizationId: fc.oneof(fc.uuid(), fuzzText),
      grantedPermissions: fc.array(fc.constantFrom("read:patients", "write:soap_notes", "read:everything", ""), { maxLength: 3 }),
      settings: fc.dictionary(fuzzText, junkJson, { maxKeys: 3 }),
      installedBy: fc.constant(null),
    }),
  }),
  fc.record({
    type: fc.oneof(fc.constantFrom("facility.updated", "provider.updated", "patient_document.created", "fax.failed", "sync.requested", "test.ping", "", "appointment", "app."), fuzzText),
    timestamp: utcTimestamp,
    data: fc.oneof(fc.dictionary(fuzzText, junkJson, { maxKeys: 5 }), shapedObject({ organizationId: fc.oneof(fc.constant(ORG_B_ID), fuzzText), note: fuzzText })),
  }),
);

describe("unsigned and malformed deliveries", () => {
  const body = fc.oneof(
    { arbitrary: fuzzText, weight: 3 },
    { arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)), weight: 3 },
    { arbitrary: envelope.map((value) => JSON.stringify(value)), weight: 2 },
    { arbitrary: fc.uint8Array({ maxLength: 2_000 }), weight: 2 },
    { arbitrary: hugeString, weight: 1 },
    { arbitrary: fc.integer({ min: MAX_WEBHOOK_BODY_BYTES - 16, max: MAX_WEBHOOK_BODY_BYTES + 64 * 1024 }).map((length) => "x".repeat(length)), weight: 1 },
  );
  const signatureLike = fc.oneof(
    headerText,
    fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => `v1,${Buffer.from(bytes).toString("base64")}`),
    fc.array(fc.constantFrom("v1,", "v2,", "v1a,", "v1,=", "v1,AAAA", ",", " "), { minLength: 1, maxLength: 4 }).map((parts) => parts.join(" ")),
  );
  const timestampLike = fc.oneof(headerText, fc.integer().map(String), fc.constantFrom(String(Math.floor(HARNESS_NOW / 1000)), "1e10", "-1", "0x10", "", " 1", "9".repeat(400)));
  const headers = fc.record(
    {
      "webhook-id": headerText,
      "webhook-timestamp": timestampLike,
      "webhook-signature": signatureLike,
      "svix-id": headerText,
      "svix-timestamp": timestampLike,
      "svix-signature": signatureLike,
      "content-type": fc.oneof(fc.constant("application/json"), headerText),
    },
    { requiredKeys: [] },
  );

  it("refuses random bodies under random headers and stores nothing", async () => {
    await fc.assert(
      fc.asyncProperty(body, headers, async (payload, headerSet) => {
        await expectRefused({ body: payload, headers: headerSet });
      }),
      { numRuns: 60 },
    );
  });
});

describe("signatures", () => {
  const bodyMutation = fc.oneof(
    fc.record({ kind: fc.constant("append" as const), text: fc.constantFrom(" ", "\n", "x", "}", "\u0000", "é") }),
    fc.record({ kind: fc.constant("flip" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
    fc.constant({ kind: "reformat" as const }),
  );
  type BodyMutation = typeof bodyMutation extends fc.Arbitrary<infer T> ? T : never;

  function mutate(body: string, mutation: BodyMutation): string {
    switch (mutation.kind) {
      case "append":
        return `${body}${mutation.text}`;
      case "flip": {
        const at = mutation.at % body.length;
        return `${body.slice(0, at)}${body[at] === "a" ? "b" : "a"}${body.slice(at + 1)}`;
      }
      case "truncate":
        return body.slice(0, mutation.at % body.length);
      case "reformat":
        return JSON.stringify(JSON.parse(body), null, 2);
    }
  }

  it("refuses a valid signature over a mutated body, and stores nothing", async () => {
    await fc.assert(
      fc.asyncProperty(envelope, bodyMutation, fc.constantFrom("webhook" as const, "svix" as const), async (event, mutation, style) => {
        const body = JSON.stringify(event);
        const mutated = mutate(body, mutation);
        fc.pre(mutated !== body);
        await expectRefused({ body: mutated, headers: signedHeaders(body, { style }) }, [401]);
      }),
      { numRuns: 40 },
    );
  });

  it("refuses a signature over other headers (another id, timestamp or secret), and stores nothing", async () => {
    const tamper = fc.oneof(
      fc.record({ kind: fc.constant("id" as const), id: headerText.filter((text) => text.trim().length > 0) }),
      fc.record({ kind: fc.constant("timestamp" as const), deltaS: fc.integer({ min: -200, max: 200 }).filter((delta) => delta !== 0) }),
      fc.constant({ kind: "secret" as const }),
    );
    await fc.assert(
      fc.asyncProperty(envelope, tamper, async (event, change) => {
        const body = JSON.stringify(event);
        const headers = signedHeaders(body, change.kind === "secret" ? { secret: OTHER_SECRET } : {});
        if (change.kind === "id") {
          fc.pre(change.id.trim() !== headers["webhook-id"]);
          headers["webhook-id"] = change.id;
        }
        if (change.kind === "timestamp") headers["webhook-timestamp"] = String(Number(headers["webhook-timestamp"]) + change.deltaS);
        await expectRefused({ body, headers }, [400, 401]);
      }),
      { numRuns: 40 },
    );
  });

  it("refuses timestamps more than 5 minutes old or ahead, and accepts those within", async () => {
    const offset = fc.oneof(
      // A margin beyond the 300 s tolerance: the clock moves between signing and verifying.
      fc.integer({ min: 330, max: 10 * 365 * 86_400 }).map((delta) => ({ delta: -delta, accepted: false })),
      fc.integer({ min: 330, max: 10 * 365 * 86_400 }).map((delta) => ({ delta, accepted: false })),
      fc.integer({ min: -290, max: 290 }).map((delta) => ({ delta, accepted: true })),
    );
    await fc.assert(
      fc.asyncProperty(envelope, offset, async (event, { delta, accepted }) => {
        const body = JSON.stringify(event);
        const headers = signedHeaders(body, { timestampS: nowS() + delta });
        if (!accepted || oversized(body)) return expectRefused({ body, headers }, [401]);
        const before = await inboxRows();
        const answer = await deliver({ body, headers });
        expect(answer?.status).toBe(200);
        expect(await inboxRows()).toBe(before + 1);
      }),
      { numRuns: 30 },
    );
  });
});

describe("correctly signed deliveries", () => {
  it("stores a signed event once, answers its redelivery as a duplicate, and processes it without failing", async () => {
    const anyEvent = fc.oneof({ arbitrary: envelope, weight: 4 }, { arbitrary: fc.jsonValue(), weight: 1 });
    await fc.assert(
      fc.asyncProperty(anyEvent, fc.constantFrom("webhook" as const, "svix" as const), async (event, style) => {
        const body = JSON.stringify(event);
        const headers = signedHeaders(body, { style });
        const id = headers[`${style}-id`] ?? "";
        if (oversized(body)) return expectRefused({ body, headers });
        const before = await inboxRows();
        const first = await deliver({ body, headers });
        if (!first) return;
        const context = describeDelivery({ body, headers }, first.status, first.text);
        // Every verified delivery is kept and answered 2xx; one that is not an envelope as a dead letter.
        expect(first.status, context).toBe(200);
        const isDeadLetter = (first.json as { deadLetter?: boolean }).deadLetter === true;
        expect(first.json, context).toEqual(isDeadLetter ? { received: true, duplicate: false, deadLetter: true } : { received: true, duplicate: false });
        if (isDeadLetter) {
          expect(await inboxRows(), context).toBe(before + 1);
          expect((await store.inbox.get(id))?.deadLetterReason, context).toBeTruthy();
          return;
        }
        expect(await inboxRows(), context).toBe(before + 1);
        expect(await store.inbox.get(id), context).not.toBeNull();
        const again = await deliver({ body, headers: signedHeaders(body, { style, id }) });
        expect(again?.json, context).toEqual({ received: true, duplicate: true });
        expect(await inboxRows(), context).toBe(before + 1);
        // Processing: no unhandled failure; an event it cannot apply is kept with its error.
        await expect(harness.bff.processor.drain()).resolves.toBeTypeOf("number");
        const stored = await store.inbox.get(id);
        expect(stored?.processedAt !== null || stored.lastError !== null, context).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it("keeps an event whose strings hold NUL or unpaired surrogates (what PostgreSQL's jsonb refuses)", async () => {
    for (const text of ["a\u0000b", "\uD800", "x\uDC00y", "😀\u0000"]) {
      const event = { type: `fax.failed${text}`, timestamp: new Date().toISOString(), data: { organizationId: ORG_B_ID, note: text, [`key${text}`]: [text] } };
      const body = JSON.stringify(event);
      const headers = signedHeaders(body);
      const before = await inboxRows();
      const answer = await deliver({ body, headers });
      expect(answer?.status, text).toBe(200);
      expect(await inboxRows()).toBe(before + 1);
      const stored = await store.inbox.get(headers["webhook-id"] ?? "");
      expect(JSON.stringify(stored?.payload)).toContain("\uFFFD");
    }
  });

  it("keeps a signed payload nested deeper than the limit as its raw text, a dead letter (parsed it would overflow the store's serializer), and stores a shallow one as an event", async () => {
    const nested = (depth: number) => `{"type":"test.ping","timestamp":"${new Date().toISOString()}","data":{"deep":${"[".repeat(depth)}${"]".repeat(depth)}}}`;
    for (const depth of [MAX_WEBHOOK_JSON_DEPTH - 1, MAX_WEBHOOK_JSON_DEPTH, 5_000, 120_000]) {
      const body = nested(depth);
      const headers = signedHeaders(body);
      const answer = await deliver({ body, headers });
      expect(answer?.json).toEqual({ received: true, duplicate: false, deadLetter: true });
      expect((await store.inbox.get(headers["webhook-id"] ?? ""))?.payload).toEqual({ rawBody: body });
    }
    const before = await inboxRows();
    const shallow = nested(MAX_WEBHOOK_JSON_DEPTH - 2);
    const shallowHeaders = signedHeaders(shallow);
    expect((await deliver({ body: shallow, headers: shallowHeaders }))?.json).toEqual({ received: true, duplicate: false });
    expect(await inboxRows()).toBe(before + 1);
    expect((await store.inbox.get(shallowHeaders["webhook-id"] ?? ""))?.deadLetterReason).toBeNull();
  });
});
