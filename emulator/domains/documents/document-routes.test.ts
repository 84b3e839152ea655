import { describe, expect, it } from "vitest";
import { ERAS_ONLY_KEY, createTestEmulator } from "../../testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID } from "../../world/identities.ts";
import { documentControls, documentsTest, listedChart, refresh, unlistedChart } from "./testing/document-test-kit.ts";

// The assumed contracts: `GET /v1/patients/{patientId}/documents` (with
// `updatedSince`) and `POST /v1/patients/{patientId}/documents/refresh`.
// Every answer is parsed with the contract by the test client.

const LIST = "GET /v1/patients/{patientId}/documents";
const REFRESH = "POST /v1/patients/{patientId}/documents/refresh";

describe("GET /v1/patients/{patientId}/documents", () => {
  it("lists what the chart holds now, oldest change first, paginated", async () => {
    const test = createTestEmulator();
    const patientId = await listedChart(test);
    const all = await test.get(LIST, { params: { patientId } });
    expect(all.documents.length).toBeGreaterThanOrEqual(2);
    expect(all.pagination).toEqual({ page: 1, pageSize: 100, totalCount: all.documents.length, totalPages: 1 });
    expect(all.documents.every((document) => document.patientId === patientId)).toBe(true);
    const updated = all.documents.map((document) => document.updatedAt);
    expect(updated).toEqual([...updated].sort());

    const second = await test.get(LIST, { params: { patientId }, query: { page: 2, pageSize: 1 } });
    expect(second.documents.map((document) => document.id)).toEqual([all.documents[1]?.id]);
    expect(second.pagination).toEqual({ page: 2, pageSize: 1, totalCount: all.documents.length, totalPages: all.documents.length });

    const empty = await test.get(LIST, { params: { patientId: await unlistedChart(test) } });
    expect(empty).toEqual({ documents: [], pagination: { page: 1, pageSize: 100, totalCount: 0, totalPages: 0 } });
  });

  it("updatedSince returns what the chart holds now updated at or after it: filed, restored, not removed", async () => {
    const test = createTestEmulator();
    const controls = documentControls(test);
    const patientId = await listedChart(test);
    const since = new Date(test.emulator.clock.now()).toISOString();
    expect((await test.get(LIST, { params: { patientId }, query: { updatedSince: since } })).documents).toEqual([]);

    const [filed] = await controls.file(patientId, { title: "New today", createdAt: "2025-01-15T10:00:00.000Z" });
    const seeded = (await controls.chart(patientId)).documents[0];
    if (!filed || !seeded) throw new Error("no documents");
    const newOnes = await test.get(LIST, { params: { patientId }, query: { updatedSince: since } });
    expect(newOnes.documents.map((document) => [document.id, document.createdAt, document.updatedAt])).toEqual([[filed.id, "2025-01-15T10:00:00.000Z", since]]);

    test.emulator.clock.set({ advanceSeconds: 60 });
    await controls.remove(patientId, seeded.id);
    await controls.remove(patientId, filed.id);
    expect((await test.get(LIST, { params: { patientId }, query: { updatedSince: since } })).documents).toEqual([]);
    expect((await test.get(LIST, { params: { patientId } })).documents.map((document) => document.id)).not.toContain(seeded.id);

    const restoredAt = new Date(test.emulator.clock.now()).toISOString();
    await controls.restore(patientId, seeded.id);
    const restored = await test.get(LIST, { params: { patientId }, query: { updatedSince: restoredAt } });
    expect(restored.documents.map((document) => [document.id, document.createdAt, document.updatedAt])).toEqual([[seeded.id, seeded.createdAt, restoredAt]]);
  });

  it("reading the list is not a listing: it announces nothing and does not move the baseline", async () => {
    const { test, documentEvents } = documentsTest();
    const controls = documentControls(test);
    const patientId = await listedChart(test);
    const [filed] = await controls.file(patientId);
    const listed = await test.get(LIST, { params: { patientId } });
    expect(listed.documents.map((document) => document.id)).toContain(filed?.id);
    expect(await documentEvents()).toEqual([]);
    expect((await refresh(test, patientId)).announced).toBe(1);
  });

  it("gives a time-limited download URL, fresh on each read", async () => {
    const test = createTestEmulator();
    const patientId = await listedChart(test);
    const [first] = (await test.get(LIST, { params: { patientId } })).documents;
    if (!first) throw new Error("no document");
    const url = new URL(first.downloadUrl);
    expect(url.pathname).toBe(`/_sandbox/documents/${first.id}/download`);
    expect(Number(url.searchParams.get("expires"))).toBe(Math.floor(test.emulator.clock.now() / 1000) + 900);

    const download = await test.emulator.app.request(`${url.pathname}${url.search}`);
    expect(download.status).toBe(200);
    expect(await download.text()).toContain(first.filename);
    const forged = await test.emulator.app.request(`${url.pathname}?expires=${Number(url.searchParams.get("expires")) + 3600}&signature=${url.searchParams.get("signature") ?? ""}`);
    expect(forged.status).toBe(403);

    test.emulator.clock.set({ advanceSeconds: 901 });
    const expired = await test.emulator.app.request(`${url.pathname}${url.search}`);
    expect(expired.status).toBe(403);
    expect(await expired.json()).toEqual({ code: "forbidden", message: "download link expired" });
    const [again] = (await test.get(LIST, { params: { patientId } })).documents;
    expect(again?.downloadUrl).not.toBe(first.downloadUrl);
    const fresh = new URL(again?.downloadUrl ?? "");
    expect((await test.emulator.app.request(`${fresh.pathname}${fresh.search}`)).status).toBe(200);
  });

  it("validates the path and query, and answers 404 for a patient outside the organization", async () => {
    const test = createTestEmulator();
    const badId = await test.call(LIST, { params: { patientId: "pat_0123" } });
    expect(badId).toMatchObject({ status: 400, error: { code: "bad_request", message: "patientId must be a valid UUID" } });
    const badSince = await test.call(LIST, { params: { patientId: await listedChart(test) }, query: { updatedSince: "yesterday" } });
    expect(badSince.status).toBe(400);
    expect(badSince.error?.message).toContain("updatedSince");
    const unknown = await test.call(LIST, { params: { patientId: "00000000-0000-4000-8000-000000000000" } });
    expect(unknown).toMatchObject({ status: 404, error: { code: "not_found" } });
    const orgBPatient = await listedChart(test, ORG_B_ID);
    expect((await test.call(LIST, { params: { patientId: orgBPatient }, organizationId: ORG_A_ID })).status).toBe(404);
    expect((await test.call(REFRESH, { params: { patientId: orgBPatient }, organizationId: ORG_A_ID })).status).toBe(404);
  });

  it("needs read:patient_documents on the key and in the installation (403 naming the side)", async () => {
    const test = createTestEmulator();
    const patientId = await listedChart(test);
    for (const route of [LIST, REFRESH] as const) {
      const byKey = await test.call(route, { params: { patientId }, authorization: `Bearer ${ERAS_ONLY_KEY}` });
      expect(byKey).toMatchObject({ status: 403, error: { code: "forbidden", message: "Missing required scope read:patient_documents: the API key does not have it" } });
    }
    // Org B has not granted read:patients, but has granted read:patient_documents.
    const orgB = await listedChart(test, ORG_B_ID);
    expect((await test.call(LIST, { params: { patientId: orgB }, organizationId: ORG_B_ID })).status).toBe(200);

    await test.sandbox("POST", `/installations/${ORG_A_ID}`, { status: "active", grantedPermissions: ["read:patients"] });
    for (const route of [LIST, REFRESH] as const) {
      const byInstallation = await test.call(route, { params: { patientId } });
      expect(byInstallation).toMatchObject({
        status: 403,
        error: { code: "forbidden", message: "Missing required scope read:patient_documents: the organization's installation did not grant it" },
      });
    }
  });
});

describe("POST /v1/patients/{patientId}/documents/refresh", () => {
  it("lists the chart now and answers how many documents it announced", async () => {
    const test = createTestEmulator();
    const controls = documentControls(test);
    const patientId = await unlistedChart(test);
    const now = new Date(test.emulator.clock.now()).toISOString();
    await controls.file(patientId);
    expect(await refresh(test, patientId)).toEqual({ patientId, refreshedAt: now, announced: 0 });
    expect((await controls.chart(patientId)).listing).toEqual({ listedAt: now, listedBy: "refresh", known: 1 });
    await controls.file(patientId, { count: 3 });
    expect((await refresh(test, patientId)).announced).toBe(3);
  });

  it("goes through the data pipeline: an injected fault answers instead", async () => {
    const test = createTestEmulator();
    const patientId = await listedChart(test);
    await test.sandbox("POST", "/faults", { method: "POST", path: "/v1/patients/{patientId}/documents/refresh", code: "server_unresponsive", count: 1 });
    expect((await test.call(REFRESH, { params: { patientId } })).status).toBe(503);
    expect((await test.call(REFRESH, { params: { patientId } })).status).toBe(200);
  });
});
