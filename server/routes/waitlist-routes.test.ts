import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { APP_ERROR_CODES } from "#contract/app-api/errors.ts";
import type { LiveEvent } from "#contract/app-api/live-events.ts";
import { MAX_WAITLIST_NOTE_LENGTH, waitlistEntryResponse, waitlistResponse, type WaitlistPreferences } from "#contract/app-api/waitlist.ts";
import { idKey, isSameId } from "#contract/ids.ts";
import { ORG_A_ID, ORG_B_ID } from "../../emulator/world/identities.ts";
import { dateWindow, errorOf, seededSearchTarget } from "../hardening/testing/fault-matrix-support.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { StoreUnavailableError } from "../store/store-unavailable.ts";
import { dropSchema } from "../store/testing/drop-schema.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";

// GET/POST/PATCH/DELETE /api/waitlist (issue 38): front-desk and scheduler
// roles only, reads too; the patient of a new entry from the host token, its
// name as the EHR gives it; every entry answered or written on the audit
// trail before the answer (a failing audit write refuses the read, with no
// patient in the body); bad bodies refused naming the field; best matches
// from the cached read path, one read per distinct search. PGlite always;
// PostgreSQL when DATABASE_URL is set.

const databaseUrl = process.env.DATABASE_URL;
const engines = [{ name: "pglite", databaseUrl: undefined }, ...(databaseUrl ? [{ name: "postgres", databaseUrl }] : [])];

