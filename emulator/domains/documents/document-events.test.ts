import { afterEach, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { Webhook } from "standardwebhooks";
import { ORG_A_ID, ORG_B_ID, ORG_C_ID, WEBHOOK_SIGNING_SECRET } from "../../world/identities.ts";
import { documentControls, documentsTest, listedChart, refresh, strictEventData, unlistedChart } from "./testing/document-test-kit.ts";

// `patient_document.created` and every rule of seed 001 "Patient document
// event rules", seen through listings (refresh call, dashboard refresh,
// sweep) and real, signed webhook deliveries.

const DAY = 86_400_000;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("patient_document.created", () => {
  it("announces a new document once, signed, with exactly the seed's payload and the list's id", async () => {
    const { test, documentEvents } = documentsTest();
    const controls = documentControls(test);
    const patientId = await listedChart(test);
    const [filed] = await controls.file(patientId, { title: "Dermatopathology consult", kind: "pathology_report", sourceCategory: "fax", mimeType: "application/pdf", bytes: 91_234 });

    expect(await refresh(test, patientId)).toEqual({ patientId, refreshedAt: new Date(test.emulator.clock.now()).toISOString(), announced: 1 });
    const [event, ...others] = await documentEvents();
    expect(others).toEqual([]);
    if (!event) throw new Error("nothing delivered");
    const data = z.parse(strictEventData, event.envelope.data);
    const listed = await test.get("GET /v1/patients/{patientId}/documents", { params: { patientId } });
    const fromList = listed.documents.find((document) => document.id === data.id);
    expect(fromList).toBeDefined();
    expect(data).toEqual({
      id: filed?.id,
      organizationId: ORG_A_ID,
      patientId,
      kind: "pathology_report",
      sourceCategory: "fax",
      title: "Dermatopathology consult",
      filename: fromList?.filename,
      mimeType: "application/pdf",
      bytes: 91_234,
      createdAt: fromList?.createdAt,
    });
    expect(event.body).not.toContain("downloadUrl");
    expect(event.envelope.timestamp).toBe(new Date(test.emulator.clock.now()).toISOString());

    vi.spyOn(Date, "now").mockReturnValue(test.emulator.clock.now());
    expect(() => new Webhook(WEBHOOK_SIGNING_SECRET).verify(event.body, event.headers)).not.toThrow();

    // Announced once: later listings of any kind are silent about it.
    expect((await refresh(test, patientId)).announced).toBe(0);
    expect((await controls.dashboardRefresh(patientId)).announced).toEqual([]);
    expect((await controls.sweep()).announced).toEqual([]);
    expect(await documentEvents()).toEqual([]);
  });

  it("only the first listing that sees a document announces it: dashboard refresh, sweep or the nightly sweep", async () => {
    const { test, documentEvents } = documentsTest();
    const controls = documentControls(test);
    const patientId = await listedChart(test);

    const [byDashboard] = await controls.file(patientId, { title: "Seen by a dashboard refresh" });
    const dashboard = await controls.dashboardRefresh(patientId);
    expect(dashboard.announced.map((data) => data.id)).toEqual([byDashboard?.id]);
    expect(dashboard.sent).toBe(1);
    expect((await refresh(test, patientId)).announced).toBe(0);

    const [bySweep] = await controls.file(patientId, { title: "Seen by the sweep" });
    expect((await controls.sweep()).announced.map((data) => data.id)).toEqual([bySweep?.id]);
    expect((await controls.dashboardRefresh(patientId)).announced).toEqual([]);

    // The nightly sweep runs with the first sync after 02:00 UTC (tomorrow, on the seeded clock).
    const [byNightly] = await controls.file(patientId, { title: "Seen by the nightly sweep" });
    test.emulator.clock.set({ now: "2026-11-24T02:05:00.000Z", frozen: true });
    await test.sandbox("POST", "/sync", { organizationId: ORG_A_ID });
    expect((await refresh(test, patientId)).announced).toBe(0);

    const titles = (await documentEvents()).map((event) => z.parse(strictEventData, event.envelope.data).title);
    expect(titles).toEqual([byDashboard?.title, bySweep?.title, byNightly?.title]);
  });

  it("announces nothing on a chart's first listing; the next listing announces what is new", async () => {
    const { test, documentEvents } = documentsTest();
    const controls = documentControls(test);
    const patientId = await unlistedChart(test);
    await controls.file(patientId, { title: "First document on a new chart" });

    const first = await controls.dashboardRefresh(patientId);
    expect(first).toMatchObject({ listing: "first_listing", previousListedAt: null, announced: [], sent: 0 });
    expect(first.skipped.map((entry) => entry.reason)).toEqual(["first_listing"]);

    test.emulator.clock.set({ advanceSeconds: 60 });
    const [second] = await controls.file(patientId, { title: "Second document" });
    expect((await refresh(test, patientId)).announced).toBe(1);
    expect((await documentEvents()).map((event) => event.envelope.data.id)).toEqual([second?.id]);
  });

  it("the sweep's first listing of a chart is a silent baseline too (the sweep visits only charts that hold a document)", async () => {
    const { test, documentEvents } = documentsTest();
    const controls = documentControls(test);
    const patientId = await unlistedChart(test);
    const emptyOne = await unlistedChart(test, ORG_A_ID, 1);
    await controls.file(patientId, { title: "Filed before any listing" });

    const swept = await controls.sweep();
    expect(swept.announced).toEqual([]);
    expect(swept.skipped.first_listing).toBe(1);
    const charts = (await controls.charts()).charts;
    expect(charts.find((chart) => chart.patientId === patientId)?.listedBy).toBe("sweep");
    expect(charts.find((chart) => chart.patientId === emptyOne)?.listedAt).toBeNull();
    expect(await documentEvents()).toEqual([]);
  });

  it("re-baselines a chart not listed for over 30 days silently: what arrived meanwhile is never announced", async () => {
    const { test, documentEvents } = documentsTest();
    const controls = documentControls(test);
    const patientId = await unlistedChart(test);
    const start = test.emulator.clock.now();
    await controls.dashboardRefresh(patientId);

    // Sandbox controls run no sync, so no sweep lists the chart in between.
    test.emulator.clock.set({ now: start + 31 * DAY, frozen: true });
    await controls.file(patientId, { title: "Arrived during the gap", createdAt: new Date(start + 10 * DAY).toISOString() });
    await controls.file(patientId, { title: "Arrived today" });
    const late = await controls.dashboardRefresh(patientId);
    expect(late).toMatchObject({ listing: "rebaseline", announced: [], sent: 0 });
    expect(late.skipped.map((entry) => entry.reason)).toEqual(["rebaseline", "rebaseline"]);

    test.emulator.clock.set({ advanceSeconds: 60 });
    const [next] = await controls.file(patientId, { title: "After the re-baseline" });
    expect((await controls.dashboardRefresh(patientId)).announced.map((data) => data.id)).toEqual([next?.id]);
    expect((await documentEvents()).map((event) => event.envelope.data.title)).toEqual(["After the re-baseline"]);
  });

  it("a refresh call after a 30-day gap is silent too (the nightly sweep, due on that sync, re-baselines first)", async () => {
    const { test, documentEvents } = documentsTest();
    const controls = documentControls(test);
    const patientId = await listedChart(test);
    test.emulator.clock.set({ advanceSeconds: (31 * DAY) / 1000 });
    await controls.file(patientId, { title: "During the gap", createdAt: new Date(test.emulator.clock.now() - 5 * DAY).toISOString() });
    expect((await refresh(test, patientId)).announced).toBe(0);
    expect(await documentEvents()).toEqual([]);
  });

  it("skips a document the EHR dates before the previous listing; the updatedSince list still returns it", async () => {
    const { test, documentEvents } = documentsTest();
    const controls = documentControls(test);
    const patientId = await listedChart(test);
    const { listing } = await controls.chart(patientId);
    const previousListing = listing?.listedAt ?? "";
    const [backDated] = await controls.file(patientId, { title: "Scanned letter from last month", createdAt: "2026-10-20T09:00:00.000Z" });

    const report = await controls.dashboardRefresh(patientId);
    expect(report.announced).toEqual([]);
    expect(report.skipped).toEqual([{ id: backDated?.id, title: "Scanned letter from last month", createdAt: "2026-10-20T09:00:00.000Z", reason: "dated_before_previous_listing" }]);
    expect(await documentEvents()).toEqual([]);

    const backstop = await test.get("GET /v1/patients/{patientId}/documents", { params: { patientId }, query: { updatedSince: previousListing } });
    expect(backstop.documents.map((document) => document.id)).toEqual([backDated?.id]);
  });

  it("does not announce a removed and restored document again", async () => {
    const { test, documentEvents } = documentsTest();
    const controls = documentControls(test);
    const patientId = await listedChart(test);
    const [filed] = await controls.file(patientId, { title: "Consent, signed" });
    expect((await refresh(test, patientId)).announced).toBe(1);
    const seeded = (await controls.chart(patientId)).documents[0];
    if (!filed || !seeded) throw new Error("no documents");

    for (const document of [filed, seeded]) {
      await controls.remove(patientId, document.id);
      expect((await refresh(test, patientId)).announced).toBe(0);
      test.emulator.clock.set({ advanceSeconds: 60 });
      await controls.restore(patientId, document.id);
      expect((await refresh(test, patientId)).announced).toBe(0);
      expect((await controls.sweep()).announced).toEqual([]);
    }
    expect((await documentEvents()).map((event) => event.envelope.data.id)).toEqual([filed.id]);
  });

  it("announces a re-scan: its own EHR id, a new service id, the original's kind and title", async () => {
    const { test, documentEvents } = documentsTest();
    const controls = documentControls(test);
    const patientId = await listedChart(test);
    const original = (await controls.chart(patientId)).documents[0];
    if (!original) throw new Error("no seeded document");
    const [rescan] = await controls.file(patientId, { rescanOf: original.id });

    expect(rescan).toMatchObject({ kind: original.kind, title: original.title, sourceCategory: "scan", removedAt: null });
    expect(rescan?.ehrId).not.toBe(original.ehrId);
    expect(rescan?.id).not.toBe(original.id);
    expect((await refresh(test, patientId)).announced).toBe(1);
    const [event] = await documentEvents();
    expect(event?.envelope.data).toMatchObject({ id: rescan?.id, title: original.title, kind: original.kind });
  });

  it("caps a burst at 20 and announces the most recently created", async () => {
    const { test, documentEvents } = documentsTest();
    const controls = documentControls(test);
    const patientId = await listedChart(test);
    const burst = await controls.file(patientId, { title: "Outside records", count: 25 });
    expect(burst).toHaveLength(25);

    const report = await controls.dashboardRefresh(patientId);
    const newest = [...burst].sort((a, b) => a.createdAt.localeCompare(b.createdAt)).slice(5);
    expect(report.announced.map((data) => data.id)).toEqual(newest.map((document) => document.id));
    expect(report.skipped.map((entry) => entry.reason)).toEqual(Array(5).fill("over_burst_cap"));
    expect(report.sent).toBe(20);

    const delivered = await documentEvents();
    expect(delivered.map((event) => event.envelope.data.id)).toEqual(newest.map((document) => document.id));
    // The five left out stay unannounced.
    expect((await refresh(test, patientId)).announced).toBe(0);
    expect(await documentEvents()).toEqual([]);
  });
});

describe("scope and installation gating of patient_document.created", () => {
  it("sends nothing while the installation does not grant read:patient_documents; the listing still happened", async () => {
    const { test, documentEvents } = documentsTest();
    const controls = documentControls(test);
    const patientId = await listedChart(test);
    await test.sandbox("POST", `/installations/${ORG_A_ID}`, { status: "active", grantedPermissions: ["read:patients", "read:eras"] });
    const [hidden] = await controls.file(patientId, { title: "Filed while not granted" });
    const report = await controls.dashboardRefresh(patientId);
    expect(report.announced.map((data) => data.id)).toEqual([hidden?.id]);
    expect(report.sent).toBe(0);
    expect(await documentEvents()).toEqual([]);

    await test.sandbox("POST", `/installations/${ORG_A_ID}`, { status: "active", grantedPermissions: ["read:patients", "read:patient_documents"] });
    expect((await controls.dashboardRefresh(patientId)).announced).toEqual([]);
    const [shown] = await controls.file(patientId, { title: "Filed once granted" });
    expect((await refresh(test, patientId)).announced).toBe(1);
    expect((await documentEvents()).map((event) => event.envelope.data.id)).toEqual([shown?.id]);
  });

  it("sends nothing for an uninstalled organization (org C)", async () => {
    const { test, documentEvents } = documentsTest();
    const controls = documentControls(test, ORG_C_ID);
    const patientId = await listedChart(test, ORG_C_ID);
    await controls.file(patientId);
    const report = await controls.dashboardRefresh(patientId);
    expect(report.announced).toHaveLength(1);
    expect(report.sent).toBe(0);
    expect(await documentEvents()).toEqual([]);
  });

  it("org B (kind B, without read:patients) grants read:patient_documents: its events are delivered with its id", async () => {
    const { test, documentEvents } = documentsTest();
    const controls = documentControls(test, ORG_B_ID);
    const patientId = await listedChart(test, ORG_B_ID);
    const [filed] = await controls.file(patientId);
    expect(filed?.ehrId).toMatch(/^DOC-/);
    expect((await refresh(test, patientId, ORG_B_ID)).announced).toBe(1);
    const [event] = await documentEvents();
    expect(event?.envelope.data).toMatchObject({ id: filed?.id, organizationId: ORG_B_ID, patientId });
  });
});
