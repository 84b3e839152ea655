import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { appErrorBody } from "#contract/app-api/errors.ts";
import { recentNotesResponse, type RecentNotesResponse } from "#contract/app-api/recent-notes.ts";
import { findMultiOrgAccount, findSingleOrgAccount, sandboxAccounts, type SandboxAccount } from "../../emulator/oauth/accounts.ts";
import { ORG_A_ID, ORG_B_ID } from "../../emulator/world/identities.ts";
import type { EhrNote } from "../../emulator/world/types.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";
import { signInStandalone, type StandaloneUser } from "../testing/standalone-sign-in.ts";

// GET /api/notes/recent against the emulator, signed in outside the EHR: the
// user's own notes of this organization from the audit trail, newest first,
// each once, read afresh with the signed state Tandem knows laid over; notes
// no longer assigned, deleted or refused left out; another user's or
// organization's never listed; refused inside the EHR and to other roles.

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
});

function orgA() {
  const org = harness.emulator.emulator.state.org(ORG_A_ID);
  if (!org) throw new Error("no org A");
  return org;
}

function providerIn(account: SandboxAccount, organizationId: string): string {
  const membership = account.memberships.find((candidate) => candidate.organizationId === organizationId);
  if (!membership) throw new Error(`${account.displayName} has no provider in ${organizationId}`);
  return membership.providerId;
}

/** The notes assigned to the provider in org A, unsigned ones first (signing is one-way, and the store outlives the emulator's reset). */
function notesOf(providerId: string): EhrNote[] {
  const assigned = orgA().ehr.notes.filter((note) => note.assignedProviders.some((provider) => provider.id === providerId));
  return [...assigned.filter((note) => note.status !== "signed"), ...assigned.filter((note) => note.status === "signed")];
}

/** The physician who is an account in org A and org B, signed in to org A, with their notes there. */
async function physician(): Promise<{ user: StandaloneUser; account: SandboxAccount; notes: EhrNote[] }> {
  const account = findMultiOrgAccount(harness.emulator.emulator.state);
  const user = await signInStandalone(harness, account.id, ORG_A_ID);
  return { user, account, notes: notesOf(providerIn(account, ORG_A_ID)) };
}

/** Opens the note as the note view does; a second apart, so the trail's order is the test's. */
async function open(user: StandaloneUser, noteId: string): Promise<void> {
  harness.advanceClocks(1);
  const response = await user.api(`/api/notes/${noteId}`);
  expect(response.status, await response.clone().text()).toBe(200);
}

async function recentOf(user: StandaloneUser): Promise<RecentNotesResponse> {
  const response = await user.api("/api/notes/recent");
  expect(response.status, await response.clone().text()).toBe(200);
  return z.parse(recentNotesResponse, await response.json());
}

function pick<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`the seed has too few notes (wanted #${index + 1})`);
  return item;
}

/** Takes the note out of both the EHR and the service's mirror, as a deletion in the EHR that has synced. */
function deleteNote(noteId: string): void {
  const org = orgA();
  org.ehr.notes = org.ehr.notes.filter((note) => note.id !== noteId);
  org.mirror.notes.delete(noteId);
}

