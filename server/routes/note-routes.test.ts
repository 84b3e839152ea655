import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { appErrorBody } from "#contract/app-api/errors.ts";
import { noteConflictDetails, noteDraftResponse, noteImageDeleteResponse, noteImagesResponse, noteResponse, noteTasksResponse, taskResponse } from "#contract/app-api/note.ts";
import { ORG_A_ID } from "../../emulator/world/identities.ts";
import type { EhrNote } from "../../emulator/world/types.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";

// The note routes against the emulator: only the note in the token, only
// clinical roles; a PATCH sends only the fields it names, refuses a stale
// baseline and a signed note; EHR failures keep the draft; tasks take the
// token's provider.

let store: Store;
let harness: BffHarness;

beforeAll(async () => {
  store = await createStore();
  harness = await createBffHarness(store);
});

afterAll(async () => {
  await harness.close();
  await store.close();
});

beforeEach(async () => {
  await harness.emulator.sandbox("POST", "/reset", {});
  // Reset also resets the webhook target; notes send no events, so none is needed here.
});

function ehrNotes(): EhrNote[] {
  const org = harness.emulator.emulator.state.org(ORG_A_ID);
  if (!org) throw new Error("no org A");
  return org.ehr.notes;
}

/** An unsigned note with images, and a physician assigned to it. */
function editableNote(): { note: EhrNote; physicianId: string } {
  const note = ehrNotes().find((candidate) => candidate.status === "awaiting_sign" && candidate.images.length > 0);
  if (!note) throw new Error("no editable note with images in the seed");
  return { note, physicianId: harness.userWithRole("Physician") };
}

let signedSoFar = 0;
/**
 * An unsigned note with images that no other test uses: the store outlives the
 * emulator's reset and keeps a signature it has learned, so each test that
 * signs a note in the EHR signs one of its own.
 */
function noteToSign(): { note: EhrNote; physicianId: string } {
  const editable = editableNote().note;
  const candidates = ehrNotes().filter((candidate) => candidate.status === "awaiting_sign" && candidate.images.length > 0 && candidate.id !== editable.id);
  const note = candidates[signedSoFar];
  signedSoFar += 1;
  if (!note) throw new Error("the seed has too few unsigned notes with images for the tests that sign one");
  return { note, physicianId: harness.userWithRole("Physician") };
}

async function tokenFor(noteId: string, userId?: string) {
  return harness.hostToken({ noteId, ...(userId ? { userId } : {}) });
}

async function call(path: string, init: { noteId: string; method?: string; body?: unknown; userId?: string }) {
  return harness.api(path, { token: await tokenFor(init.noteId, init.userId), method: init.method ?? "GET", body: init.body });
}

async function errorOf(response: Response) {
  return z.parse(appErrorBody, await response.json());
}

const upstreamPatches = () => harness.upstreamWrites.filter((write) => write.call.startsWith("PATCH "));

describe("access", () => {
  it("serves the note in the token to a clinical role, and records the read", async () => {
    const { note } = editableNote();
    const response = await call(`/api/notes/${note.id}`, { noteId: note.id });
    expect(response.status).toBe(200);
    const body = z.parse(noteResponse, await response.json());
    expect(body.note.id).toBe(note.id);
    await store.audit.flush();
    expect((await store.audit.list(ORG_A_ID)).some((entry) => entry.resourceType === "note" && entry.resourceId === note.id && entry.action === "read")).toBe(true);
  });

  it("refuses another note than the token's with 403, and a token without a note", async () => {
    const [first, second] = ehrNotes();
    if (!first || !second) throw new Error("need two notes");
    const patchesBefore = upstreamPatches().length;
    const other = await call(`/api/notes/${second.id}`, { noteId: first.id });
    expect(other.status).toBe(403);
    expect((await errorOf(other)).message).toMatch(/only the note that is open/);
    const none = await harness.api(`/api/notes/${first.id}`, { token: await harness.hostToken() });
    expect(none.status).toBe(403);
    const write = await call(`/api/notes/${second.id}`, { noteId: first.id, method: "PATCH", body: { otherExamComments: "x" } });
    expect(write.status).toBe(403);
    expect(upstreamPatches().length).toBe(patchesBefore);
  });

  it.each(["Front Desk", "Scheduler"])("refuses the %s role, reads too", async (role) => {
    const { note } = editableNote();
    const userId = harness.userWithRole(role);
    for (const [path, method] of [
      [`/api/notes/${note.id}`, "GET"],
      [`/api/notes/${note.id}/images`, "GET"],
      [`/api/notes/${note.id}/draft`, "GET"],
      [`/api/notes/${note.id}/tasks`, "GET"],
    ] as const) {
      const response = await call(path, { noteId: note.id, userId, method });
      expect(response.status).toBe(403);
      expect((await errorOf(response)).code).toBe("role_forbidden");
    }
  });

  it("rejects an id that is not a note id with 400", async () => {
    const { note } = editableNote();
    const response = await call(`/api/notes/not-a-note`, { noteId: note.id });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toMatch(/^noteId: /);
  });
});

