import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { compactEventData } from "#contract/clinic-api/events.ts";
import { syncRequestCompletedData, type SyncRequest } from "#contract/clinic-api/sync-requests.ts";
import { ERAS_ONLY_KEY } from "../../testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID } from "../../world/identities.ts";
import { createCapturingEmulator, type CapturingEmulator } from "../faxes/testing/webhook-capture.ts";

// On-demand sync requests: the assumed request and read calls, the
// re-sync they cause, and `sync_request.completed` (seed 001 event
// catalogue: gated on the read scope of the re-synced resource).

const DELAY_SECONDS = 10;

const setup = () => createCapturingEmulator({ syncRequestSeconds: DELAY_SECONDS });

async function request(env: CapturingEmulator, body: object, organizationId = ORG_A_ID): Promise<SyncRequest> {
  return (await env.test.get("POST /v1/sync-requests", { body, organizationId })).syncRequest;
}

async function read(env: CapturingEmulator, id: string, organizationId = ORG_A_ID): Promise<SyncRequest> {
  return (await env.test.get("GET /v1/sync-requests/{id}", { params: { id }, organizationId })).syncRequest;
}

/** Books an appointment in org A's EHR only: the service sees it after a sync. */
async function bookInEhr(env: CapturingEmulator): Promise<string> {
  const org = env.test.emulator.state.org(ORG_A_ID);
  const body = {
    patientId: org?.ehr.patients[7]?.id,
    providerId: org?.ehr.providers.find((provider) => provider.roles.includes("Physician"))?.id,
    facilityId: org?.ehr.facilities[0]?.id,
    startsAt: "2026-12-02T15:00:00.000Z",
    endsAt: "2026-12-02T15:20:00.000Z",
  };
  const created = await env.test.sandbox("POST", `/ehr/${ORG_A_ID}/appointments`, body);
  return (created.body as { appointment: { id: string } }).appointment.id;
}

describe("on-demand sync requests (assumed POST and GET /v1/sync-requests)", () => {
  it("is pending until due, then the read runs the re-sync: the EHR's change becomes visible and one event is sent", async () => {
    const env = setup();
    const appointmentId = await bookInEhr(env);
    const pending = await request(env, { resource: "appointments" });
    expect(pending).toMatchObject({ resource: "appointments", patientId: null, status: "pending", completedAt: null, errorCode: null });
    env.advance(DELAY_SECONDS - 1);
    expect(await read(env, pending.id)).toEqual(pending);
    expect((await env.test.call("GET /v1/appointments/{id}", { params: { id: appointmentId } })).status).toBe(404);
    expect(await env.delivered()).toEqual([]);

    env.advance(1);
    const done = await read(env, pending.id);
    expect(done).toMatchObject({ id: pending.id, status: "completed", requestedAt: pending.requestedAt, completedAt: new Date(Date.parse(pending.requestedAt) + DELAY_SECONDS * 1000).toISOString() });
    expect((await env.test.get("GET /v1/appointments/{id}", { params: { id: appointmentId } })).id).toBe(appointmentId);
    const events = await env.delivered();
    expect(events.map((event) => event.type)).toEqual(["appointment.created", "sync_request.completed"]);
    const data = z.parse(syncRequestCompletedData, events[1]?.data);
    z.parse(compactEventData, events[1]?.data);
    expect(data).toEqual({ id: pending.id, organizationId: ORG_A_ID, resource: "appointments", patientId: null, status: "completed", requestedAt: pending.requestedAt, completedAt: done.completedAt, errorCode: null });
    // The scope gates delivery; it is never part of what is sent.
    expect(env.rawBodies.some((body) => body.includes('"scope"'))).toBe(false);

    env.advance(60);
    await env.test.sandbox("POST", "/sync", { organizationId: ORG_A_ID });
    await read(env, pending.id);
    expect(await env.delivered()).toEqual([]);
  });

  it("is completed by any sync of the organization once due (here POST /_sandbox/sync), exactly once", async () => {
    const env = setup();
    const pending = await request(env, { resource: "providers" });
    env.advance(DELAY_SECONDS);
    const synced = (await env.test.sandbox("POST", "/sync", { organizationId: ORG_A_ID })).body as { results: { events: { type: string }[] }[] };
    expect(synced.results[0]?.events.map((event) => event.type)).toEqual(["sync_request.completed"]);
    expect(await env.delivered()).toHaveLength(1);
    expect(await read(env, pending.id)).toMatchObject({ status: "completed" });
    await env.test.sandbox("POST", "/sync", { organizationId: ORG_A_ID });
    expect(await env.delivered()).toEqual([]);
  });

  it("a scripted failure ends failed with unexpected_integration_error, announced once", async () => {
    const env = setup();
    await env.test.sandbox("POST", `/ehr/${ORG_A_ID}/sync-requests/outcomes`, { outcomes: [{ status: "failed", afterSeconds: 2 }] });
    const pending = await request(env, { resource: "facilities" });
    env.advance(2);
    expect(await read(env, pending.id)).toMatchObject({ status: "failed", errorCode: "unexpected_integration_error" });
    const [event] = await env.delivered();
    expect(z.parse(syncRequestCompletedData, event?.data)).toMatchObject({ status: "failed", errorCode: "unexpected_integration_error" });
  });

  it("the sandbox completes a request now, running the organization's sync", async () => {
    const env = setup();
    const appointmentId = await bookInEhr(env);
    const pending = await request(env, { resource: "appointments", patientId: env.test.emulator.state.org(ORG_A_ID)?.ehr.patients[7]?.id });
    const completed = await env.test.sandbox("POST", `/ehr/${ORG_A_ID}/sync-requests/${pending.id}/complete`);
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({
      syncRequest: { status: "completed", completedAt: pending.requestedAt },
      changes: [{ entity: "appointment", id: appointmentId, change: "created" }],
      events: [{ type: "appointment.created" }, { type: "sync_request.completed" }],
    });
    expect((await env.test.sandbox("POST", `/ehr/${ORG_A_ID}/sync-requests/${pending.id}/complete`)).status).toBe(409);
  });

  it.each([
    [{ resource: "claims" }, 'resource: must be one of "appointments", "facilities", "providers", "patients", "patient_documents"'],
    [{ resource: "facilities", patientId: "00000000-0000-4000-8000-000000000000" }, "patientId: only with resource appointments, patients, patient_documents"],
    [{ resource: "appointments", patientId: "00000000-0000-4000-8000-000000000000" }, "patientId: 00000000-0000-4000-8000-000000000000 is not a patient of this organization"],
  ])("refuses a bad body with 400 naming the field (%j)", async (body, message) => {
    const env = setup();
    const result = await env.test.call("POST /v1/sync-requests", { body });
    expect(result.status).toBe(400);
    expect(result.error?.message).toBe(message);
  });

  it("404 for an unknown request, 400 for a malformed id", async () => {
    const env = setup();
    expect((await env.test.call("GET /v1/sync-requests/{id}", { params: { id: "00000000-0000-4000-8000-000000000000" } })).status).toBe(404);
    expect((await env.test.call("GET /v1/sync-requests/{id}", { params: { id: "nope" } })).error?.message).toBe("id must be a valid UUID");
  });
});

