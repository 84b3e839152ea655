import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { appErrorBody } from "#contract/app-api/errors.ts";
import { facilitiesResponse, providersResponse, session as sessionSchema, appointmentTypesResponse } from "#contract/app-api/session.ts";
import { ORG_A_ID, ORG_B_ID, ORG_C_ID } from "../emulator/world/identities.ts";
import { createStore } from "./store/create-store.ts";
import type { Store } from "./store/store.ts";
import { createBffHarness, type BffHarness } from "./testing/bff-harness.ts";

// The BFF end to end in-process: real host tokens from the emulator's
// platform issuer, the real upstream client against the emulator's app.

let store: Store;
let harness: BffHarness;

beforeAll(async () => {
  store = await createStore();
  harness = await createBffHarness(store);
});

afterAll(async () => {
  await harness.close();
  await store.close();
});

async function json<T extends z.ZodMiniType>(response: Response, schema: T): Promise<z.infer<T>> {
  return z.parse(schema, await response.json());
}

describe("GET /api/session", () => {
  it("answers the verified user, organization, visible facilities, grants and context", async () => {
    const physician = harness.userWithRole("Physician");
    const note = harness.emulator.emulator.state.org(ORG_A_ID)?.ehr.notes.find((candidate) => candidate.status === "awaiting_sign");
    const response = await harness.api("/api/session", { token: await harness.hostToken({ userId: physician, noteId: note?.id }) });
    expect(response.status).toBe(200);
    const body = await json(response, sessionSchema);
    expect(body.user).toMatchObject({ id: physician, roles: ["Physician"] });
    expect(body.user.displayName).not.toBe("Unknown user");
    expect(body.organization).toMatchObject({ id: ORG_A_ID, installationStatus: "active" });
    expect(body.grantedScopes).toEqual(expect.arrayContaining(["read:appointments", "read:facilities", "read:providers", "write:soap_notes", "read:patients"]));
    expect(body.context.noteId).toBe(note?.id);
    expect(body.capabilities).toMatchObject({ canEditNotes: true, canReadPatients: true, canHoldSlots: true });
    const hidden = harness.emulator.emulator.state.org(ORG_A_ID)?.ehr.facilities.filter((facility) => !facility.isVisible).map((facility) => facility.id);
    expect(hidden?.length).toBeGreaterThan(0);
    expect(body.facilities.map((facility) => facility.id)).not.toEqual(expect.arrayContaining(hidden ?? []));
  });

  it("tells org B its installation does not grant read:patients", async () => {
    const body = await json(await harness.api("/api/session", { token: await harness.hostToken({ organizationId: ORG_B_ID }) }), sessionSchema);
    expect(body.grantedScopes).not.toContain("read:patients");
    expect(body.capabilities.canReadPatients).toBe(false);
  });

  it("a front-desk user may hold slots but not edit notes", async () => {
    const body = await json(await harness.api("/api/session", { token: await harness.hostToken({ userId: harness.userWithRole("Front Desk") }) }), sessionSchema);
    expect(body.capabilities).toMatchObject({ canHoldSlots: true, canEditNotes: false });
  });
});

