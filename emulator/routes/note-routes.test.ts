import { describe, expect, it } from "vitest";
import { ORG_A_ID } from "../world/identities.ts";
import { createTestEmulator } from "../testing/emulator-client.ts";
import type { TestEmulator } from "../testing/emulator-client.ts";

// Seed 001 "Notes", "Tasks"; DESIGN.md's assumed note and image reads.

function notesOf(test: TestEmulator) {
  const org = test.emulator.state.org(ORG_A_ID);
  if (!org) throw new Error("org A missing");
  const awaiting = org.ehr.notes.find((note) => note.status === "awaiting_sign" && note.images.length > 0);
  const signed = org.ehr.notes.find((note) => note.status === "signed" && note.images.length > 0);
  if (!awaiting || !signed) throw new Error("seed lacks notes in both states with images");
  const physician = org.ehr.providers.find((provider) => provider.roles.includes("Physician"));
  const nurse = org.ehr.providers.find((provider) => provider.roles.includes("Nurse Practitioner"));
  if (!physician || !nurse) throw new Error("seed lacks clinicians");
  return { org, awaiting, signed, physician, nurse };
}

describe("notes (seed 001 Notes)", () => {
  it("reads a note with every soapNote section", async () => {
    const test = createTestEmulator();
    const { awaiting } = notesOf(test);
    const note = await test.get("GET /v1/notes/{noteId}", { params: { noteId: awaiting.id } });
    expect(note.id).toBe(awaiting.id);
    expect(note.patient.avatar).toMatch(/\?expires=\d+$/);
  });

  it("gives the embedded facility's timestamps in ISO 8601 like the patient's; only the note and its providers use database-style text (seed 000 Conventions)", async () => {
    const test = createTestEmulator();
    const { awaiting } = notesOf(test);
    const note = await test.get("GET /v1/notes/{noteId}", { params: { noteId: awaiting.id } });
    const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
    const databaseText = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00$/;
    expect(note.patient.createdAt).toMatch(iso);
    expect(note.facility.createdAt).toMatch(iso);
    expect(note.facility.updatedAt).toMatch(iso);
    expect(note.createdAt).toMatch(databaseText);
    expect(note.assignedProviders[0]?.createdAt).toMatch(databaseText);
    // The same instant as the facility's own record.
    const facility = await test.get("GET /v1/facilities/{id}", { params: { id: note.facility.id } });
    expect(note.facility.createdAt).toBe(facility.createdAt);
  });

  it("partial PATCH changes only the fields sent and bumps version", async () => {
    const test = createTestEmulator();
    const { awaiting } = notesOf(test);
    const before = await test.get("GET /v1/notes/{noteId}", { params: { noteId: awaiting.id } });
    const after = await test.get("PATCH /v1/notes/{noteId}", { params: { noteId: awaiting.id }, body: { otherExamComments: "Skin: no new lesions." } });
    expect(after.soapNote.exam.otherExamComments).toBe("Skin: no new lesions.");
    expect(after.version).toBe(before.version + 1);
    expect(after.soapNote.hpi.additionalHpiComments).toBe(before.soapNote.hpi.additionalHpiComments);
    expect(after.soapNote.impressionsPlansComments).toBe(before.soapNote.impressionsPlansComments);
    expect(after.soapNote.stickyNote.description).toBe(before.soapNote.stickyNote.description);
    const reread = await test.get("GET /v1/notes/{noteId}", { params: { noteId: awaiting.id } });
    expect(reread.soapNote.exam.otherExamComments).toBe("Skin: no new lesions.");
  });

  it("refuses a field that is not one of the four writable ones", async () => {
    const test = createTestEmulator();
    const { awaiting } = notesOf(test);
    const result = await test.call("PATCH /v1/notes/{noteId}", { params: { noteId: awaiting.id }, body: { status: "signed" } });
    expect(result.status).toBe(400);
    expect(result.error?.message).toMatch(/status/);
  });

  it("signed note conflict: PATCH and image DELETE answer 409 conflict", async () => {
    const test = createTestEmulator();
    const { signed } = notesOf(test);
    const patch = await test.call("PATCH /v1/notes/{noteId}", { params: { noteId: signed.id }, body: { stickyNoteDescription: "x" } });
    expect(patch.status).toBe(409);
    expect(patch.error?.code).toBe("conflict");
    const image = signed.images[0]?.id ?? "";
    const remove = await test.call("DELETE /v3/notes/{noteId}/images/{imageId}", { params: { noteId: signed.id, imageId: image } });
    expect(remove.status).toBe(409);
  });

  it("a section changed in the EHR (sandbox control) is a new version there, read through the service after the next sync", async () => {
    const test = createTestEmulator();
    const { awaiting } = notesOf(test);
    const before = await test.get("GET /v1/notes/{noteId}", { params: { noteId: awaiting.id } });
    await test.sandbox("PATCH", `/ehr/${ORG_A_ID}/notes/${awaiting.id}`, { soapNote: { dataReviewed: "Outside pathology report reviewed." } });
    const mirrored = await test.get("GET /v1/notes/{noteId}", { params: { noteId: awaiting.id } });
    expect(mirrored.soapNote.dataReviewed).toBe(before.soapNote.dataReviewed);
    await test.sandbox("POST", "/sync", { organizationId: ORG_A_ID });
    const synced = await test.get("GET /v1/notes/{noteId}", { params: { noteId: awaiting.id } });
    expect(synced.soapNote.dataReviewed).toBe("Outside pathology report reviewed.");
    expect(synced.version).toBe(before.version + 1);
    expect(synced.soapNote.exam).toEqual(before.soapNote.exam);
  });

  it("a note signed in the EHR is refused at once, before the next sync", async () => {
    const test = createTestEmulator();
    const { awaiting } = notesOf(test);
    await test.sandbox("POST", `/ehr/${ORG_A_ID}/notes/${awaiting.id}/sign`);
    const patch = await test.call("PATCH /v1/notes/{noteId}", { params: { noteId: awaiting.id }, body: { stickyNoteDescription: "x" } });
    expect(patch.status).toBe(409);
  });

  it.each([
    ["server_unresponsive", 503],
    ["unexpected_integration_error", 502],
  ])("an EHR push failure (%s) fails the PATCH with %i and changes nothing", async (code, status) => {
    const test = createTestEmulator();
    const { awaiting } = notesOf(test);
    await test.sandbox("POST", "/faults", { method: "PATCH", path: "/v1/notes/{noteId}", code, count: 1 });
    const failed = await test.call("PATCH /v1/notes/{noteId}", { params: { noteId: awaiting.id }, body: { stickyNoteDescription: "lost?" } });
    expect(failed.status).toBe(status);
    expect(failed.error?.code).toBe(code);
    const reread = await test.get("GET /v1/notes/{noteId}", { params: { noteId: awaiting.id } });
    expect(reread.soapNote.stickyNote.description).not.toBe("lost?");
    // count: 1 — the fault is gone after one request.
    expect((await test.call("PATCH /v1/notes/{noteId}", { params: { noteId: awaiting.id }, body: { stickyNoteDescription: "kept" } })).status).toBe(200);
  });

  it("lists images and deletes one (archived, gone from the list)", async () => {
    const test = createTestEmulator();
    const { awaiting } = notesOf(test);
    const { images } = await test.get("GET /v3/notes/{noteId}/images", { params: { noteId: awaiting.id } });
    const target = images[0];
    if (!target) throw new Error("no image");
    const deleted = await test.get("DELETE /v3/notes/{noteId}/images/{imageId}", { params: { noteId: awaiting.id, imageId: target.id } });
    expect(deleted.id).toBe(target.id);
    const after = await test.get("GET /v3/notes/{noteId}/images", { params: { noteId: awaiting.id } });
    expect(after.images.map((image) => image.id)).not.toContain(target.id);
    const again = await test.call("DELETE /v3/notes/{noteId}/images/{imageId}", { params: { noteId: awaiting.id, imageId: target.id } });
    expect(again.status).toBe(404);
  });
});

