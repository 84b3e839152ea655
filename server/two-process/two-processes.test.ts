import pg from "pg";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import type { LiveEvent } from "#contract/app-api/live-events.ts";
import { ORG_A_ID } from "../../emulator/world/identities.ts";
import { notificationChannel } from "../store/postgres-notifications.ts";
import { createTwoBffCluster, openLiveStream, type TwoBffCluster } from "./testing/two-bff-cluster.ts";

// ADR 0009, a second process: two BFFs on one PostgreSQL behind a plain
// round-robin. A webhook delivered to either (duplicated, reordered) is
// processed once and the appointment ends in the EHR's state; live-event
// streams on either see every event, also after a lost listening connection;
// a crashed process's claim is taken over after its lease. Each test has its
// own schema. Needs DATABASE_URL.

const databaseUrl = process.env.DATABASE_URL;

const appointmentCreated = z.object({ appointment: z.object({ id: z.string() }) });

describe.skipIf(!databaseUrl)("two BFF processes on one PostgreSQL", () => {
  let cluster: TwoBffCluster;

  beforeEach(async () => {
    cluster = await createTwoBffCluster(databaseUrl ?? "");
  }, 60_000);

  afterEach(async () => {
    await cluster.close();
  });

  function org() {
    const state = cluster.emulator.emulator.state.org(ORG_A_ID);
    if (!state) throw new Error("no org A");
    return state;
  }

  async function book(index: number, day: string): Promise<string> {
    const facility = org().ehr.facilities[0];
    const patient = org().ehr.patients[index + 5];
    const startsAt = new Date(Date.parse(`${day}T15:00:00.000Z`) + index * 30 * 60_000);
    const result = await cluster.emulator.sandbox("POST", `/ehr/${ORG_A_ID}/appointments`, {
      patientId: patient?.id,
      providerId: cluster.userWithRole("Physician"),
      facilityId: facility?.id,
      startsAt: startsAt.toISOString(),
      endsAt: new Date(startsAt.getTime() + 30 * 60_000).toISOString(),
    });
    return z.parse(appointmentCreated, result.body).appointment.id;
  }

  async function syncAndDeliver(): Promise<void> {
    await cluster.emulator.sandbox("POST", "/sync", { organizationId: ORG_A_ID });
    await cluster.advance(1);
  }

  /** Both processes' drains (a running one is joined), then every bus message handed over. */
  async function settle(): Promise<void> {
    await cluster.emulator.emulator.dispatcher.idle();
    const [a, b] = cluster.processes;
    await Promise.all([a.bff.processor.drain(), b.bff.processor.drain()]);
    await Promise.all([a.bff.bus.flush(), b.bff.bus.flush()]);
  }

  it("processes each webhook once, whichever process it reaches, duplicated and shuffled, and ends in the EHR's state", async () => {
    const [a, b] = cluster.processes;
    const published = [vi.spyOn(a.bff.bus, "publish"), vi.spyOn(b.bff.bus, "publish")];
    await cluster.emulator.sandbox("POST", "/webhooks", { url: "http://bff.test/webhooks/clinic", headerStyle: "standard", duplicate: true, shuffle: true, retrySchedule: [0.05, 0.1, 0.2] });
    const day = new Date(cluster.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const ids: string[] = [];
    for (let index = 0; index < 8; index += 1) ids.push(await book(index, day));
    await syncAndDeliver();

    // Second round: cancel, check in, move; third: complete, cancel the moved ones.
    for (const [index, id] of ids.entries()) {
      const change = [{ status: "cancelled" }, { status: "arrived" }, { startsAt: `${day}T20:00:00.000Z`, endsAt: `${day}T20:30:00.000Z` }, null][index % 4];
      if (change) await cluster.emulator.sandbox("PATCH", `/ehr/${ORG_A_ID}/appointments/${id}`, change);
    }
    await syncAndDeliver();
    for (const [index, id] of ids.entries()) {
      const change = [null, { status: "completed" }, { status: "cancelled" }, null][index % 4];
      if (change) await cluster.emulator.sandbox("PATCH", `/ehr/${ORG_A_ID}/appointments/${id}`, change);
    }
    await syncAndDeliver();
    await settle();

    // Every message arrived twice, to either process; one copy was stored, the other answered as a duplicate.
    const hookIds = [...new Set(cluster.deliveries.map((delivery) => delivery.hookId))].sort();
    expect(hookIds.length).toBeGreaterThanOrEqual(8 + 6 + 4);
    expect(cluster.deliveries.every((delivery) => delivery.status === 200)).toBe(true);
    for (const hookId of hookIds) {
      const copies = cluster.deliveries.filter((delivery) => delivery.hookId === hookId);
      expect(copies).toHaveLength(2);
      expect(copies.filter((delivery) => !delivery.duplicate)).toHaveLength(1);
    }
    expect(new Set(cluster.deliveries.map((delivery) => delivery.to))).toEqual(new Set(["A", "B"]));

    // Processed once: by one process, one attempt, no lease left behind.
    expect([...a.processed, ...b.processed].sort()).toEqual(hookIds);
    const rows = await cluster.query<{ hook_id: string; attempts: number; processed: boolean; claimed_until: Date | null }>(
      "SELECT hook_id, attempts, processed_at IS NOT NULL AS processed, claimed_until FROM webhook_inbox ORDER BY hook_id",
    );
    expect(rows.map((row) => row.hook_id)).toEqual(hookIds);
    expect(rows.every((row) => row.attempts === 1 && row.processed && row.claimed_until === null)).toBe(true);

    // The final state is the EHR's, whatever the order of arrival.
    for (const id of ids) {
      const ehr = org().ehr.appointments.find((appointment) => appointment.id === id);
      expect(await a.store.appointmentStates.get(ORG_A_ID, id)).toMatchObject({ status: ehr?.status, scheduledStartDate: ehr?.scheduledStartDate });
    }

    // Each live event reached each process's streams once.
    const sent = published.flatMap((spy) => spy.mock.calls.map(([, event]) => event));
    expect(sent.length).toBeGreaterThan(0);
    const sorted = (events: LiveEvent[]) => events.map((event) => JSON.stringify(event)).sort();
    await vi.waitFor(() => {
      expect(sorted(a.hubEvents)).toEqual(sorted(sent));
      expect(sorted(b.hubEvents)).toEqual(sorted(sent));
    });
  });

  it("two processors draining one backlog at once take each row once", async () => {
    const [a, b] = cluster.processes;
    const receivedAt = cluster.now();
    const hookIds: string[] = [];
    for (let index = 0; index < 150; index += 1) {
      const hookId = `msg_backlog_${String(index).padStart(3, "0")}`;
      hookIds.push(hookId);
      await a.store.inbox.insert({ hookId, eventType: "test.event", payload: { type: "test.event", timestamp: new Date(receivedAt).toISOString(), data: { index } }, receivedAt: receivedAt + index });
    }
    const [byA, byB] = await Promise.all([a.bff.processor.drain(), b.bff.processor.drain()]);
    expect(byA + byB).toBe(150);
    expect([...a.processed, ...b.processed].sort()).toEqual(hookIds);
    const [counts] = await cluster.query<{ processed: string; once: string }>("SELECT count(processed_at) AS processed, count(*) FILTER (WHERE attempts = 1) AS once FROM webhook_inbox");
    expect(counts).toEqual({ processed: "150", once: "150" });
  });

  it("a stream on either process sees every event, published by either", async () => {
    const [a, b] = cluster.processes;
    const note = org().ehr.notes.find((candidate) => candidate.status === "awaiting_sign");
    if (!note) throw new Error("no unsigned note in the seed");
    const onA = await openLiveStream(a.bff, await cluster.hostToken());
    const onB = await openLiveStream(b.bff, await cluster.hostToken());

    // A note changed through process A.
    const writeToken = await cluster.hostToken({ noteId: note.id });
    const patch = (bff: typeof a.bff) =>
      bff.app.request(`/api/notes/${note.id}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${writeToken}`, "content-type": "application/json" },
        body: JSON.stringify({ stickyNoteDescription: "Seen by both processes" }),
      });
    expect((await patch(a.bff)).status).toBe(200);
    const noteChanged = { type: "note.changed", noteId: note.id.toLowerCase() };
    expect(await onA.next()).toEqual(noteChanged);
    expect(await onB.next()).toEqual(noteChanged);
    // The spent token is spent for process B too: they share the store.
    expect((await patch(b.bff)).status).toBe(401);

    // A webhook delivered to and processed by process B.
    cluster.route = "B";
    await cluster.emulator.sandbox("POST", "/webhooks", { url: "http://bff.test/webhooks/clinic", headerStyle: "standard" });
    const day = new Date(cluster.now() + 12 * 86_400_000).toISOString().slice(0, 10);
    await book(0, day);
    await cluster.emulator.sandbox("POST", "/sync", { organizationId: ORG_A_ID });
    await cluster.emulator.emulator.dispatcher.idle();
    await b.bff.processor.drain();
    expect(a.processed).toEqual([]);
    expect(b.processed).toHaveLength(1);
    const scheduleChanged = { type: "schedule.changed", facilityId: org().ehr.facilities[0]?.id, date: day };
    expect(await onA.next()).toEqual(scheduleChanged);
    expect(await onB.next()).toEqual(scheduleChanged);
    await onA.cancel();
    await onB.cancel();
  });

  it("a schedule change one process learns drops the other's kept reads of that facility and day only (issue 37)", async () => {
    const [a, b] = cluster.processes;
    const [first, second] = org().ehr.facilities;
    const type = org().ehr.appointmentTypes[0];
    if (!first || !second || !type) throw new Error("org A has two facilities and a type");
    const day = new Date(cluster.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const search = (facilityId: string) => ({ organizationId: ORG_A_ID, query: { appointmentTypeId: type.id, facilityIds: facilityId, startDate: day, endDate: day } });
    const before = [await b.bff.clinic.read("GET /v2/schedule/slots", search(first.id)), await b.bff.clinic.read("GET /v2/schedule/slots", search(second.id))];
    const learnt = [vi.spyOn(a.bff.clinic, "invalidate"), vi.spyOn(b.bff.clinic, "invalidate")];
    const change = { routePrefix: "GET /v2/schedule/slots", facilityId: first.id, date: day };
    a.bff.bus.invalidate(ORG_A_ID, change);
    await settle();
    // flush() means "sent"; B receives the NOTIFY a moment later, so wait for its first read to be a new answer.
    await vi.waitFor(async () => expect(await b.bff.clinic.read("GET /v2/schedule/slots", search(first.id))).not.toBe(before[0]));
    expect(await b.bff.clinic.read("GET /v2/schedule/slots", search(second.id))).toBe(before[1]);
    // Only the process that learnt the change drops what the processes share (REDIS_URL).
    expect(learnt[0]?.mock.calls).toEqual([[ORG_A_ID, change, "the service"]]);
    expect(learnt[1]?.mock.calls).toEqual([[ORG_A_ID, change, "another process"]]);
  });

  it("an installation change on one process reaches the other's memory at once", async () => {
    const [a, b] = cluster.processes;
    expect((await b.bff.installations.find(ORG_A_ID))?.status).toBe("active");
    await a.bff.installations.applyLifecycleEvent("app.suspended", { organizationId: ORG_A_ID }, new Date(cluster.now() + 60_000).toISOString());
    await a.bff.bus.flush();
    await vi.waitFor(async () => expect((await b.bff.installations.find(ORG_A_ID))?.status).toBe("suspended"));
  });

  it("a lost listening connection is opened again, and events flow again", async () => {
    const [a, b] = cluster.processes;
    const listen = `LISTEN ${pg.escapeIdentifier(notificationChannel(cluster.schema))}`;
    const listeners = () => cluster.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE query = $1", [listen]);
    const before = (await listeners()).map((row) => row.pid);
    expect(before).toHaveLength(2);
    await cluster.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1", [listen]);
    await vi.waitFor(async () => {
      const after = (await listeners()).map((row) => row.pid);
      expect(after).toHaveLength(2);
      expect(after.some((pid) => before.includes(pid))).toBe(false);
    }, { timeout: 10_000, interval: 100 });

    const event = { type: "note.changed", noteId: "after-reconnection" } as const;
    a.bff.bus.publish(ORG_A_ID, event);
    await vi.waitFor(() => {
      expect(a.hubEvents).toContainEqual(event);
      expect(b.hubEvents).toContainEqual(event);
    });
    expect(b.logLines.some((line) => line.includes("listening again after a lost connection"))).toBe(true);
  });

  it("a crashed process's claim is taken over by the other once its lease ends", async () => {
    const [a, b] = cluster.processes;
    const receivedAt = cluster.now();
    const appointmentId = "0f0e0d0c-0b0a-4908-8706-050403020100";
    const updatedAt = new Date(receivedAt).toISOString();
    await a.store.inbox.insert({
      hookId: "msg_crashed",
      eventType: "appointment.updated",
      payload: {
        type: "appointment.updated",
        timestamp: updatedAt,
        data: {
          id: appointmentId,
          organizationId: ORG_A_ID,
          integrationAppointmentId: "EHR-0F0E0D0C",
          patientId: "p",
          providerUsersEhrId: "1001",
          facilityId: "fac-1",
          status: "arrived",
          integrationStatus: "Checked In",
          previousStatus: "confirmed",
          cancelReasonName: null,
          scheduledStartDate: "2026-12-01T15:00:00.000Z",
          scheduledEndDate: "2026-12-01T15:30:00.000Z",
          updatedAt,
        },
      },
      receivedAt,
    });
    // Process A claims the row, then dies before it is done. The lease runs on the processes' pinned clock,
    // moved past its end rather than waited for (ADR 0011), so a slow machine cannot end it early.
    const leaseMs = 60_000;
    const claimedAt = cluster.now();
    expect((await a.store.inbox.claimUnprocessed({ limit: 10, leaseMs, now: claimedAt, maxAttempts: 5 })).map((entry) => entry.hookId)).toEqual(["msg_crashed"]);

    expect(await b.bff.processor.drain()).toBe(0);
    expect(await b.store.appointmentStates.get(ORG_A_ID, appointmentId)).toBeNull();

    cluster.advanceBffClock(leaseMs + 1_000);
    expect(await b.bff.processor.drain()).toBe(1);
    expect(b.processed).toEqual(["msg_crashed"]);
    expect(await b.store.appointmentStates.get(ORG_A_ID, appointmentId)).toMatchObject({ status: "arrived" });
    expect(await b.store.inbox.get("msg_crashed")).toMatchObject({ attempts: 1, processedAt: expect.any(Number) as number });
  });
});
