import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { FAX_ERROR_KINDS, faxEventData } from "#contract/clinic-api/events.ts";
import { faxStatusChangedData, type Fax } from "#contract/clinic-api/faxes.ts";
import { ERAS_ONLY_KEY } from "../../testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID } from "../../world/identities.ts";
import { createCapturingEmulator, type CapturingEmulator } from "./testing/webhook-capture.ts";

// Faxes: seed 001 "Fax event" and seed 000's fax transitions,
// through the assumed send and read calls and real webhook deliveries.

const OUTCOME_SECONDS = 30;
const FAX_BODY = { toNumber: "+12125550123", documentIds: ["doc-1", "doc-2"], coverNote: "Referral, please see attached" };

function setup(): CapturingEmulator {
  return createCapturingEmulator({ faxOutcomeSeconds: OUTCOME_SECONDS });
}

async function send(env: CapturingEmulator, body: object = FAX_BODY, organizationId = ORG_A_ID): Promise<Fax> {
  return (await env.test.get("POST /v1/faxes", { body, organizationId })).fax;
}

async function read(env: CapturingEmulator, id: string, organizationId = ORG_A_ID): Promise<Fax> {
  return (await env.test.get("GET /v1/faxes/{id}", { params: { id }, organizationId })).fax;
}

const sync = (env: CapturingEmulator, organizationId = ORG_A_ID) => env.test.sandbox("POST", "/sync", { organizationId });
const script = (env: CapturingEmulator, outcomes: object[], organizationId = ORG_A_ID) => env.test.sandbox("POST", `/ehr/${organizationId}/faxes/outcomes`, { outcomes });
const faxEvents = async (env: CapturingEmulator) => (await env.delivered()).filter((event) => event.type === "fax.status_changed");

describe("fax send (assumed POST /v1/faxes)", () => {
  it("answers once the EHR accepts: status sent, no errorKind, occurredAt the acceptance; nothing is announced", async () => {
    const env = setup();
    const patient = env.test.emulator.state.org(ORG_A_ID)?.ehr.patients[3];
    const fax = await send(env, { ...FAX_BODY, patientId: `pat_${patient?.id.replaceAll("-", "")}`, attachments: [{ filename: "lab.pdf", mimeType: "application/pdf", contentBase64: "JVBERi0xLjQK", pages: 3 }] });
    expect(fax).toMatchObject({ status: "sent", toNumber: FAX_BODY.toNumber, patientId: patient?.id, documentIds: ["doc-1", "doc-2"], errorKind: null, pages: 6 });
    expect(fax.occurredAt).toBe(fax.createdAt);
    expect(await read(env, fax.id)).toEqual(fax);

    env.advance(OUTCOME_SECONDS - 1);
    await sync(env);
    expect(await read(env, fax.id)).toMatchObject({ status: "sent" });
    expect(await env.delivered()).toEqual([]);
  });

  it("refuses synchronously with 502 ehr_send_failed when the EHR refuses: no fax, never an event", async () => {
    const env = setup();
    await script(env, [{ status: "ehr_send_failed" }]);
    const refused = await env.test.call("POST /v1/faxes", { body: FAX_BODY });
    expect(refused.status).toBe(502);
    expect(refused.error?.code).toBe("ehr_send_failed");
    expect((await env.test.get("GET /v1/faxes")).faxes).toEqual([]);
    env.advance(3600);
    await sync(env);
    expect(await env.delivered()).toEqual([]);
    // The refusal was the scripted answer to one send only.
    expect((await send(env)).status).toBe("sent");
  });

  it.each([
    [{ ...FAX_BODY, toNumber: "212-555-0123" }, "toNumber: must be an E.164 number such as +12125550123"],
    [{ toNumber: "+12125550123" }, "documentIds: a fax needs at least one document id or attachment"],
    [{ ...FAX_BODY, patientId: "00000000-0000-4000-8000-000000000000" }, "patientId: 00000000-0000-4000-8000-000000000000 is not a patient of this organization"],
    [{ ...FAX_BODY, patientId: "fac_0123456789abcdef0123456789abcdef" }, "patientId: must be a valid id (a pat_ id or a UUID)"],
    [{ ...FAX_BODY, priority: "high" }, "body: unknown field priority"],
  ])("refuses a bad body with 400 naming the field (%j)", async (body, message) => {
    const env = setup();
    const result = await env.test.call("POST /v1/faxes", { body });
    expect(result.status).toBe(400);
    expect(result.error?.message).toBe(message);
  });
});

