import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { liveEvent, type LiveEvent } from "#contract/app-api/live-events.ts";
import { holdResponse, slotSearchResponse } from "#contract/app-api/slots.ts";
import { WAITLIST_OFFER_TAKEN_CODE, waitlistEntryResponse, waitlistResponse, type WaitlistOffer, type WaitlistPreferences } from "#contract/app-api/waitlist.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { isSameId } from "#contract/ids.ts";
import { ORG_A_ID } from "../../emulator/world/identities.ts";
import { dateWindow, errorOf, openLiveStream, seededSearchTarget } from "../hardening/testing/fault-matrix-support.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { dropSchema } from "../store/testing/drop-schema.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";
import { createLogger } from "../logger.ts";
import { freedKeyOf } from "./waitlist-event-handler.ts";
import { WaitlistMatcher } from "./waitlist-matcher.ts";

// Issue 38 through the webhooks, on the real BFF in-process against the
// emulator: a cancellation seen happen, of a slot still to come, offers the
// freed slot to the waitlisted patients it fits, once, however often and in
// whatever order its event arrives; a historical first sighting and a past
// slot never; a no-show counts; a strong read that fails is retried, not
// dropped; a booking for what a patient waited for ends their entry; and the
// first colleague to hold the slot from the offer gets it, for the waitlisted
// patient. PGlite always; PostgreSQL when DATABASE_URL is set.

const databaseUrl = process.env.DATABASE_URL;
const engines = [{ name: "pglite", databaseUrl: undefined }, ...(databaseUrl ? [{ name: "postgres", databaseUrl }] : [])];

const appointmentCreated = z.object({ appointment: z.object({ id: z.string() }) });

