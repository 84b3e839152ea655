import { describe, expect, it } from "vitest";
import { ORG_A_ID, ORG_B_ID, ORG_C_ID } from "../world/identities.ts";
import { ERAS_ONLY_KEY, FULL_KEY, REVOKED_KEY, createTestEmulator } from "../testing/emulator-client.ts";

// Seed 001 "Authentication" and "Errors": the auth matrix, one case per rule.

describe("auth matrix (seed 001 Authentication, Errors)", () => {
  const { call, emulator } = createTestEmulator();

  it.each([
    ["missing key", null, /Authorization header is required/],
    ["malformed key (no Bearer prefix)", FULL_KEY, /must start with 'Bearer '/],
    ["unknown key", "Bearer svc_dev_ak_ffffffffffffffffffffffffffffffff", /invalid/],
    ["revoked key", `Bearer ${REVOKED_KEY}`, /revoked/],
  ])("answers 401 unauthorized for a %s", async (_case, authorization, message) => {
    const result = await call("GET /v1/facilities", { authorization });
    expect(result.status).toBe(401);
    expect(result.error?.code).toBe("unauthorized");
    expect(result.error?.message).toMatch(message);
  });

  it("answers 400 when X-Organization-Id is missing", async () => {
    const result = await call("GET /v1/facilities", { organizationId: null });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ code: "bad_request", message: "X-Organization-Id header is required" });
  });

  it.each(["not-a-uuid", "fac_3b0f6a2e5d414c8a9e7b1f2d3c4b5a61"])("answers 400 when X-Organization-Id is %s (it needs a raw UUID)", async (organizationId) => {
    const result = await call("GET /v1/facilities", { organizationId });
    expect(result.status).toBe(400);
    expect(result.error?.message).toBe("X-Organization-Id must be a valid UUID");
  });

  it("rejects an uninstalled organization with 403", async () => {
    const result = await call("GET /v1/facilities", { organizationId: ORG_C_ID });
    expect(result.status).toBe(403);
    expect(result.error?.code).toBe("forbidden");
  });

  it("rejects an organization that never installed the app with 403", async () => {
    const result = await call("GET /v1/facilities", { organizationId: "00000000-0000-4000-8000-000000000000" });
    expect(result.status).toBe(403);
  });

  it("names the scope and says the key lacks it", async () => {
    const result = await call("GET /v1/patients", { authorization: `Bearer ${ERAS_ONLY_KEY}` });
    expect(result.status).toBe(403);
    expect(result.error?.message).toMatch(/read:patients.*API key does not have it/);
  });

  it("names the scope and says the installation did not grant it (org B has no read:patients)", async () => {
    const result = await call("GET /v1/patients", { organizationId: ORG_B_ID });
    expect(result.status).toBe(403);
    expect(result.error?.message).toMatch(/read:patients.*installation did not grant it/);
  });

  it("gives effective permission = key scopes ∩ installation grants: org A with the full key reads patients", async () => {
    const result = await call("GET /v1/patients", { query: { pageSize: 1 } });
    expect(result.status).toBe(200);
  });

  it("answers 400 with the v1 wording for a malformed v1 id", async () => {
    const result = await call("GET /v1/appointments/{id}", { params: { id: "42" } });
    expect(result.status).toBe(400);
    expect(result.error?.message).toBe("id must be a valid UUID");
  });

  it("answers 404 for an id of another organization", async () => {
    const orgB = emulator.state.org(ORG_B_ID);
    const foreign = orgB?.ehr.appointments[0]?.id ?? "";
    const result = await call("GET /v1/appointments/{id}", { params: { id: foreign } });
    expect(result.status).toBe(404);
    expect(result.error?.code).toBe("not_found");
  });

  it("accepts a prefixed id or a raw UUID in a v3 path", async () => {
    const patient = emulator.state.org(ORG_A_ID)?.ehr.patients[0];
    const raw = patient?.id ?? "";
    const prefixed = `pat_${raw.replaceAll("-", "")}`;
    const byPrefixed = await call("GET /v3/patients/{id}", { params: { id: prefixed } });
    const byRaw = await call("GET /v3/patients/{id}", { params: { id: raw } });
    expect(byPrefixed.ok && byRaw.ok).toBe(true);
    expect(byRaw.body).toEqual(byPrefixed.body);
    if (byPrefixed.ok) expect(byPrefixed.data!.id).toBe(prefixed);
  });

  it("puts a trace_id on every error", async () => {
    const result = await call("GET /v1/facilities", { authorization: null });
    expect(result.body).toHaveProperty("trace_id", expect.stringMatching(/^trc_/));
  });

  it("lists installations, uninstalled included, without X-Organization-Id", async () => {
    const result = await call("GET /v1/installations", { organizationId: null });
    expect(result.ok).toBe(true);
    if (result.ok) {
      const statuses = Object.fromEntries(result.data!.installations.map((installation) => [installation.organizationId, installation.status]));
      expect(statuses).toEqual({ [ORG_A_ID]: "active", [ORG_B_ID]: "active", [ORG_C_ID]: "uninstalled" });
    }
  });
});