describe("fax outcomes and fax.status_changed (seed 001 Fax event)", () => {
  it("delivered: one event with status, errorKind null and occurredAt when the transition happened", async () => {
    const env = setup();
    const fax = await send(env);
    env.advance(OUTCOME_SECONDS + 15);
    await sync(env);
    const events = await env.delivered();
    expect(events.map((event) => event.type)).toEqual(["fax.status_changed"]);
    const data = z.parse(faxStatusChangedData, events[0]?.data);
    z.parse(faxEventData, events[0]?.data);
    const occurredAt = new Date(Date.parse(fax.createdAt) + OUTCOME_SECONDS * 1000).toISOString();
    expect(data).toEqual({ id: fax.id, organizationId: ORG_A_ID, status: "delivered", errorKind: null, occurredAt, toNumber: fax.toNumber, patientId: null, pages: 3, createdAt: fax.createdAt });
    expect(events[0]?.timestamp).toBe(occurredAt);
    expect(await read(env, fax.id)).toMatchObject({ status: "delivered", errorKind: null, occurredAt, updatedAt: occurredAt });
  });

  it.each(FAX_ERROR_KINDS)("failed with errorKind %s: one event carrying it; the read agrees", async (errorKind) => {
    const env = setup();
    await script(env, [{ status: "failed", errorKind }]);
    const fax = await send(env);
    env.advance(OUTCOME_SECONDS);
    await sync(env);
    const events = await faxEvents(env);
    expect(events).toHaveLength(1);
    expect(z.parse(faxStatusChangedData, events[0]?.data)).toMatchObject({ id: fax.id, status: "failed", errorKind });
    expect(await read(env, fax.id)).toMatchObject({ status: "failed", errorKind });
  });

  it("announces at most once: later syncs and reads repeat nothing", async () => {
    const env = setup();
    const fax = await send(env);
    env.advance(OUTCOME_SECONDS);
    await sync(env);
    expect(await faxEvents(env)).toHaveLength(1);
    env.advance(120);
    await sync(env);
    await read(env, fax.id);
    await env.test.get("GET /v1/faxes");
    expect(await env.delivered()).toEqual([]);
  });

  it("the read is authoritative without a sync: it commits a due outcome and hands its one event over", async () => {
    const env = setup();
    const fax = await send(env);
    env.advance(OUTCOME_SECONDS);
    expect(await read(env, fax.id)).toMatchObject({ status: "delivered" });
    expect(await faxEvents(env)).toHaveLength(1);
    await sync(env);
    expect(await env.delivered()).toEqual([]);
  });

  it("a lost announcement: nothing arrives, and only the read (or the list) tells the outcome", async () => {
    const env = setup();
    await script(env, [{ status: "failed", errorKind: "transmission_failed" }]);
    expect((await env.test.sandbox("POST", `/ehr/${ORG_A_ID}/faxes/drop-announcements`, {})).body).toMatchObject({ dropAnnouncements: 1 });
    const lost = await send(env);
    // Due one second apart: the drop hits the first transition.
    env.advance(1);
    const heard = await send(env);
    env.advance(OUTCOME_SECONDS);
    await sync(env);
    const events = await faxEvents(env);
    expect(events.map((event) => event.data.id)).toEqual([heard.id]);
    expect(await read(env, lost.id)).toMatchObject({ status: "failed", errorKind: "transmission_failed" });
    const reconciled = await env.test.get("GET /v1/faxes", { query: { status: "failed", updatedSince: lost.createdAt } });
    expect(reconciled.faxes.map((fax) => fax.id)).toEqual([lost.id]);
    const view = (await env.test.sandbox("GET", `/ehr/${ORG_A_ID}/faxes`)).body as { faxes: { fax: Fax; announcement: string }[]; dropAnnouncements: number };
    expect(view.faxes.map((entry) => [entry.fax.id, entry.announcement])).toEqual([[lost.id, "dropped"], [heard.id, "handed_over"]]);
    expect(view.dropAnnouncements).toBe(0);
  });

  it("occurredAt follows the transitions, not the order of sending or of syncing", async () => {
    const env = setup();
    await script(env, [{ status: "delivered", afterSeconds: 90 }, { status: "failed", errorKind: "still_processing", afterSeconds: 10 }]);
    const slow = await send(env);
    env.advance(1);
    const quick = await send(env);
    env.advance(120);
    await sync(env);
    const events = (await faxEvents(env)).map((event) => z.parse(faxStatusChangedData, event.data));
    expect(events.map((data) => data.id)).toEqual([quick.id, slow.id]);
    expect(events.map((data) => data.occurredAt)).toEqual([
      new Date(Date.parse(quick.createdAt) + 10_000).toISOString(),
      new Date(Date.parse(slow.createdAt) + 90_000).toISOString(),
    ]);
  });

  it("the sandbox completes a fax now; a terminal fax cannot be completed again", async () => {
    const env = setup();
    const fax = await send(env);
    const completed = await env.test.sandbox("POST", `/ehr/${ORG_A_ID}/faxes/${fax.id}/complete`);
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({ fax: { status: "delivered", occurredAt: fax.createdAt }, events: [{ type: "fax.status_changed" }] });
    expect(await faxEvents(env)).toHaveLength(1);
    expect((await env.test.sandbox("POST", `/ehr/${ORG_A_ID}/faxes/${fax.id}/complete`)).status).toBe(409);
  });

  it("refuses a scripted failure without errorKind", async () => {
    const env = setup();
    const result = await script(env, [{ status: "delivered" }, { status: "failed" }]);
    expect(result).toEqual({ status: 400, body: { code: "bad_request", message: "outcomes.1.errorKind: is required when status is failed" } });
    expect((await env.test.sandbox("GET", `/ehr/${ORG_A_ID}/faxes/outcomes`)).body).toEqual({ outcomes: [], dropAnnouncements: 0 });
  });

  it("reset forgets faxes, scripts and pending drops", async () => {
    const env = setup();
    const fax = await send(env);
    await script(env, [{ status: "ehr_send_failed" }]);
    await env.test.sandbox("POST", "/reset");
    expect((await env.test.call("GET /v1/faxes/{id}", { params: { id: fax.id } })).status).toBe(404);
    expect((await send(env)).status).toBe("sent");
  });
});