describe("PATCH /api/notes/:id", () => {
  it("sends only the fields named, and the other fields stay as they were", async () => {
    const { note } = editableNote();
    const before = structuredClone(note.soapNote);
    const response = await call(`/api/notes/${note.id}`, {
      noteId: note.id,
      method: "PATCH",
      body: { otherExamComments: "Gait steady; no edema.", baseline: { otherExamComments: before.exam.otherExamComments } },
    });
    expect(response.status).toBe(200);
    const { note: saved } = z.parse(noteResponse, await response.json());
    expect(saved.soapNote.exam.otherExamComments).toBe("Gait steady; no edema.");
    expect(saved.soapNote.hpi.additionalHpiComments).toBe(before.hpi.additionalHpiComments);
    expect(saved.soapNote.impressionsPlansComments).toBe(before.impressionsPlansComments);
    expect(saved.soapNote.stickyNote.description).toBe(before.stickyNote.description);
    expect(note.soapNote.exam.otherExamComments).toBe("Gait steady; no edema.");
    expect(note.soapNote.hpi.additionalHpiComments).toBe(before.hpi.additionalHpiComments);
    await store.audit.flush();
    expect((await store.audit.list(ORG_A_ID)).some((entry) => entry.action === "write" && entry.resourceId === note.id)).toBe(true);
  });

  it("puts only the named fields in the upstream body", async () => {
    const { note } = editableNote();
    const response = await call(`/api/notes/${note.id}`, { noteId: note.id, method: "PATCH", body: { stickyNoteDescription: "Call the lab" } });
    expect(response.status).toBe(200);
    expect(harness.upstreamWrites.filter((write) => write.call.startsWith("PATCH ")).at(-1)).toEqual({ call: `PATCH /v1/notes/${note.id}`, body: JSON.stringify({ stickyNoteDescription: "Call the lab" }) });
  });

  it.each([
    ["a field that cannot be written", { status: "signed" }, /status/],
    ["a number for text", { otherExamComments: 42 }, /otherExamComments/],
    ["no field", {}, /name at least one field/],
    ["a baseline without its field", { otherExamComments: "x", baseline: { stickyNoteDescription: "y" } }, /baseline\.stickyNoteDescription/],
    ["an over-long text", { otherExamComments: "x".repeat(100_001) }, /otherExamComments: must be at most 100000 characters/],
  ])("refuses %s with a 400 naming the problem", async (_label, body, message) => {
    const { note } = editableNote();
    const before = note.soapNote.exam.otherExamComments;
    const response = await call(`/api/notes/${note.id}`, { noteId: note.id, method: "PATCH", body });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toMatch(message);
    expect(note.soapNote.exam.otherExamComments).toBe(before);
  });

  it("refuses a stale baseline with 409 and the values now, and changes nothing", async () => {
    const { note } = editableNote();
    note.soapNote.hpi.additionalHpiComments = "Edited by a colleague in the EHR";
    note.version += 1;
    harness.emulator.emulator.state.sync(ORG_A_ID);
    const versionBefore = note.version;
    const response = await call(`/api/notes/${note.id}`, {
      noteId: note.id,
      method: "PATCH",
      body: { additionalHpiComments: "My text", otherExamComments: "Also mine", baseline: { additionalHpiComments: "What I started from", otherExamComments: note.soapNote.exam.otherExamComments } },
    });
    expect(response.status).toBe(409);
    const body: unknown = await response.json();
    expect(z.parse(appErrorBody, body).code).toBe("conflict");
    const details = z.parse(noteConflictDetails, body);
    expect(details.reason).toBe("stale_baseline");
    expect(details.conflictingFields).toEqual(["additionalHpiComments"]);
    expect(details.current.additionalHpiComments).toBe("Edited by a colleague in the EHR");
    expect(note.soapNote.hpi.additionalHpiComments).toBe("Edited by a colleague in the EHR");
    expect(note.version).toBe(versionBefore);
  });

  it("saves over a stale baseline when the EHR already holds the very text sent (a save that got no answer in time, sent again)", async () => {
    const { note } = editableNote();
    const started = note.soapNote.hpi.additionalHpiComments;
    note.soapNote.hpi.additionalHpiComments = "My text";
    note.version += 1;
    harness.emulator.emulator.state.sync(ORG_A_ID);
    const response = await call(`/api/notes/${note.id}`, { noteId: note.id, method: "PATCH", body: { additionalHpiComments: "My text", baseline: { additionalHpiComments: started } } });
    expect(response.status).toBe(200);
    expect(note.soapNote.hpi.additionalHpiComments).toBe("My text");
  });

  it("answers conflict for a signed note, from the re-read and from the EHR when the mirror lags", async () => {
    const signed = ehrNotes().find((candidate) => candidate.status === "signed");
    if (!signed) throw new Error("no signed note");
    const response = await call(`/api/notes/${signed.id}`, { noteId: signed.id, method: "PATCH", body: { otherExamComments: "late" } });
    expect(response.status).toBe(409);
    expect(z.parse(noteConflictDetails, await response.json()).reason).toBe("note_signed");

    const { note } = noteToSign();
    await harness.emulator.sandbox("POST", `/ehr/${ORG_A_ID}/notes/${note.id}/sign`, {});
    const lagging = await call(`/api/notes/${note.id}`, { noteId: note.id, method: "PATCH", body: { otherExamComments: "late" } });
    expect(lagging.status).toBe(409);
    const details = z.parse(noteConflictDetails, await lagging.json());
    expect(details).toMatchObject({ reason: "note_signed", noteStatus: "signed" });
  });

  it("holds a note the EHR refused as signed as signed: later reads say so while the mirror lags, and changes, tasks and image deletions are refused without asking the service; the draft stays to copy", async () => {
    const { note, physicianId } = noteToSign();
    const draft = { fields: { otherExamComments: "Typed before the signature" }, baseline: { otherExamComments: note.soapNote.exam.otherExamComments }, noteVersion: note.version };
    expect((await call(`/api/notes/${note.id}/draft`, { noteId: note.id, method: "PUT", body: draft, userId: physicianId })).status).toBe(200);
    await harness.emulator.sandbox("POST", `/ehr/${ORG_A_ID}/notes/${note.id}/sign`, {});
    const mirrorBefore = z.parse(noteResponse, await (await call(`/api/notes/${note.id}`, { noteId: note.id })).json());
    // The service's mirror has not synced the signature: nothing has told Tandem yet.
    expect(mirrorBefore.note.status).toBe("awaiting_sign");

    const refused = await call(`/api/notes/${note.id}`, { noteId: note.id, method: "PATCH", body: { ...draft.fields, baseline: draft.baseline }, userId: physicianId });
    expect(refused.status).toBe(409);
    expect(await store.noteStates.get(ORG_A_ID, note.id)).toMatchObject({ status: "signed", source: "write_conflict" });

    const reread = z.parse(noteResponse, await (await call(`/api/notes/${note.id}`, { noteId: note.id })).json());
    expect(reread.note.status).toBe("signed");
    const writesBefore = harness.upstreamWrites.length;
    const again = await call(`/api/notes/${note.id}`, { noteId: note.id, method: "PATCH", body: { ...draft.fields, baseline: draft.baseline }, userId: physicianId });
    expect(again.status).toBe(409);
    expect(z.parse(noteConflictDetails, await again.json())).toMatchObject({ reason: "note_signed", noteStatus: "signed" });
    const taskPost = await call(`/api/notes/${note.id}/tasks`, { noteId: note.id, method: "POST", body: { notes: "Call back", assigneeIds: [physicianId] }, userId: physicianId });
    expect(taskPost.status).toBe(409);
    const image = note.images[0];
    if (!image) throw new Error("no image");
    const imageDelete = await call(`/api/notes/${note.id}/images/${image.id}`, { noteId: note.id, method: "DELETE", userId: physicianId });
    expect(imageDelete.status).toBe(409);
    expect(harness.upstreamWrites.length).toBe(writesBefore);
    // The draft is still kept, and still takes the text typed before the signature reached Tandem: the user's to copy.
    const later = { ...draft, fields: { otherExamComments: "Typed as the signature arrived" } };
    expect((await call(`/api/notes/${note.id}/draft`, { noteId: note.id, method: "PUT", body: later, userId: physicianId })).status).toBe(200);
    const kept = z.parse(noteDraftResponse, await (await call(`/api/notes/${note.id}/draft`, { noteId: note.id, userId: physicianId })).json());
    expect(kept.draft?.fields).toEqual(later.fields);
  });

  it("records a signature a read shows, once", async () => {
    const signed = ehrNotes().find((candidate) => candidate.status === "signed");
    if (!signed) throw new Error("no signed note");
    expect((await call(`/api/notes/${signed.id}`, { noteId: signed.id })).status).toBe(200);
    expect(await store.noteStates.get(ORG_A_ID, signed.id)).toMatchObject({ status: "signed", source: "read" });
  });

  it.each([
    ["server_unresponsive", 503],
    ["unexpected_integration_error", 502],
  ])("keeps the draft when the EHR answers %s, and a retry succeeds", async (code, status) => {
    const { note } = editableNote();
    const draft = { fields: { otherExamComments: "Typed before the failure" }, baseline: { otherExamComments: note.soapNote.exam.otherExamComments }, noteVersion: note.version };
    expect((await call(`/api/notes/${note.id}/draft`, { noteId: note.id, method: "PUT", body: draft })).status).toBe(200);
    await harness.emulator.sandbox("POST", "/faults", { method: "PATCH", path: "/v1/notes/{noteId}", code, count: 1 });
    const events: unknown[] = [];
    const stopListening = harness.bff.hub.subscribe(ORG_A_ID, (event) => events.push(event));
    const failed = await call(`/api/notes/${note.id}`, { noteId: note.id, method: "PATCH", body: { ...draft.fields, baseline: draft.baseline } });
    expect(failed.status).toBe(status);
    // Every tab on the note reads it again: that read settles whether the change was saved.
    await vi.waitFor(() => expect(events).toContainEqual({ type: "note.changed", noteId: note.id }));
    stopListening();
    // Sent, and the EHR failed after: it may have saved the change, so never "not saved" (issue 35 item 4).
    const error = await errorOf(failed);
    expect(error.code).toBe("outcome_unknown");
    expect(error.message).toMatch(/EHR may have saved the change/);
    expect(error.message).not.toMatch(/not saved/);
    const kept = z.parse(noteDraftResponse, await (await call(`/api/notes/${note.id}/draft`, { noteId: note.id })).json());
    expect(kept.draft?.fields).toEqual(draft.fields);

    const retried = await call(`/api/notes/${note.id}`, { noteId: note.id, method: "PATCH", body: { ...draft.fields, baseline: draft.baseline } });
    expect(retried.status).toBe(200);
    const gone = z.parse(noteDraftResponse, await (await call(`/api/notes/${note.id}/draft`, { noteId: note.id })).json());
    expect(gone.draft).toBeNull();
  });
});