describe("GET /api/notes/recent", () => {
  it("lists the notes the user opened or edited, newest first, each once, as the service has them now; and audits what it showed", async () => {
    const { user, notes } = await physician();
    const [first, second, third] = [pick(notes, 0), pick(notes, 1), pick(notes, 2)];
    await open(user, first.id);
    await open(user, second.id);
    await open(user, third.id);
    await open(user, second.id);
    // A draft is an edit: it moves the note up and marks it edited.
    harness.advanceClocks(1);
    const draft = await user.api(`/api/notes/${first.id}/draft`, { method: "PUT", body: { fields: { otherExamComments: "Typed outside the EHR" }, baseline: { otherExamComments: first.soapNote.exam.otherExamComments }, noteVersion: first.version } });
    expect(draft.status).toBe(200);

    const { notes: listed, meta } = await recentOf(user);
    expect(listed.slice(0, 3).map((note) => note.noteId)).toEqual([first.id, second.id, third.id]);
    expect(new Set(listed.map((note) => note.noteId)).size).toBe(listed.length);
    expect(listed.map((note) => Date.parse(note.lastOpenedAt))).toEqual(listed.map((note) => Date.parse(note.lastOpenedAt)).sort((a, b) => b - a));
    expect(listed.slice(0, 3).map((note) => note.edited)).toEqual([true, false, false]);
    expect(meta.limit).toBe(15);

    const row = listed[1];
    expect(row).toEqual({
      noteId: second.id,
      patient: { firstName: second.patient.firstName, middleName: second.patient.middleName ?? null, lastName: second.patient.lastName },
      visitAt: new Date(Date.parse(second.visitDate.replace(" ", "T").replace("+00", "Z"))).toISOString(),
      facility: { id: second.facility.id, name: second.facility.name, timezone: second.facility.timezone },
      status: second.status,
      lastOpenedAt: expect.any(String) as string,
      edited: false,
    });

    await store.audit.flush();
    const summaries = (await store.audit.list(ORG_A_ID)).filter((entry) => entry.resourceType === "note_summary" && entry.action === "read");
    expect(summaries.map((entry) => entry.resourceId)).toEqual(expect.arrayContaining([first.id, second.id, third.id]));
    // Listing is not opening: the list's own reads do not reorder it.
    expect((await recentOf(user)).notes.map((note) => note.noteId)).toEqual(listed.map((note) => note.noteId));
    await user.api(`/api/notes/${first.id}/draft`, { method: "DELETE" });
  });

  it("never lists another user's notes, nor another organization's", async () => {
    const { user: physicianUser, notes } = await physician();
    const mine = pick(notes, 0);
    await open(physicianUser, mine.id);

    // A colleague in org A with a note of their own (a Nurse Practitioner: a clinical role too).
    const colleagueAccount = sandboxAccounts(harness.emulator.emulator.state).find(
      (account) => account.memberships.length === 1 && account.memberships[0]?.roles.includes("Nurse Practitioner") && notesOf(providerIn(account, ORG_A_ID)).some((note) => note.id !== mine.id),
    );
    if (!colleagueAccount) throw new Error("the seed has no nurse practitioner in org A with a note");
    const colleague = await signInStandalone(harness, colleagueAccount.id, ORG_A_ID);
    const theirs = pick(notesOf(providerIn(colleagueAccount, ORG_A_ID)).filter((note) => note.id !== mine.id), 0);
    await open(colleague, theirs.id);
    const colleagueList = (await recentOf(colleague)).notes.map((note) => note.noteId);
    expect(colleagueList).toContain(theirs.id);
    expect(colleagueList).not.toContain(mine.id);
    expect((await recentOf(physicianUser)).notes.map((note) => note.noteId)).not.toContain(theirs.id);

    // The same person (one account, one user id) in org B sees only what they opened there.
    await physicianUser.chooseOrganization(ORG_B_ID);
    const orgB = harness.emulator.emulator.state.org(ORG_B_ID);
    const providerInB = providerIn(findMultiOrgAccount(harness.emulator.emulator.state), ORG_B_ID);
    const inB = orgB?.ehr.notes.find((note) => note.assignedProviders.some((provider) => provider.id === providerInB));
    if (!inB) throw new Error("the physician has no note in org B");
    await open(physicianUser, inB.id);
    expect((await recentOf(physicianUser)).notes.map((note) => note.noteId)).toEqual([inB.id]);
  });

  it("leaves out a note no longer assigned to the user, and one the service no longer has", async () => {
    const { user, account, notes } = await physician();
    const [kept, reassigned, deleted] = [pick(notes, 0), pick(notes, 1), pick(notes, 2)];
    for (const note of [kept, reassigned, deleted]) await open(user, note.id);

    const providerId = providerIn(account, ORG_A_ID);
    const withoutUser = (note: EhrNote) => ({ ...note, assignedProviders: note.assignedProviders.filter((provider) => provider.id !== providerId) });
    const org = orgA();
    org.ehr.notes = org.ehr.notes.map((note) => (note.id === reassigned.id ? withoutUser(note) : note));
    org.mirror.notes.set(reassigned.id, withoutUser(reassigned));
    deleteNote(deleted.id);

    const { notes: listed, meta } = await recentOf(user);
    const ids = listed.map((note) => note.noteId);
    expect(ids).toContain(kept.id);
    expect(ids).not.toContain(reassigned.id);
    expect(ids).not.toContain(deleted.id);
    expect(meta.unavailable).toBeGreaterThanOrEqual(2);
  });

  it("fails as a whole, clearly, when the service fails, and lists again once it is back", async () => {
    const { user, notes } = await physician();
    await open(user, pick(notes, 0).id);
    await harness.emulator.sandbox("POST", "/faults", { method: "GET", path: "/v1/notes/{noteId}", code: "server_unresponsive" });
    const failed = await user.api("/api/notes/recent");
    expect(failed.status).toBe(503);
    expect(z.parse(appErrorBody, await failed.json()).code).toBe("server_unresponsive");
    await harness.emulator.sandbox("DELETE", "/faults");
    expect((await recentOf(user)).notes.map((note) => note.noteId)).toContain(pick(notes, 0).id);
  });

  it("says signed for a note the service once said is signed, while its mirror still lags", async () => {
    const { user, notes } = await physician();
    const note = notes.filter((candidate) => candidate.status === "awaiting_sign").at(-1);
    if (!note) throw new Error("the physician has no note awaiting signature");
    await open(user, note.id);
    await harness.emulator.sandbox("POST", `/ehr/${ORG_A_ID}/notes/${note.id}/sign`, {});
    // The EHR refuses the save as signed before the service's mirror knows: Tandem records it.
    const save = await user.api(`/api/notes/${note.id}`, { method: "PATCH", body: { otherExamComments: "Too late" } });
    expect(save.status).toBe(409);
    expect(orgA().mirror.notes.get(note.id)?.status).toBe("awaiting_sign");

    const row = (await recentOf(user)).notes.find((candidate) => candidate.noteId === note.id);
    expect(row?.status).toBe("signed");
  });

  it("is refused inside the EHR, and to a role that does not read notes", async () => {
    const { notes } = await physician();
    const hosted = await harness.api("/api/notes/recent", { token: await harness.hostToken({ noteId: pick(notes, 0).id }) });
    expect(hosted.status).toBe(403);
    expect(z.parse(appErrorBody, await hosted.json()).message).toMatch(/Inside the EHR/);

    const frontDesk = await signInStandalone(harness, findSingleOrgAccount(harness.emulator.emulator.state, ORG_A_ID, "Front Desk").id, ORG_A_ID);
    const refused = await frontDesk.api("/api/notes/recent");
    expect(refused.status).toBe(403);
    expect(z.parse(appErrorBody, await refused.json()).code).toBe("role_forbidden");
  });
});
