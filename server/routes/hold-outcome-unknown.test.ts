import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { APP_ERROR_CODES, appErrorBody } from "#contract/app-api/errors.ts";
import { appointmentTypesResponse } from "#contract/app-api/session.ts";
import {
  HOLD_LIMIT_CODE,
  heldSlotsResponse,
  holdOutcomeUnknownExtras,
  holdReleaseResponse,
  MAX_ACTIVE_HOLDS,
  slotSearchResponse,
  type HoldRequest,
  type MaybeHeldSlot,
} from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { toPrefixedId } from "#contract/ids.ts";
import { ORG_A_ID } from "../../emulator/world/identities.ts";
import { personKeyOf } from "../auth/person-key.ts";
import { WRITE_IN_FLIGHT_MS } from "../clinic/write-outcome.ts";
import { holdSubjectOf, SERVICE_HOLD_LIFETIME_MS } from "../schedule/hold-intents.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";
import { startFaultProxy, type FaultProxy } from "../testing/fault-proxy.ts";

// Issue 35 item 4, holds: an answer lost after the service may have held the
// slot (a reset, a timeout, a 5xx, the store failing after the call, a process
// killed before it recorded the hold) leaves a hold the EHR may have made for
// the user. It stays theirs: listed as not confirmed with the time it frees
// itself at the latest, counted in their basket, never "nothing is held", and
// their own retry of the slot is not told "just taken". The BFF talks to the
// emulator over real HTTP through the fault proxy (server/testing/fault-proxy.ts).

let store: Store;
let harness: BffHarness;
let emulatorServer: ServerType;
/** The `Idempotency-Key` of every hold the BFF sent: the intent's id. */
const holdKeys: (string | null)[] = [];
/** Undefined until the emulator is served on a port (the harness's own start-up reads go in-process). */
let proxy: FaultProxy | undefined;
let typeId: string;

/** The BFF's wait for one upstream attempt: short, so a silenced hold times out within the test. */
const TIMEOUT_MS = 1_500;
const HOLD_PATH = /^\/v4\/schedule\/holds$/;

