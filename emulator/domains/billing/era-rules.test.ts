import { describe, expect, it } from "vitest";
import { ERA_REVERSAL_STATUS_CODE, type EraServiceLine } from "#contract/clinic-api/billing.ts";
import { createTestEmulator, ERAS_ONLY_KEY, type TestEmulator } from "../../testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID } from "../../world/identities.ts";
import { allLines, COMPOSITE_ERA_CLAIM_ID, COMPOSITE_LINE_ID, remitsOf, required, UUID, type RemitSummary } from "./testing/billing-helpers.ts";

// Seed 000 "Rules for ERA service lines", one block per rule, through the
// service's endpoints (every answer parsed with contract/) and the sandbox's
// remit-posting control.

const sum = (lines: readonly EraServiceLine[]) => Math.round(lines.reduce((total, line) => total + Number(line.paidAmount) * 100, 0));

async function unpostedRemit(test: TestEmulator, organizationId = ORG_A_ID): Promise<RemitSummary> {
  const { remits, cases } = await remitsOf(test, organizationId, "unposted");
  // The remit that holds the seeded reversal: it has matched and unmatched lines.
  return required(remits.find((remit) => remit.eraClaims.some((eraClaim) => eraClaim.matchedClaimId === cases.reversedClaimId)), "the unposted remit");
}

async function post(test: TestEmulator, remitId: string, organizationId = ORG_A_ID) {
  const response = await test.sandbox("POST", `/ehr/${organizationId}/era-remits/${remitId}/post`);
  expect(response.status).toBe(200);
  return response.body as { lines: { previousId: string; id: string; eraClaimId: string }[]; eraClaimIds: { previous: string[]; current: string[] } };
}

describe("rule 1: ids are composite while unposted and change when the remit is posted", () => {
  const test = createTestEmulator();

  it("keys unposted lines by remit, claim and line, stable across reads; posting re-inserts them with new ids and re-keys eraClaimId", async () => {
    const remit = await unpostedRemit(test);
    const ids = remit.eraClaims.flatMap((eraClaim) => eraClaim.lineIds);
    const before = await Promise.all(ids.map((id) => test.get("GET /v1/era-service-lines/{id}", { params: { id } })));
    for (const line of before) {
      expect(line.id).toMatch(COMPOSITE_LINE_ID);
      expect(line.id.startsWith(`${remit.id}:`)).toBe(true);
      expect(line.eraClaimId).toMatch(COMPOSITE_ERA_CLAIM_ID);
    }
    const again = await Promise.all(ids.map((id) => test.get("GET /v1/era-service-lines/{id}", { params: { id } })));
    expect(again).toEqual(before);

    const posted = await post(test, remit.id);
    expect(posted.lines.map((line) => line.previousId)).toEqual(ids);
    const after = await Promise.all(posted.lines.map((line) => test.get("GET /v1/era-service-lines/{id}", { params: { id: line.id } })));
    after.forEach((line, index) => {
      const old = required(before[index], "the line before");
      expect(line.id).toMatch(UUID);
      expect(line.eraClaimId).toMatch(UUID);
      expect(line.eraClaimId).not.toBe(old.eraClaimId);
      // The same line: everything but its ids and updatedAt.
      const { id: _id, eraClaimId: _eraClaimId, updatedAt: _updatedAt, ...same } = line;
      const { id: _oldId, eraClaimId: _oldEraClaimId, updatedAt: _oldUpdatedAt, ...was } = old;
      expect(same).toEqual(was);
    });
    expect(new Set(after.map((line) => line.eraClaimId)).size).toBe(remit.eraClaims.length);
  });
});