describe.each(engines)("the waitlist's routes on $name", ({ databaseUrl: url }) => {
  const schema = `waitlist_routes_${randomBytes(4).toString("hex")}`;
  let store: Store;
  let h: BffHarness;
  let typeId: string;
  let facilityId: string;
  let failing = false;
  const published: LiveEvent[] = [];

  beforeAll(async () => {
    store = await createStore(url ? { databaseUrl: url, schema } : {});
    const audited: Store = { ...store, audit: { ...store.audit, record: (entry) => (failing ? Promise.reject(new StoreUnavailableError("timeout")) : store.audit.record(entry)) } };
    h = await createBffHarness(audited);
    ({ typeId, facilityId } = await seededSearchTarget(h));
    h.bff.hub.subscribe(ORG_A_ID, (event) => published.push(event));
    // On PostgreSQL the bus is LISTEN/NOTIFY: listening, as a started BFF is.
    await h.bff.bus.start();
  }, 60_000);

  afterAll(async () => {
    await h.close();
    await store.close();
    if (url) await dropSchema(url, schema);
  });

  beforeEach(async () => {
    failing = false;
    published.length = 0;
    // Every test starts with an empty waitlist: whatever is waiting ends, and every ended entry goes.
    for (const organizationId of [ORG_A_ID, ORG_B_ID]) {
      const waiting = await store.waitlist.listWaiting(organizationId, 10_000);
      await store.waitlist.end(organizationId, waiting.map((entry) => entry.id), "removed", h.now());
    }
    await store.waitlist.purgeEndedBefore(h.now() + 1, 10_000);
  });

  /** Everything published so far has come back through the bus (over NOTIFY on PostgreSQL, in order): a marker sent last has. */
  async function busDelivered(): Promise<void> {
    const markers = () => published.filter((event) => event.type === "directory.changed").length;
    const before = markers();
    h.bff.bus.publish(ORG_A_ID, { type: "directory.changed", resource: "facilities" });
    for (let tries = 0; markers() === before && tries < 500; tries += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  const patientOf = (index: number, organizationId = ORG_A_ID) => {
    const patient = h.emulator.emulator.state.org(organizationId)?.ehr.patients[index];
    if (!patient) throw new Error("no such patient in the seed");
    return patient;
  };
  const tokenAs = (role: string, patientIndex: number | null = 0, organizationId = ORG_A_ID) =>
    h.hostToken({ organizationId, userId: h.userWithRole(role, organizationId), ...(patientIndex === null ? {} : { patientId: patientOf(patientIndex, organizationId).id }) });

  const asked = (overrides: Partial<WaitlistPreferences> = {}): WaitlistPreferences => ({
    appointmentTypeId: typeId,
    slotLengthMinutes: 30,
    isNewPatient: false,
    facilityIds: [facilityId],
    providerIds: null,
    ...dateWindow(14),
    startsFrom: null,
    startsBefore: null,
    days: null,
    note: "prefers a call after 4 pm",
    ...overrides,
  });

  async function add(preferences: WaitlistPreferences = asked(), patientIndex = 0, role = "Front Desk") {
    const response = await h.api("/api/waitlist", { method: "POST", token: await tokenAs(role, patientIndex), body: { preferences } });
    expect(response.status, await response.clone().text()).toBe(200);
    return z.parse(waitlistEntryResponse, await response.json()).entry;
  }

  async function list(role = "Front Desk", organizationId = ORG_A_ID) {
    const response = await h.api("/api/waitlist", { token: await tokenAs(role, 0, organizationId) });
    expect(response.status, await response.clone().text()).toBe(200);
    return z.parse(waitlistResponse, await response.json());
  }

  describe("roles", () => {
    it("serves front-desk and scheduler users, and a clinical role none of it, reads included", async () => {
      await add(asked(), 0, "Front Desk");
      await add(asked(), 1, "Scheduler");
      expect((await list("Scheduler")).entries).toHaveLength(2);
      for (const role of ["Physician", "Nurse Practitioner", "Medical Assistant"]) {
        const read = await h.api("/api/waitlist", { token: await tokenAs(role) });
        expect(read.status).toBe(403);
        expect((await errorOf(read)).code).toBe(APP_ERROR_CODES.roleForbidden);
        const write = await h.api("/api/waitlist", { method: "POST", token: await tokenAs(role), body: { preferences: asked() } });
        expect(write.status).toBe(403);
      }
    });

    it("never shows another organization's waitlist", async () => {
      await add();
      expect((await list("Front Desk", ORG_B_ID)).entries).toEqual([]);
    });
  });

  describe("the patient", () => {
    it("is the host token's, with the EHR's name for them, never one the body names", async () => {
      const patient = patientOf(2);
      const entry = await add(asked(), 2);
      expect(isSameId(entry.patientId, patient.id)).toBe(true);
      expect(entry.patientName).toBe(`${patient.lastName}, ${patient.firstName}`);
      const named = await h.api("/api/waitlist", { method: "POST", token: await tokenAs("Front Desk", 2), body: { preferences: asked(), patientId: patientOf(3).id } });
      expect(named.status).toBe(400);
      expect((await errorOf(named)).message).toMatch(/patientId/);
    });

    it("names who added it as the SPA knows them: the session's user id (a provider's id), not the stored person key", async () => {
      const entry = await add(asked(), 2);
      expect(isSameId(entry.createdBy, h.userWithRole("Front Desk", ORG_A_ID))).toBe(true);
      expect((await list()).entries[0]?.createdBy).toBe(entry.createdBy);
    });

    it("is asked for when no patient is open: 400 naming the problem", async () => {
      const response = await h.api("/api/waitlist", { method: "POST", token: await tokenAs("Front Desk", null), body: { preferences: asked() } });
      expect(response.status).toBe(400);
      expect((await errorOf(response)).message).toMatch(/no patient is open/);
      expect((await list()).entries).toEqual([]);
    });
  });

  describe("validation", () => {
    const refusals: [string, Partial<WaitlistPreferences>, RegExp][] = [
      ["an end before the start", { startDate: "2026-11-25", endDate: "2026-11-24" }, /preferences\.endDate/],
      ["a range over the limit", { startDate: "2026-11-20", endDate: "2027-03-01" }, /preferences\.endDate.*at most 92 days/],
      ["a range already passed", { startDate: "2026-11-01", endDate: "2026-11-10" }, /preferences\.endDate.*passed/],
      ["a date that does not exist", { startDate: "2026-11-31", endDate: "2026-12-01" }, /preferences\.startDate/],
      ["a time window the wrong way round", { startsFrom: "16:00", startsBefore: "12:00" }, /preferences\.startsBefore/],
      ["no facility", { facilityIds: [] }, /facilityIds/],
      ["a note over the limit", { note: "x".repeat(MAX_WAITLIST_NOTE_LENGTH + 1) }, /note/],
      ["a length out of bounds", { slotLengthMinutes: 2 }, /slotLengthMinutes/],
      ["an unknown weekday", { days: ["mon", "someday" as "mon"] }, /days/],
      ["a time of day not HH:MM", { startsFrom: "9:00" }, /^preferences\.startsFrom: must be a time of day HH:MM \(00:00 to 23:59\)$/],
      ["a date not YYYY-MM-DD", { endDate: "12/24/2026" }, /^preferences\.endDate: must be a date YYYY-MM-DD$/],
      ["a facility id that is no id", { facilityIds: ["front desk"] }, /^preferences\.facilityIds\.0: must be an id/],
    ];

    it.each(refusals)("refuses %s with a 400 naming the field", async (_what, overrides, field) => {
      const response = await h.api("/api/waitlist", { method: "POST", token: await tokenAs("Front Desk"), body: { preferences: asked(overrides) } });
      expect(response.status).toBe(400);
      expect((await errorOf(response)).message).toMatch(field);
    });

    it("refuses a bad body on PATCH too, and an id that is no UUID", async () => {
      const entry = await add();
      const patch = await h.api(`/api/waitlist/${entry.id}`, { method: "PATCH", token: await tokenAs("Front Desk"), body: { preferences: asked({ startsFrom: "25:00" }) } });
      expect(patch.status).toBe(400);
      expect((await errorOf(patch)).message).toBe("preferences.startsFrom: must be a time of day HH:MM (00:00 to 23:59)");
      const badId = await h.api("/api/waitlist/not-a-uuid", { method: "DELETE", token: await tokenAs("Front Desk") });
      expect(badId.status).toBe(400);
      expect((await errorOf(badId)).message).toMatch(/entryId/);
    });
  });

  describe("the list, edits and ends", () => {
    it("lists waiting entries longest waiting first, edits one whole, removes one, and says so live each time", async () => {
      const first = await add(asked(), 0);
      h.advanceClocks(1);
      const second = await add(asked({ note: "mornings only" }), 1);
      expect((await list()).entries.map((entry) => entry.id)).toEqual([first.id, second.id]);

      const patch = await h.api(`/api/waitlist/${second.id}`, { method: "PATCH", token: await tokenAs("Scheduler"), body: { preferences: asked({ startsBefore: "12:00", note: "" }) } });
      expect(patch.status).toBe(200);
      const edited = z.parse(waitlistEntryResponse, await patch.json()).entry;
      expect(edited.preferences.startsBefore).toBe("12:00");
      expect(edited.patientId).toBe(second.patientId);

      const removed = await h.api(`/api/waitlist/${first.id}`, { method: "DELETE", token: await tokenAs("Front Desk") });
      expect(await removed.json()).toEqual({ ended: "removed" });
      expect((await list()).entries.map((entry) => entry.id)).toEqual([second.id]);
      expect((await store.waitlist.get(ORG_A_ID, first.id))?.endReason).toBe("removed");
      const again = await h.api(`/api/waitlist/${first.id}`, { method: "DELETE", token: await tokenAs("Front Desk") });
      expect(again.status).toBe(404);
      await busDelivered();
      expect(published.filter((event) => event.type === "waitlist.changed")).toHaveLength(4);
    });

    it("answers the entry already waiting when the same patient is added again with the same wish (a retry, a second tab, a double click), and adds a different wish", async () => {
      const first = await add(asked({ facilityIds: [idKey(facilityId)] }), 0);
      const [again, atOnce] = await Promise.all([add(asked({ note: " prefers a call after 4 pm " }), 0), add(asked(), 0, "Scheduler")]);
      expect([again.id, atOnce.id]).toEqual([first.id, first.id]);
      const other = await add(asked({ startsBefore: "12:00" }), 0);
      expect(other.id).not.toBe(first.id);
      expect((await list()).entries.map((entry) => entry.id).sort()).toEqual([first.id, other.id].sort());
    });

    it("ends an entry whose range has passed when the list is read", async () => {
      const at = h.now();
      await store.waitlist.add(
        { id: "5b0c1a7e-3f2d-4e6a-9b8c-7d6e5f4a3b21", organizationId: ORG_A_ID, patientId: patientOf(4).id, patientName: null, preferences: asked({ startDate: "2026-11-01", endDate: "2026-11-10" }), createdBy: "someone", createdAt: at, updatedAt: at, endedAt: null, endReason: null },
        10,
      );
      expect((await list()).entries).toEqual([]);
      expect((await store.waitlist.get(ORG_A_ID, "5b0c1a7e-3f2d-4e6a-9b8c-7d6e5f4a3b21"))?.endReason).toBe("range_passed");
      await busDelivered();
      expect(published).toContainEqual({ type: "waitlist.changed" });
    });

    it("gives each entry its best match from the cached slots, one read per distinct search, never a strong one", async () => {
      const search = await h.api(`/api/slots?${new URLSearchParams({ appointmentTypeId: typeId, facilityIds: facilityId, ...dateWindow(14) }).toString()}`, { token: await tokenAs("Front Desk") });
      const { slots } = z.parse(z.object({ slots: z.array(z.object({ startsAt: z.string(), endsAt: z.string() })) }), await search.json());
      const minutes = slots[0] ? (Date.parse(slots[0].endsAt) - Date.parse(slots[0].startsAt)) / 60_000 : 30;
      await add(asked({ slotLengthMinutes: minutes }), 0);
      await add(asked({ slotLengthMinutes: minutes }), 1);
      const before = h.upstream.length;
      const { entries } = await list();
      const reads = h.upstream.slice(before).filter((call) => call.path === "/v2/schedule/slots");
      expect(reads.length).toBeLessThanOrEqual(1);
      expect(reads.every((call) => !call.url.includes("consistency=strong"))).toBe(true);
      expect(entries.every((entry) => entry.bestMatch !== null && entry.bestMatchSearch === "looked")).toBe(true);
      expect(entries[0]?.bestMatch).toEqual(entries[1]?.bestMatch);
    });

    it("says a best match was not found out when the slots cannot be read, never that none fits, and answers the list all the same", async () => {
      // A length no other test searches: a read of its own, not one an earlier test left in the BFF's cache.
      await add(asked({ slotLengthMinutes: 55 }), 0);
      // The read and its two retries (DEFAULT_RETRY), and nothing left for the tests after.
      await h.fault({ method: "GET", path: "/v2/schedule/slots", status: 503, count: 3 });
      const { entries } = await list();
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ bestMatch: null, bestMatchSearch: "failed" });
    });
  });

  describe("the audit trail", () => {
    it("records each entry read before the answer, and each write", async () => {
      const entry = await add();
      const rows = async () => (await store.audit.list(ORG_A_ID)).filter((row) => row.resourceType === "waitlist_entry" && row.resourceId === entry.id);
      expect((await rows()).map((row) => row.action)).toEqual(["write"]);
      await list();
      // Read at once: no flush, no wait.
      expect((await rows()).map((row) => row.action).sort()).toEqual(["read", "write"]);
    });

    it("refuses the list 503 store_unavailable, with no patient in the body, when the read cannot be recorded", async () => {
      const patient = patientOf(0);
      await add(asked(), 0);
      failing = true;
      const response = await h.api("/api/waitlist", { token: await tokenAs("Front Desk") });
      expect(response.status).toBe(503);
      const body = await errorOf(response);
      expect(body.code).toBe(APP_ERROR_CODES.storeUnavailable);
      expect(body.text).not.toContain(patient.lastName);
    });
  });
});