beforeAll(async () => {
  store = await createStore();
  harness = await createBffHarness(store, {
    clinicOptions: { timeoutMs: TIMEOUT_MS },
    // Every upstream call goes over a socket, through the proxy, to the emulator served on a port.
    interceptUpstream: (request, forward) => {
      if (proxy === undefined) return forward(request);
      const url = new URL(request.url);
      if (request.method === "POST" && HOLD_PATH.test(url.pathname)) holdKeys.push(request.headers.get("idempotency-key"));
      return fetch(`${proxy.url}${url.pathname}${url.search}`, {
        method: request.method,
        headers: request.headers,
        body: request.method === "GET" ? undefined : request.body,
        signal: request.signal,
        duplex: "half",
      });
    },
  });
  emulatorServer = await new Promise<ServerType>((resolve) => {
    const server = serve({ fetch: harness.emulator.emulator.app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(server));
  });
  proxy = await startFaultProxy(`http://127.0.0.1:${(emulatorServer.address() as AddressInfo).port}`);
  const types = z.parse(appointmentTypesResponse, await (await harness.api("/api/appointment-types", { token: await harness.hostToken() })).json());
  const type = types.appointmentTypes[0];
  if (!type) throw new Error("no appointment types");
  typeId = type.id;
});

function faults(): FaultProxy {
  if (!proxy) throw new Error("the fault proxy is not up");
  return proxy;
}

beforeEach(() => faults().clear());

afterAll(async () => {
  await proxy?.close();
  await new Promise<void>((resolve) => emulatorServer.close(() => resolve()));
  await harness.close();
  await store.close();
});

function orgA() {
  const org = harness.emulator.emulator.state.org(ORG_A_ID);
  if (!org) throw new Error("no org A");
  return org;
}

/** A user of org A of their own for each test, so no test's holds count against another's basket. */
const nextUser = (() => {
  let next = 0;
  return () => {
    const users = orgA().ehr.providers.filter((provider) => !provider.hidden);
    const user = users[next++];
    if (!user) throw new Error("the seed has too few users");
    return user.id;
  };
})();

const takenSlots = new Set<string>();

/** Free slots with one place left (a second hold of it is refused), one per provider and day, three to five weeks ahead. */
async function freeSlots(count: number): Promise<Slot[]> {
  const startDate = new Date(harness.now() + 21 * 86_400_000).toISOString().slice(0, 10);
  const endDate = new Date(harness.now() + 34 * 86_400_000).toISOString().slice(0, 10);
  const query = new URLSearchParams({ appointmentTypeId: typeId, startDate, endDate });
  const answer = await harness.api(`/api/slots?${query.toString()}`, { token: await harness.hostToken() });
  const { slots } = z.parse(slotSearchResponse, await answer.json());
  const key = (slot: Slot) => `${slot.providerId}|${slot.startsAt.slice(0, 10)}`;
  const picked: Slot[] = [];
  for (const slot of slots) {
    if (picked.length === count) break;
    if (slot.remainingCapacity !== 1 || takenSlots.has(key(slot))) continue;
    takenSlots.add(key(slot));
    picked.push(slot);
  }
  if (picked.length < count) throw new Error(`fewer than ${count} free slots`);
  return picked;
}

async function freeSlot(): Promise<Slot> {
  const [slot] = await freeSlots(1);
  if (!slot) throw new Error("no free slot");
  return slot;
}

const selectionOf = (slot: Slot): HoldRequest => ({ providerId: slot.providerId, facilityId: slot.facilityId, startsAt: slot.startsAt, endsAt: slot.endsAt, appointmentTypeId: typeId });

const hold = async (userId: string, slot: Slot) => harness.api("/api/holds", { token: await harness.hostToken({ userId }), method: "POST", body: selectionOf(slot) });

async function listed(userId: string) {
  const response = await harness.api("/api/holds", { token: await harness.hostToken({ userId }) });
  expect(response.status).toBe(200);
  return z.parse(heldSlotsResponse, await response.json());
}

const letGo = async (userId: string, id: string) => harness.api(`/api/holds/${id}`, { token: await harness.hostToken({ userId }), method: "DELETE" });

/** The holds active at the service on the slot, whoever made them. */
const serviceHoldsOn = (slot: Slot) =>
  harness.emulator.emulator.state.activeHolds(orgA()).filter((held) => Date.parse(held.startsAt) === Date.parse(slot.startsAt) && toPrefixedId("prv", held.providerId) === slot.providerId);

/** "10:42 AM" in the slot's facility's zone. */
function clockTimeAt(slot: Slot, iso: string): string {
  const facility = orgA().ehr.facilities.find((candidate) => toPrefixedId("fac", candidate.id) === slot.facilityId);
  if (!facility) throw new Error("no facility");
  return new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", timeZone: facility.timezone }).format(Date.parse(iso));
}

/** The error body of an answer lost after the service may have acted, with the attempt it leaves. */
const failedSystemOf = z.object({ failed_system: z.string() });

async function unknownOutcome(response: Response): Promise<{ code: string; failedSystem: string; message: string; maybeHeld: MaybeHeldSlot }> {
  const body = z.parse(appErrorBody, await response.json());
  const extras = z.parse(holdOutcomeUnknownExtras, body);
  return { code: body.code, failedSystem: z.parse(failedSystemOf, body).failed_system, message: body.message, maybeHeld: extras.maybe_held };
}

/** What every lost answer must leave: one hold at the service, listed as the user's, not confirmed. */
async function expectKeptAsTheUsers(userId: string, slot: Slot, maybeHeld: MaybeHeldSlot) {
  expect(serviceHoldsOn(slot)).toHaveLength(1);
  expect(Date.parse(maybeHeld.freesAt) - Date.parse(maybeHeld.triedAt)).toBe(WRITE_IN_FLIGHT_MS + SERVICE_HOLD_LIFETIME_MS);
  expect(maybeHeld.slot).toEqual({ providerId: slot.providerId, facilityId: slot.facilityId, startsAt: slot.startsAt, endsAt: slot.endsAt });
  expect((await listed(userId)).maybeHeld).toEqual([maybeHeld]);
}

/**
 * The user asks for the same hold again: sent under the first attempt's key, which the service made the hold
 * under, so it answers that hold. Held once, now confirmed, no longer listed as not confirmed.
 */
async function expectRetryAnsweredWithTheHold(userId: string, slot: Slot, maybeHeld: MaybeHeldSlot) {
  const [made] = serviceHoldsOn(slot);
  const retry = await hold(userId, slot);
  expect(retry.status).toBe(200);
  expect(holdKeys.at(-1)).toBe(maybeHeld.id);
  expect(serviceHoldsOn(slot)).toEqual([made]);
  const { holds, maybeHeld: stillUnconfirmed } = await listed(userId);
  expect(holds.map((held) => held.id)).toEqual([made?.id]);
  expect(stillUnconfirmed).toEqual([]);
}

/** The retry meets the user's own orphan the service does not know by its key: not "just taken", and nothing held twice. */
async function expectRetryToldMayAlreadyHold(userId: string, slot: Slot, maybeHeld: MaybeHeldSlot) {
  const retry = await hold(userId, slot);
  expect(retry.status).toBe(409);
  const words = z.parse(appErrorBody, await retry.json());
  expect(words.code).toBe("conflict");
  expect(words.message).toBe(`You may already hold this slot (the EHR did not confirm); it frees itself by ${clockTimeAt(slot, maybeHeld.freesAt)} at the latest`);
  expect(serviceHoldsOn(slot)).toHaveLength(1);
  // Still listed as it was: a refused resend made nothing, so what the first send may have made frees itself as before.
  expect((await listed(userId)).maybeHeld).toEqual([maybeHeld]);
}

describe("a hold whose answer was lost stays the user's", () => {
  it("a connection reset after the service held: 503 naming the service, 'may have held', listed with when it frees itself, the retry's own words", async () => {
    const userId = nextUser();
    const slot = await freeSlot();
    faults().add({ method: "POST", path: HOLD_PATH, mode: "reset", count: 1 });

    const response = await hold(userId, slot);
    expect(faults().cutOff).toContain("POST /v4/schedule/holds 200");
    expect(response.status).toBe(503);
    const { code, failedSystem, message, maybeHeld } = await unknownOutcome(response);
    expect([code, failedSystem]).toEqual([APP_ERROR_CODES.outcomeUnknown, "service"]);
    expect(message).toMatch(/^The connection to the clinic data service was lost before its answer came\. The EHR may have held this slot for you\. Tandem lists it with your holds as not confirmed, and it frees itself by /);
    expect(message).toContain(`${clockTimeAt(slot, maybeHeld.freesAt)} at the latest`);
    expect(message).not.toMatch(/nothing|not held/i);
    expect(maybeHeld.canRelease).toBe(false);
    // The attempt's id went to the service as the hold's idempotency key (nothing relies on the service honouring it).
    expect(holdKeys.at(-1)).toBe(maybeHeld.id);
    await expectKeptAsTheUsers(userId, slot, maybeHeld);

    // Let it go: Tandem never learnt the EHR's hold id, so there is nothing to release; it says by when it frees itself.
    const letGoAnswer = await letGo(userId, maybeHeld.id);
    expect(letGoAnswer.status).toBe(200);
    expect(z.parse(holdReleaseResponse, await letGoAnswer.json())).toEqual({ released: false, freesAt: maybeHeld.freesAt });
    // Another user cannot let it go.
    expect((await letGo(nextUser(), maybeHeld.id)).status).toBe(403);
  });

  it("a timeout over the BFF's deadline: 504, listed as not confirmed, never 'not held'", async () => {
    const userId = nextUser();
    const slot = await freeSlot();
    faults().add({ method: "POST", path: HOLD_PATH, mode: "silence", count: 1 });

    const response = await hold(userId, slot);
    expect(response.status).toBe(504);
    const { code, failedSystem, message, maybeHeld } = await unknownOutcome(response);
    expect([code, failedSystem]).toEqual([APP_ERROR_CODES.outcomeUnknown, "ehr"]);
    expect(message).toMatch(/^The EHR did not answer in time\. The EHR may have held this slot for you\. Tandem lists it/);
    expect(message).not.toMatch(/nothing|not held/i);
    await expectKeptAsTheUsers(userId, slot, maybeHeld);
    await expectRetryAnsweredWithTheHold(userId, slot, maybeHeld);
  });

  it("a 5xx after sending (server_unresponsive) leaves the outcome unknown, not 'nothing is held', and the user's other tabs hear of it", async () => {
    const userId = nextUser();
    const slot = await freeSlot();
    await harness.fault({ method: "POST", path: "/v4/schedule/holds", code: "server_unresponsive", count: 1 });
    const events: unknown[] = [];
    const stopListening = harness.bff.hub.subscribe(ORG_A_ID, (event) => events.push(event));
    const response = await hold(userId, slot);
    expect(response.status).toBe(503);
    // Before, only a confirmed hold was announced: another tab listed nothing not confirmed until something else read the holds.
    await vi.waitFor(() => expect(events).toContainEqual({ type: "holds.changed", userId: expect.stringContaining(userId) as unknown }));
    stopListening();
    const { code, failedSystem, maybeHeld } = await unknownOutcome(response);
    expect([code, failedSystem]).toEqual([APP_ERROR_CODES.outcomeUnknown, "ehr"]);
    expect((await listed(userId)).maybeHeld).toEqual([maybeHeld]);
    await harness.emulator.sandbox("DELETE", "/faults");

    // The slot still free, the user holds it again: one attempt, under its first key; held once, and the entry not
    // confirmed gives way to the hold (before, a second attempt was listed beside it: "may be holding" and "holding").
    expect(serviceHoldsOn(slot)).toEqual([]);
    const retry = await hold(userId, slot);
    expect(retry.status).toBe(200);
    expect(holdKeys.slice(-2)).toEqual([maybeHeld.id, maybeHeld.id]);
    expect(serviceHoldsOn(slot)).toHaveLength(1);
    expect(await listed(userId)).toMatchObject({ holds: [expect.objectContaining({ id: serviceHoldsOn(slot)[0]?.id })], maybeHeld: [] });
  });

  it("asked again with its length and flag named (the first left them to the slot): the same hold, sent in the same form under its key", async () => {
    const userId = nextUser();
    const slot = await freeSlot();
    faults().add({ method: "POST", path: HOLD_PATH, mode: "reset", count: 1 });
    const { maybeHeld } = await unknownOutcome(await hold(userId, slot));
    const minutes = (Date.parse(slot.endsAt) - Date.parse(slot.startsAt)) / 60_000;
    const retry = await harness.api("/api/holds", { token: await harness.hostToken({ userId }), method: "POST", body: { ...selectionOf(slot), slotLengthMinutes: minutes, isNewPatient: false } });
    expect(retry.status).toBe(200);
    expect(holdKeys.slice(-2)).toEqual([maybeHeld.id, maybeHeld.id]);
    expect(serviceHoldsOn(slot)).toHaveLength(1);
    expect(await listed(userId)).toMatchObject({ holds: { length: 1 }, maybeHeld: [] });
  });

  it("asked again and its answer lost again: still one hold the EHR may have made, freeing itself counted from the second send", async () => {
    const userId = nextUser();
    const slot = await freeSlot();
    faults().add({ method: "POST", path: HOLD_PATH, mode: "reset", count: 2 });
    const first = await unknownOutcome(await hold(userId, slot));
    harness.advanceClocks(30);
    const second = await unknownOutcome(await hold(userId, slot));
    expect(second.maybeHeld.id).toBe(first.maybeHeld.id);
    expect(Date.parse(second.maybeHeld.triedAt) - Date.parse(first.maybeHeld.triedAt)).toBeGreaterThanOrEqual(30_000);
    expect((await listed(userId)).maybeHeld).toEqual([second.maybeHeld]);
    expect(serviceHoldsOn(slot)).toHaveLength(1);
  });

  it("the store failing after the service held: 503 naming Tandem's server, listed with the EHR's id, and Let it go releases it in the EHR", async () => {
    const userId = nextUser();
    const slot = await freeSlot();
    const insert = vi.spyOn(store.holds, "insertWithinLimit").mockRejectedValueOnce(new Error("disk full"));
    let maybeHeld: MaybeHeldSlot;
    try {
      const response = await hold(userId, slot);
      expect(response.status).toBe(503);
      const outcome = await unknownOutcome(response);
      expect([outcome.code, outcome.failedSystem]).toEqual([APP_ERROR_CODES.outcomeUnknown, "tandem"]);
      expect(outcome.message).toMatch(/^Tandem's server failed after the request was sent to the EHR\. The EHR held this slot for you, but Tandem's server could not record the hold\. Tandem lists it with your holds as not confirmed/);
      maybeHeld = outcome.maybeHeld;
    } finally {
      insert.mockRestore();
    }
    expect(maybeHeld.canRelease).toBe(true);
    await expectKeptAsTheUsers(userId, slot, maybeHeld);

    const letGoAnswer = await letGo(userId, maybeHeld.id);
    expect(z.parse(holdReleaseResponse, await letGoAnswer.json())).toEqual({ released: true });
    expect(serviceHoldsOn(slot)).toHaveLength(0);
    expect((await listed(userId)).maybeHeld).toEqual([]);
  });

  it("a process killed between the service's answer and the record: the intent left pending reads as unknown once its deadline has passed", async () => {
    const userId = nextUser();
    const slot = await freeSlot();
    // The dead process asked the service, which held the slot; it never settled its intent.
    const made = await harness.emulator.call("POST /v4/schedule/holds", { body: { ...selectionOf(slot), appointmentTypeId: typeId } });
    expect(made.status).toBe(200);
    const request = { providerId: slot.providerId, facilityId: slot.facilityId, startsAt: slot.startsAt, endsAt: slot.endsAt, appointmentTypeId: typeId, slotLengthMinutes: 30, isNewPatient: false, patientId: null };
    // Kept under the person, as the route keeps it (ADR 0024).
    const intent = { organizationId: ORG_A_ID, userId: personKeyOf({ providerId: userId, accountId: userId }), kind: "hold" as const, subjectId: holdSubjectOf(slot), request };

    // Still within its deadline: in flight elsewhere, not listed.
    await store.writeIntents.record({ ...intent, id: "0a0a0a0a-0000-4000-8000-000000000001", createdAt: harness.now() - 1_000 });
    expect((await listed(userId)).maybeHeld).toEqual([]);

    await store.writeIntents.record({ ...intent, id: "0a0a0a0a-0000-4000-8000-000000000002", createdAt: harness.now() - WRITE_IN_FLIGHT_MS - 1_000 });
    const [maybeHeld] = (await listed(userId)).maybeHeld;
    expect(maybeHeld).toMatchObject({ id: "0a0a0a0a-0000-4000-8000-000000000002", canRelease: false });
    if (!maybeHeld) throw new Error("not listed");
    await expectKeptAsTheUsers(userId, slot, maybeHeld);
    await expectRetryToldMayAlreadyHold(userId, slot, maybeHeld);
  });

  it("a hold its process left pending is announced to the user's tabs when it comes to read as unknown (their reconnection's read came before, and listed nothing)", async () => {
    const userId = nextUser();
    const slot = await freeSlot();
    const request = { providerId: slot.providerId, facilityId: slot.facilityId, startsAt: slot.startsAt, endsAt: slot.endsAt, appointmentTypeId: typeId, slotLengthMinutes: 30, isNewPatient: false, patientId: null };
    const personKey = personKeyOf({ providerId: userId, accountId: userId });
    await store.writeIntents.record({ id: "0a0a0a0a-0000-4000-8000-000000000003", organizationId: ORG_A_ID, userId: personKey, kind: "hold", subjectId: holdSubjectOf(slot), request, createdAt: harness.now() - WRITE_IN_FLIGHT_MS + 2_000 });
    const events: unknown[] = [];
    const stopListening = harness.bff.hub.subscribe(ORG_A_ID, (event) => events.push(event));
    await harness.bff.strandedWrites.announceDue();
    expect(events).not.toContainEqual({ type: "holds.changed", userId: personKey });
    expect((await listed(userId)).maybeHeld).toEqual([]);

    harness.advanceClocks(3);
    await harness.bff.strandedWrites.announceDue();
    await vi.waitFor(() => expect(events).toContainEqual({ type: "holds.changed", userId: personKey }));
    expect((await listed(userId)).maybeHeld).toEqual([expect.objectContaining({ id: "0a0a0a0a-0000-4000-8000-000000000003" })]);
    // Once: the next look finds it behind it.
    events.length = 0;
    harness.advanceClocks(3);
    await harness.bff.strandedWrites.announceDue();
    expect(events).not.toContainEqual({ type: "holds.changed", userId: personKey });
    stopListening();
  });

  it(`counts holds the EHR may have made in the basket of ${MAX_ACTIVE_HOLDS}: the next is refused without asking the service`, async () => {
    const userId = nextUser();
    const slots = await freeSlots(MAX_ACTIVE_HOLDS + 1);
    faults().add({ method: "POST", path: HOLD_PATH, mode: "reset", count: 2 });
    for (const slot of slots.slice(0, 2)) expect((await hold(userId, slot)).status).toBe(503);
    const third = slots[2];
    const fourth = slots[3];
    if (!third || !fourth) throw new Error("too few slots");
    expect((await hold(userId, third)).status).toBe(200);
    const posts = harness.upstreamCount("POST", "/v4/schedule/holds");

    const refused = await hold(userId, fourth);
    expect(refused.status).toBe(409);
    expect(z.parse(appErrorBody, await refused.json()).code).toBe(HOLD_LIMIT_CODE);
    expect(harness.upstreamCount("POST", "/v4/schedule/holds")).toBe(posts);
    const { holds, maybeHeld } = await listed(userId);
    expect(holds).toHaveLength(1);
    expect(maybeHeld).toHaveLength(2);

    // Asking again for one of those takes no new place: it is sent in its own, and the EHR answers the hold it made.
    const [first] = slots;
    if (!first) throw new Error("too few slots");
    expect((await hold(userId, first)).status).toBe(200);
    expect(await listed(userId)).toMatchObject({ holds: { length: 2 }, maybeHeld: { length: 1 } });
  });

  it("a slot someone else took is still 'just taken', and the refused attempt is not listed", async () => {
    const userId = nextUser();
    const slot = await freeSlot();
    expect((await hold(nextUser(), slot)).status).toBe(200);
    const response = await hold(userId, slot);
    expect(response.status).toBe(409);
    expect(z.parse(appErrorBody, await response.json()).message).toMatch(/^That time was just taken/);
    expect(await listed(userId)).toMatchObject({ holds: [], maybeHeld: [] });
    const intents = await store.writeIntents.listUnsettled(ORG_A_ID, "hold", { userId });
    expect(intents).toEqual([]);
  });

  // Last: the clocks only move forward.
  it("stops listing and counting a hold the EHR may have made once it has freed itself", async () => {
    const userId = nextUser();
    const slot = await freeSlot();
    faults().add({ method: "POST", path: HOLD_PATH, mode: "reset", count: 1 });
    const { maybeHeld } = await unknownOutcome(await hold(userId, slot));
    harness.advanceClocks((Date.parse(maybeHeld.freesAt) - harness.now()) / 1000 - 1);
    expect((await listed(userId)).maybeHeld).toEqual([maybeHeld]);
    harness.advanceClocks(1);
    expect((await listed(userId)).maybeHeld).toEqual([]);
    // The service's hold ran out too: the slot is free for the user again.
    expect(serviceHoldsOn(slot)).toHaveLength(0);
    expect((await hold(userId, slot)).status).toBe(200);
  });
});