describe("rule 2: no deletion feed, no tombstone", () => {
  const test = createTestEmulator();

  it("the updatedSince stream brings the replacements and nothing about the deleted rows; a consumer keyed on id counts the money twice", async () => {
    const remit = await unpostedRemit(test);
    const cursor = new Date(test.emulator.clock.now()).toISOString();
    const initial = await allLines(test);
    const heldById = new Map(initial.map((line) => [line.id, line]));
    test.emulator.clock.set({ advanceSeconds: 5 });
    const posted = await post(test, remit.id);

    const delta = await allLines(test, { updatedSince: cursor });
    expect(delta.map((line) => line.id).sort()).toEqual(posted.lines.map((line) => line.id).sort());
    for (const { previousId } of posted.lines) {
      expect(delta.some((line) => line.id === previousId)).toBe(false);
      const gone = await test.call("GET /v1/era-service-lines/{id}", { params: { id: previousId } });
      expect(gone.status).toBe(404);
    }
    // Nothing marks a deletion: the lines carry only the fields of a line.
    expect(delta.every((line) => !("deleted" in line) && !("deletedAt" in line) && !("status" in line))).toBe(true);
    // The service holds as many lines as before: the old rows are gone, not kept beside the new.
    expect(await allLines(test)).toHaveLength(initial.length);

    for (const line of delta) heldById.set(line.id, line);
    const remitPaid = sum(delta);
    expect(sum([...heldById.values()]) - sum(initial)).toBe(remitPaid);
  });
});

describe("rule 3: reconcile at claim or bill level", () => {
  const test = createTestEmulator();

  it("replacing every line held for a claim with what claimId returns now keeps the totals right across a posting", async () => {
    const { cases } = await remitsOf(test);
    const claimId = required(cases.reversedClaimId, "the reversed claim");
    const cursor = new Date(test.emulator.clock.now()).toISOString();
    const held = new Map<string, EraServiceLine[]>();
    for (const line of await allLines(test, { matched: true })) held.set(required(line.claimId, "claimId"), [...(held.get(line.claimId ?? "") ?? []), line]);
    const before = required(held.get(claimId), "lines of the claim");
    // The posted original payment plus, unposted, its reversal and the corrected payment: three lines per service.
    const reversals = before.filter((line) => line.claimStatusCode === ERA_REVERSAL_STATUS_CODE);
    expect(reversals.length).toBeGreaterThan(0);
    expect(before).toHaveLength(reversals.length * 3);

    test.emulator.clock.set({ advanceSeconds: 5 });
    await post(test, (await unpostedRemit(test)).id);
    const delta = await allLines(test, { updatedSince: cursor });
    for (const touched of new Set(delta.flatMap((line) => (line.claimId === null ? [] : [line.claimId])))) {
      held.set(touched, await allLines(test, { claimId: touched }));
    }
    const current = await allLines(test, { claimId });
    expect(held.get(claimId)).toEqual(current);
    expect(sum(current)).toBe(sum(before));
    expect(current.filter((line) => line.id.includes(":"))).toEqual([]);
    // By bill: the same set under the claim's bill.
    const claim = await test.get("GET /v1/claims/{id}", { params: { id: claimId } });
    const byBill = await allLines(test, { billId: claim.billId });
    expect(byBill.map((line) => line.id).sort()).toEqual(current.map((line) => line.id).sort());
  });
});

describe("rule 4: lines with no claim have no anchor", () => {
  const test = createTestEmulator();

  it("claimId and billId filters never return them; date filters drop lines without a service date; matched=false sweeps them all", async () => {
    const all = await allLines(test);
    const unmatched = all.filter((line) => line.claimId === null);
    expect(unmatched.length).toBeGreaterThanOrEqual(3);
    expect(unmatched.every((line) => line.billId === null)).toBe(true);
    const sweep = await allLines(test, { matched: false });
    expect(sweep.map((line) => line.id).sort()).toEqual(unmatched.map((line) => line.id).sort());
    const matched = await allLines(test, { matched: true });
    expect(matched.length + sweep.length).toBe(all.length);

    const { cases } = await remitsOf(test);
    // The archived claim's lines still carry its control number, but no filter by claim reaches them.
    const archivedClaim = await test.call("GET /v1/claims/{id}", { params: { id: required(cases.archivedClaimId, "archived claim") } });
    expect(archivedClaim.status).toBe(404);
    expect(await allLines(test, { claimId: required(cases.archivedClaimId, "archived claim") })).toEqual([]);

    const undated = required(
      unmatched.find((line) => line.serviceDate === undefined),
      "an unmatched line without a service date",
    );
    const everyDate = await allLines(test, { dateFrom: "2000-01-01", dateTo: "2100-12-31" });
    expect(everyDate.some((line) => line.id === undated.id)).toBe(false);
    expect(everyDate.length).toBe(all.filter((line) => line.serviceDate !== undefined).length);
    const dated = required(all.find((line) => line.serviceDate !== undefined), "a dated line");
    const oneDay = await allLines(test, { dateFrom: dated.serviceDate ?? "", dateTo: dated.serviceDate ?? "" });
    expect(oneDay.every((line) => line.serviceDate === dated.serviceDate)).toBe(true);
    expect(oneDay.map((line) => line.id)).toContain(dated.id);

    // When its remit is posted the undated unmatched line is deleted and re-inserted: only the sweep sees that.
    const remit = await unpostedRemit(test);
    expect(remit.eraClaims.flatMap((eraClaim) => eraClaim.lineIds)).toContain(undated.id);
    await post(test, remit.id);
    const after = await allLines(test, { matched: false });
    expect(after.map((line) => line.id)).not.toContain(undated.id);
    expect(after).toHaveLength(sweep.length);
  });
});