describe("scope read:faxes", () => {
  it("a key without it gets 403 on send, list and read", async () => {
    const env = setup();
    const fax = await send(env);
    const authorization = `Bearer ${ERAS_ONLY_KEY}`;
    for (const result of [
      await env.test.call("POST /v1/faxes", { body: FAX_BODY, authorization }),
      await env.test.call("GET /v1/faxes", { authorization }),
      await env.test.call("GET /v1/faxes/{id}", { params: { id: fax.id }, authorization }),
    ]) {
      expect(result.status).toBe(403);
      expect(result.error?.message).toBe("Missing required scope read:faxes: the API key does not have it");
    }
  });

  it("no event reaches an installation that does not grant it; the outcome is still committed", async () => {
    const env = setup();
    const fax = await send(env, FAX_BODY, ORG_B_ID);
    const granted = env.test.emulator.state.org(ORG_B_ID)?.installation.grantedPermissions ?? [];
    await env.test.sandbox("POST", `/installations/${ORG_B_ID}`, { status: "active", grantedPermissions: granted.filter((scope) => scope !== "read:faxes") });
    expect((await env.test.call("GET /v1/faxes/{id}", { params: { id: fax.id }, organizationId: ORG_B_ID })).error?.message).toBe(
      "Missing required scope read:faxes: the organization's installation did not grant it",
    );
    env.advance(OUTCOME_SECONDS);
    await sync(env, ORG_B_ID);
    expect(await faxEvents(env)).toEqual([]);
    await env.test.sandbox("POST", `/installations/${ORG_B_ID}`, { status: "active", grantedPermissions: granted });
    expect(await read(env, fax.id, ORG_B_ID)).toMatchObject({ status: "delivered" });
    expect(await faxEvents(env)).toEqual([]);
  });
});

describe("fax list (assumed GET /v1/faxes)", () => {
  it("filters on status and updatedSince (inclusive), oldest change first, paginated", async () => {
    const env = setup();
    await script(env, [{ status: "delivered", afterSeconds: 5 }, { status: "failed", errorKind: "invalid_request", afterSeconds: 20 }, { status: "delivered", afterSeconds: 600 }]);
    const first = await send(env);
    const second = await send(env);
    const third = await send(env);
    env.advance(30);
    const all = await env.test.get("GET /v1/faxes");
    // Sent at the same instant: the one still in flight changed last at its acceptance.
    expect(all.faxes.map((fax) => [fax.id, fax.status])).toEqual([
      [third.id, "sent"],
      [first.id, "delivered"],
      [second.id, "failed"],
    ]);
    expect(all.pagination).toEqual({ page: 1, pageSize: 100, totalCount: 3, totalPages: 1 });
    const terminal = await env.test.get("GET /v1/faxes", { query: { status: "delivered,failed" } });
    expect(terminal.faxes.map((fax) => fax.id)).toEqual([first.id, second.id]);
    const since = await env.test.get("GET /v1/faxes", { query: { updatedSince: (await read(env, second.id)).updatedAt } });
    expect(since.faxes.map((fax) => fax.id)).toEqual([second.id]);
    const paged = await env.test.get("GET /v1/faxes", { query: { pageSize: 2, page: 2 } });
    expect(paged.faxes.map((fax) => fax.id)).toEqual([second.id]);
    expect((await env.test.call("GET /v1/faxes", { query: { status: "queued" } })).status).toBe(400);
  });
});