describe("the read scope of the resource", () => {
  it("is needed to request and to read: 403 otherwise", async () => {
    const env = setup();
    const denied = await env.test.call("POST /v1/sync-requests", { body: { resource: "patients" }, organizationId: ORG_B_ID });
    expect(denied.status).toBe(403);
    expect(denied.error?.message).toBe("Missing required scope read:patients: the organization's installation did not grant it");
    const pending = await request(env, { resource: "appointments" });
    const byKey = await env.test.call("GET /v1/sync-requests/{id}", { params: { id: pending.id }, authorization: `Bearer ${ERAS_ONLY_KEY}` });
    expect(byKey.error?.message).toBe("Missing required scope read:appointments: the API key does not have it");
  });

  it("gates the event: an installation that stops granting it gets no sync_request.completed", async () => {
    const env = setup();
    const pending = await request(env, { resource: "patients" });
    const granted = env.test.emulator.state.org(ORG_A_ID)?.installation.grantedPermissions ?? [];
    await env.test.sandbox("POST", `/installations/${ORG_A_ID}`, { status: "active", grantedPermissions: granted.filter((scope) => scope !== "read:patients") });
    await env.delivered();
    env.advance(DELAY_SECONDS);
    await env.test.sandbox("POST", "/sync", { organizationId: ORG_A_ID });
    expect(await env.delivered()).toEqual([]);
    await env.test.sandbox("POST", `/installations/${ORG_A_ID}`, { status: "active", grantedPermissions: granted });
    expect(await read(env, pending.id)).toMatchObject({ status: "completed" });
    expect((await env.delivered()).map((event) => event.type)).toEqual(["installation.permissions_updated"]);
  });

  it("org B (no read:patients) still hears about a facilities re-sync", async () => {
    const env = setup();
    const pending = await request(env, { resource: "facilities" }, ORG_B_ID);
    env.advance(DELAY_SECONDS);
    expect(await read(env, pending.id, ORG_B_ID)).toMatchObject({ status: "completed" });
    const events = await env.delivered();
    expect(events.map((event) => [event.type, event.data.resource])).toEqual([["sync_request.completed", "facilities"]]);
  });
});