describe("the host-session guarantees on every /api route", () => {
  it("refuses a request without a token with 401", async () => {
    const response = await harness.api("/api/providers");
    expect(response.status).toBe(401);
    expect(await json(response, appErrorBody)).toMatchObject({ code: "invalid_token" });
  });

  it("refuses an X-Organization-Id that differs from the token's organization with 403", async () => {
    const response = await harness.api("/api/providers", { token: await harness.hostToken(), headers: { "x-organization-id": ORG_B_ID } });
    expect(response.status).toBe(403);
  });

  it("refuses an uninstalled organization with a message saying so", async () => {
    const response = await harness.api("/api/session", { token: await harness.hostToken({ organizationId: ORG_C_ID }) });
    expect(response.status).toBe(403);
    const body = await json(response, appErrorBody);
    expect(body.code).toBe("installation_inactive");
    expect(body.message).toMatch(/uninstalled/);
  });

  it("spends a token on a write: the same token is refused on a second write", async () => {
    const token = await harness.hostToken();
    const first = await harness.api("/api/session", { token, method: "POST" });
    expect(first.status).toBe(404);
    const second = await harness.api("/api/session", { token, method: "POST" });
    expect(second.status).toBe(401);
    expect(await json(second, appErrorBody)).toMatchObject({ code: "token_replayed" });
    // Reads with the same token still work.
    expect((await harness.api("/api/session", { token })).status).toBe(200);
  });

  it("does not spend a token on the slot check (a read sent as POST), and still spends it on the hold", async () => {
    const token = await harness.hostToken();
    // An empty body: refused by the route (400), after the token was accepted, each time.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const check = await harness.api("/api/slots/check", { token, method: "POST", body: {} });
      expect(check.status).toBe(400);
    }
    expect((await harness.api("/api/holds", { token, method: "POST", body: {} })).status).toBe(400);
    const replayed = await harness.api("/api/holds", { token, method: "POST", body: {} });
    expect(replayed.status).toBe(401);
    expect(await json(replayed, appErrorBody)).toMatchObject({ code: "token_replayed" });
  });

  it("reads no body before the request is authenticated, and caps bodies per route", async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const chunkedBody = () => {
      let pulled = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          // 4 MB in 64 KB chunks, with no content-length: what a chunked upload sends.
          if (pulled >= 64) return controller.close();
          pulled += 1;
          controller.enqueue(chunk);
        },
      });
      return { stream, pulledChunks: () => pulled };
    };
    const unauthenticated = chunkedBody();
    const refused = await harness.bff.app.request(new Request("http://localhost/api/holds", { method: "POST", body: unauthenticated.stream, headers: { "content-type": "application/json" }, duplex: "half" }));
    expect(refused.status).toBe(401);
    expect(unauthenticated.pulledChunks()).toBeLessThanOrEqual(2);

    const authenticated = chunkedBody();
    const capped = await harness.bff.app.request(
      new Request("http://localhost/api/holds", { method: "POST", body: authenticated.stream, headers: { "content-type": "application/json", authorization: `Bearer ${await harness.hostToken()}` }, duplex: "half" }),
    );
    expect(capped.status).toBe(413);
    expect(await json(capped, appErrorBody)).toMatchObject({ code: "payload_too_large", message: "The request body must be at most 64 KB" });
  });

  it("keeps a spent token spent for as long as the verifier accepts it: past exp, within the clock skew, after a purge", async () => {
    const token = await harness.hostToken();
    expect((await harness.api("/api/session", { token, method: "POST" })).status).toBe(404);
    const { exp } = decodeJwt(token);
    if (exp === undefined) throw new Error("the host token has no exp");
    // 7 s after exp: the verifier still accepts the token (30 s of skew); the purge has run.
    harness.advanceClocks(exp + 7 - harness.now() / 1000);
    await store.usedTokenIds.purgeExpired(harness.now());
    const replay = await harness.api("/api/session", { token, method: "POST" });
    expect(replay.status).toBe(401);
    expect(await json(replay, appErrorBody)).toMatchObject({ code: "token_replayed" });
  });
});

describe("pickers", () => {
  it("lists providers without hidden ones, facilities without invisible ones, and appointment types", async () => {
    const token = await harness.hostToken();
    const org = harness.emulator.emulator.state.org(ORG_A_ID);
    const { providers } = await json(await harness.api("/api/providers", { token }), providersResponse);
    const hiddenIds = org?.ehr.providers.filter((provider) => provider.hidden).map((provider) => provider.id) ?? [];
    expect(hiddenIds.length).toBeGreaterThan(0);
    expect(providers.length).toBe((org?.ehr.providers.length ?? 0) - hiddenIds.length);
    expect(providers.some((provider) => hiddenIds.includes(provider.id))).toBe(false);
    const { facilities } = await json(await harness.api("/api/facilities", { token }), facilitiesResponse);
    expect(facilities.length).toBe(org?.ehr.facilities.filter((facility) => facility.isVisible).length);
    const { appointmentTypes } = await json(await harness.api("/api/appointment-types", { token }), appointmentTypesResponse);
    expect(appointmentTypes.length).toBe(org?.ehr.appointmentTypes.length);
  });

  it("searches providers by name and names a bad query field", async () => {
    const token = await harness.hostToken();
    const { providers } = await json(await harness.api("/api/providers?search=zzzz", { token }), providersResponse);
    expect(providers).toEqual([]);
    const response = await harness.api(`/api/providers?search=${"x".repeat(101)}`, { token });
    expect(response.status).toBe(400);
    expect((await json(response, appErrorBody)).message).toMatch(/^search: /);
  });
});