describe.each(engines)("the waitlist's webhooks on $name", ({ databaseUrl: url }) => {
  const schema = `waitlist_hooks_${randomBytes(4).toString("hex")}`;
  let store: Store;
  let h: BffHarness;
  let typeId: string;
  let facilityId: string;
  const published: LiveEvent[] = [];
  let sequence = 0;

  beforeAll(async () => {
    store = await createStore(url ? { databaseUrl: url, schema } : {});
    h = await createBffHarness(store);
    ({ typeId, facilityId } = await seededSearchTarget(h));
    h.bff.hub.subscribe(ORG_A_ID, (event) => published.push(event));
    // On PostgreSQL the bus is LISTEN/NOTIFY: listening, as a started BFF is.
    await h.bff.bus.start();
  }, 60_000);

  afterAll(async () => {
    await h.close();
    await store.close();
    if (url) await dropSchema(url, schema);
  });

  beforeEach(async () => {
    await h.reset();
    const waiting = await store.waitlist.listWaiting(ORG_A_ID, 10_000);
    await store.waitlist.end(ORG_A_ID, waiting.map((entry) => entry.id), "removed", h.now());
    await store.waitlist.purgeEndedBefore(h.now() + 1, 10_000);
    // Offers of earlier tests, whatever their slot's start.
    await store.waitlist.purgeOffersBefore(h.now() + 365 * 86_400_000, 10_000);
    published.length = 0;
  });

  const patientOf = (index: number) => {
    const patient = h.emulator.emulator.state.org(ORG_A_ID)?.ehr.patients[index];
    if (!patient) throw new Error("no such patient in the seed");
    return patient;
  };
  const frontDesk = (patientIndex?: number) => h.hostToken({ userId: h.userWithRole("Front Desk"), ...(patientIndex === undefined ? {} : { patientId: patientOf(patientIndex).id }) });
  const minutesOf = (slot: Pick<Slot, "startsAt" | "endsAt">) => (Date.parse(slot.endsAt) - Date.parse(slot.startsAt)) / 60_000;

  /** A free slot of the seed with room for one booking: booked, it is gone; cancelled, free again. `offset`: another one (holds outlast a test). */
  async function freeSlot(offset = 0): Promise<Slot> {
    const response = await h.api(`/api/slots?${new URLSearchParams({ appointmentTypeId: typeId, facilityIds: facilityId, ...dateWindow() }).toString()}`, { token: await frontDesk() });
    const slots = z.parse(slotSearchResponse, await response.json()).slots.filter((slot) => slot.remainingCapacity === 1);
    const slot = slots[Math.floor(slots.length / 2) + offset];
    if (!slot) throw new Error("no free slot with room for one in the seed");
    return slot;
  }

  /** Ana (patient 0) waits for any slot of this kind at the facility over the window. */
  async function anaWaitsFor(slot: Slot, overrides: Partial<WaitlistPreferences> = {}, patientIndex = 0) {
    const preferences: WaitlistPreferences = { appointmentTypeId: typeId, slotLengthMinutes: minutesOf(slot), isNewPatient: false, facilityIds: [facilityId], providerIds: null, ...dateWindow(), startsFrom: null, startsBefore: null, days: null, note: "", ...overrides };
    const response = await h.api("/api/waitlist", { method: "POST", token: await frontDesk(patientIndex), body: { preferences } });
    expect(response.status, await response.clone().text()).toBe(200);
    return z.parse(waitlistEntryResponse, await response.json()).entry;
  }

  /** Another patient (5) books the slot in the EHR; answers the service's appointment id. */
  async function bookedByAnother(slot: Slot, status?: string): Promise<string> {
    const result = await h.emulator.sandbox("POST", `/ehr/${ORG_A_ID}/appointments`, { patientId: patientOf(5).id, providerId: slot.providerId, facilityId: slot.facilityId, startsAt: slot.startsAt, endsAt: slot.endsAt, appointmentTypeId: typeId, ...(status ? { status } : {}) });
    expect(result.status).toBe(201);
    return z.parse(appointmentCreated, result.body).appointment.id;
  }

  const setStatus = async (appointmentId: string, status: string) => {
    const result = await h.emulator.sandbox("PATCH", `/ehr/${ORG_A_ID}/appointments/${appointmentId}`, { status });
    expect(result.status).toBe(200);
  };

  /**
   * Everything published so far has come back through the bus (at once
   * in-process; over NOTIFY on PostgreSQL, in order): a marker sent last has.
   */
  async function busDelivered(): Promise<void> {
    const markers = () => published.filter((event) => event.type === "directory.changed").length;
    const before = markers();
    h.bff.bus.publish(ORG_A_ID, { type: "directory.changed", resource: "facilities" });
    for (let tries = 0; markers() === before && tries < 500; tries += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  /** A sync, its events delivered and processed, the matching it started finished, and what it published heard. */
  async function syncAndMatch(): Promise<void> {
    await h.emulator.sandbox("POST", "/sync", { organizationId: ORG_A_ID });
    await h.settle();
    await h.bff.waitlistMatcher.run();
    await busDelivered();
  }

  /** POST /api/holds's body for the offer's slot, held for one of its entries, as the alert sends it. */
  const holdFromOffer = (offer: WaitlistOffer, entryId: string) => ({
    ...offer.slot,
    appointmentTypeId: offer.appointmentTypeId,
    slotLengthMinutes: offer.slotLengthMinutes,
    isNewPatient: offer.isNewPatient,
    fromWaitlist: { offerId: offer.id, entryId },
  });

  /** The offers published, each read with the contract's schema as the SPA reads the stream. */
  const offers = () => published.flatMap((event) => (event.type === "waitlist.offer" ? [z.parse(liveEvent, event)] : [])).flatMap((event) => (event.type === "waitlist.offer" ? [event.offer] : []));
  const strongReads = () => h.upstream.filter((call) => call.path === "/v2/schedule/slots" && call.url.includes("consistency=strong")).length;

  /** Signs and delivers an event under a new hook id, as a second delivery of the same change would come. */
  async function deliver(event: { type: string; timestamp: string; data: Record<string, unknown> }): Promise<void> {
    const body = JSON.stringify(event);
    const hookId = `msg_waitlist_${(sequence += 1)}_${randomBytes(3).toString("hex")}`;
    const signature = new Webhook(h.config.webhookSecrets[0] ?? "").sign(hookId, new Date(h.now()), body);
    const response = await h.bff.app.request("/webhooks/clinic", {
      method: "POST",
      body,
      headers: { "webhook-id": hookId, "webhook-timestamp": String(Math.floor(h.now() / 1000)), "webhook-signature": signature, "content-type": "application/json" },
    });
    expect(response.status).toBe(200);
  }

  function cancellationOf(appointmentId: string, slot: Slot, overrides: Record<string, unknown> = {}) {
    const updatedAt = new Date(h.now()).toISOString();
    return {
      type: "appointment.cancelled",
      timestamp: updatedAt,
      data: {
        id: appointmentId,
        organizationId: ORG_A_ID,
        integrationAppointmentId: `EHR-${appointmentId}`,
        patientId: patientOf(5).id,
        providerUsersEhrId: "1001",
        facilityId: slot.facilityId,
        status: "cancelled",
        integrationStatus: "cancelled",
        previousStatus: "confirmed",
        cancelReasonName: null,
        scheduledStartDate: new Date(Date.parse(slot.startsAt)).toISOString(),
        scheduledEndDate: new Date(Date.parse(slot.endsAt)).toISOString(),
        updatedAt,
        ...overrides,
      },
    };
  }

  describe("a freed slot is offered", () => {
    it("once, to the waitlisted patients it fits, with one strong read and one appointment read", async () => {
      const slot = await freeSlot();
      const appointmentId = await bookedByAnother(slot);
      await syncAndMatch();
      const ana = await anaWaitsFor(slot, {}, 0);
      h.advanceClocks(1);
      const wei = await anaWaitsFor(slot, {}, 1);
      // Lena waits at another facility: not offered.
      const elsewhere = await anaWaitsFor(slot, { facilityIds: ["fac_00000000000000000000000000000000"] }, 2);
      const before = h.upstream.length;
      await setStatus(appointmentId, "cancelled");
      await syncAndMatch();

      expect(offers()).toHaveLength(1);
      const offer = offers()[0] as WaitlistOffer;
      expect(isSameId(offer.slot.providerId, slot.providerId, "prv")).toBe(true);
      expect(Date.parse(offer.slot.startsAt)).toBe(Date.parse(slot.startsAt));
      expect(offer.matches.map((match) => match.entryId)).toEqual([ana.id, wei.id]);
      expect(offer.matches.map((match) => match.entryId)).not.toContain(elsewhere.id);
      expect(offer.takenBy).toBeNull();
      const calls = h.upstream.slice(before);
      expect(calls.filter((call) => call.path === "/v2/schedule/slots" && call.url.includes("consistency=strong"))).toHaveLength(1);
      expect(calls.filter((call) => call.path.startsWith("/v1/appointments/"))).toHaveLength(1);

      const listed = z.parse(waitlistResponse, await (await h.api("/api/waitlist", { token: await frontDesk() })).json());
      expect(listed.offers.map((open) => open.id)).toEqual([offer.id]);
    });

    it("once however often and in whatever order its event is delivered", async () => {
      const slot = await freeSlot();
      const appointmentId = await bookedByAnother(slot);
      await syncAndMatch();
      await anaWaitsFor(slot);
      await h.webhooks({ duplicate: true, shuffle: true });
      await setStatus(appointmentId, "cancelled");
      await syncAndMatch();
      // The same change again under new hook ids, and an older update after it.
      const cancelled = cancellationOf(appointmentId, slot);
      await deliver(cancelled);
      await deliver(cancelled);
      await deliver({ ...cancelled, type: "appointment.updated", data: { ...cancelled.data, status: "confirmed", previousStatus: "confirmed", updatedAt: new Date(h.now() - 60_000).toISOString() } });
      await h.settle();
      await h.bff.waitlistMatcher.run();
      await busDelivered();
      expect(offers()).toHaveLength(1);
    });

    it("without anyone draining the inbox: receiving the event starts its processing and the matching at once", async () => {
      const slot = await freeSlot();
      const appointmentId = await bookedByAnother(slot);
      await syncAndMatch();
      await anaWaitsFor(slot);
      await setStatus(appointmentId, "cancelled");
      await h.emulator.sandbox("POST", "/sync", { organizationId: ORG_A_ID });
      await h.emulator.emulator.dispatcher.idle();
      // No settle, no drain, no timer (the harness's BFF was never started): only the receiver's trigger.
      for (let tries = 0; offers().length === 0 && tries < 500; tries += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(offers()).toHaveLength(1);
    });

    it("for a no-show too", async () => {
      const slot = await freeSlot();
      const appointmentId = await bookedByAnother(slot);
      await syncAndMatch();
      await anaWaitsFor(slot);
      await setStatus(appointmentId, "no_show");
      await syncAndMatch();
      expect(offers()).toHaveLength(1);
    });

    it("never for a first sighting already cancelled, which may be historical", async () => {
      const slot = await freeSlot();
      await anaWaitsFor(slot);
      const strongBefore = strongReads();
      await bookedByAnother(slot, "cancelled");
      await syncAndMatch();
      expect(offers()).toEqual([]);
      expect(strongReads()).toBe(strongBefore);
    });

    it("never for a slot already past", async () => {
      const slot = await freeSlot();
      await anaWaitsFor(slot);
      const past = { ...slot, startsAt: new Date(h.now() - 3_600_000).toISOString(), endsAt: new Date(h.now() - 1_800_000).toISOString() };
      await deliver(cancellationOf("9c2e4b6a-1d3f-4a5b-8c7d-6e5f4a3b2c1d", past));
      await h.settle();
      await h.bff.waitlistMatcher.run();
      await busDelivered();
      expect(offers()).toEqual([]);
      expect(strongReads()).toBe(0);
    });

    it("after a failed strong read, on a later try, without holding up the inbox", async () => {
      const slot = await freeSlot();
      const appointmentId = await bookedByAnother(slot);
      await syncAndMatch();
      await anaWaitsFor(slot);
      await h.fault({ method: "GET", path: "/v2/schedule/slots", code: "server_unresponsive", count: 20 });
      await setStatus(appointmentId, "cancelled");
      await syncAndMatch();
      expect(offers()).toEqual([]);
      // The event itself is done with: nothing is left in the inbox to retry.
      expect((await store.inbox.backlog()).unprocessed).toBe(0);
      await h.emulator.sandbox("DELETE", "/faults");
      h.advanceClocks(3);
      await h.bff.waitlistMatcher.run();
      await busDelivered();
      expect(offers()).toHaveLength(1);
    });
  });

  describe("several BFF processes", () => {
    it("match a freed slot once between them: one claims it, one offer is published", async () => {
      const slot = await freeSlot();
      const appointmentId = await bookedByAnother(slot);
      await syncAndMatch();
      await anaWaitsFor(slot);
      await setStatus(appointmentId, "cancelled");
      // The freed slot as a process's webhook handling records it; two matchers, as two processes run them, race for it.
      await store.waitlist.recordFreedSlot({ id: "6f1e2d3c-4b5a-4968-8776-655443322110", organizationId: ORG_A_ID, freedKey: freedKeyOf({ id: appointmentId, scheduledStartDate: slot.startsAt }), appointmentId, facilityId: slot.facilityId, slotStartsAt: Date.parse(slot.startsAt), freedAt: h.now() });
      const elsewhere: LiveEvent[] = [];
      const other = new WaitlistMatcher({ store, clinic: h.bff.clinic, live: { publish: (_organizationId, event) => void elsewhere.push(event) }, logger: createLogger({ level: "silent", secrets: [] }), now: () => h.now() });
      await Promise.all([h.bff.waitlistMatcher.run(), other.run(), h.bff.waitlistMatcher.run(), other.run()]);
      await busDelivered();
      expect([...offers(), ...elsewhere.filter((event) => event.type === "waitlist.offer")]).toHaveLength(1);
    });
  });

  describe("an entry ends when its patient is booked", () => {
    it("for what they waited for, read from the appointments endpoint", async () => {
      const slot = await freeSlot();
      const ana = await anaWaitsFor(slot, {}, 0);
      const other = await anaWaitsFor(slot, { slotLengthMinutes: minutesOf(slot) + 15 }, 0);
      const result = await h.emulator.sandbox("POST", `/ehr/${ORG_A_ID}/appointments`, { patientId: patientOf(0).id, providerId: slot.providerId, facilityId: slot.facilityId, startsAt: slot.startsAt, endsAt: slot.endsAt, appointmentTypeId: typeId, isNewPatient: false });
      expect(result.status).toBe(201);
      await syncAndMatch();
      expect((await store.waitlist.get(ORG_A_ID, ana.id))?.endReason).toBe("booked");
      expect((await store.waitlist.get(ORG_A_ID, other.id))?.endReason).toBeNull();
      expect(published).toContainEqual({ type: "waitlist.changed" });
    });
  });

  describe("holding from the offer", () => {
    it("holds for the waitlisted patient, whoever is open, and the second colleague gets a 409 naming the waitlist", async () => {
      const slot = await freeSlot();
      const appointmentId = await bookedByAnother(slot);
      await syncAndMatch();
      const ana = await anaWaitsFor(slot, {}, 0);
      await setStatus(appointmentId, "cancelled");
      await syncAndMatch();
      const offer = offers()[0] as WaitlistOffer;
      const body = holdFromOffer(offer, ana.id);

      // Another patient is open in the EHR: the hold is still Ana's.
      const first = await h.api("/api/holds", { method: "POST", token: await frontDesk(7), body });
      expect(first.status, await first.clone().text()).toBe(200);
      const { held } = z.parse(holdResponse, await first.json());
      expect(held.patientId !== null && isSameId(held.patientId, ana.patientId)).toBe(true);
      expect(held.patientName).toBe(ana.patientName);

      const second = await h.api("/api/holds", { method: "POST", token: await h.hostToken({ userId: h.userWithRole("Scheduler") }), body });
      expect(second.status).toBe(409);
      const refusal = await errorOf(second);
      expect(refusal.code).toBe(WAITLIST_OFFER_TAKEN_CODE);
      expect(refusal.message).toMatch(/already held from the waitlist/);
      await busDelivered();
      expect(published).toContainEqual({ type: "waitlist.changed" });
      const listed = z.parse(waitlistResponse, await (await h.api("/api/waitlist", { token: await frontDesk() })).json());
      expect(listed.offers).toEqual([]);
    });

    it("holds for the second patient it fits when that one is chosen, and the first stays waiting", async () => {
      const slot = await freeSlot();
      const appointmentId = await bookedByAnother(slot);
      await syncAndMatch();
      const ana = await anaWaitsFor(slot, {}, 0);
      h.advanceClocks(1);
      const wei = await anaWaitsFor(slot, {}, 1);
      await setStatus(appointmentId, "cancelled");
      await syncAndMatch();
      const offer = offers()[0] as WaitlistOffer;
      expect(offer.matches.map((match) => match.entryId)).toEqual([ana.id, wei.id]);
      const body = holdFromOffer(offer, wei.id);

      // Ana is open in the EHR; a scheduler (who holds nothing yet) chose Wei in the alert: the hold is Wei's.
      const response = await h.api("/api/holds", { method: "POST", token: await h.hostToken({ userId: h.userWithRole("Scheduler"), patientId: patientOf(0).id }), body });
      expect(response.status, await response.clone().text()).toBe(200);
      const { held } = z.parse(holdResponse, await response.json());
      expect(held.patientId !== null && isSameId(held.patientId, wei.patientId)).toBe(true);
      expect(held.patientName).toBe(wei.patientName);
      expect((await store.waitlist.getOffer(ORG_A_ID, offer.id.toLowerCase()))?.taken).toMatchObject({ entryId: wei.id.toLowerCase() });
      // Both still wait (an entry ends when its patient is booked); the offer is no longer open.
      const listed = z.parse(waitlistResponse, await (await h.api("/api/waitlist", { token: await frontDesk() })).json());
      expect(listed.entries.map((entry) => entry.id).sort()).toEqual([ana.id, wei.id].sort());
      expect(listed.offers).toEqual([]);
    });

    it("after a hold whose answer was lost, stays the user's, who may try that patient's hold again; a colleague still may not", async () => {
      const slot = await freeSlot(3);
      const appointmentId = await bookedByAnother(slot);
      await syncAndMatch();
      const ana = await anaWaitsFor(slot, {}, 0);
      await setStatus(appointmentId, "cancelled");
      await syncAndMatch();
      const offer = offers()[0] as WaitlistOffer;
      const body = holdFromOffer(offer, ana.id);
      const nurse = () => h.hostToken({ userId: h.userWithRole("Scheduler") });

      // The service answers 503: Tandem cannot know whether the EHR held it.
      await h.emulator.sandbox("POST", "/faults", { method: "POST", path: "/v4/schedule/holds", status: 503, count: 1 });
      published.length = 0;
      const lost = await h.api("/api/holds", { method: "POST", token: await nurse(), body });
      expect((await errorOf(lost)).code).toBe("outcome_unknown");
      expect((await store.waitlist.getOffer(ORG_A_ID, offer.id.toLowerCase()))?.taken).not.toBeNull();
      // Colleagues' tabs read the waitlist again and show the offer taken (before, they went on offering it).
      await vi.waitFor(() => expect(published).toContainEqual({ type: "waitlist.changed" }));

      const colleague = await h.api("/api/holds", { method: "POST", token: await frontDesk(), body });
      expect((await errorOf(colleague)).code).toBe(WAITLIST_OFFER_TAKEN_CODE);
      const again = await h.api("/api/holds", { method: "POST", token: await nurse(), body });
      expect(again.status, await again.clone().text()).toBe(200);
      const { held } = z.parse(holdResponse, await again.json());
      expect(held.patientId !== null && isSameId(held.patientId, ana.patientId)).toBe(true);
    });

    it("is the front desk's and schedulers' only", async () => {
      const response = await h.api("/api/holds", {
        method: "POST",
        token: await h.hostToken({ userId: h.userWithRole("Physician") }),
        body: { ...(await freeSlot()), appointmentTypeId: typeId, fromWaitlist: { offerId: "5b0c1a7e-3f2d-4e6a-9b8c-7d6e5f4a3b21", entryId: "5b0c1a7e-3f2d-4e6a-9b8c-7d6e5f4a3b22" } },
      });
      expect(response.status).toBe(403);
    });
  });

  describe("the live streams", () => {
    it("tell front-desk and scheduler users of the waitlist, and a clinical user nothing of it", async () => {
      const subscribed = h.bff.hub.subscriberCount(ORG_A_ID);
      const desk = await openLiveStream(h, await frontDesk());
      const physician = await openLiveStream(h, await h.hostToken({ userId: h.userWithRole("Physician") }));
      try {
        // Both streams listening before anything is published.
        for (let tries = 0; h.bff.hub.subscriberCount(ORG_A_ID) < subscribed + 2 && tries < 100; tries += 1) await new Promise((resolve) => setTimeout(resolve, 5));
        h.bff.bus.publish(ORG_A_ID, { type: "waitlist.changed" });
        h.bff.bus.publish(ORG_A_ID, { type: "directory.changed", resource: "providers" });
        expect(await desk.next()).toEqual({ type: "waitlist.changed" });
        expect(await physician.next()).toEqual({ type: "directory.changed", resource: "providers" });
      } finally {
        await desk.cancel();
        await physician.cancel();
      }
    });
  });
});