describe("tasks (seed 001 Tasks)", () => {
  it("creates a task pushed to the EHR synchronously, syncStatus synced", async () => {
    const test = createTestEmulator();
    const { awaiting, physician, nurse } = notesOf(test);
    const task = await test.get("POST /v2/tasks", { body: { noteId: awaiting.id, providerId: physician.id, notes: "Call patient with biopsy results", assigneeIds: [nurse.id] } });
    expect(task).toMatchObject({ noteId: awaiting.id, syncStatus: "synced", status: "not_started", notes: "Call patient with biopsy results" });
    expect(task.assignedProviders.map((provider) => provider.id)).toEqual([nurse.id]);
  });

  it("answers 502 when the EHR push fails", async () => {
    const test = createTestEmulator();
    const { awaiting, physician, nurse } = notesOf(test);
    await test.sandbox("POST", "/faults", { method: "POST", path: "/v2/tasks", status: 502 });
    const result = await test.call("POST /v2/tasks", { body: { noteId: awaiting.id, providerId: physician.id, notes: "x", assigneeIds: [nurse.id] } });
    expect(result.status).toBe(502);
  });

  it("refuses an assignee who is not a provider of the organization", async () => {
    const test = createTestEmulator();
    const { awaiting, physician } = notesOf(test);
    const result = await test.call("POST /v2/tasks", { body: { noteId: awaiting.id, providerId: physician.id, notes: "x", assigneeIds: ["00000000-0000-4000-8000-000000000000"] } });
    expect(result.status).toBe(400);
    expect(result.error?.message).toMatch(/assigneeIds\.0/);
  });
});
