import { beforeAll, describe, expect, it } from "vitest";
import { writableValues, type Note } from "#contract/clinic-api/note.ts";
import { sectionDigestsOf, type SectionDigests } from "#contract/note/section-digests.ts";
import { createTestEmulator } from "../../emulator/testing/emulator-client.ts";
import { ORG_A_ID } from "../../emulator/world/identities.ts";
import { personKeyOf } from "../auth/person-key.ts";
import type { AuditEntry, NoteView } from "../store/store.ts";
import { describeNoteChanges, NOTE_FIELD_RESOURCE_TYPE, noteFieldResourceId, type NoteChangesInput } from "./note-changes.ts";
import { tandemUserName } from "./tandem-user-name.ts";

// The rules of "what changed since you last looked", on a seeded note: who is
// named, and how sure Tandem says it is.

const ME = "11111111-1111-4111-8111-111111111111";
const STRANGER = "22222222-2222-4222-8222-222222222222";
const SEEN_AT = Date.parse("2026-11-23T14:00:00.000Z");

let note: Note;
let digests: SectionDigests;
let colleague: { id: string; name: string };

beforeAll(async () => {
  const emulator = createTestEmulator();
  const seeded = emulator.emulator.state.org(ORG_A_ID)?.ehr.notes.find((candidate) => candidate.assignedProviders.length > 0);
  if (!seeded) throw new Error("no seeded note with an assigned provider");
  note = await emulator.get("GET /v1/notes/{noteId}", { params: { noteId: seeded.id } });
  digests = await sectionDigestsOf(note);
  const provider = note.assignedProviders[0];
  if (!provider) throw new Error("unreachable");
  colleague = { id: provider.id, name: tandemUserName(note, provider.id) ?? "" };
  emulator.emulator.close();
});

function viewOf(shown: Note, shownDigests: SectionDigests): NoteView {
  return { organizationId: ORG_A_ID, userId: ME, noteId: shown.id, fields: writableValues(shown), sectionDigests: shownDigests, noteUpdatedAt: shown.updatedAt, seenAt: SEEN_AT };
}

function withSticky(text: string): Note {
  return { ...note, soapNote: { ...note.soapNote, stickyNote: { ...note.soapNote.stickyNote, description: text } } };
}

/** A clinician's person key (ADR 0024): the same whichever account they signed in with. */
const person = (providerId: string) => personKeyOf({ providerId, accountId: `account-of-${providerId}` });
const write = (userId: string, traceId: string, at = SEEN_AT + 1000, accountId: string | null = `account ${traceId}`): AuditEntry => ({
  at,
  organizationId: ORG_A_ID,
  userId,
  accountId,
  action: "write",
  resourceType: "note",
  resourceId: note.id,
  traceId,
});
const fieldWrite = (userId: string, traceId: string, field: "stickyNoteDescription" | "otherExamComments" = "stickyNoteDescription"): AuditEntry => ({
  ...write(userId, traceId),
  resourceType: NOTE_FIELD_RESOURCE_TYPE,
  resourceId: noteFieldResourceId(note.id, field),
});

function input(overrides: Partial<NoteChangesInput>): NoteChangesInput {
  return { view: viewOf(note, digests), note, digests, noteWrites: [], fieldWrites: [], caller: { userId: person(ME), accountId: ME }, ...overrides };
}

