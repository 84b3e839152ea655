import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { APP_ERROR_CODES, appErrorBody } from "#contract/app-api/errors.ts";
import { noteChangesResponse, type NoteViewPutRequest } from "#contract/app-api/note-changes.ts";
import { noteDraftResponse, noteResponse } from "#contract/app-api/note.ts";
import { recentNotesResponse } from "#contract/app-api/recent-notes.ts";
import { appointmentTypesResponse } from "#contract/app-api/session.ts";
import { heldSlotsResponse, holdResponse, MAX_ACTIVE_HOLDS, slotSearchResponse, type SlotSelection } from "#contract/app-api/slots.ts";
import { writableValues } from "#contract/clinic-api/note.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { sectionDigestsOf } from "#contract/note/section-digests.ts";
import { sandboxAccounts, type SandboxAccount } from "../../emulator/oauth/accounts.ts";
import { ORG_A_ID } from "../../emulator/world/identities.ts";
import type { EhrNote } from "../../emulator/world/types.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { dropSchema } from "../store/testing/drop-schema.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";
import { signInStandalone, type StandaloneUser } from "../testing/standalone-sign-in.ts";

// Issue 35 item 6, ADR 0024: the same clinician signed in outside the EHR
// and working inside it is one user. Holds (and their limit), the draft of a
// note, the last view of it and the recent notes are that person's, whichever
// way they came in; the audit trail still names the account that acted.
// PGlite always; PostgreSQL when DATABASE_URL is set.

const databaseUrl = process.env.DATABASE_URL;
const engines = [{ name: "pglite", databaseUrl: undefined }, ...(databaseUrl ? [{ name: "postgres", databaseUrl }] : [])];

