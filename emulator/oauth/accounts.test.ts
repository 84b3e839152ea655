import { describe, expect, it } from "vitest";
import { createTestEmulator } from "../testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID } from "../world/identities.ts";
import { accountOfProvider, findAccount, findMultiOrgAccount, findSingleOrgAccount, sandboxAccounts } from "./accounts.ts";

// DESIGN.md "The sandbox identities" and "Standalone mode": every provider
// can sign in, one account is clinical in two organizations, and the seeded
// world is left as it was.

describe("sandbox accounts", () => {
  const { emulator, sandbox } = createTestEmulator();

  it("gives every active provider of every organization an account, each provider in exactly one", () => {
    const accounts = sandboxAccounts(emulator.state);
    const providerIds = accounts.flatMap((account) => account.memberships.map((membership) => membership.providerId));
    expect(new Set(providerIds).size).toBe(providerIds.length);
    for (const org of emulator.state.organizations()) {
      for (const provider of org.ehr.providers) expect(accountOfProvider(emulator.state, provider.id), provider.id).toBeDefined();
    }
    expect(new Set(accounts.map((account) => account.email)).size).toBe(accounts.length);
    expect(new Set(accounts.map((account) => account.id)).size).toBe(accounts.length);
  });

  it("links one Physician of org A and one of org B as the same person, listed first", () => {
    const account = findMultiOrgAccount(emulator.state);
    expect(sandboxAccounts(emulator.state)[0]?.id).toBe(account.id);
    expect(account.memberships.map((membership) => [membership.organizationId, membership.roles])).toEqual([
      [ORG_A_ID, ["Physician"]],
      [ORG_B_ID, ["Physician"]],
    ]);
    expect(account.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The world still has both provider records, unchanged.
    for (const membership of account.memberships) expect(emulator.state.org(membership.organizationId)?.ehr.providers.some((provider) => provider.id === membership.providerId)).toBe(true);
  });

  it("finds single-organization accounts by role", () => {
    const frontDesk = findSingleOrgAccount(emulator.state, ORG_A_ID, "Front Desk");
    expect(frontDesk.memberships).toEqual([expect.objectContaining({ organizationId: ORG_A_ID, roles: ["Front Desk"] })]);
    expect(findAccount(emulator.state, frontDesk.id)).toEqual(frontDesk);
    expect(() => findSingleOrgAccount(emulator.state, ORG_A_ID, "Astronaut")).toThrow(/no single-organization Astronaut/);
  });

  it("keeps the same ids across a reset and across emulators with the same seed", async () => {
    const before = sandboxAccounts(emulator.state).map((account) => account.id);
    await sandbox("POST", "/reset");
    expect(sandboxAccounts(emulator.state).map((account) => account.id)).toEqual(before);
    expect(sandboxAccounts(createTestEmulator().emulator.state).map((account) => account.id)).toEqual(before);
  });

  it("keeps the multi-organization account, and its id, when its Physicians are given other roles in the EHR", async () => {
    const account = findMultiOrgAccount(emulator.state);
    try {
      for (const membership of account.memberships) {
        expect((await sandbox("PATCH", `/ehr/${membership.organizationId}/providers/${membership.providerId}`, { roles: ["Scheduler"] })).status).toBe(200);
      }
      const changed = findAccount(emulator.state, account.id);
      expect(changed?.memberships.map((membership) => [membership.providerId, membership.roles])).toEqual(account.memberships.map((membership) => [membership.providerId, ["Scheduler"]]));
    } finally {
      await sandbox("POST", "/reset");
    }
  });

  it("does not list a deactivated provider", async () => {
    const frontDesk = findSingleOrgAccount(emulator.state, ORG_A_ID, "Front Desk");
    const providerId = frontDesk.memberships[0]?.providerId ?? "";
    const patched = await sandbox("PATCH", `/ehr/${ORG_A_ID}/providers/${providerId}`, { active: false });
    expect(patched.status).toBe(200);
    expect(findAccount(emulator.state, frontDesk.id)).toBeUndefined();
    await sandbox("POST", "/reset");
    expect(findAccount(emulator.state, frontDesk.id)).toBeDefined();
  });
});
