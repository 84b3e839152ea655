import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { appErrorBody } from "#contract/app-api/errors.ts";
import { lastSlotSearchResponse, type StoredSlotSearch } from "#contract/app-api/last-slot-search.ts";
import { findSingleOrgAccount } from "../../emulator/oauth/accounts.ts";
import { ORG_A_ID, ORG_B_ID } from "../../emulator/world/identities.ts";
import { LAST_SLOT_SEARCH_RETENTION_MS } from "../retention/retention-rules.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";
import { signInStandalone } from "../testing/standalone-sign-in.ts";

// GET and PUT /api/slots/last-search (issue 36 item 8): one search per
// organization and user, both from the verified session, never the body; a
// search of anything but the slot finder's filters refused with a 400 naming
// the field; another user's or organization's never read.

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
  // Every test starts with no search kept.
  await store.lastSlotSearches.purgeSavedBefore(harness.now() + LAST_SLOT_SEARCH_RETENTION_MS + 1);
});

const SEARCH: StoredSlotSearch = {
  appointmentTypeId: "0f6b3a8e-2d4c-4a59-9d1e-5b7c8a9e0f12",
  facilityIds: "1b566c2c-b5f1-4bbf-beb3-23271408baaa,fac_decb7415a45c4b13859361ec146879bf",
  startDate: "2026-11-23",
  endDate: "2026-11-29",
  slotLengthMinutes: 30,
  isNewPatient: true,
  order: "time",
  startsFrom: "12:00",
  startsBefore: "17:00",
  days: "tue,wed,thu",
};

async function tokenOf(organizationId = ORG_A_ID, role = "Front Desk"): Promise<string> {
  return harness.hostToken({ organizationId, userId: harness.userWithRole(role, organizationId) });
}

async function read(token: string | null) {
  const response = await harness.api("/api/slots/last-search", { token });
  expect(response.status, await response.clone().text()).toBe(200);
  return z.parse(lastSlotSearchResponse, await response.json());
}

/** A write spends its host token (a replayed one is refused): each gets a fresh one. */
async function put(as: { organizationId?: string; role?: string } | null, body: unknown) {
  return harness.api("/api/slots/last-search", { token: as === null ? null : await tokenOf(as.organizationId, as.role), method: "PUT", body });
}

async function errorOf(response: Response): Promise<{ status: number; code: string; message: string }> {
  const body = z.parse(appErrorBody, await response.json());
  return { status: response.status, code: body.code, message: body.message };
}

