import { decodeJwt } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_ROLES } from "../world/types.ts";
import { createTestEmulator, type TestEmulator } from "../testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID, ORG_C_ID, ORG_D_ID, ORG_E_ID, ORG_F_ID } from "../world/identities.ts";
import { organizationPlans } from "./organization-plans.ts";

// EMULATOR_SCALE=large: at least four installed organizations (A, B, and D, E,
// F that only this scale has), each one usable as the load benchmark uses it
// (docs/sandbox.md "The sandbox identities").

interface SandboxUser {
  id: string;
  roles: string[];
  hidden: boolean;
  active: boolean;
}

describe("the large world's organizations", () => {
  let test: TestEmulator;
  beforeAll(() => {
    test = createTestEmulator({ scale: "large" });
  });

  it("the default scale has A, B and C only; the large adds D, E and F", () => {
    expect(organizationPlans("default").map((plan) => plan.id)).toEqual([ORG_A_ID, ORG_B_ID, ORG_C_ID]);
    expect(organizationPlans("large").map((plan) => plan.id)).toEqual([ORG_A_ID, ORG_B_ID, ORG_C_ID, ORG_D_ID, ORG_E_ID, ORG_F_ID]);
  });

  it("has at least four installed organizations, each with users of every role, unsigned notes, a host token and data", async () => {
    const listed = await test.get("GET /v1/installations", { organizationId: null });
    const active = listed.installations.filter((installation) => installation.status === "active").map((installation) => installation.organizationId);
    expect(active.length).toBeGreaterThanOrEqual(4);
    expect(active).toEqual(expect.arrayContaining([ORG_A_ID, ORG_B_ID, ORG_D_ID, ORG_E_ID, ORG_F_ID]));
    expect(active).not.toContain(ORG_C_ID);

    for (const organizationId of active) {
      const users = await test.sandbox("GET", `/ehr/${organizationId}/users`);
      expect(users.status).toBe(200);
      const visible = (users.body as { users: SandboxUser[] }).users.filter((user) => user.active && !user.hidden);
      for (const role of SANDBOX_ROLES) expect(visible.some((user) => user.roles.includes(role)), `${organizationId} has a ${role}`).toBe(true);

      const notes = await test.sandbox("GET", `/ehr/${organizationId}/notes`);
      expect((notes.body as { notes: { status: string }[] }).notes.some((note) => note.status !== "signed")).toBe(true);

      const frontDesk = visible.find((user) => user.roles.includes("Front Desk"));
      const minted = await test.sandbox("POST", "/host-token", { organizationId, userId: frontDesk?.id });
      expect(minted.status).toBe(200);
      const claims = decodeJwt((minted.body as { token: string }).token);
      expect(claims).toMatchObject({ org_id: organizationId, sub: frontDesk?.id, roles: ["Front Desk"] });

      const facilities = await test.get("GET /v1/facilities", { organizationId });
      expect(facilities.facilities.length).toBeGreaterThanOrEqual(3);
      const providers = await test.get("GET /v1/providers", { organizationId, query: { pageSize: 100 } });
      expect(providers.providers.length).toBe(100);
    }
  }, 60_000);

  it("syncs each organization's mirror at its own moment, spread over one interval (the default world syncs all at once)", () => {
    const syncedAt = (emulator: TestEmulator) => [ORG_A_ID, ORG_B_ID, ORG_D_ID, ORG_E_ID, ORG_F_ID].map((id) => emulator.emulator.state.org(id)?.mirror.syncedAt ?? Number.NaN);
    const large = syncedAt(test);
    const intervalMs = test.emulator.settings.syncIntervalSeconds * 1000;
    expect(new Set(large).size).toBe(large.length);
    expect(Math.max(...large) - Math.min(...large)).toBeLessThan(intervalMs);
    const defaults = createTestEmulator();
    const defaultSyncs = [ORG_A_ID, ORG_B_ID].map((id) => defaults.emulator.state.org(id)?.mirror.syncedAt);
    expect(new Set(defaultSyncs).size).toBe(1);
  });
});