describe("drafts", () => {
  it("keeps one draft per organization, user and note; another user does not see it", async () => {
    const { note } = editableNote();
    const nurse = harness.userWithRole("Nurse Practitioner");
    const body = { fields: { stickyNoteDescription: "Half-typed" }, baseline: { stickyNoteDescription: "" }, noteVersion: 3 };
    const put = await call(`/api/notes/${note.id}/draft`, { noteId: note.id, method: "PUT", body });
    expect(put.status).toBe(200);
    const mine = z.parse(noteDraftResponse, await (await call(`/api/notes/${note.id}/draft`, { noteId: note.id })).json());
    expect(mine.draft).toMatchObject({ fields: body.fields, baseline: body.baseline, noteVersion: 3 });
    const theirs = z.parse(noteDraftResponse, await (await call(`/api/notes/${note.id}/draft`, { noteId: note.id, userId: nurse })).json());
    expect(theirs.draft).toBeNull();
    const deleted = await call(`/api/notes/${note.id}/draft`, { noteId: note.id, method: "DELETE" });
    expect(await deleted.json()).toEqual({ deleted: true });
  });

  it("keeps what two tabs of one user typed in different fields; a tab letting go of a field drops only the text it stored there", async () => {
    const { note } = editableNote();
    const path = `/api/notes/${note.id}/draft`;
    const put = async (body: object) => z.parse(noteDraftResponse, await (await call(path, { noteId: note.id, method: "PUT", body })).json()).draft;
    await put({ fields: { additionalHpiComments: "Tab A" }, baseline: { additionalHpiComments: "" }, noteVersion: note.version });
    await put({ fields: { impressionsPlansComments: "Tab B" }, baseline: { impressionsPlansComments: "" }, noteVersion: note.version });
    expect((await put({ fields: { impressionsPlansComments: "Tab B, more" }, baseline: { impressionsPlansComments: "" }, noteVersion: note.version }))?.fields).toEqual({
      additionalHpiComments: "Tab A",
      impressionsPlansComments: "Tab B, more",
    });
    // Tab A let go of HPI (its text reverted) and of what it once stored in Impressions: Tab B's text there stays.
    const released = await put({ fields: {}, baseline: {}, noteVersion: note.version, released: { additionalHpiComments: "Tab A", impressionsPlansComments: "Tab B" } });
    expect(released).toMatchObject({ fields: { impressionsPlansComments: "Tab B, more" }, baseline: { impressionsPlansComments: "" } });
    expect(await put({ fields: {}, baseline: {}, noteVersion: note.version, released: { impressionsPlansComments: "Tab B, more" } })).toBeNull();
    expect(z.parse(noteDraftResponse, await (await call(path, { noteId: note.id })).json()).draft).toBeNull();
  });

  it("refuses a draft that both holds and releases a field", async () => {
    const { note } = editableNote();
    const body = { fields: { additionalHpiComments: "x" }, baseline: { additionalHpiComments: "" }, noteVersion: null, released: { additionalHpiComments: "y" } };
    const response = await call(`/api/notes/${note.id}/draft`, { noteId: note.id, method: "PUT", body });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toMatch(/released\.additionalHpiComments/);
  });

  it("refuses a draft with a field that cannot be written", async () => {
    const { note } = editableNote();
    const response = await call(`/api/notes/${note.id}/draft`, { noteId: note.id, method: "PUT", body: { fields: { hpi: "x" }, baseline: {}, noteVersion: null } });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toMatch(/fields/);
  });

  it("keeps text typed after the saved text, starting from what was saved", async () => {
    const { note } = editableNote();
    const start = note.soapNote.exam.otherExamComments;
    await call(`/api/notes/${note.id}/draft`, { noteId: note.id, method: "PUT", body: { fields: { otherExamComments: "Saved part and more" }, baseline: { otherExamComments: start }, noteVersion: note.version } });
    expect((await call(`/api/notes/${note.id}`, { noteId: note.id, method: "PATCH", body: { otherExamComments: "Saved part", baseline: { otherExamComments: start } } })).status).toBe(200);
    const rest = z.parse(noteDraftResponse, await (await call(`/api/notes/${note.id}/draft`, { noteId: note.id })).json());
    expect(rest.draft).toMatchObject({ fields: { otherExamComments: "Saved part and more" }, baseline: { otherExamComments: "Saved part" } });
  });

  it("keeps an autosave that lands between the save's read of the draft and its clean-up", async () => {
    // The real store, with one hook: once armed, the next draft read (the save's) lets an autosave through the API land right after it.
    let autosaveAfterRead: (() => Promise<void>) | null = null;
    const racing: Store = {
      ...store,
      noteDrafts: {
        ...store.noteDrafts,
        async get(...args) {
          const read = await store.noteDrafts.get(...args);
          const autosave = autosaveAfterRead;
          autosaveAfterRead = null;
          await autosave?.();
          return read;
        },
      },
    };
    const other = await createBffHarness(racing);
    try {
      const { note } = editableNote();
      // A host token is used once.
      const send = async (path: string, init: { method?: string; body?: unknown } = {}) => other.api(path, { token: await other.hostToken({ noteId: note.id }), method: init.method ?? "GET", body: init.body });
      const start = note.soapNote.exam.otherExamComments;
      const draftOf = (text: string, from: string) => ({ fields: { otherExamComments: text }, baseline: { otherExamComments: from }, noteVersion: note.version });
      const putDraft = async (text: string, from: string) => expect((await send(`/api/notes/${note.id}/draft`, { method: "PUT", body: draftOf(text, from) })).status).toBe(200);
      const storedDraft = async () => z.parse(noteDraftResponse, await (await send(`/api/notes/${note.id}/draft`)).json()).draft;
      const save = (text: string, from: string) => send(`/api/notes/${note.id}`, { method: "PATCH", body: { otherExamComments: text, baseline: { otherExamComments: from } } });

      // Without an autosave in between, the clean-up removes the saved draft.
      await putDraft("Saved first", start);
      expect((await save("Saved first", start)).status).toBe(200);
      expect(await storedDraft()).toBeNull();

      await putDraft("Saved second", "Saved first");
      autosaveAfterRead = () => putDraft("Saved second and typed on", "Saved first");
      expect((await save("Saved second", "Saved first")).status).toBe(200);
      expect(await storedDraft()).toMatchObject(draftOf("Saved second and typed on", "Saved first"));

      // Nor is it overwritten by what was left of the draft read.
      await putDraft("Saved third and more", "Saved second");
      autosaveAfterRead = () => putDraft("Saved third and more still", "Saved second");
      expect((await save("Saved third", "Saved second")).status).toBe(200);
      expect(await storedDraft()).toMatchObject(draftOf("Saved third and more still", "Saved second"));
    } finally {
      await other.close();
    }
  });
});

