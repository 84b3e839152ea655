import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { noteChangesResponse, noteViewResponse, type NoteViewPutRequest } from "#contract/app-api/note-changes.ts";
import { noteResponse } from "#contract/app-api/note.ts";
import { appErrorBody } from "#contract/app-api/errors.ts";
import { CLINICAL_ROLES } from "#contract/app-api/session.ts";
import { writableValues, type Note } from "#contract/clinic-api/note.ts";
import { isSameId } from "#contract/ids.ts";
import { sectionDigestsOf } from "#contract/note/section-digests.ts";
import { ORG_A_ID, ORG_B_ID } from "../../emulator/world/identities.ts";
import type { EhrNote, EhrProvider } from "../../emulator/world/types.ts";
import { personKeyOf } from "../auth/person-key.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";
import { VIEW_RETENTION_MS } from "./note-changes-routes.ts";

// "What changed since you last looked" against the emulator: a first view
// says nothing; an edit by another client of the service is "changed in the
// EHR", with before and after; a Tandem write is named (you, a colleague the
// note names, else another Tandem user); each user's view is their own, and
// an organization never sees another's.

let store: Store;
let harness: BffHarness;
/** A user's key in the store (ADR 0024): their provider's, as a host token's `provider_id` gives it. */
const personOf = (providerId: string) => personKeyOf({ providerId, accountId: providerId });

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
  // The store outlives the emulator's reset: every test starts with no view recorded.
  await store.noteViews.purgeSeenBefore(harness.now() + VIEW_RETENTION_MS);
});

interface Scene {
  note: EhrNote;
  /** A clinical user the note does not name. */
  me: EhrProvider;
  /** A clinical user assigned to the note, so the note names them. */
  colleague: EhrProvider;
  /** Another clinical user the note does not name. */
  stranger: EhrProvider;
}

const isClinical = (provider: EhrProvider) => !provider.hidden && provider.roles.some((role) => (CLINICAL_ROLES as readonly string[]).includes(role));

function scene(organizationId = ORG_A_ID): Scene {
  const org = harness.emulator.emulator.state.org(organizationId);
  if (!org) throw new Error("no organization");
  const clinical = org.ehr.providers.filter(isClinical);
  for (const note of org.ehr.notes) {
    if (note.status !== "awaiting_sign") continue;
    const isAssigned = (provider: EhrProvider) => note.assignedProviders.some((assigned) => isSameId(assigned.id, provider.id));
    const colleague = clinical.find(isAssigned);
    const [me, stranger] = clinical.filter((provider) => !isAssigned(provider));
    if (colleague && me && stranger) return { note, me, colleague, stranger };
  }
  throw new Error("the seed has no unsigned note with an assigned clinical user and two others");
}

async function call(path: string, init: { noteId: string; userId: string; organizationId?: string; method?: string; body?: unknown }) {
  const token = await harness.hostToken({ noteId: init.noteId, userId: init.userId, ...(init.organizationId ? { organizationId: init.organizationId } : {}) });
  return harness.api(path, { token, method: init.method ?? "GET", body: init.body });
}

async function readNote(noteId: string, userId: string, organizationId?: string): Promise<Note> {
  const response = await call(`/api/notes/${noteId}`, { noteId, userId, ...(organizationId ? { organizationId } : {}) });
  expect(response.status).toBe(200);
  return z.parse(noteResponse, await response.json()).note;
}

async function viewBody(note: Note): Promise<NoteViewPutRequest> {
  return { noteUpdatedAt: note.updatedAt, fields: writableValues(note), sectionDigests: await sectionDigestsOf(note) };
}

/** Opens the note as the SPA does: reads it, then records the view. Answers the view's time. */
async function look(noteId: string, userId: string, organizationId?: string): Promise<string> {
  const note = await readNote(noteId, userId, organizationId);
  const response = await call(`/api/notes/${noteId}/view`, { noteId, userId, method: "PUT", body: await viewBody(note), ...(organizationId ? { organizationId } : {}) });
  expect(response.status).toBe(200);
  return z.parse(noteViewResponse, await response.json()).seenAt;
}

async function changes(noteId: string, userId: string, organizationId?: string) {
  const response = await call(`/api/notes/${noteId}/changes`, { noteId, userId, ...(organizationId ? { organizationId } : {}) });
  expect(response.status).toBe(200);
  return z.parse(noteChangesResponse, await response.json());
}

async function saveInTandem(noteId: string, userId: string, fields: Record<string, string>) {
  const response = await call(`/api/notes/${noteId}`, { noteId, userId, method: "PATCH", body: fields });
  expect(response.status).toBe(200);
}

