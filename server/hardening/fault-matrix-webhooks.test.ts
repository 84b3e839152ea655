import { Hono } from "hono";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import type { LiveEvent } from "#contract/app-api/live-events.ts";
import { noteDraftResponse } from "#contract/app-api/note.ts";
import { session as sessionSchema } from "#contract/app-api/session.ts";
import { slotCheckResponse, slotSearchResponse, type SlotSelection } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { personKeyOf } from "../auth/person-key.ts";
import { ORG_A_ID, ORG_B_ID } from "../../emulator/world/identities.ts";
import { createLogger } from "../logger.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { createWebhookReceiver } from "../webhooks/webhook-receiver.ts";
import { createBffHarness, createMovableClock, UNREACHABLE_WEBHOOK_URL, type BffHarness } from "../testing/bff-harness.ts";
import { dateWindow, errorOf, openLiveStream, seededSearchTarget } from "./testing/fault-matrix-support.ts";

// The fault matrix (docs/fault-matrix.md), webhook half: deliveries lost, duplicated and
// shuffled, a BFF restart between storing and processing, an uninstall
// while a user works. The emulator delivers signed webhooks to the real
// BFF in-process; the BFF's clock is movable so cache expiry, the
// installation memory and leases are reached without waiting.

let store: Store;
let w: BffHarness;
const clock = createMovableClock();
let typeId: string;
let facilityId: string;
const published: LiveEvent[] = [];

beforeAll(async () => {
  store = await createStore();
  w = await createBffHarness(store, { now: clock.now });
  ({ typeId, facilityId } = await seededSearchTarget(w));
}, 60_000);

afterAll(async () => {
  await w.close();
  await store.close();
});

let unsubscribe: () => void = () => undefined;
beforeEach(async () => {
  clock.reset();
  await w.reset();
  published.length = 0;
  unsubscribe();
  unsubscribe = w.bff.hub.subscribe(ORG_A_ID, (event) => published.push(event));
});

const slotPath = () => `/api/slots?${new URLSearchParams({ appointmentTypeId: typeId, facilityIds: facilityId, ...dateWindow() }).toString()}`;

async function search(): Promise<Slot[]> {
  const response = await w.api(slotPath(), { token: await w.hostToken() });
  expect(response.status).toBe(200);
  return z.parse(slotSearchResponse, await response.json()).slots;
}

const selectionOf = (slot: Slot): SlotSelection => ({ providerId: slot.providerId, facilityId: slot.facilityId, startsAt: slot.startsAt, endsAt: slot.endsAt, appointmentTypeId: typeId });
const sameSlot = (a: Slot, b: Slot) => a.providerId === b.providerId && Date.parse(a.startsAt) === Date.parse(b.startsAt);

/** Books the slot in the EHR (as the front desk would there) and answers the service's appointment id. */
async function bookInEhr(slot: Slot, organizationId = ORG_A_ID): Promise<string> {
  const patient = w.emulator.emulator.state.org(organizationId)?.ehr.patients[3];
  const result = await w.emulator.sandbox("POST", `/ehr/${organizationId}/appointments`, { patientId: patient?.id, providerId: slot.providerId, facilityId: slot.facilityId, startsAt: slot.startsAt, endsAt: slot.endsAt, appointmentTypeId: typeId });
  expect(result.status).toBe(201);
  return z.parse(z.object({ appointment: z.object({ id: z.string() }) }), result.body).appointment.id;
}

async function sync(organizationId = ORG_A_ID): Promise<string[]> {
  const result = await w.emulator.sandbox("POST", "/sync", { organizationId });
  const parsed = z.parse(z.object({ results: z.array(z.object({ events: z.array(z.object({ type: z.string() })) })) }), result.body);
  return parsed.results.flatMap((entry) => entry.events.map((event) => event.type));
}

/** The emulator's delivery log: message ids per event type, and how each attempt ended. */
async function attempts() {
  const result = await w.emulator.sandbox("GET", "/webhooks");
  return z.parse(z.object({ attempts: z.array(z.object({ messageId: z.string(), eventType: z.string(), delivery: z.number(), outcome: z.string() })) }), result.body).attempts;
}

async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A few real milliseconds, so the next installation change carries a later
 * timestamp than the last (the BFF keeps the newer record). The emulator's
 * clock is not moved for this: `reset` would move it back, behind records
 * the BFF already stored.
 */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** A webhook receiver that stores each delivery and answers 2xx, then "dies" before its processor runs. */