describe("tasks", () => {
  it("creates a task as the token's provider even when the body names another, and lists it", async () => {
    const { note, physicianId } = editableNote();
    const impostor = harness.userWithRole("Nurse Practitioner");
    const assistant = harness.userWithRole("Medical Assistant");
    const response = await call(`/api/notes/${note.id}/tasks`, {
      noteId: note.id,
      userId: physicianId,
      method: "POST",
      body: { notes: "Order a knee X-ray", assigneeIds: [assistant, impostor], providerId: impostor },
    });
    expect(response.status).toBe(200);
    const { task } = z.parse(taskResponse, await response.json());
    expect(task.assignedProviders.map((provider) => provider.id).sort()).toEqual([assistant, impostor].sort());
    const sent = harness.upstreamWrites.filter((write) => write.call === "POST /v2/tasks").at(-1);
    expect(JSON.parse(sent?.body ?? "null")).toEqual({ noteId: note.id, providerId: physicianId, notes: "Order a knee X-ray", assigneeIds: [assistant, impostor] });
    const listed = z.parse(noteTasksResponse, await (await call(`/api/notes/${note.id}/tasks`, { noteId: note.id })).json());
    expect(listed.tasks.map((entry) => entry.id)).toContain(task.id);
    expect(listed.source).toBe("tandem");
  });

  it.each([
    [{ notes: "Call the patient", assigneeIds: [] }, /assigneeIds: choose at least one assignee/],
    [{ notes: "   ", assigneeIds: ["x"] }, /notes: a task needs a description/],
    [{ assigneeIds: ["x"] }, /notes/],
  ])("refuses %j with a 400", async (body, message) => {
    const { note } = editableNote();
    const response = await call(`/api/notes/${note.id}/tasks`, { noteId: note.id, method: "POST", body });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toMatch(message);
  });

  it("answers 502 outcome_unknown when the EHR push fails (it may have landed), records no task, lists it as unconfirmed, and tells the note's other tabs", async () => {
    const { note } = editableNote();
    const before = (await store.tasks.listByNote(ORG_A_ID, note.id)).length;
    await harness.emulator.sandbox("POST", "/faults", { method: "POST", path: "/v2/tasks", status: 502, count: 1 });
    const events: unknown[] = [];
    const stopListening = harness.bff.hub.subscribe(ORG_A_ID, (event) => events.push(event));
    const response = await call(`/api/notes/${note.id}/tasks`, { noteId: note.id, method: "POST", body: { notes: "Refill request", assigneeIds: [harness.userWithRole("Medical Assistant")] } });
    expect(response.status).toBe(502);
    // Before, only a confirmed task was announced: another tab went on listing nothing.
    await vi.waitFor(() => expect(events).toContainEqual({ type: "note.changed", noteId: note.id }));
    stopListening();
    const error = await errorOf(response);
    expect(error.code).toBe("outcome_unknown");
    expect(error.message).toMatch(/EHR may have created the task/);
    expect((await store.tasks.listByNote(ORG_A_ID, note.id)).length).toBe(before);
    const listed = z.parse(noteTasksResponse, await (await call(`/api/notes/${note.id}/tasks`, { noteId: note.id })).json());
    expect(listed.unconfirmed.map((task) => task.notes)).toEqual(["Refill request"]);
  });
});