describe("rule 5: claimId null has two causes that look the same", () => {
  const test = createTestEmulator();

  it("unmatched payer money and a line whose matched claim was archived are alike; archived claims are excluded", async () => {
    const { cases } = await remitsOf(test, ORG_A_ID, "posted");
    const lines = await allLines(test, { matched: false });
    const archivedClaim = await test.sandbox("GET", `/ehr/${ORG_A_ID}/claims/${required(cases.archivedClaimId, "archived claim")}`);
    const controlNumber = (archivedClaim.body as { claim: { controlNumber: string } }).claim.controlNumber;
    const wasMatched = required(lines.find((line) => line.eraClaimControlNumber === controlNumber), "line of the archived claim");
    const neverMatched = required(lines.find((line) => line.eraClaimControlNumber !== controlNumber && line.claimStatusCode !== ERA_REVERSAL_STATUS_CODE), "unmatched line");
    for (const line of [wasMatched, neverMatched]) expect(line).toMatchObject({ claimId: null, billId: null });
    expect(Object.keys(wasMatched).sort()).toEqual(Object.keys(neverMatched).sort());

    // Archiving a matched claim in the EHR turns its lines into the same shape.
    const matched = required((await allLines(test, { matched: true })).find((line) => line.billId !== null), "a matched line");
    await test.sandbox("POST", `/ehr/${ORG_A_ID}/claims/${matched.claimId}/archive`);
    const now = await test.get("GET /v1/era-service-lines/{id}", { params: { id: matched.id } });
    expect(now).toMatchObject({ claimId: null, billId: null, patientId: matched.patientId, eraClaimControlNumber: matched.eraClaimControlNumber });
  });
});

describe("rule 6: linkage is derived; updatedSince follows the line's own updatedAt", () => {
  const test = createTestEmulator();

  it("a linkage change leaves updatedAt alone, so the cursor misses it and only a re-pull without dates sees it", async () => {
    const matched = required((await allLines(test, { matched: true })).find((line) => line.billId !== null && line.serviceDate !== undefined), "a matched line");
    const cursor = new Date(test.emulator.clock.now()).toISOString();
    test.emulator.clock.set({ advanceSeconds: 5 });
    await test.sandbox("POST", `/ehr/${ORG_A_ID}/claims/${matched.claimId}/archive`);
    const changed = await test.get("GET /v1/era-service-lines/{id}", { params: { id: matched.id } });
    expect(changed.claimId).toBeNull();
    expect(changed.billId).toBeNull();
    expect(changed.updatedAt).toBe(matched.updatedAt);
    expect(await allLines(test, { updatedSince: cursor })).toEqual([]);
    expect((await allLines(test)).find((line) => line.id === matched.id)?.claimId).toBeNull();
  });

  it("updatedSince is inclusive and follows updatedAt", async () => {
    const all = await allLines(test);
    const pivot = required(all[Math.floor(all.length / 2)], "a line").updatedAt;
    const since = await allLines(test, { updatedSince: pivot });
    expect(since.map((line) => line.id).sort()).toEqual(all.filter((line) => line.updatedAt >= pivot).map((line) => line.id).sort());
    const result = await test.call("GET /v1/era-service-lines", { query: { updatedSince: "2026-11-23T14:00:00Z" } });
    expect(result.status).toBe(400);
    expect(result.error?.message).toMatch(/^updatedSince: /);
  });
});

