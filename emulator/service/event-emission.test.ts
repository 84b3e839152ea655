import { afterEach, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { Webhook } from "standardwebhooks";
import { appInstalledEventData, appointmentEventData, webhookEnvelope } from "#contract/clinic-api/events.ts";
import { ORG_A_ID, ORG_B_ID, WEBHOOK_SIGNING_SECRET } from "../world/identities.ts";
import { TEST_NOW, createTestEmulator, type TestEmulator } from "../testing/emulator-client.ts";

// Seed 000 "Transitions that are shown" and seed 001 "Events" (rules 1-5,
// lifecycle events, scope gating), seen through real webhook deliveries.

interface Delivered {
  headers: Record<string, string>;
  body: string;
  envelope: z.infer<typeof webhookEnvelope>;
}

function withReceiver(): { test: TestEmulator; delivered: Delivered[]; events: () => Promise<Delivered[]> } {
  const delivered: Delivered[] = [];
  const fetch: typeof globalThis.fetch = (_url, init) => {
    const body = typeof init?.body === "string" ? init.body : "";
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    delivered.push({ headers, body, envelope: z.parse(webhookEnvelope, JSON.parse(body)) });
    return Promise.resolve(new Response(null, { status: 204 }));
  };
  const test = createTestEmulator({ fetch });
  test.emulator.dispatcher.configure({ url: "http://127.0.0.1:9/webhooks/clinic", headerStyle: "standard" });
  return {
    test,
    delivered,
    events: async () => {
      await test.emulator.dispatcher.idle();
      return delivered.splice(0);
    },
  };
}

async function syncNow(test: TestEmulator, organizationId = ORG_A_ID) {
  test.emulator.clock.set({ advanceSeconds: 1 });
  return test.sandbox("POST", "/sync", { organizationId });
}

function someSlotInput(test: TestEmulator, organizationId = ORG_A_ID) {
  const org = test.emulator.state.org(organizationId);
  const provider = org?.ehr.providers.find((candidate) => candidate.roles.includes("Physician"));
  const facility = org?.ehr.facilities[0];
  const patient = org?.ehr.patients[5];
  return { patientId: patient?.id, providerId: provider?.id, facilityId: facility?.id, startsAt: "2026-12-01T15:00:00.000Z", endsAt: "2026-12-01T15:30:00.000Z" };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("appointment events (seed 001 events rules 1-3)", () => {
  it("a new appointment emits appointment.created once; a re-sync that changes nothing is silent", async () => {
    const { test, events } = withReceiver();
    const created = await test.sandbox("POST", `/ehr/${ORG_A_ID}/appointments`, someSlotInput(test));
    const { appointment } = created.body as { appointment: { id: string } };
    await syncNow(test);
    const first = await events();
    expect(first.map((event) => event.envelope.type)).toEqual(["appointment.created"]);
    const data = z.parse(appointmentEventData, first[0]?.envelope.data);
    expect(data).toMatchObject({ id: appointment.id, organizationId: ORG_A_ID, previousStatus: null, status: "confirmed" });
    expect(data.providerUsersEhrId).not.toBe(someSlotInput(test).providerId);

    await syncNow(test);
    expect(await events()).toEqual([]);
  });

  it("a cancel emits appointment.cancelled with previousStatus; a no-show too, with status no_show", async () => {
    const { test, events } = withReceiver();
    const { appointment } = (await test.sandbox("POST", `/ehr/${ORG_A_ID}/appointments`, someSlotInput(test))).body as { appointment: { id: string } };
    await syncNow(test);
    await events();
    await test.sandbox("PATCH", `/ehr/${ORG_A_ID}/appointments/${appointment.id}`, { status: "no_show" });
    await syncNow(test);
    const [event] = await events();
    expect(event?.envelope.type).toBe("appointment.cancelled");
    expect(event?.envelope.data).toMatchObject({ status: "no_show", previousStatus: "confirmed" });
  });

  it.each([
    ["cancelled", "appointment.cancelled"],
    ["no_show", "appointment.cancelled"],
    ["completed", "appointment.completed"],
  ])("a first sighting already %s emits %s with previousStatus null, not created", async (status, type) => {
    const { test, events } = withReceiver();
    await test.sandbox("POST", `/ehr/${ORG_A_ID}/appointments`, { ...someSlotInput(test), status });
    await syncNow(test);
    const delivered = await events();
    expect(delivered.map((event) => event.envelope.type)).toEqual([type]);
    expect(delivered[0]?.envelope.data).toMatchObject({ previousStatus: null, status });
  });

  it("a change of a tracked field emits appointment.updated; completing emits appointment.completed", async () => {
    const { test, events } = withReceiver();
    const { appointment } = (await test.sandbox("POST", `/ehr/${ORG_A_ID}/appointments`, someSlotInput(test))).body as { appointment: { id: string } };
    await syncNow(test);
    await events();
    await test.sandbox("PATCH", `/ehr/${ORG_A_ID}/appointments/${appointment.id}`, { startsAt: "2026-12-01T16:00:00.000Z", endsAt: "2026-12-01T16:30:00.000Z" });
    await syncNow(test);
    expect((await events()).map((event) => event.envelope.type)).toEqual(["appointment.updated"]);
    await test.sandbox("PATCH", `/ehr/${ORG_A_ID}/appointments/${appointment.id}`, { status: "completed" });
    await syncNow(test);
    const [completed] = await events();
    expect(completed?.envelope).toMatchObject({ type: "appointment.completed", data: { previousStatus: "confirmed" } });
  });

  it("signs every delivery with the Standard Webhooks scheme and the sandbox secret", async () => {
    const { test, events } = withReceiver();
    await test.sandbox("POST", `/ehr/${ORG_A_ID}/appointments`, someSlotInput(test));
    await syncNow(test);
    const [event] = await events();
    if (!event) throw new Error("nothing delivered");
    // The library checks the 5-minute tolerance against real time; the emulator's clock is fixed in tests.
    vi.spyOn(Date, "now").mockReturnValue(test.emulator.clock.now());
    expect(() => new Webhook(WEBHOOK_SIGNING_SECRET).verify(event.body, event.headers)).not.toThrow();
    expect(event.headers["webhook-timestamp"]).toBe(String(Math.floor((TEST_NOW + 1000) / 1000)));
  });
});

describe("provider and facility events (seed 001 events rules 4-5)", () => {
  it("a provider's name change emits provider.updated; on kind A a title-only change emits nothing", async () => {
    const { test, events } = withReceiver();
    const provider = test.emulator.state.org(ORG_A_ID)?.ehr.providers[0];
    await test.sandbox("PATCH", `/ehr/${ORG_A_ID}/providers/${provider?.id}`, { title: "MD, FAAD" });
    await syncNow(test);
    expect(await events()).toEqual([]);
    await test.sandbox("PATCH", `/ehr/${ORG_A_ID}/providers/${provider?.id}`, { lastName: "Okafor-Smith" });
    await syncNow(test);
    expect((await events()).map((event) => event.envelope.type)).toEqual(["provider.updated"]);
  });

  it("on kind B a role (title) change emits provider.updated", async () => {
    const { test, events } = withReceiver();
    const provider = test.emulator.state.org(ORG_B_ID)?.ehr.providers[0];
    await test.sandbox("PATCH", `/ehr/${ORG_B_ID}/providers/${provider?.id}`, { title: "Senior Physician", roles: ["Physician"] });
    await syncNow(test, ORG_B_ID);
    expect((await events()).map((event) => event.envelope.type)).toEqual(["provider.updated"]);
  });

  it.each([
    [ORG_A_ID, ["appointment.created"]],
    [ORG_B_ID, ["appointment.created", "provider.updated"]],
  ])("a provider first seen on an appointment is added silently, never provider.created (org %s: %j)", async (organizationId, expected) => {
    const { test, events } = withReceiver();
    const org = test.emulator.state.org(organizationId);
    const template = org?.ehr.providers[0];
    if (!org || !template) throw new Error("no org");
    const newcomer = { ...structuredClone(template), id: "11111111-2222-4333-8444-555555555555", ehrUserId: "990001", firstName: "Ines", lastName: "Newcomb" };
    org.ehr.providers.push(newcomer);
    // The appointment sync sees the provider before the user sync that follows it: on kind A the
    // stub already has name and active flag (no event); on kind B the user sync reports an update.
    await test.sandbox("POST", `/ehr/${organizationId}/appointments`, { ...someSlotInput(test, organizationId), providerId: newcomer.id });
    await syncNow(test, organizationId);
    expect((await events()).map((event) => event.envelope.type)).toEqual(expected);
    expect(org.mirror.providers.has(newcomer.id)).toBe(true);
    await syncNow(test, organizationId);
    expect(await events()).toEqual([]);
  });

  it("an address change emits facility.updated with a compact payload", async () => {
    const { test, events } = withReceiver();
    const facility = test.emulator.state.org(ORG_A_ID)?.ehr.facilities[0];
    await test.sandbox("PATCH", `/ehr/${ORG_A_ID}/facilities/${facility?.id}`, { address: { line1: "1 New St", line2: "", city: "New York", state: "NY", zipcode: "10001" } });
    await syncNow(test);
    const [event] = await events();
    expect(event?.envelope.type).toBe("facility.updated");
    expect(event?.envelope.data).toMatchObject({ id: facility?.id, organizationId: ORG_A_ID });
    expect(event?.envelope.data).not.toHaveProperty("address");
  });
});

describe("lifecycle events and scope gating (seed 001 event catalogue)", () => {
  it("uninstall emits app.uninstalled and rejects the organization's requests; reinstall emits app.installed", async () => {
    const { test, events } = withReceiver();
    await test.sandbox("POST", `/installations/${ORG_B_ID}`, { status: "uninstalled" });
    expect((await events()).map((event) => event.envelope.type)).toEqual(["app.uninstalled"]);
    expect((await test.call("GET /v1/facilities", { organizationId: ORG_B_ID })).status).toBe(403);

    await test.sandbox("POST", `/ehr/${ORG_B_ID}/appointments`, someSlotInput(test, ORG_B_ID));
    await syncNow(test, ORG_B_ID);
    expect(await events()).toEqual([]);

    await test.sandbox("POST", `/installations/${ORG_B_ID}`, { status: "active", grantedPermissions: ["read:patients"], settings: { holdMinutes: 5 } });
    const [installed] = await events();
    expect(installed?.envelope.type).toBe("app.installed");
    expect(z.parse(appInstalledEventData, installed?.envelope.data)).toEqual({ organizationId: ORG_B_ID, grantedPermissions: ["read:patients"], settings: { holdMinutes: 5 }, installedBy: null });
  });

  it("a change of optional scopes emits installation.permissions_updated; suspension emits nothing yet", async () => {
    const { test, events } = withReceiver();
    await test.sandbox("POST", `/installations/${ORG_B_ID}`, { status: "active", grantedPermissions: ["read:patients"] });
    expect((await events()).map((event) => event.envelope.type)).toEqual(["installation.permissions_updated"]);
    expect((await test.call("GET /v1/patients", { organizationId: ORG_B_ID })).status).toBe(200);
    await test.sandbox("POST", `/installations/${ORG_B_ID}`, { status: "suspended" });
    expect(await events()).toEqual([]);
  });

  it("never repeats a required scope in grantedPermissions: the event's and the installation record the installations list serves", async () => {
    const { test, events } = withReceiver();
    await test.sandbox("POST", `/installations/${ORG_B_ID}`, { status: "uninstalled" });
    await events();
    await test.sandbox("POST", `/installations/${ORG_B_ID}`, { status: "active", grantedPermissions: ["read:patients", "read:appointments"] });
    const [installed] = await events();
    expect(z.parse(appInstalledEventData, installed?.envelope.data).grantedPermissions).toEqual(["read:patients"]);
    expect(test.emulator.state.org(ORG_B_ID)?.installation.grantedPermissions).toEqual(["read:patients"]);
  });

  it("test.event is delivered on demand", async () => {
    const { test, events } = withReceiver();
    await test.sandbox("POST", "/webhooks/test");
    expect((await events()).map((event) => event.envelope.type)).toEqual(["test.event"]);
  });
});