describe("images", () => {
  it("lists the note's images and deletes one", async () => {
    const { note } = editableNote();
    const { images } = z.parse(noteImagesResponse, await (await call(`/api/notes/${note.id}/images`, { noteId: note.id })).json());
    const target = images[0];
    if (!target) throw new Error("no image");
    const response = await call(`/api/notes/${note.id}/images/${target.id}`, { noteId: note.id, method: "DELETE" });
    expect(response.status).toBe(200);
    expect(z.parse(noteImageDeleteResponse, await response.json()).image.id).toBe(target.id);
    const after = z.parse(noteImagesResponse, await (await call(`/api/notes/${note.id}/images`, { noteId: note.id })).json());
    expect(after.images.map((image) => image.id)).not.toContain(target.id);
  });

  it("refuses to delete an image of a signed note with conflict", async () => {
    const signed = ehrNotes().find((candidate) => candidate.status === "signed" && candidate.images.length > 0);
    if (!signed) throw new Error("no signed note with images");
    const image = signed.images[0];
    if (!image) throw new Error("no image");
    const response = await call(`/api/notes/${signed.id}/images/${image.id}`, { noteId: signed.id, method: "DELETE" });
    expect(response.status).toBe(409);
    expect(await errorOf(response)).toMatchObject({ code: "conflict", reason: "note_signed" });
    expect(signed.images).toContain(image);
  });

  it("rejects an image id of the wrong form", async () => {
    const { note } = editableNote();
    const response = await call(`/api/notes/${note.id}/images/prv_${"0".repeat(32)}`, { noteId: note.id, method: "DELETE" });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toMatch(/^imageId: /);
  });
});