describe("rule 7: when billId is null", () => {
  const test = createTestEmulator();

  it("no claim; a claim with no bill link; a bill not synced yet (until the next sync); an archived bill", async () => {
    const { cases } = await remitsOf(test);
    expect((await allLines(test, { matched: false })).every((line) => line.billId === null)).toBe(true);

    const legacy = await allLines(test, { claimId: required(cases.legacyClaimId, "claim without bill") });
    expect(legacy.length).toBeGreaterThan(0);
    expect(legacy.every((line) => line.billId === null && line.claimId === cases.legacyClaimId)).toBe(true);
    expect((await test.get("GET /v1/claims/{id}", { params: { id: cases.legacyClaimId ?? "" } })).billId).toBe("");

    const archivedBill = required(cases.archivedBillId, "archived bill");
    expect((await test.call("GET /v1/bills/{id}", { params: { id: archivedBill } })).status).toBe(404);
    expect(await allLines(test, { billId: archivedBill })).toEqual([]);
    const matchedWithoutBill = (await allLines(test, { matched: true })).filter((line) => line.billId === null);
    const claimsWithoutBill = await Promise.all([...new Set(matchedWithoutBill.map((line) => line.claimId ?? ""))].map((id) => test.get("GET /v1/claims/{id}", { params: { id } })));
    expect(claimsWithoutBill.map((claim) => claim.billId).sort()).toEqual(["", archivedBill, required(cases.awaitingSyncBillId, "unsynced bill")].sort());

    const awaiting = required(cases.awaitingSyncBillId, "unsynced bill");
    expect((await test.call("GET /v1/bills/{id}", { params: { id: awaiting } })).status).toBe(404);
    expect(await allLines(test, { billId: awaiting })).toEqual([]);
    const before = matchedWithoutBill.filter((line) => claimsWithoutBill.some((claim) => claim.id === line.claimId && claim.billId === awaiting));
    expect(before.length).toBeGreaterThan(0);
    expect((await test.sandbox("POST", "/sync", { organizationId: ORG_A_ID })).status).toBe(200);
    expect((await test.call("GET /v1/bills/{id}", { params: { id: awaiting } })).status).toBe(200);
    const after = await allLines(test, { billId: awaiting });
    expect(after.map((line) => line.id).sort()).toEqual(before.map((line) => line.id).sort());
    expect(after.map((line) => line.updatedAt).sort()).toEqual(before.map((line) => line.updatedAt).sort());
  });
});

describe("rule 8: patientId comes from the ERA claim's own patient key", () => {
  const test = createTestEmulator();

  it("kind A: an unmatched line names the patient from the remittance; looking it up needs read:patients", async () => {
    const unmatched = (await allLines(test, { matched: false })).filter((line) => line.patientId !== null);
    expect(unmatched.length).toBeGreaterThanOrEqual(3);
    const patientId = required(unmatched[0]?.patientId, "a patient");
    expect((await test.call("GET /v1/patients/{id}", { params: { id: patientId } })).status).toBe(200);
    // The read:eras-only key reads the line but not the patient behind it.
    const line = await test.call("GET /v1/era-service-lines/{id}", { params: { id: unmatched[0]?.id ?? "" }, authorization: `Bearer ${ERAS_ONLY_KEY}` });
    expect(line.status).toBe(200);
    const lookup = await test.call("GET /v1/patients/{id}", { params: { id: patientId }, authorization: `Bearer ${ERAS_ONLY_KEY}` });
    expect(lookup.status).toBe(403);
    expect(lookup.error?.message).toMatch(/read:patients.*API key does not have it/);
    expect((await test.call("GET /v3/patients/{id}", { params: { id: patientId }, authorization: `Bearer ${ERAS_ONLY_KEY}` })).status).toBe(403);
  });

  it("kind B: an unmatched line has no patient and is anchored on eraClaimControlNumber; a line whose claim was archived keeps its patient", async () => {
    const lines = await allLines(test, { matched: false }, { organizationId: ORG_B_ID });
    const { cases } = await remitsOf(test, ORG_B_ID);
    const archived = await test.sandbox("GET", `/ehr/${ORG_B_ID}/claims/${required(cases.archivedClaimId, "archived claim")}`);
    const archivedControl = (archived.body as { claim: { controlNumber: string } }).claim.controlNumber;
    const neverMatched = lines.filter((line) => line.eraClaimControlNumber !== archivedControl);
    expect(neverMatched.length).toBeGreaterThanOrEqual(2);
    for (const line of neverMatched) {
      expect(line.patientId).toBeNull();
      expect(line.eraClaimControlNumber).toMatch(/^INV-\d+-1$/);
    }
    const wasMatched = required(lines.find((line) => line.eraClaimControlNumber === archivedControl), "line of the archived claim");
    expect(wasMatched.claimId).toBeNull();
    expect(wasMatched.patientId).not.toBeNull();
    // Org B's installation did not grant read:patients: the lookup is refused even with the full key.
    const lookup = await test.call("GET /v1/patients/{id}", { organizationId: ORG_B_ID, params: { id: wasMatched.patientId ?? "" } });
    expect(lookup.status).toBe(403);
    expect(lookup.error?.message).toMatch(/installation did not grant it/);
  });

  it("kind B: a later sync can lose patientId while the line keeps its claim (and its updatedAt)", async () => {
    const { cases } = await remitsOf(test, ORG_B_ID);
    const controlNumber = required(cases.losesPatientEraClaimControlNumber, "the kind B claim that loses its patient");
    const before = (await allLines(test, {}, { organizationId: ORG_B_ID })).filter((line) => line.eraClaimControlNumber === controlNumber);
    expect(before.length).toBeGreaterThan(0);
    for (const line of before) expect(line.patientId).not.toBeNull();
    expect((await test.sandbox("POST", "/sync", { organizationId: ORG_B_ID })).status).toBe(200);
    const after = (await allLines(test, {}, { organizationId: ORG_B_ID })).filter((line) => line.eraClaimControlNumber === controlNumber);
    expect(after.map(({ id, claimId, billId, updatedAt }) => ({ id, claimId, billId, updatedAt }))).toEqual(before.map(({ id, claimId, billId, updatedAt }) => ({ id, claimId, billId, updatedAt })));
    for (const line of after) {
      expect(line.patientId).toBeNull();
      expect(line.claimId).not.toBeNull();
    }
    // Kind A lines are not touched by a sync.
    const orgA = await allLines(test);
    await test.sandbox("POST", "/sync", { organizationId: ORG_A_ID });
    expect((await allLines(test)).map((line) => line.patientId)).toEqual(orgA.map((line) => line.patientId));
  });
});