describe("describeNoteChanges", () => {
  it("says nothing on a first view", () => {
    expect(describeNoteChanges(input({ view: null, note: withSticky("changed") }))).toEqual({ lastSeenAt: null, noteUpdatedAt: note.updatedAt, fields: [], sections: [] });
  });

  it("says nothing when nothing changed, whoever wrote the note since", () => {
    expect(describeNoteChanges(input({ noteWrites: [write(person(STRANGER), "t1")] }))).toEqual({ lastSeenAt: new Date(SEEN_AT).toISOString(), noteUpdatedAt: note.updatedAt, fields: [], sections: [] });
  });

  it("gives a field that changed with no Tandem write to the EHR, with before and after", () => {
    const after = withSticky("Call the son instead.");
    const changes = describeNoteChanges(input({ note: after }));
    expect(changes.fields).toEqual([{ field: "stickyNoteDescription", before: note.soapNote.stickyNote.description, after: "Call the son instead.", attribution: "ehr", changedBy: [{ kind: "ehr" }] }]);
  });

  it("names the Tandem users who wrote that field: you, a colleague the note names, others counted", () => {
    const after = withSticky("Changed in Tandem.");
    const changes = describeNoteChanges(
      input({
        note: after,
        noteWrites: [write(person(colleague.id), "t1"), write(person(ME), "t2"), write(person(STRANGER), "t3"), write(person(ME), "t4")],
        fieldWrites: [fieldWrite(person(colleague.id), "t1"), fieldWrite(person(ME), "t2"), fieldWrite(person(STRANGER), "t3"), fieldWrite(person(ME), "t4", "otherExamComments")],
      }),
    );
    expect(changes.fields).toEqual([
      expect.objectContaining({ field: "stickyNoteDescription", attribution: "tandem", changedBy: [{ kind: "you" }, { kind: "tandem_user", name: colleague.name }, { kind: "other_tandem_users", count: 1 }] }),
    ]);
    expect(colleague.name).not.toBe("");
  });

  it("counts the caller's entries from before person keys (under the account they signed in with) as theirs, and names a colleague's by the id they carry", () => {
    const after = withSticky("Changed in Tandem before person keys.");
    const before = (userId: string, traceId: string): AuditEntry[] => [write(userId, traceId, SEEN_AT + 1000, null), { ...fieldWrite(userId, traceId), accountId: null }];
    const [mine, theirs, someone] = [before(ME, "t1"), before(colleague.id, "t2"), before(STRANGER, "t3")];
    const changes = describeNoteChanges(
      input({ note: after, noteWrites: [mine[0], theirs[0], someone[0]].flatMap((entry) => (entry ? [entry] : [])), fieldWrites: [mine[1], theirs[1], someone[1]].flatMap((entry) => (entry ? [entry] : [])) }),
    );
    expect(changes.fields).toEqual([
      expect.objectContaining({ attribution: "tandem", changedBy: [{ kind: "you" }, { kind: "tandem_user", name: colleague.name }, { kind: "other_tandem_users", count: 1 }] }),
    ]);
  });

  it("gives a field Tandem wrote another field of to the EHR", () => {
    const after = withSticky("Changed in the EHR.");
    const changes = describeNoteChanges(input({ note: after, noteWrites: [write(person(ME), "t1")], fieldWrites: [fieldWrite(person(ME), "t1", "otherExamComments")] }));
    expect(changes.fields).toEqual([expect.objectContaining({ attribution: "ehr", changedBy: [{ kind: "ehr" }] })]);
  });

  it("names both when a Tandem write has no record of its fields", () => {
    const after = withSticky("Who did this?");
    const changes = describeNoteChanges(input({ note: after, noteWrites: [write(person(STRANGER), "t1")] }));
    expect(changes.fields).toEqual([expect.objectContaining({ attribution: "unclear", changedBy: [{ kind: "other_tandem_users", count: 1 }, { kind: "ehr" }] })]);
  });

  it("lists the sections whose other content changed", async () => {
    const after: Note = { ...note, soapNote: { ...note.soapNote, followUp: [...note.soapNote.followUp, { description: "Return in 2 weeks." }] } };
    const changes = describeNoteChanges(input({ note: after, digests: await sectionDigestsOf(after) }));
    expect(changes.sections).toEqual([{ id: "follow-up" }]);
    expect(changes.fields).toEqual([]);
  });
});

describe("tandemUserName", () => {
  it("names an assigned provider in any id form, and no one else", () => {
    const provider = note.assignedProviders[0];
    if (!provider) throw new Error("unreachable");
    expect(tandemUserName(note, provider.id.toUpperCase())).toBe(colleague.name);
    expect(tandemUserName(note, STRANGER)).toBeNull();
  });

  it("falls back on the care team's name for the same username, then the username", () => {
    const provider = note.assignedProviders[0];
    if (!provider) throw new Error("unreachable");
    const blank = { ...provider, firstName: " ", lastName: "", displayFirstName: "", displayLastName: "", username: "mchen" };
    const careTeam = { ...note.soapNote.careTeam, physician: { id: "21437", fullName: "Maria Chen, MD", firstName: "Maria", lastName: "Chen", username: "MChen" } };
    expect(tandemUserName({ assignedProviders: [blank], soapNote: { ...note.soapNote, careTeam } }, provider.id)).toBe("Maria Chen, MD");
    expect(tandemUserName({ assignedProviders: [blank], soapNote: { ...note.soapNote, careTeam: { physician: null, primaryBiller: null, attendees: [] } } }, provider.id)).toBe("mchen");
  });
});