function dyingReceiver() {
  // On the BFF's pinned clock (ADR 0011): it judges the deliveries' timestamps, which the emulator stamps on its own.
  const receiver = createWebhookReceiver({ inbox: store.inbox, secrets: w.config.webhookSecrets, logger: createLogger({ level: "silent", secrets: [] }), now: clock.now, onStored: () => undefined });
  return new Hono().route("/webhooks/clinic", receiver);
}

const scheduleEvents = () => published.filter((event) => event.type === "schedule.changed");

describe("dropped webhooks", () => {
  it("a booking whose event is lost: the live check before a hold says the slot is gone at once, and the cached list converges at sourceSyncedAt + maxStalenessSeconds", async () => {
    const first = await w.api(slotPath(), { token: await w.hostToken() });
    const { slots: before, meta } = z.parse(slotSearchResponse, await first.json());
    const taken = before[0];
    if (!taken) throw new Error("no free slot");

    await w.webhooks({ url: UNREACHABLE_WEBHOOK_URL, retrySchedule: [] });
    await bookInEhr(taken);
    expect(await sync()).toContain("appointment.created");
    await w.emulator.emulator.dispatcher.idle();
    expect((await attempts()).filter((attempt) => attempt.eventType === "appointment.created").map((attempt) => attempt.outcome)).toEqual(["failed"]);
    expect(w.deliveries).toHaveLength(0);

    // Within the bound the list may still offer it (documented staleness), from the cache: no upstream read.
    const cachedReads = w.upstreamCount("GET", "/v2/schedule/slots");
    expect((await search()).some((slot) => sameSlot(slot, taken))).toBe(true);
    expect(w.upstreamCount("GET", "/v2/schedule/slots")).toBe(cachedReads);
    // Picking it: the strong check reads the EHR live ("That time was just taken"), and a hold is refused.
    const check = await w.api("/api/slots/check", { token: await w.hostToken(), method: "POST", body: selectionOf(taken) });
    expect(z.parse(slotCheckResponse, await check.json()).available).toBe(false);
    const hold = await w.api("/api/holds", { token: await w.hostToken(), method: "POST", body: selectionOf(taken) });
    expect(hold.status).toBe(409);
    expect((await errorOf(hold)).message).toBe("That time was just taken: no capacity is left for this slot");
    const upstreamBefore = w.upstreamCount("GET", "/v2/schedule/slots");

    // The cache entry ends at sourceSyncedAt + maxStalenessSeconds: the next search reads the service and the slot is gone.
    clock.advance((meta.maxStalenessSeconds + 1) * 1000);
    const after = await search();
    expect(after.some((slot) => sameSlot(slot, taken))).toBe(false);
    expect(w.upstreamCount("GET", "/v2/schedule/slots")).toBe(upstreamBefore + 1);
  });

  it("a delivery lost while the BFF is unreachable is retried by the service and processed once", async () => {
    const [slot] = await search();
    if (!slot) throw new Error("no free slot");
    const seen = new Set<string>();
    w.webhookGate = ({ messageId }) => {
      const first = !seen.has(messageId);
      seen.add(messageId);
      return !first;
    };
    const appointmentId = await bookInEhr(slot);
    await sync();
    await w.settle();
    const created = w.deliveries.filter((delivery) => delivery.eventType === "appointment.created");
    expect(created.map((delivery) => delivery.status)).toEqual([null, 200]);
    const stored = await store.inbox.get(created[0]?.messageId ?? "");
    expect(stored).toMatchObject({ attempts: 1 });
    expect(stored?.processedAt).not.toBeNull();
    expect(await store.appointmentStates.get(ORG_A_ID, appointmentId)).toMatchObject({ status: "confirmed" });
    expect(scheduleEvents()).toHaveLength(1);
  });

  it("a lost app.uninstalled: the service's 403 makes the BFF reconcile at once, and from then on it answers installation_inactive", async () => {
    const userId = w.userWithRole("Physician", ORG_B_ID);
    const token = () => w.hostToken({ organizationId: ORG_B_ID, userId });
    try {
      await w.webhooks({ url: UNREACHABLE_WEBHOOK_URL, retrySchedule: [] });
      await w.emulator.sandbox("POST", `/installations/${ORG_B_ID}`, { status: "uninstalled" });
      // Past the registry's memory (30 s) and its refresh floor (30 s).
      clock.advance(31_000);
      const refused = await w.api("/api/providers", { token: await token() });
      expect(refused.status).toBe(403);
      const first = await errorOf(refused);
      expect(first.code).toBe("forbidden");
      expect(first.message).toBe("The organization's installation of this app is uninstalled; requests for it are rejected");
      // No refresh by the test: the 403 itself started the reconcile.
      await waitFor(async () => (await store.installations.get(ORG_B_ID))?.status === "uninstalled", "the reconcile after the 403");
      const next = await w.api("/api/providers", { token: await token() });
      expect(next.status).toBe(403);
      expect(await errorOf(next)).toMatchObject({ code: "installation_inactive", message: "Tandem's installation for this organization is uninstalled: ask an administrator to reactivate it" });
    } finally {
      await reinstall(ORG_B_ID);
    }
  });

  it("a suspension and a reactivation send no event at all: the nightly reconcile learns the suspension, and a reactivated organization is let back in without waiting for the next night", async () => {
    const userId = w.userWithRole("Physician", ORG_B_ID);
    const token = () => w.hostToken({ organizationId: ORG_B_ID, userId });
    try {
      const suspended = await w.emulator.sandbox("POST", `/installations/${ORG_B_ID}`, { status: "suspended" });
      expect(z.parse(z.object({ events: z.array(z.string()) }), suspended.body).events).toEqual([]);
      // What the nightly timer runs.
      await w.bff.installations.refresh();
      clock.advance(31_000);
      const refused = await w.api("/api/session", { token: await token() });
      expect(refused.status).toBe(403);
      expect(await errorOf(refused)).toMatchObject({ code: "installation_inactive", message: "Tandem's installation for this organization is suspended: ask an administrator to reactivate it" });

      await w.emulator.sandbox("POST", `/installations/${ORG_B_ID}`, { status: "active" });
      clock.advance(31_000);
      const back = await w.api("/api/session", { token: await token() });
      expect(back.status).toBe(200);
    } finally {
      await reinstall(ORG_B_ID);
    }
  });
});

