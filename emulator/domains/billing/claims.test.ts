import { describe, expect, it } from "vitest";
import { createTestEmulator, ERAS_ONLY_KEY } from "../../testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID } from "../../world/identities.ts";
import { allLines, rawGet, remitsOf, required } from "./testing/billing-helpers.ts";

// Seed 001 "Claims and bills": GET /v1/claims/{id} (insurance) and
// GET /v2/claims/{id} (payer fields, deep link, coding groups with paid and
// allowed amounts); scope read:claims; archived claims excluded.

const V2_ONLY = ["payerName", "payerCode", "payerPosition", "deepLinkUrl", "codingGroups"];

describe("GET /v1/claims/{id} and GET /v2/claims/{id}", () => {
  const test = createTestEmulator();
  const { call, get, sandbox } = test;

  it("v1 gives the claim with insurance and nothing of v2; v2 adds the payer, the deep link and the coding", async () => {
    const { cases } = await remitsOf(test);
    const id = required(cases.reversedClaimId, "a paid claim");
    const v1 = await get("GET /v1/claims/{id}", { params: { id } });
    const v2 = await get("GET /v2/claims/{id}", { params: { id } });
    const raw = await rawGet(test, `/v1/claims/${id}`);
    for (const field of V2_ONLY) expect(Object.keys(raw.body.data as object)).not.toContain(field);
    expect((raw.body.data as { insurance: object[] }).insurance.every((entry) => !("payerCode" in entry))).toBe(true);
    const { insurance: v2Insurance, payerName, payerCode, payerPosition, deepLinkUrl, codingGroups, ...v2Rest } = v2;
    const { insurance: v1Insurance, ...v1Rest } = v1;
    expect(v2Rest).toEqual(v1Rest);
    expect(v2Insurance.map(({ payerCode: _code, ...entry }) => entry)).toEqual(v1Insurance);
    expect(v1.claimStatus).toBe("paid");
    expect(v1.insurance[0]).toMatchObject({ isPrimary: true, payerName: v1.primaryInsurance });
    expect(payerPosition).toBe(1);
    expect(payerName).toBe(v1.primaryInsurance);
    expect(payerCode).toBe(v2Insurance[0]?.payerCode);
    const bill = await get("GET /v1/bills/{id}", { params: { id: v1.billId } });
    expect(v1.billHumanId).toMatch(/^B-\d{6}$/);
    expect(codingGroups.map((group) => group.id)).toEqual(bill.codingGroups.map((group) => group.id));
    // The deep link points into the EHR (the sandbox's view of it).
    const link = new URL(deepLinkUrl);
    const ehr = await sandbox("GET", link.pathname.replace(/^\/_sandbox/, ""));
    expect(ehr.status).toBe(200);
    expect(ehr.body).toMatchObject({ claim: { id, archived: false } });
  });

  it("v2 line items carry what posted remits paid and allowed, and the NDC description", async () => {
    const { cases } = await remitsOf(test);
    const id = required(cases.reversedClaimId, "a paid claim");
    const v2 = await get("GET /v2/claims/{id}", { params: { id } });
    const items = v2.codingGroups.flatMap((group) => group.lineItems);
    const lines = await allLines(test, { claimId: id });
    // Unposted lines (the reversal and its correction) count for nothing until posted.
    const { remits } = await remitsOf(test, ORG_A_ID, "posted");
    const postedIds = new Set(remits.flatMap((remit) => remit.eraClaims.flatMap((eraClaim) => eraClaim.lineIds)));
    const paid = lines.filter((line) => postedIds.has(line.id)).reduce((sum, line) => sum + Number(line.paidAmount), 0);
    expect(items.reduce((sum, item) => sum + Number(item.paidAmount), 0)).toBeCloseTo(paid, 2);
    expect(Number(items[0]?.allowedAmount)).toBeGreaterThan(0);
    expect(items.every((item) => typeof item.ndcProcedureDescription === "string")).toBe(true);
    expect(items.every((item) => item.ndcCode === "" || item.ndcProcedureDescription !== "")).toBe(true);
  });

  it("a secondary claim names the secondary payer (payerPosition 2)", async () => {
    const { remits } = await remitsOf(test);
    const secondary = remits.flatMap((remit) => remit.eraClaims).find((eraClaim) => eraClaim.claimStatusCode === "2" && eraClaim.matchedClaimId !== null);
    const claim = await get("GET /v2/claims/{id}", { params: { id: required(secondary?.matchedClaimId, "a secondary claim") } });
    expect(claim.payerPosition).toBe(2);
    expect(claim.payerName).toBe(claim.secondaryInsurance);
    expect(claim.insurance[1]).toMatchObject({ isPrimary: false, payerName: claim.payerName });
  });

  it("a claim with no bill link answers billId and billHumanId as empty strings", async () => {
    const { cases } = await remitsOf(test);
    const claim = await get("GET /v1/claims/{id}", { params: { id: required(cases.legacyClaimId, "the claim with no bill link") } });
    expect(claim).toMatchObject({ billId: "", billHumanId: "", claimStatus: "paid" });
  });

  it("needs read:claims: the read:eras-only key gets 403 naming the scope", async () => {
    const { cases } = await remitsOf(test);
    for (const route of ["GET /v1/claims/{id}", "GET /v2/claims/{id}"] as const) {
      const result = await call(route, { params: { id: required(cases.reversedClaimId, "a claim") }, authorization: `Bearer ${ERAS_ONLY_KEY}` });
      expect(result.status).toBe(403);
      expect(result.error?.message).toMatch(/read:claims.*API key does not have it/);
    }
  });

  it("excludes archived claims (404 on both versions), also when the EHR archives one later", async () => {
    const { cases } = await remitsOf(test);
    for (const route of ["GET /v1/claims/{id}", "GET /v2/claims/{id}"] as const) {
      const result = await call(route, { params: { id: required(cases.archivedClaimId, "the archived claim") } });
      expect(result.status).toBe(404);
      expect(result.error?.code).toBe("not_found");
    }
    const id = required(cases.takeBackClaimId, "a claim");
    expect((await call("GET /v2/claims/{id}", { params: { id } })).status).toBe(200);
    expect((await sandbox("POST", `/ehr/${ORG_A_ID}/claims/${id}/archive`)).status).toBe(200);
    expect((await call("GET /v2/claims/{id}", { params: { id } })).status).toBe(404);
    expect((await sandbox("GET", `/ehr/${ORG_A_ID}/claims/${id}`)).body).toMatchObject({ claim: { archived: true } });
  });

  it("answers 400 for a malformed id and 404 for an unknown one or another organization's", async () => {
    expect((await call("GET /v2/claims/{id}", { params: { id: "B-104016-1" } })).error?.message).toBe("id must be a valid UUID");
    expect((await call("GET /v1/claims/{id}", { params: { id: "00000000-0000-4000-8000-000000000000" } })).status).toBe(404);
    const { cases } = await remitsOf(test, ORG_B_ID);
    const orgB = required(cases.reversedClaimId, "an org B claim");
    expect((await call("GET /v1/claims/{id}", { params: { id: orgB } })).status).toBe(404);
    expect((await call("GET /v1/claims/{id}", { params: { id: orgB }, organizationId: ORG_B_ID })).status).toBe(200);
  });
});
