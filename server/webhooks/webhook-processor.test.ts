import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import type { LiveEvent } from "#contract/app-api/live-events.ts";
import { ORG_A_ID, ORG_B_ID } from "../../emulator/world/identities.ts";
import { dateWindow, seededSearchTarget } from "../hardening/testing/fault-matrix-support.ts";
import { createMetricsApp } from "../metrics/metrics-server.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";
import { Exposition } from "../testing/prometheus-text.ts";
import { MAX_ATTEMPTS } from "./webhook-processor.ts";

// Issue 34 item 4, on the real BFF in-process (the emulator behind it): a
// verified event is applied whatever ISO 8601 form its timestamps take, and
// one the processor cannot finish is kept as a dead letter with its reason,
// counted in /healthz and the metrics. Nothing verified vanishes.

let store: Store;
let harness: BffHarness;
let typeId: string;
let facilityId: string;
const published: LiveEvent[] = [];
let sequence = 0;

beforeAll(async () => {
  store = await createStore();
  harness = await createBffHarness(store);
  ({ typeId, facilityId } = await seededSearchTarget(harness));
  harness.bff.hub.subscribe(ORG_A_ID, (event) => published.push(event));
}, 60_000);

afterAll(async () => {
  await harness.close();
  await store.close();
});

beforeEach(async () => {
  await harness.reset();
  published.length = 0;
});

/** Signs `event` as the service does (Standard Webhooks, the BFF's secret, its clock) and delivers it; answers the hook id. */
async function deliver(event: unknown): Promise<string> {
  const body = JSON.stringify(event);
  const hookId = `msg_processor_${(sequence += 1)}`;
  const signature = new Webhook(harness.config.webhookSecrets[0] ?? "").sign(hookId, new Date(harness.now()), body);
  const response = await harness.bff.app.request("/webhooks/clinic", {
    method: "POST",
    body,
    headers: { "webhook-id": hookId, "webhook-timestamp": String(Math.floor(harness.now() / 1000)), "webhook-signature": signature, "content-type": "application/json" },
  });
  expect(await response.json()).toEqual({ received: true, duplicate: false });
  return hookId;
}

function appointmentUpdated(appointmentId: string, times: { updatedAt: string; scheduledStartDate: string; scheduledEndDate: string }) {
  return {
    type: "appointment.updated",
    timestamp: times.updatedAt,
    data: {
      id: appointmentId,
      organizationId: ORG_A_ID,
      integrationAppointmentId: `EHR-${appointmentId}`,
      patientId: "pat-1",
      providerUsersEhrId: "1001",
      facilityId,
      status: "arrived",
      integrationStatus: "arrived",
      previousStatus: "confirmed",
      cancelReasonName: null,
      ...times,
    },
  };
}

async function searchSlots(): Promise<void> {
  const query = new URLSearchParams({ appointmentTypeId: typeId, facilityIds: facilityId, ...dateWindow() });
  const response = await harness.api(`/api/slots?${query.toString()}`, { token: await harness.hostToken() });
  expect(response.status).toBe(200);
}

async function deadLetters(): Promise<{ healthz: number; metric: number | undefined }> {
  // /healthz answers from memory (it never waits on the store): take a fresh reading first.
  await harness.bff.health.refresh();
  const health = z.parse(z.object({ webhooks: z.object({ deadLetters: z.number() }) }), await (await harness.api("/healthz")).json());
  const metrics = Exposition.parse(await (await createMetricsApp(harness.bff.metrics).request("/metrics")).text());
  return { healthz: health.webhooks.deadLetters, metric: metrics.value("tandem_webhook_dead_letters") };
}