async function editAsAnotherClient(noteId: string, fields: Record<string, string>) {
  const result = await harness.emulator.call("PATCH /v1/notes/{noteId}", { params: { noteId }, body: fields });
  expect(result.status).toBe(200);
}

describe("GET /api/notes/:id/changes", () => {
  it("says nothing on a first view, nor after a view when nothing changed", async () => {
    const { note, me } = scene();
    expect(await changes(note.id, me.id)).toEqual({ lastSeenAt: null, noteUpdatedAt: note.updatedAt, fields: [], sections: [] });
    const seenAt = await look(note.id, me.id);
    expect(await changes(note.id, me.id)).toEqual({ lastSeenAt: seenAt, noteUpdatedAt: note.updatedAt, fields: [], sections: [] });
  });

  it("gives a change by another client of the service to the EHR, with before and after, and the sections changed beside it", async () => {
    const { note, me } = scene();
    const seenAt = await look(note.id, me.id);
    const before = note.soapNote.stickyNote.description;
    await editAsAnotherClient(note.id, { stickyNoteDescription: "Call the daughter (health care proxy) tomorrow." });
    // The EHR adds a follow-up (a new version of the note); the next sync brings it to the service's mirror.
    note.soapNote.followUp.push({ description: "Return in 2 weeks for suture removal." });
    note.version += 1;
    await harness.emulator.sandbox("POST", "/sync", { organizationId: ORG_A_ID });

    const answer = await changes(note.id, me.id);
    expect(answer.lastSeenAt).toBe(seenAt);
    expect(answer.fields).toEqual([{ field: "stickyNoteDescription", before, after: "Call the daughter (health care proxy) tomorrow.", attribution: "ehr", changedBy: [{ kind: "ehr" }] }]);
    expect(answer.sections).toEqual([{ id: "follow-up" }]);

    // Once the user has looked again, nothing is new.
    await look(note.id, me.id);
    expect(await changes(note.id, me.id)).toMatchObject({ fields: [], sections: [] });
  });

  it("names the caller's own Tandem write 'you', and only the field it wrote", async () => {
    const { note, me } = scene();
    const before = note.soapNote.exam.otherExamComments;
    await look(note.id, me.id);
    await saveInTandem(note.id, me.id, { otherExamComments: "Dermatoscope used; no other lesions." });
    await editAsAnotherClient(note.id, { additionalHpiComments: "Accompanied by her son." });
    const answer = await changes(note.id, me.id);
    expect(answer.fields).toEqual([
      expect.objectContaining({ field: "additionalHpiComments", after: "Accompanied by her son.", attribution: "ehr", changedBy: [{ kind: "ehr" }] }),
      expect.objectContaining({ field: "otherExamComments", before, after: "Dermatoscope used; no other lesions.", attribution: "tandem", changedBy: [{ kind: "you" }] }),
    ]);
  });

  it("names a colleague the note names, and counts a Tandem user it does not", async () => {
    const { note, me, colleague, stranger } = scene();
    await look(note.id, me.id);
    await saveInTandem(note.id, colleague.id, { stickyNoteDescription: "Biopsy result to the daughter." });
    await saveInTandem(note.id, stranger.id, { stickyNoteDescription: "Biopsy result to the daughter, by phone." });
    const [change] = (await changes(note.id, me.id)).fields;
    const assigned = note.assignedProviders.find((provider) => isSameId(provider.id, colleague.id));
    expect(change).toMatchObject({
      field: "stickyNoteDescription",
      after: "Biopsy result to the daughter, by phone.",
      attribution: "tandem",
      changedBy: [{ kind: "tandem_user", name: `${assigned?.displayFirstName ?? ""} ${assigned?.displayLastName ?? ""}`.trim() }, { kind: "other_tandem_users", count: 1 }],
    });
  });

  it("keeps each user's view their own", async () => {
    const { note, me, colleague } = scene();
    await look(note.id, me.id);
    await editAsAnotherClient(note.id, { impressionsPlansComments: "Discussed biopsy; consented." });
    // The colleague never looked: nothing to compare with.
    expect(await changes(note.id, colleague.id)).toMatchObject({ lastSeenAt: null, fields: [] });
    await look(note.id, colleague.id);
    expect(await changes(note.id, colleague.id)).toMatchObject({ fields: [] });
    // The colleague's look does not count as the caller's.
    expect((await changes(note.id, me.id)).fields.map((field) => field.field)).toEqual(["impressionsPlansComments"]);
  });

  it("never shows a view from another organization", async () => {
    const { note, me } = scene();
    const shown = await readNote(note.id, me.id);
    // The same user and note ids under organization B, with other text: not this organization's.
    await store.noteViews.put({ organizationId: ORG_B_ID, userId: me.id, noteId: note.id, fields: { ...writableValues(shown), stickyNoteDescription: "other" }, sectionDigests: {}, noteUpdatedAt: null, seenAt: harness.now() });
    expect(await changes(note.id, me.id)).toMatchObject({ lastSeenAt: null, fields: [] });
    // And a user of organization B on one of its notes starts from nothing, whatever organization A has seen.
    await look(note.id, me.id);
    const inB = scene(ORG_B_ID);
    expect(await changes(inB.note.id, inB.me.id, ORG_B_ID)).toMatchObject({ lastSeenAt: null, fields: [], sections: [] });
  });

  it("records each read of the changes in the audit trail", async () => {
    const { note, me } = scene();
    await changes(note.id, me.id);
    await store.audit.flush();
    expect((await store.audit.list(ORG_A_ID)).some((entry) => entry.userId === personOf(me.id) && entry.accountId === me.id && entry.resourceType === "note_changes" && entry.resourceId === note.id && entry.action === "read")).toBe(true);
  });
});