/** Back to active through the lifecycle event, and the BFF's table with it. */
async function reinstall(organizationId: string): Promise<void> {
  await w.webhooks({});
  w.webhookGate = null;
  await w.emulator.sandbox("POST", `/installations/${organizationId}`, { status: "uninstalled" });
  await tick();
  await w.emulator.sandbox("POST", `/installations/${organizationId}`, { status: "active" });
  await w.settle();
  expect((await store.installations.get(organizationId))?.status).toBe("active");
}

describe("duplicated and shuffled webhooks", () => {
  it("a batch delivered twice in random order: each hook-id stored once and processed once, one live event per change", async () => {
    await w.webhooks({ headerStyle: "prefixed", duplicate: true, shuffle: true });
    const slots = (await search()).filter((slot, index, all) => all.findIndex((other) => Date.parse(other.startsAt) === Date.parse(slot.startsAt)) === index).slice(0, 3);
    expect(slots).toHaveLength(3);
    const ids = [];
    for (const slot of slots) ids.push(await bookInEhr(slot));
    expect((await sync()).filter((type) => type === "appointment.created")).toHaveLength(3);
    await w.settle();

    const created = w.deliveries.filter((delivery) => delivery.eventType === "appointment.created");
    const messageIds = [...new Set(created.map((delivery) => delivery.messageId))];
    expect(messageIds).toHaveLength(3);
    for (const messageId of messageIds) {
      const copies = created.filter((delivery) => delivery.messageId === messageId);
      expect(copies.map((copy) => copy.status)).toEqual([200, 200]);
      expect(copies.filter((copy) => copy.duplicate)).toHaveLength(1);
      expect(await store.inbox.get(messageId)).toMatchObject({ attempts: 1, lastError: null });
    }
    for (const id of ids) expect(await store.appointmentStates.get(ORG_A_ID, id)).toMatchObject({ status: "confirmed" });
    expect(scheduleEvents()).toHaveLength(3);
  });

  it("a stale event arriving after the cancellation never re-opens the appointment, and changes nothing on screen", async () => {
    await w.webhooks({ duplicate: true, shuffle: true, retrySchedule: Array.from({ length: 20 }, () => 0.1) });
    const [slot] = await search();
    if (!slot) throw new Error("no free slot");
    // The booking's event is held back on the network until after the cancellation has arrived.
    let release = false;
    w.webhookGate = ({ eventType }) => release || eventType !== "appointment.created";
    const appointmentId = await bookInEhr(slot);
    await sync();
    await w.emulator.sandbox("POST", "/clock", { advanceSeconds: 2 });
    await w.emulator.sandbox("PATCH", `/ehr/${ORG_A_ID}/appointments/${appointmentId}`, { status: "cancelled", cancelReasonName: "Patient request" });
    expect(await sync()).toEqual(["appointment.cancelled"]);
    await waitFor(() => w.deliveries.filter((delivery) => delivery.eventType === "appointment.cancelled" && delivery.status === 200).length === 2, "the cancellation's two copies");
    await w.bff.processor.drain();
    expect(await store.appointmentStates.get(ORG_A_ID, appointmentId)).toMatchObject({ status: "cancelled" });
    expect(scheduleEvents()).toHaveLength(1);

    release = true;
    await w.settle();
    const late = w.deliveries.filter((delivery) => delivery.eventType === "appointment.created" && delivery.status === 200);
    expect(late.length).toBeGreaterThanOrEqual(1);
    expect(await store.inbox.get(late[0]?.messageId ?? "")).toMatchObject({ attempts: 1 });
    expect((await store.inbox.get(late[0]?.messageId ?? ""))?.processedAt).not.toBeNull();
    expect(await store.appointmentStates.get(ORG_A_ID, appointmentId)).toMatchObject({ status: "cancelled" });
    expect(scheduleEvents()).toHaveLength(1);
  });
});