describe("appointment events, whatever ISO 8601 form their timestamps take", () => {
  it.each([
    ["microseconds", { updatedAt: "2026-11-17T14:00:05.123456Z", scheduledStartDate: "2026-11-19T15:00:00.000000Z", scheduledEndDate: "2026-11-19T15:30:00.000000Z" }],
    ["no fraction", { updatedAt: "2026-11-17T14:00:05Z", scheduledStartDate: "2026-11-19T15:00:00Z", scheduledEndDate: "2026-11-19T15:30:00Z" }],
    ["an offset", { updatedAt: "2026-11-17T09:00:05.5-05:00", scheduledStartDate: "2026-11-19T10:00:00-05:00", scheduledEndDate: "2026-11-19T10:30:00-05:00" }],
    ["the seeds' database-style text", { updatedAt: "2026-11-17 14:00:05.123456+00", scheduledStartDate: "2026-11-19 15:00:00.000000+00", scheduledEndDate: "2026-11-19 15:30:00.000000+00" }],
  ])("applies an appointment.updated whose timestamps have %s: the state stored, the cached schedule dropped, a live event sent", async (form, times) => {
    await searchSlots();
    const slotReads = harness.upstreamCount("GET", "/v2/schedule/slots");
    await searchSlots();
    // Served from the cache.
    expect(harness.upstreamCount("GET", "/v2/schedule/slots")).toBe(slotReads);

    const appointmentId = `appt-${form.replaceAll(/\W+/g, "-")}`;
    const hookId = await deliver(appointmentUpdated(appointmentId, times));
    await harness.bff.processor.drain();

    const entry = await store.inbox.get(hookId);
    expect(entry).toMatchObject({ deadLetterReason: null, lastError: null });
    expect(entry?.processedAt).not.toBeNull();
    expect(await store.appointmentStates.get(ORG_A_ID, appointmentId)).toMatchObject({ status: "arrived" });
    expect(published).toContainEqual({ type: "schedule.changed", facilityId, date: "2026-11-19" });
    await searchSlots();
    expect(harness.upstreamCount("GET", "/v2/schedule/slots")).toBe(slotReads + 1);
  });

  it("orders two changes of one appointment within one millisecond by their microseconds, not by arrival", async () => {
    const times = { scheduledStartDate: "2026-11-19T15:00:00.000Z", scheduledEndDate: "2026-11-19T15:30:00.000Z" };
    const arrivedLater = appointmentUpdated("appt-same-ms", { ...times, updatedAt: "2026-11-17T14:00:05.123999Z" });
    // A cancellation wins a tie (server/store/appointment-state-repository.ts): read to the millisecond only, this one would.
    const cancelledEarlier = appointmentUpdated("appt-same-ms", { ...times, updatedAt: "2026-11-17 14:00:05.1231+00" });
    cancelledEarlier.type = "appointment.cancelled";
    cancelledEarlier.data.status = "cancelled";
    await deliver(arrivedLater);
    await harness.bff.processor.drain();
    await deliver(cancelledEarlier);
    await harness.bff.processor.drain();
    expect(await store.appointmentStates.get(ORG_A_ID, "appt-same-ms")).toMatchObject({ status: "arrived" });
  });
});

describe("dead letters", () => {
  it(`keeps a delivery the processor fails on ${MAX_ATTEMPTS} times as a dead letter with its reason, counted in /healthz and the metric`, async () => {
    const before = await deadLetters();
    // Without its grants the change is read from the service's installations list, which keeps failing.
    await harness.fault({ method: "GET", path: "/v1/installations", status: 503, code: "server_unresponsive" });
    const hookId = await deliver({ type: "installation.permissions_updated", timestamp: new Date(harness.now()).toISOString(), data: { organizationId: ORG_B_ID } });
    for (let attempt = 1; attempt <= MAX_ATTEMPTS + 2; attempt += 1) await harness.bff.processor.drain();

    const kept = await store.inbox.get(hookId);
    expect(kept?.attempts).toBe(MAX_ATTEMPTS);
    expect(kept?.processedAt).not.toBeNull();
    expect(kept?.deadLetterReason).toMatch(new RegExp(`^gave up after ${MAX_ATTEMPTS} attempts: .+`));
    expect(await deadLetters()).toEqual({ healthz: before.healthz + 1, metric: (before.metric ?? 0) + 1 });
    expect(await store.inbox.backlog()).toEqual({ unprocessed: 0, oldestReceivedAt: null });
  });

  it("keeps a verified event whose payload cannot be read as a dead letter at once, with what is wrong with it", async () => {
    const before = await deadLetters();
    // A readable envelope (the receiver keeps an unreadable one as a dead letter itself) around an unreadable payload.
    const unreadable = { ...appointmentUpdated("appt-unreadable", { updatedAt: "last Tuesday", scheduledStartDate: "2026-11-19T15:00:00Z", scheduledEndDate: "2026-11-19T15:30:00Z" }), timestamp: new Date(harness.now()).toISOString() };
    const noOrganization = { type: "facility.updated", timestamp: new Date(harness.now()).toISOString(), data: { id: "fac_1" } };
    const hookIds = [await deliver(unreadable), await deliver(noOrganization)];
    await harness.bff.processor.drain();

    const [appointment, facility] = await Promise.all(hookIds.map((hookId) => store.inbox.get(hookId)));
    expect(appointment?.attempts).toBe(1);
    expect(appointment?.processedAt).not.toBeNull();
    expect(appointment?.deadLetterReason).toMatch(/^the appointment payload cannot be read: .*updatedAt/s);
    expect(facility?.deadLetterReason).toMatch(/^the facility.updated payload cannot be read: .*organizationId/s);
    expect(await store.appointmentStates.get(ORG_A_ID, "appt-unreadable")).toBeNull();
    expect(await deadLetters()).toEqual({ healthz: before.healthz + 2, metric: (before.metric ?? 0) + 2 });
  });
});
