import { describe, expect, it } from "vitest";
import type { Bill } from "#contract/clinic-api/billing.ts";
import { createTestEmulator, type TestEmulator } from "../../testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID } from "../../world/identities.ts";
import { allLines, remitsOf, required } from "./testing/billing-helpers.ts";

// The billing seed: derived from the seeded world and the emulator's seed,
// the same for the same seed and clock, and back to it on reset.

async function bills(test: TestEmulator, organizationId: string): Promise<Bill[]> {
  const all: Bill[] = [];
  for (let page = 1; ; page++) {
    const data = await test.get("GET /v1/bills", { organizationId, query: { page } });
    all.push(...data.bills);
    if (page >= data.pagination.totalPages) return all;
  }
}

async function everything(test: TestEmulator) {
  const result: Record<string, unknown> = {};
  for (const organizationId of [ORG_A_ID, ORG_B_ID]) {
    result[`${organizationId}/bills`] = await bills(test, organizationId);
    result[`${organizationId}/lines`] = await allLines(test, {}, { organizationId });
    result[`${organizationId}/remits`] = await remitsOf(test, organizationId);
  }
  return result;
}

describe("billing seed", () => {
  it("is the same for the same seed and clock, different for another seed, and restored by reset", async () => {
    const first = createTestEmulator();
    const second = createTestEmulator();
    const seeded = await everything(first);
    expect(await everything(second)).toEqual(seeded);
    expect(JSON.stringify(await bills(createTestEmulator({ seed: 7 }), ORG_A_ID))).not.toBe(JSON.stringify(seeded[`${ORG_A_ID}/bills`]));

    // Change everything the controls can change, then reset.
    const { remits, cases } = await remitsOf(first, ORG_A_ID, "unposted");
    await first.sandbox("POST", `/ehr/${ORG_A_ID}/era-remits/${required(remits[0], "a remit").id}/post`);
    await first.sandbox("POST", `/ehr/${ORG_A_ID}/claims/${required(cases.reversedClaimId, "a claim")}/archive`);
    await first.sandbox("POST", "/sync", {});
    expect(await everything(first)).not.toEqual(seeded);
    await first.sandbox("POST", "/reset");
    expect(await everything(first)).toEqual(seeded);
  });

  it("is derived from the world: its patients, clinicians, facilities and completed appointments", async () => {
    const test = createTestEmulator();
    const org = required(test.emulator.state.org(ORG_A_ID), "org A").ehr;
    const patients = new Map(org.patients.map((patient) => [patient.id, patient]));
    const facilities = new Set(org.facilities.map((facility) => facility.id));
    const visits = new Set(org.appointments.filter((appointment) => appointment.status === "completed").map((appointment) => `${appointment.patientId}|${appointment.facilityId}`));
    const all = await bills(test, ORG_A_ID);
    for (const bill of all) {
      expect(patients.get(bill.patientId)?.lastName).toBe(bill.patientLastName);
      expect(facilities.has(bill.facilityId)).toBe(true);
    }
    // Bills of the last week are the completed appointments of the seeded window.
    const lastWeek = all.filter((bill) => bill.dateOfService >= "2026-11-16");
    expect(lastWeek.length).toBeGreaterThan(100);
    expect(lastWeek.every((bill) => visits.has(`${bill.patientId}|${bill.facilityId}`))).toBe(true);
    // And older ones reach back months, so claims have been paid and remitted.
    expect(all.some((bill) => bill.dateOfService < "2026-09-01")).toBe(true);
  });

  it("does not depend on EHR changes made before billing is first read", async () => {
    // Both synced: a sync brings over the bill the seed left waiting for one (ERA rule 7).
    const reference = createTestEmulator();
    await reference.sandbox("POST", "/sync", {});
    const untouched = await bills(reference, ORG_A_ID);
    const test = createTestEmulator();
    const confirmed = required(test.emulator.state.org(ORG_A_ID)?.ehr.appointments.find((appointment) => appointment.status === "confirmed"), "a confirmed appointment");
    expect((await test.sandbox("PATCH", `/ehr/${ORG_A_ID}/appointments/${confirmed.id}`, { status: "completed" })).status).toBe(200);
    await test.sandbox("POST", "/sync", {});
    expect(await bills(test, ORG_A_ID)).toEqual(untouched);
  });
});