describe("rule 9: claimStatusCode 22 is a reversal; a negative payment alone is not", () => {
  const test = createTestEmulator();

  it.each([ORG_A_ID, ORG_B_ID])("org %s has a reversal with negated amounts and a take-back that is not one", async (organizationId) => {
    const lines = await allLines(test, {}, { organizationId });
    const reversals = lines.filter((line) => line.claimStatusCode === ERA_REVERSAL_STATUS_CODE);
    expect(reversals.length).toBeGreaterThan(0);
    for (const reversal of reversals) {
      expect(Number(reversal.paidAmount)).toBeLessThan(0);
      expect(reversal.adjustments?.every((entry) => Number(entry.amount) <= 0)).toBe(true);
      // It reverses a payment of the same claim under the same payer claim number.
      const original = lines.find(
        (line) =>
          line.claimId === reversal.claimId &&
          line.payerClaimControlNumber === reversal.payerClaimControlNumber &&
          line.procedureCode === reversal.procedureCode &&
          line.claimStatusCode !== ERA_REVERSAL_STATUS_CODE,
      );
      expect(Number(original?.paidAmount)).toBe(-Number(reversal.paidAmount));
    }
    const takeBacks = lines.filter((line) => Number(line.paidAmount) < 0 && line.claimStatusCode !== ERA_REVERSAL_STATUS_CODE);
    expect(takeBacks.length).toBeGreaterThan(0);
    const [recoupment] = required(takeBacks[0]?.adjustments, "the take-back's adjustments");
    expect(recoupment).toEqual({ groupCode: "CO", reasonCode: "B13", amount: (-Number(takeBacks[0]?.paidAmount)).toFixed(2) });
    // Every line balances: charge - paid = the sum of its adjustments.
    for (const line of lines) {
      const adjusted = (line.adjustments ?? []).reduce((total, entry) => total + Math.round(Number(entry.amount) * 100), 0);
      expect(Math.round(Number(line.chargeAmount) * 100) - Math.round(Number(line.paidAmount) * 100)).toBe(adjusted);
    }
    const codes = new Set(lines.map((line) => line.claimStatusCode));
    expect(codes.has("1") && codes.has("4") && codes.has("22")).toBe(true);
  });
});
