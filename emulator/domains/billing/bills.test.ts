import { describe, expect, it } from "vitest";
import { BILL_INTEGRATION_STATUSES, BILLING_TYPES, type Bill } from "#contract/clinic-api/billing.ts";
import { toPrefixedId } from "#contract/ids.ts";
import { createTestEmulator, ERAS_ONLY_KEY, type TestEmulator } from "../../testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID } from "../../world/identities.ts";
import { rawGet, remitsOf, required } from "./testing/billing-helpers.ts";

// Seed 001 "Claims and bills": GET /v1/bills with every filter and
// pagination, GET /v1/bills/{id} with the single-bill fields, coding as
// seed 000 gives it; archived bills never returned (ERA rule 7).

async function everyBill(test: TestEmulator, query: Record<string, string | number> = {}, organizationId = ORG_A_ID): Promise<Bill[]> {
  const bills: Bill[] = [];
  for (let page = 1; ; page++) {
    const data = await test.get("GET /v1/bills", { organizationId, query: { ...query, page, pageSize: 100 } });
    bills.push(...data.bills);
    if (page >= data.pagination.totalPages) return bills;
  }
}

describe("GET /v1/bills", () => {
  const test = createTestEmulator();
  const { call, get } = test;

  it("pages with the seed's defaults, newest date of service first, and totals that add up", async () => {
    const first = await get("GET /v1/bills");
    expect(first.pagination).toMatchObject({ page: 1, pageSize: 100 });
    expect(first.pagination.totalCount).toBeGreaterThan(300);
    const all = await everyBill(test);
    expect(all).toHaveLength(first.pagination.totalCount);
    expect(new Set(all.map((bill) => bill.id)).size).toBe(all.length);
    const dates = all.map((bill) => bill.dateOfService);
    expect(dates).toEqual([...dates].sort().reverse());
    const second = await get("GET /v1/bills", { query: { page: 2, pageSize: 7 } });
    expect(second.bills.map((bill) => bill.id)).toEqual(all.slice(7, 14).map((bill) => bill.id));
    const past = await get("GET /v1/bills", { query: { page: 999 } });
    expect(past.bills).toEqual([]);
    expect(past.pagination.totalCount).toBe(all.length);
  });

  it("filters by date of service, inclusive", async () => {
    const all = await everyBill(test);
    const day = required(all[Math.floor(all.length / 3)], "a bill").dateOfService;
    const onDay = await everyBill(test, { dateFrom: day, dateTo: day });
    expect(onDay.length).toBe(all.filter((bill) => bill.dateOfService === day).length);
    expect(onDay.length).toBeGreaterThan(0);
    const from = await everyBill(test, { dateFrom: day });
    expect(from.every((bill) => bill.dateOfService >= day)).toBe(true);
    expect(from.length).toBe(all.filter((bill) => bill.dateOfService >= day).length);
  });

  it("filters by facility, patient and provider (a raw UUID or a prefixed id; the provider is the primary or the bill-under one)", async () => {
    const all = await everyBill(test);
    const sample = required(all.find((bill) => bill.primaryProviderName !== bill.billUnderName), "a bill billed under another provider");
    const byFacility = await everyBill(test, { facilityId: toPrefixedId("fac", sample.facilityId) });
    expect(byFacility.length).toBe(all.filter((bill) => bill.facilityId === sample.facilityId).length);
    const byPatient = await everyBill(test, { patientId: sample.patientId });
    expect(byPatient.map((bill) => bill.patientId)).toEqual(byPatient.map(() => sample.patientId));
    expect(byPatient.map((bill) => bill.id)).toContain(sample.id);
    const detail = await get("GET /v1/bills/{id}", { params: { id: sample.id } });
    const underPhysician = await everyBill(test, { providerId: detail.billUnderProviderId });
    expect(underPhysician.map((bill) => bill.id)).toContain(sample.id);
    const byPrimary = await everyBill(test, { providerId: toPrefixedId("prv", detail.primaryProviderId) });
    expect(byPrimary.map((bill) => bill.id)).toContain(sample.id);
  });

  it("filters by billing type and integration status, each value of the assumed value spaces appearing", async () => {
    const all = await everyBill(test);
    let counted = 0;
    for (const billingType of BILLING_TYPES) {
      const bills = await everyBill(test, { billingType });
      expect(bills.every((bill) => bill.billingType === billingType)).toBe(true);
      expect(bills.length, billingType).toBeGreaterThan(0);
      counted += bills.length;
    }
    expect(counted).toBe(all.length);
    counted = 0;
    for (const integrationStatus of BILL_INTEGRATION_STATUSES) {
      const bills = await everyBill(test, { integrationStatus });
      expect(bills.length, integrationStatus).toBeGreaterThan(0);
      counted += bills.length;
    }
    expect(counted).toBe(all.length);
    const cosmetic = all.filter((bill) => bill.isCosmetic);
    expect(cosmetic.length).toBeGreaterThan(0);
    expect(cosmetic.every((bill) => bill.billingType === "self_pay" && bill.primaryInsurance === null)).toBe(true);
    const combined = await everyBill(test, { billingType: "insurance", integrationStatus: "paid" });
    expect(combined.every((bill) => bill.billingType === "insurance" && bill.primaryInsurance !== null)).toBe(true);
  });

  it.each([
    [{ integrationStatus: "pending" }, /^integrationStatus: must be one of "draft", "ready", "submitted", "paid", "closed"$/],
    [{ billingType: "cash" }, /^billingType: must be one of/],
    [{ dateFrom: "2026-02-30" }, /^dateFrom: must be a date YYYY-MM-DD$/],
    [{ dateFrom: "2026-11-20", dateTo: "2026-11-19" }, /^dateTo: must not be before dateFrom$/],
    [{ facilityId: "riverside" }, /^facilityId: must be a valid id/],
    [{ pageSize: 101 }, /^pageSize: must be at most 100$/],
    [{ page: 0 }, /^page: must be at least 1$/],
  ])("answers 400 naming the parameter for %o", async (query, message) => {
    const result = await call("GET /v1/bills", { query });
    expect(result.status).toBe(400);
    expect(result.error?.code).toBe("bad_request");
    expect(result.error?.message).toMatch(message);
  });

  it("gives every billing type and status in org B too, with its own payers", async () => {
    const bills = await everyBill(test, {}, ORG_B_ID);
    expect(bills.length).toBeGreaterThan(150);
    expect(bills.some((bill) => bill.primaryInsurance === "Medicare Australia")).toBe(true);
  });

  it("needs no scope beyond an active installation (the seeds show none): the read:eras-only key reads bills", async () => {
    expect((await call("GET /v1/bills", { authorization: `Bearer ${ERAS_ONLY_KEY}`, query: { pageSize: 1 } })).status).toBe(200);
  });
});