describe.each(engines)("one person is one user, on $name", ({ databaseUrl: url }) => {
  const schema = `one_person_${randomBytes(4).toString("hex")}`;
  let store: Store;
  let h: BffHarness;
  let typeId: string;
  const takenSlots = new Set<string>();

  beforeAll(async () => {
    store = await createStore(url ? { databaseUrl: url, schema } : {});
    h = await createBffHarness(store);
    const { appointmentTypes } = z.parse(appointmentTypesResponse, await (await h.api("/api/appointment-types", { token: await h.hostToken() })).json());
    const type = appointmentTypes[0];
    if (!type) throw new Error("no appointment types");
    typeId = type.id;
  }, 60_000);

  afterAll(async () => {
    await h.close();
    await store.close();
    if (url) await dropSchema(url, schema);
  });

  function orgA() {
    const org = h.emulator.emulator.state.org(ORG_A_ID);
    if (!org) throw new Error("no org A");
    return org;
  }

  /** Unsigned notes assigned to the provider. */
  const notesOf = (providerId: string): EhrNote[] =>
    orgA().ehr.notes.filter((note) => note.status !== "signed" && note.assignedProviders.some((provider) => provider.id === providerId));

  /** The `skip`th physician of org A with `notes` unsigned notes: their account (signed in outside the EHR) and their provider id (the host token's `sub` and `provider_id`). */
  function physician(skip = 0, notes = 3): { account: SandboxAccount; providerId: string } {
    let skipped = 0;
    for (const account of sandboxAccounts(h.emulator.emulator.state)) {
      const membership = account.memberships.find((candidate) => candidate.organizationId === ORG_A_ID && candidate.roles.includes("Physician"));
      if (membership === undefined || notesOf(membership.providerId).length < notes) continue;
      if (skipped++ === skip) return { account, providerId: membership.providerId };
    }
    throw new Error(`the seed has too few physicians of org A with ${notes} unsigned notes`);
  }

  const inEhr = async (providerId: string, path: string, init: { method?: string; body?: unknown; noteId?: string } = {}) =>
    h.api(path, { token: await h.hostToken({ userId: providerId, ...(init.noteId ? { noteId: init.noteId } : {}) }), method: init.method ?? "GET", body: init.body });

  /** Free slots three to five weeks ahead, one per provider and day (slots of one provider and day can overlap). */
  async function freeSlots(count: number): Promise<Slot[]> {
    const start = new Date(h.now() + 21 * 86_400_000).toISOString().slice(0, 10);
    const end = new Date(h.now() + 34 * 86_400_000).toISOString().slice(0, 10);
    const response = await h.api(`/api/slots?${new URLSearchParams({ appointmentTypeId: typeId, startDate: start, endDate: end }).toString()}`, { token: await h.hostToken() });
    expect(response.status).toBe(200);
    const { slots } = z.parse(slotSearchResponse, await response.json());
    const picked: Slot[] = [];
    for (const slot of slots) {
      const key = `${slot.providerId}|${slot.startsAt.slice(0, 10)}`;
      if (picked.length === count) break;
      if (slot.remainingCapacity === 0 || takenSlots.has(key)) continue;
      takenSlots.add(key);
      picked.push(slot);
    }
    if (picked.length < count) throw new Error(`fewer than ${count} free slots`);
    return picked;
  }
  const selectionOf = (slot: Slot): SlotSelection => ({ providerId: slot.providerId, facilityId: slot.facilityId, startsAt: slot.startsAt, endsAt: slot.endsAt, appointmentTypeId: typeId });

  async function holdsListed(response: Response): Promise<string[]> {
    expect(response.status, await response.clone().text()).toBe(200);
    return z.parse(heldSlotsResponse, await response.json()).holds.map((held) => held.id);
  }

  it("lists a hold made inside the EHR outside it and the other way round, counts them against one limit, and lets either release them", async () => {
    const { account, providerId } = physician();
    const outside = await signInStandalone(h, account.id, ORG_A_ID);
    const slots = await freeSlots(MAX_ACTIVE_HOLDS + 1);
    const made: string[] = [];
    for (const [index, slot] of slots.slice(0, MAX_ACTIVE_HOLDS).entries()) {
      // Two inside the EHR, the third outside it.
      const response = index < MAX_ACTIVE_HOLDS - 1 ? await inEhr(providerId, "/api/holds", { method: "POST", body: selectionOf(slot) }) : await outside.api("/api/holds", { method: "POST", body: selectionOf(slot) });
      expect(response.status, await response.clone().text()).toBe(200);
      made.push(z.parse(holdResponse, await response.json()).hold.id);
    }

    expect((await holdsListed(await outside.api("/api/holds"))).sort()).toEqual([...made].sort());
    expect((await holdsListed(await inEhr(providerId, "/api/holds"))).sort()).toEqual([...made].sort());

    // A fourth is refused from either side, before the service is asked.
    const last = slots[MAX_ACTIVE_HOLDS];
    if (!last) throw new Error("no slot left");
    for (const attempt of [() => outside.api("/api/holds", { method: "POST", body: selectionOf(last) }), () => inEhr(providerId, "/api/holds", { method: "POST", body: selectionOf(last) })]) {
      const refused = await attempt();
      expect(refused.status).toBe(409);
      expect(z.parse(appErrorBody, await refused.json()).code).toBe("hold_limit_reached");
    }

    // The one made outside is released inside, and one made inside is released outside.
    const [fromEhr, , fromOutside] = made as [string, string, string];
    expect((await inEhr(providerId, `/api/holds/${fromOutside}`, { method: "DELETE" })).status).toBe(200);
    expect((await outside.api(`/api/holds/${fromEhr}`, { method: "DELETE" })).status).toBe(200);
    expect(await holdsListed(await outside.api("/api/holds"))).toEqual([made[1]]);

    // Someone else still cannot see or release it.
    const other = orgA().ehr.providers.find((provider) => !provider.hidden && provider.id !== providerId && provider.roles.includes("Physician"));
    if (!other) throw new Error("no other physician");
    expect(await holdsListed(await inEhr(other.id, "/api/holds"))).toEqual([]);
    const refused = await inEhr(other.id, `/api/holds/${made[1] ?? ""}`, { method: "DELETE" });
    expect(refused.status).toBe(403);
    expect(z.parse(appErrorBody, await refused.json()).code).toBe(APP_ERROR_CODES.notOwner);
    expect((await outside.api(`/api/holds/${made[1] ?? ""}`, { method: "DELETE" })).status).toBe(200);
  });

  it("keeps one draft of a note, whichever side wrote it", async () => {
    const { account, providerId } = physician();
    const outside = await signInStandalone(h, account.id, ORG_A_ID);
    const note = notesOf(providerId)[0] as EhrNote;
    const typed = { fields: { otherExamComments: "Typed inside the EHR" }, baseline: { otherExamComments: note.soapNote.exam.otherExamComments }, noteVersion: note.version };
    expect((await inEhr(providerId, `/api/notes/${note.id}/draft`, { method: "PUT", body: typed, noteId: note.id })).status).toBe(200);

    const read = await outside.api(`/api/notes/${note.id}/draft`);
    expect(read.status).toBe(200);
    expect(z.parse(noteDraftResponse, await read.json()).draft?.fields).toEqual(typed.fields);

    // Discarded outside: gone inside too.
    expect((await outside.api(`/api/notes/${note.id}/draft`, { method: "DELETE" })).status).toBe(200);
    const after = await inEhr(providerId, `/api/notes/${note.id}/draft`, { noteId: note.id });
    expect(z.parse(noteDraftResponse, await after.json()).draft).toBeNull();
  });

  it("remembers one last view of a note: what changed since is the same question inside and outside the EHR", async () => {
    const { account, providerId } = physician();
    const outside = await signInStandalone(h, account.id, ORG_A_ID);
    const note = notesOf(providerId)[1] as EhrNote;
    const shown = z.parse(noteResponse, await (await inEhr(providerId, `/api/notes/${note.id}`, { noteId: note.id })).json()).note;
    const body: NoteViewPutRequest = { noteUpdatedAt: shown.updatedAt, fields: writableValues(shown), sectionDigests: await sectionDigestsOf(shown) };
    const viewed = await inEhr(providerId, `/api/notes/${note.id}/view`, { method: "PUT", body, noteId: note.id });
    expect(viewed.status).toBe(200);
    const { seenAt } = z.parse(z.object({ seenAt: z.string() }), await viewed.json());

    const changes = await outside.api(`/api/notes/${note.id}/changes`);
    expect(changes.status).toBe(200);
    expect(z.parse(noteChangesResponse, await changes.json()).lastSeenAt).toBe(seenAt);
  });

  it("lists outside the EHR the notes edited inside it, as edited; the audit trail names the account that acted each time", async () => {
    const { account, providerId } = physician();
    const notes = notesOf(providerId);
    const edited = notes[2] as EhrNote;
    h.advanceClocks(1);
    const saved = await inEhr(providerId, `/api/notes/${edited.id}`, { method: "PATCH", body: { otherExamComments: `Saved inside the EHR ${randomBytes(3).toString("hex")}` }, noteId: edited.id });
    expect(saved.status, await saved.clone().text()).toBe(200);

    const outside: StandaloneUser = await signInStandalone(h, account.id, ORG_A_ID);
    const recent = await outside.api("/api/notes/recent");
    expect(recent.status, await recent.clone().text()).toBe(200);
    const listed = z.parse(recentNotesResponse, await recent.json()).notes;
    expect(listed[0]).toMatchObject({ noteId: edited.id, edited: true });

    const trail = (await store.audit.list(ORG_A_ID)).filter((entry) => entry.resourceId === edited.id);
    const write = trail.find((entry) => entry.resourceType === "note" && entry.action === "write");
    const summary = trail.find((entry) => entry.resourceType === "note_summary");
    expect(write?.userId).toBe(summary?.userId);
    expect(write?.accountId).toBe(providerId);
    expect(summary?.accountId).toBe(account.id);
  });

  it("keeps what the account had before person keys: its holds, drafts and recent notes are the person's once the account is seen", async () => {
    // A physician no other test here signs in with: the BFF moves an account's rows the first time it sees it.
    const { account, providerId } = physician(1, 2);
    const [drafted, opened] = notesOf(providerId) as [EhrNote, EhrNote];
    const [slot] = await freeSlots(1);
    if (!slot) throw new Error("no slot");
    // What the BFF kept before: a hold made inside the EHR under the host token's `sub`, a draft typed outside
    // it and a note opened there under the standalone account's `sub`, the audit entry without an account.
    // Made at the service by someone else (this BFF must not see the physician yet), then filed as the physician's.
    const held = await h.api("/api/holds", { token: await h.hostToken({ userId: h.userWithRole("Front Desk") }), method: "POST", body: selectionOf(slot) });
    expect(held.status).toBe(200);
    const holdId = z.parse(holdResponse, await held.json()).hold.id;
    const hold = await store.holds.get(ORG_A_ID, holdId);
    if (!hold) throw new Error("the hold was not recorded");
    await store.holds.delete(ORG_A_ID, holdId);
    await store.holds.insert({ ...hold, userId: providerId });
    await store.noteDrafts.put({ organizationId: ORG_A_ID, userId: account.id, noteId: drafted.id, fields: { otherExamComments: "Typed before" }, baseline: { otherExamComments: "" }, noteVersion: drafted.version, updatedAt: h.now() });
    await store.audit.record({ at: h.now(), organizationId: ORG_A_ID, userId: account.id, accountId: null, action: "read", resourceType: "note", resourceId: opened.id, traceId: "before-person-keys" });

    // Inside the EHR: the hold is listed, and so is the draft typed outside once the account has signed in there.
    expect(await holdsListed(await inEhr(providerId, "/api/holds"))).toEqual([holdId]);
    const outside = await signInStandalone(h, account.id, ORG_A_ID);
    expect(await holdsListed(await outside.api("/api/holds"))).toEqual([holdId]);
    const draft = await inEhr(providerId, `/api/notes/${drafted.id}/draft`, { noteId: drafted.id });
    expect(z.parse(noteDraftResponse, await draft.json()).draft?.fields).toEqual({ otherExamComments: "Typed before" });
    const recent = await outside.api("/api/notes/recent");
    expect(recent.status).toBe(200);
    expect(z.parse(recentNotesResponse, await recent.json()).notes.map((note) => note.noteId)).toContain(opened.id);
    expect((await outside.api(`/api/holds/${holdId}`, { method: "DELETE" })).status).toBe(200);
  });
});