describe("a BFF restart between storing and processing", () => {
  it("a delivery stored by a process that died before processing it is processed exactly once by the next one at start-up", async () => {
    // The receiver stores under the hook-id and answers 2xx; the process dies before its processor runs.
    const captured: Request[] = [];
    const dying = dyingReceiver();
    w.receiveWith({ fetch: (request) => (captured.push(request.clone()), dying.fetch(request)) });
    const [slot] = await search();
    if (!slot) throw new Error("no free slot");
    const appointmentId = await bookInEhr(slot);
    await sync();
    await w.emulator.emulator.dispatcher.idle();
    const delivered = w.deliveries.find((delivery) => delivery.eventType === "appointment.created");
    const hookId = delivered?.messageId ?? "";
    expect(delivered?.status).toBe(200);
    expect(await store.inbox.get(hookId)).toMatchObject({ processedAt: null, attempts: 0 });
    expect(await store.appointmentStates.get(ORG_A_ID, appointmentId)).toBeNull();

    const crashed = w.bff;
    await crashed.close();
    const restarted = w.restart();
    w.receiveWith(null);
    const afterRestart: LiveEvent[] = [];
    restarted.hub.subscribe(ORG_A_ID, (event) => afterRestart.push(event));
    await restarted.start();
    try {
      await restarted.processor.drain();
      expect((await store.inbox.get(hookId))?.processedAt).not.toBeNull();
      expect(await store.inbox.get(hookId)).toMatchObject({ attempts: 1 });
      expect(await store.appointmentStates.get(ORG_A_ID, appointmentId)).toMatchObject({ status: "confirmed" });
      expect(afterRestart.filter((event) => event.type === "schedule.changed")).toHaveLength(1);

      // The service delivers it again (at-least-once): answered 2xx as a duplicate, not processed again.
      const again = captured[0];
      if (!again) throw new Error("nothing was captured");
      const answer = await restarted.app.fetch(again);
      expect(await answer.json()).toEqual({ received: true, duplicate: true });
      expect(await restarted.processor.drain()).toBe(0);
      expect(afterRestart.filter((event) => event.type === "schedule.changed")).toHaveLength(1);
      expect(await store.inbox.get(hookId)).toMatchObject({ attempts: 1 });
    } finally {
      await restarted.close();
      w.restart();
    }
  });

  it("a process that died while holding the batch's lease: the next one takes the row once the lease has run out", async () => {
    const [slot] = await search();
    if (!slot) throw new Error("no free slot");
    w.receiveWith(dyingReceiver());
    const appointmentId = await bookInEhr(slot);
    await sync();
    await w.emulator.emulator.dispatcher.idle();
    const hookId = w.deliveries.find((delivery) => delivery.eventType === "appointment.created")?.messageId ?? "";
    // The dead process had claimed it (its lease, 60 s by default) and crashed mid-way.
    const claimed = await store.inbox.claimUnprocessed({ limit: 100, leaseMs: 60_000, now: clock.now(), maxAttempts: 5 });
    expect(claimed.map((entry) => entry.hookId)).toContain(hookId);

    const restarted = w.restart();
    w.receiveWith(null);
    await restarted.start();
    try {
      await restarted.processor.drain();
      expect(await store.inbox.get(hookId)).toMatchObject({ processedAt: null });
      clock.advance(61_000);
      await restarted.processor.drain();
      expect(await store.inbox.get(hookId)).toMatchObject({ attempts: 1 });
      expect((await store.inbox.get(hookId))?.processedAt).not.toBeNull();
      expect(await store.appointmentStates.get(ORG_A_ID, appointmentId)).toMatchObject({ status: "confirmed" });
    } finally {
      await restarted.close();
      w.restart();
    }
  });
});