describe("installations", () => {
  it("an organization the BFF does not know triggers a refresh from the installations list", async () => {
    const freshStore = await createStore();
    const cold = await createBffHarness(freshStore, { bootstrap: false });
    try {
      expect(await freshStore.installations.list()).toEqual([]);
      const response = await cold.api("/api/session", { token: await cold.hostToken() });
      expect(response.status).toBe(200);
      expect((await freshStore.installations.list()).map((installation) => installation.organizationId).sort()).toEqual([ORG_A_ID, ORG_B_ID, ORG_C_ID].sort());
    } finally {
      await cold.close();
      await freshStore.close();
    }
  });

  it("lifecycle webhooks keep the table current: uninstall refuses the organization, reinstall lets it back", async () => {
    const token = async () => harness.hostToken({ organizationId: ORG_B_ID });
    await harness.emulator.sandbox("POST", `/installations/${ORG_B_ID}`, { status: "uninstalled" });
    await harness.emulator.emulator.dispatcher.idle();
    await harness.bff.processor.drain();
    expect((await harness.api("/api/session", { token: await token() })).status).toBe(403);
    await harness.emulator.sandbox("POST", `/installations/${ORG_B_ID}`, { status: "active", grantedPermissions: ["read:patients"] });
    await harness.emulator.emulator.dispatcher.idle();
    await harness.bff.processor.drain();
    const body = await json(await harness.api("/api/session", { token: await token() }), sessionSchema);
    expect(body.grantedScopes).toContain("read:patients");
    await harness.emulator.sandbox("POST", `/installations/${ORG_B_ID}`, { status: "active", grantedPermissions: [] });
    await harness.emulator.emulator.dispatcher.idle();
    await harness.bff.processor.drain();
  });
});

describe("serving", () => {
  it("answers /healthz with the store's readiness and security headers", async () => {
    // /healthz answers from memory (never a query): what the last check found.
    await harness.bff.health.refresh();
    const response = await harness.bff.app.request("/healthz");
    expect(await response.json()).toEqual({ ok: true, store: "ready", webhooks: { deadLetters: 0 } });
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain(`frame-ancestors ${harness.config.allowedHostOrigins.join(" ")}`);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toMatch(/img-src 'self' data: http:\/\/127\.0\.0\.1:4010/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBeTruthy();
  });

  it("answers an unknown /api route with the error body", async () => {
    const response = await harness.api("/api/nope", { token: await harness.hostToken() });
    expect(response.status).toBe(404);
    expect(await json(response, appErrorBody)).toMatchObject({ code: "not_found" });
  });

  it("marks every /api answer no-store, patient data and errors alike", async () => {
    const physician = harness.userWithRole("Physician");
    const note = harness.emulator.emulator.state.org(ORG_A_ID)?.ehr.notes.find((candidate) => candidate.assignedProviders.some((provider) => provider.id === physician));
    const token = await harness.hostToken({ userId: physician, ...(note ? { noteId: note.id, patientId: note.patient.id } : {}) });
    const answers = [
      await harness.api("/api/session", { token }),
      await harness.api("/api/context/patient", { token }),
      ...(note ? [await harness.api(`/api/notes/${note.id}`, { token })] : []),
      await harness.api("/api/session", { token: null }),
      await harness.api("/api/nope", { token }),
    ];
    for (const answer of answers) expect(answer.headers.get("cache-control"), `${answer.url} ${answer.status}`).toBe("no-store");
  });
});

describe("secrets", () => {
  it("the data key and the webhook secret appear in no response and no log line of this suite", () => {
    const secrets = [harness.config.clinicApiKey, ...harness.config.webhookSecrets];
    const everything = [...harness.transcript, ...harness.logLines].join("\n");
    expect(harness.logLines.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });
});