describe("GET /v1/bills/{id}", () => {
  const test = createTestEmulator();
  const { call, get } = test;

  it("answers the single-bill fields beside the list's", async () => {
    const listed = required((await get("GET /v1/bills", { query: { billingType: "insurance", integrationStatus: "paid", pageSize: 1 } })).bills[0], "a paid bill");
    const detail = await get("GET /v1/bills/{id}", { params: { id: listed.id } });
    const { cliaNumber, patientMrn, patientGender, primaryProviderId, primaryProviderFirstName, primaryProviderLastName, billUnderProviderId, billUnderProviderFirstName, billUnderProviderLastName, ...rest } = detail;
    expect(rest).toEqual(listed);
    expect(cliaNumber).toMatch(/^\d{2}D\d{7}$/);
    expect(primaryProviderId).toMatch(/^[0-9a-f-]{36}$/);
    expect(billUnderProviderId).toMatch(/^[0-9a-f-]{36}$/);
    expect(`${primaryProviderFirstName} ${primaryProviderLastName}`).not.toBe(" ");
    expect(`${billUnderProviderFirstName} ${billUnderProviderLastName}`).not.toBe(" ");
    const patient = await get("GET /v1/patients/{id}", { params: { id: detail.patientId } });
    expect(patientMrn).toBe(patient.mrn ?? "");
    expect(patientGender).toBe(patient.gender ?? "");
    expect(detail.patientDob).toBe(patient.dateOfBirth);
    // The list leaves the single-bill fields out.
    const raw = await rawGet(test, "/v1/bills?pageSize=1");
    const [first] = (raw.body.data as { bills: Record<string, unknown>[] }).bills;
    expect(Object.keys(first ?? {})).not.toContain("cliaNumber");
  });

  it("gives coding groups as the seeds do: money strings, units a string, modifiers, linked diagnoses, NDC fields", async () => {
    const bills = (await get("GET /v1/bills", { query: { pageSize: 100 } })).bills;
    const items = bills.flatMap((bill) => bill.codingGroups.flatMap((group) => group.lineItems.map((item) => ({ group, item }))));
    for (const { group, item } of items) {
      expect(Number(item.totalCharge)).toBeCloseTo(Number(item.charge) * Number(item.units), 2);
      expect(Number(item.balance)).toBeLessThanOrEqual(Number(item.totalCharge));
      const positions = new Set(group.diagnoses.map((diagnosis) => diagnosis.position));
      for (const linked of item.linkedDiagnoses) expect(positions.has(linked.position)).toBe(true);
    }
    expect(items.some(({ item }) => item.modifiers.some((modifier) => modifier.code === "25" && modifier.name.length > 0))).toBe(true);
    expect(items.some(({ item }) => item.units !== "1")).toBe(true);
    const all = (await Promise.all([1, 2, 3, 4, 5].map((page) => get("GET /v1/bills", { query: { page } })))).flatMap((data) => data.bills);
    const drug = all.flatMap((bill) => bill.codingGroups.flatMap((group) => group.lineItems)).find((item) => item.ndcCode !== "");
    expect(drug?.ndcCode).toMatch(/^\d{11}$/);
    expect(drug?.ndcQualifier).toMatch(/^(ML|UN)$/);
    expect(drug?.ndcQuantity).toBe("1");
    expect(all.flatMap((bill) => bill.codingGroups).some((group) => group.status === "finalized")).toBe(true);
  });

  it("never returns an archived bill: not listed, and 404 by id", async () => {
    const { cases } = await remitsOf(test);
    const archived = required(cases.archivedBillId, "the archived bill");
    const result = await call("GET /v1/bills/{id}", { params: { id: archived } });
    expect(result.status).toBe(404);
    expect(result.error?.code).toBe("not_found");
    const all = await everyBill(test);
    expect(all.map((bill) => bill.id)).not.toContain(archived);
    // Archiving one in the EHR takes it away at once.
    const victim = required(all[0], "a bill");
    expect((await test.sandbox("POST", `/ehr/${ORG_A_ID}/bills/${victim.id}/archive`)).status).toBe(200);
    expect((await call("GET /v1/bills/{id}", { params: { id: victim.id } })).status).toBe(404);
  });

  it("answers 400 with the v1 wording for a malformed id and 404 for an unknown or foreign one", async () => {
    expect((await call("GET /v1/bills/{id}", { params: { id: "B-104016" } })).error?.message).toBe("id must be a valid UUID");
    expect((await call("GET /v1/bills/{id}", { params: { id: "00000000-0000-4000-8000-000000000000" } })).status).toBe(404);
    const orgB = required((await get("GET /v1/bills", { organizationId: ORG_B_ID, query: { pageSize: 1 } })).bills[0], "an org B bill");
    expect((await call("GET /v1/bills/{id}", { params: { id: orgB.id } })).status).toBe(404);
  });
});