describe("access and input", () => {
  it("serves only the token's note and clinical roles, like the note routes", async () => {
    const { note, me } = scene();
    const other = harness.emulator.emulator.state.org(ORG_A_ID)?.ehr.notes.find((candidate) => candidate.id !== note.id);
    if (!other) throw new Error("need two notes");
    const body = await viewBody(await readNote(note.id, me.id));
    for (const [path, method] of [
      [`/api/notes/${note.id}/changes`, "GET"],
      [`/api/notes/${note.id}/view`, "PUT"],
    ] as const) {
      const withBody = method === "PUT" ? { body } : {};
      const wrongNote = await call(path, { noteId: other.id, userId: me.id, method, ...withBody });
      expect(wrongNote.status).toBe(403);
      const frontDesk = await call(path, { noteId: note.id, userId: harness.userWithRole("Front Desk"), method, ...withBody });
      expect(frontDesk.status).toBe(403);
      expect(z.parse(appErrorBody, await frontDesk.json()).code).toBe("role_forbidden");
    }
    expect(await store.noteViews.get(ORG_A_ID, harness.userWithRole("Front Desk"), note.id)).toBeNull();
  });

  it("refuses a view without every field, with an unknown section or a digest that is not one, naming the field", async () => {
    const { note, me } = scene();
    const body = await viewBody(await readNote(note.id, me.id));
    const { stickyNoteDescription: _dropped, ...threeFields } = body.fields;
    for (const [bad, named] of [
      [{ ...body, fields: threeFields }, /stickyNoteDescription/],
      [{ ...body, sectionDigests: { ...body.sectionDigests, vitals: "abc" } }, /sectionDigests\.vitals/],
      [{ ...body, sectionDigests: { ...body.sectionDigests, soap: body.sectionDigests.hpi } }, /sectionDigests/],
      [{ ...body, noteUpdatedAt: "yesterday" }, /noteUpdatedAt/],
    ] as const) {
      const response = await call(`/api/notes/${note.id}/view`, { noteId: note.id, userId: me.id, method: "PUT", body: bad });
      expect(response.status).toBe(400);
      expect(z.parse(appErrorBody, await response.json()).message).toMatch(named);
    }
    expect(await store.noteViews.get(ORG_A_ID, me.id, note.id)).toBeNull();
  });
});

// Last: it moves the BFF's clock, which the emulator's reset does not take back (host tokens would be stale after).
describe("retention", () => {
  it("ignores a view older than views are kept, and a recorded view purges such views", async () => {
    const { note, me, colleague } = scene();
    const shown = await readNote(note.id, me.id);
    const old = { organizationId: ORG_A_ID, userId: personOf(me.id), noteId: note.id, fields: { ...writableValues(shown), stickyNoteDescription: "long ago" }, sectionDigests: {}, noteUpdatedAt: null, seenAt: harness.now() - VIEW_RETENTION_MS - 1000 };
    await store.noteViews.put(old);
    expect(await changes(note.id, me.id)).toMatchObject({ lastSeenAt: null, fields: [] });
    // Purges run at most hourly per process: a recorded view after that purges the old one.
    harness.advanceClocks(2 * 60 * 60);
    await look(note.id, colleague.id);
    expect(await store.noteViews.get(ORG_A_ID, personOf(me.id), note.id)).toBeNull();
    expect(await store.noteViews.get(ORG_A_ID, personOf(colleague.id), note.id)).not.toBeNull();
  });
});
