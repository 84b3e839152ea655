import { describe, expect, it } from "vitest";
import { createTestEmulator } from "../../testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID, ORG_C_ID } from "../../world/identities.ts";
import { documentControls, documentsTest, listedChart, unlistedChart } from "./testing/document-test-kit.ts";

// The patient documents controls under `/_sandbox/`, the seeded charts, reset,
// and the nightly sweep that runs with the sync.

describe("seeded charts", () => {
  it("are deterministic: a few documents per patient, dated before the seeded sweep that listed them; empty charts never listed", async () => {
    const first = createTestEmulator();
    const second = createTestEmulator();
    for (const organizationId of [ORG_A_ID, ORG_B_ID, ORG_C_ID]) {
      const overview = await documentControls(first, organizationId).charts();
      expect(await documentControls(second, organizationId).charts()).toEqual(overview);
      expect(overview.lastSweepAt).toBe("2026-11-23T02:00:00.000Z");
      expect(overview.nextSweepAt).toBe("2026-11-24T02:00:00.000Z");
      const withDocuments = overview.charts.filter((chart) => chart.documents > 0);
      expect(withDocuments.length).toBeGreaterThan(overview.charts.length / 2);
      expect(withDocuments.every((chart) => chart.listedAt === overview.lastSweepAt && chart.listedBy === "sweep")).toBe(true);
      const empty = overview.charts.filter((chart) => chart.documents === 0);
      expect(empty.length).toBeGreaterThan(0);
      expect(empty.every((chart) => chart.listedAt === null)).toBe(true);
    }
    const patientId = await listedChart(first);
    const chart = await documentControls(first).chart(patientId);
    expect(chart.documents.every((document) => document.createdAt <= document.updatedAt && document.updatedAt < "2026-11-23T02:00:00.000Z")).toBe(true);
    expect(chart.listing?.known).toBe(chart.documents.length);
  });

  it("reset restores the seeded charts and listings", async () => {
    const test = createTestEmulator();
    const controls = documentControls(test);
    const before = await controls.charts();
    const patientId = await unlistedChart(test);
    const listed = await listedChart(test);
    await controls.file(patientId, { count: 3 });
    await controls.dashboardRefresh(patientId);
    await controls.remove(listed, (await controls.chart(listed)).documents[0]?.id ?? "");
    expect(await controls.charts()).not.toEqual(before);

    expect((await test.sandbox("POST", "/reset")).status).toBe(200);
    expect(await controls.charts()).toEqual(before);
  });
});

describe("the nightly sweep with the sync", () => {
  it("runs at the first sync from 02:00 UTC, at most once per emulator day", async () => {
    const { test, documentEvents } = documentsTest();
    const controls = documentControls(test);
    const patientId = await listedChart(test);
    const sync = async (now: string) => {
      test.emulator.clock.set({ now, frozen: true });
      await test.sandbox("POST", "/sync", { organizationId: ORG_A_ID });
    };

    await controls.file(patientId, { title: "Before the night" });
    await sync("2026-11-24T01:59:00.000Z");
    expect(await documentEvents()).toEqual([]);
    await sync("2026-11-24T02:00:30.000Z");
    expect((await documentEvents()).map((event) => event.envelope.data.title)).toEqual(["Before the night"]);
    expect((await controls.chart(patientId)).listing).toMatchObject({ listedAt: "2026-11-24T02:00:30.000Z", listedBy: "sweep" });

    await controls.file(patientId, { title: "Later that day" });
    await sync("2026-11-24T20:00:00.000Z");
    expect(await documentEvents()).toEqual([]);
    expect((await controls.charts()).nextSweepAt).toBe("2026-11-25T02:00:00.000Z");
    await sync("2026-11-25T03:00:00.000Z");
    expect((await documentEvents()).map((event) => event.envelope.data.title)).toEqual(["Later that day"]);
  });
});

describe("controls", () => {
  it("file with defaults, back-dated, or as a burst; remove and restore (409 when already so)", async () => {
    const test = createTestEmulator();
    const controls = documentControls(test);
    const patientId = await listedChart(test);
    const [plain] = await controls.file(patientId);
    expect(plain).toMatchObject({ patientId, kind: "referral_letter", sourceCategory: "fax", title: "Referral letter", filename: "referral-letter-2026-11-23.pdf", mimeType: "application/pdf", createdAt: "2026-11-23T14:00:00.000Z", removedAt: null });
    expect(plain?.ehrId).toMatch(/^\d+$/);

    const [backDated] = await controls.file(patientId, { createdAt: "2026-09-01T08:30:00-04:00" });
    expect(backDated).toMatchObject({ createdAt: "2026-09-01T12:30:00.000Z", updatedAt: "2026-11-23T14:00:00.000Z" });

    const burst = await controls.file(patientId, { title: "Lab batch", filename: "batch.pdf", count: 3 });
    expect(burst.map((document) => [document.title, document.filename, document.createdAt])).toEqual([
      ["Lab batch (1 of 3)", "batch-1.pdf", "2026-11-23T14:00:00.000Z"],
      ["Lab batch (2 of 3)", "batch-2.pdf", "2026-11-23T14:00:00.001Z"],
      ["Lab batch (3 of 3)", "batch-3.pdf", "2026-11-23T14:00:00.002Z"],
    ]);

    const removed = await controls.remove(patientId, plain?.id ?? "");
    expect(removed.removedAt).toBe("2026-11-23T14:00:00.000Z");
    expect((await test.sandbox("DELETE", `/ehr/${ORG_A_ID}/patients/${patientId}/documents/${plain?.id ?? ""}`)).status).toBe(409);
    expect((await controls.restore(patientId, plain?.id ?? "")).removedAt).toBeNull();
    expect((await test.sandbox("POST", `/ehr/${ORG_A_ID}/patients/${patientId}/documents/${plain?.id ?? ""}/restore`)).status).toBe(409);
  });

  it("refuse what they cannot do, with plain JSON errors", async () => {
    const test = createTestEmulator();
    const patientId = await listedChart(test);
    const other = await listedChart(test, ORG_A_ID, 1);
    const foreign = (await documentControls(test).chart(other)).documents[0]?.id ?? "";
    const chart = `/ehr/${ORG_A_ID}/patients/${patientId}/documents`;
    const cases: [string, string, unknown, number, string][] = [
      ["POST", `/ehr/00000000-0000-4000-8000-000000000000/patients/${patientId}/documents`, {}, 404, "not_found"],
      ["POST", `/ehr/${ORG_A_ID}/patients/nobody/documents`, {}, 400, "bad_request"],
      ["POST", `/ehr/${ORG_A_ID}/patients/00000000-0000-4000-8000-000000000000/documents`, {}, 404, "not_found"],
      ["POST", chart, { createdAt: "last week" }, 400, "bad_request"],
      ["POST", chart, { tittle: "typo" }, 400, "bad_request"],
      ["POST", chart, { count: 501 }, 400, "bad_request"],
      ["POST", chart, { rescanOf: foreign }, 404, "not_found"],
      ["DELETE", `${chart}/${foreign}`, undefined, 404, "not_found"],
    ];
    for (const [method, path, body, status, code] of cases) {
      const answer = await test.sandbox(method, path, body);
      expect({ path, body, status: answer.status }).toEqual({ path, body, status });
      expect(answer.body).toMatchObject({ code });
    }
    // Controls take a patient's id in either form.
    const pat = `pat_${patientId.replaceAll("-", "")}`;
    expect((await test.sandbox("GET", `/ehr/${ORG_A_ID}/patients/${pat}/documents`)).status).toBe(200);
  });
});