describe("an uninstall while a user is working", () => {
  it("the lifecycle event reaches the BFF: the open stream is told and closed, the next call answers 403 installation_inactive naming the state, the draft is kept; reinstalling restores access", async () => {
    const note = w.emulator.emulator.state.org(ORG_A_ID)?.ehr.notes.find((candidate) => candidate.status === "awaiting_sign");
    if (!note) throw new Error("no unsigned note");
    const token = () => w.hostToken({ noteId: note.id });
    const draft = { fields: { otherExamComments: "Typed before the uninstall" }, baseline: { otherExamComments: note.soapNote.exam.otherExamComments }, noteVersion: note.version };
    expect((await w.api(`/api/notes/${note.id}/draft`, { token: await token(), method: "PUT", body: draft })).status).toBe(200);
    const stream = await openLiveStream(w, await token());
    try {
      const result = await w.emulator.sandbox("POST", `/installations/${ORG_A_ID}`, { status: "uninstalled" });
      expect(z.parse(z.object({ events: z.array(z.string()) }), result.body).events).toEqual(["app.uninstalled"]);
      await w.settle();
      expect(w.deliveries.filter((delivery) => delivery.eventType === "app.uninstalled").map((delivery) => delivery.status)).toEqual([200]);

      expect(await stream.next()).toMatchObject({ type: "installation.changed", status: "uninstalled" });
      expect(await stream.next()).toBeNull();
      expect(w.bff.hub.subscriberCount(ORG_A_ID)).toBe(1); // the test's own subscription only

      const refused = await w.api("/api/session", { token: await token() });
      expect(refused.status).toBe(403);
      expect(await errorOf(refused)).toMatchObject({ code: "installation_inactive", message: "Tandem's installation for this organization is uninstalled: ask an administrator to reactivate it" });
      const patchesBefore = w.upstreamCount("PATCH", "/v1/notes/");
      const save = await w.api(`/api/notes/${note.id}`, { token: await token(), method: "PATCH", body: { otherExamComments: "Typed before the uninstall" } });
      expect(save.status).toBe(403);
      expect((await errorOf(save)).code).toBe("installation_inactive");
      expect(w.upstreamCount("PATCH", "/v1/notes/")).toBe(patchesBefore);
      expect((await store.noteDrafts.get(ORG_A_ID, personKeyOf({ providerId: w.userWithRole("Physician"), accountId: w.userWithRole("Physician") }), note.id))?.fields).toEqual(draft.fields);

      await tick();
      await w.emulator.sandbox("POST", `/installations/${ORG_A_ID}`, { status: "active" });
      await w.settle();
      const back = await w.api("/api/session", { token: await token() });
      expect(back.status).toBe(200);
      z.parse(sessionSchema, await back.json());
      const kept = await w.api(`/api/notes/${note.id}/draft`, { token: await token() });
      expect(z.parse(noteDraftResponse, await kept.json()).draft?.fields).toEqual(draft.fields);
    } finally {
      await stream.cancel().catch(() => undefined);
      if ((await store.installations.get(ORG_A_ID))?.status !== "active") await reinstall(ORG_A_ID);
    }
  });
});