describe("the last slot search", () => {
  it("is null until the user searches, then the search they saved, replaced by the next (one row per user)", async () => {
    const token = await tokenOf();
    expect(await read(token)).toEqual({ search: null, savedAt: null });

    expect((await put({}, { search: SEARCH })).status).toBe(200);
    const first = await read(token);
    expect(first.search).toEqual(SEARCH);
    expect(first.savedAt).toBe(new Date(harness.now()).toISOString().slice(0, 17) + (first.savedAt ?? "").slice(17));

    harness.advanceClocks(5);
    const next = { appointmentTypeId: SEARCH.appointmentTypeId, facilityIds: "decb7415-a45c-4b13-8593-61ec146879bf", order: "provider" };
    expect((await put({}, { search: next })).status).toBe(200);
    const second = await read(await tokenOf());
    expect(second.search).toEqual(next);
    expect(Date.parse(second.savedAt ?? "") - Date.parse(first.savedAt ?? "")).toBeGreaterThanOrEqual(5_000);
    expect(await store.lastSlotSearches.purgeSavedBefore(harness.now() + 1)).toBe(1);
  });

  it("is forgotten on DELETE, the user's own only", async () => {
    await put({ role: "Front Desk" }, { search: SEARCH });
    await put({ role: "Scheduler" }, { search: SEARCH });
    const forgotten = await harness.api("/api/slots/last-search", { token: await tokenOf(ORG_A_ID, "Front Desk"), method: "DELETE" });
    expect(forgotten.status).toBe(200);
    expect((await read(await tokenOf(ORG_A_ID, "Front Desk"))).search).toBeNull();
    expect((await read(await tokenOf(ORG_A_ID, "Scheduler"))).search).toEqual(SEARCH);
  });

  it("is each user's own: another user of the organization, or the same person's provider in another organization, reads none of it", async () => {
    await put({ organizationId: ORG_A_ID, role: "Front Desk" }, { search: SEARCH });
    expect((await read(await tokenOf(ORG_A_ID, "Scheduler"))).search).toBeNull();
    expect((await read(await tokenOf(ORG_B_ID, "Front Desk"))).search).toBeNull();
    expect((await read(await tokenOf(ORG_A_ID, "Front Desk"))).search).toEqual(SEARCH);
  });

  it("takes the organization and user from the token, never the body: a body naming them is refused", async () => {
    const response = await put({}, { search: SEARCH, organizationId: ORG_B_ID, userId: "someone-else" });
    expect(await errorOf(response)).toMatchObject({ status: 400, code: "bad_request" });
    const nested = await put({}, { search: { ...SEARCH, userId: "someone-else" } });
    expect((await errorOf(nested)).message).toMatch(/search/);
    expect((await read(await tokenOf())).search).toBeNull();
  });

  it("refuses a bad search with a 400 naming the field, and keeps the one saved", async () => {
    const token = await tokenOf();
    await put({}, { search: SEARCH });
    const cases: [unknown, RegExp][] = [
      [{ search: { ...SEARCH, startDate: "2026-02-31" } }, /^search\.startDate: must be a day of the calendar \(YYYY-MM-DD\)$/],
      [{ search: { ...SEARCH, endDate: "31/12/2026" } }, /^search\.endDate: must be a date YYYY-MM-DD$/],
      [{ search: { ...SEARCH, facilityIds: "fac_1,not-an-id" } }, /^search\.facilityIds: must be ids \(UUIDs or prefixed ids\) separated by commas$/],
      [{ search: { ...SEARCH, slotLengthMinutes: 7.5 } }, /search\.slotLengthMinutes: must be whole minutes/],
      [{ search: { ...SEARCH, order: "random" } }, /^search\.order: must be "provider" or "time"$/],
      [{ search: { ...SEARCH, startsFrom: "9:00" } }, /^search\.startsFrom: must be a time of day HH:MM/],
      [{ search: { ...SEARCH, days: "someday" } }, /^search\.days: must be weekdays \(mon to sun\)/],
      [{ search: { ...SEARCH, patientName: "Ada Lovelace" } }, /search/],
      [{ search: "everything" }, /search/],
      [{}, /search/],
    ];
    for (const [body, field] of cases) {
      const error = await errorOf(await put({}, body));
      expect(error.status, JSON.stringify(body)).toBe(400);
      expect(error.message, JSON.stringify(body)).toMatch(field);
    }
    expect((await read(token)).search).toEqual(SEARCH);
  });

  it("is refused without a token or session, read or written", async () => {
    expect((await harness.api("/api/slots/last-search", { token: null })).status).toBe(401);
    expect((await put(null, { search: SEARCH })).status).toBe(401);
  });

  it("is kept for a standalone sign-in, under its own user", async () => {
    const account = findSingleOrgAccount(harness.emulator.emulator.state, ORG_A_ID, "Front Desk");
    const user = await signInStandalone(harness, account.id, ORG_A_ID);
    const empty = await user.api("/api/slots/last-search");
    expect(z.parse(lastSlotSearchResponse, await empty.json()).search).toBeNull();
    expect((await user.api("/api/slots/last-search", { method: "PUT", body: { search: SEARCH } })).status).toBe(200);
    const kept = await user.api("/api/slots/last-search");
    expect(z.parse(lastSlotSearchResponse, await kept.json()).search).toEqual(SEARCH);
    // Another user of the organization, in the EHR, reads none of it.
    expect((await read(await tokenOf(ORG_A_ID, "Scheduler"))).search).toBeNull();
  });
});
