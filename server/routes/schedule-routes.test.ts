import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { APP_ERROR_CODES, appErrorBody } from "#contract/app-api/errors.ts";
import { appointmentTypesResponse } from "#contract/app-api/session.ts";
import {
  ALREADY_HELD_CODE,
  HOLD_LIMIT_CODE,
  PATIENT_CHANGED_CODE,
  heldSlotsResponse,
  holdReleaseResponse,
  holdResponse,
  MAX_ACTIVE_HOLDS,
  MAX_SLOT_SEARCH_FACILITY_DAYS,
  slotCheckResponse,
  slotSearchResponse,
  type HoldRequest,
  type SlotSelection,
} from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { toPrefixedId, toRawUuid } from "#contract/ids.ts";
import { ORG_A_ID, ORG_B_ID } from "../../emulator/world/identities.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";

// The slot finder's BFF routes against the emulator: searches from the
// staleness cache, the one strong check per selection, holds and release,
// and holds as the user's own (kept in the store, listed and released only by
// the user who made them).

let store: Store;
let harness: BffHarness;
let typeId: string;
let newPatientLength: number;

beforeAll(async () => {
  store = await createStore();
  harness = await createBffHarness(store);
  const { appointmentTypes } = z.parse(appointmentTypesResponse, await (await harness.api("/api/appointment-types", { token: await harness.hostToken() })).json());
  const type = appointmentTypes[0];
  if (!type) throw new Error("no appointment types");
  typeId = type.id;
  newPatientLength = type.newPatientDurationMinutes;
});

afterAll(async () => {
  await harness.close();
  await store.close();
});

/** Tomorrow to `days` days ahead, on the harness's pinned clock. */
function window(days = 14) {
  const start = new Date(harness.now() + 86_400_000).toISOString().slice(0, 10);
  const end = new Date(harness.now() + days * 86_400_000).toISOString().slice(0, 10);
  return { startDate: start, endDate: end };
}

async function search(query: Record<string, string>) {
  const response = await harness.api(`/api/slots?${new URLSearchParams({ appointmentTypeId: typeId, ...window(), ...query }).toString()}`, { token: await harness.hostToken() });
  expect(response.status).toBe(200);
  return z.parse(slotSearchResponse, await response.json());
}

const selectionOf = (slot: Slot, extra: Partial<SlotSelection> = {}): SlotSelection => ({ providerId: slot.providerId, facilityId: slot.facilityId, startsAt: slot.startsAt, endsAt: slot.endsAt, appointmentTypeId: typeId, ...extra });

/** Books the slot in the EHR behind the app's back (the service's cache does not know yet). */
async function bookInEhr(slot: Slot, patientIndex = 7): Promise<void> {
  const patient = harness.emulator.emulator.state.org(ORG_A_ID)?.ehr.patients[patientIndex];
  await harness.emulator.sandbox("POST", `/ehr/${ORG_A_ID}/appointments`, { patientId: patient?.id, providerId: slot.providerId, facilityId: slot.facilityId, startsAt: slot.startsAt, endsAt: slot.endsAt });
}

async function post<T extends z.ZodMiniType>(path: string, body: unknown, schema: T, status = 200): Promise<z.infer<T>> {
  const response = await harness.api(path, { token: await harness.hostToken(), method: "POST", body });
  expect(response.status).toBe(status);
  return z.parse(schema, await response.json());
}

describe("GET /api/slots", () => {
  it("answers slots, next availability and staleness meta, and serves a repeat from the cache", async () => {
    const first = await search({});
    expect(first.slots.length).toBeGreaterThan(0);
    expect(first.meta.maxStalenessSeconds).toBeGreaterThan(0);
    const before = harness.upstreamRequests.filter((line) => line.includes("/v2/schedule/slots")).length;
    await search({});
    expect(harness.upstreamRequests.filter((line) => line.includes("/v2/schedule/slots")).length).toBe(before);
  });

  it.each([
    [{ appointmentTypeId: "" }, /appointmentTypeId/],
    [{ startDate: "2026-13-40" }, /startDate/],
    [{ endDate: "2020-01-01" }, /endDate: must not be before startDate/],
    [{ slotLengthMinutes: "3" }, /slotLengthMinutes: must be at least 5/],
    [{ isNewPatient: "yes" }, /isNewPatient/],
  ])("refuses %j with a 400 naming the field", async (bad, message) => {
    const response = await harness.api(`/api/slots?${new URLSearchParams({ appointmentTypeId: typeId, ...window(), ...bad }).toString()}`, { token: await harness.hostToken() });
    expect(response.status).toBe(400);
    expect(z.parse(appErrorBody, await response.json()).message).toMatch(message);
  });
});

describe("GET /api/slots: the scope of one search (issue 34)", () => {
  const facilityIdsOf = () => (harness.emulator.emulator.state.org(ORG_A_ID)?.ehr.facilities ?? []).map((facility) => facility.id);
  const slotReads = () => harness.upstreamCount("GET", "/v2/schedule/slots");

  it(`refuses more than ${MAX_SLOT_SEARCH_FACILITY_DAYS} facility-days with a 400 naming facilityIds and endDate, before asking the service`, async () => {
    const facilityIds = facilityIdsOf();
    expect(facilityIds).toHaveLength(3);
    const before = slotReads();
    const response = await harness.api(`/api/slots?${new URLSearchParams({ appointmentTypeId: typeId, facilityIds: facilityIds.join(","), ...window(62) }).toString()}`, { token: await harness.hostToken() });
    expect(response.status).toBe(400);
    const body = z.parse(appErrorBody, await response.json());
    expect(body.code).toBe(APP_ERROR_CODES.searchTooLarge);
    expect(body.message).toBe(
      "facilityIds, endDate: 3 facilities over 62 days is 186 facility-days, more than one search may cover (126): choose fewer facilities or fewer days (with 3 facilities the window may span at most 42 days)",
    );
    expect(slotReads()).toBe(before);
  });

  it("counts the organization's facilities when facilityIds is left out (the service then searches them all)", async () => {
    const response = await harness.api(`/api/slots?${new URLSearchParams({ appointmentTypeId: typeId, ...window(43) }).toString()}`, { token: await harness.hostToken() });
    expect(response.status).toBe(400);
    expect(z.parse(appErrorBody, await response.json()).message).toMatch(/^facilityIds, endDate: 3 facilities over 43 days .*; without facilityIds the search covers all 3 of the organization's facilities$/);
    expect((await search({ ...window(42) })).meta).toBeDefined();
  });

  it("takes the widest searches within the bound: two facilities over the whole 62 days, three over 42", async () => {
    const [first, second, third] = facilityIdsOf();
    expect((await search({ facilityIds: `${first},${second}`, ...window(62) })).slots.length).toBeGreaterThan(0);
    expect((await search({ facilityIds: `${first},${second},${third}`, ...window(42) })).slots.length).toBeGreaterThan(0);
  });
});

describe("POST /api/slots/check", () => {
  it("issues one strong read with the type, length and new-patient flag carried through", async () => {
    const { slots } = await search({ isNewPatient: "true" });
    const slot = slots[0];
    if (!slot) throw new Error("no slot");
    const before = harness.upstreamRequests.length;
    const result = await post("/api/slots/check", selectionOf(slot, { isNewPatient: true, slotLengthMinutes: newPatientLength }), slotCheckResponse);
    expect(result.available).toBe(true);
    const sent = harness.upstreamRequests.slice(before);
    expect(sent).toHaveLength(1);
    const url = new URL(sent[0]?.split(" ")[1] ?? "");
    expect(url.pathname).toBe("/v2/schedule/slots");
    expect(url.searchParams.get("consistency")).toBe("strong");
    expect(url.searchParams.get("isNewPatient")).toBe("true");
    expect(url.searchParams.get("slotLengthMinutes")).toBe(String(newPatientLength));
    expect(url.searchParams.get("appointmentTypeId")).toBe(typeId);
  });

  it("reports a slot the EHR booked behind the app's back as gone, with the nearest alternatives", async () => {
    const { slots } = await search({});
    const slot = slots.find((candidate) => candidate.remainingCapacity === 1);
    if (!slot) throw new Error("no single-capacity slot");
    await bookInEhr(slot);
    // The cached search still shows it (up to maxStalenessSeconds behind); the strong check does not.
    expect((await search({})).slots.some((candidate) => candidate.startsAt === slot.startsAt && candidate.providerId === slot.providerId)).toBe(true);
    const result = await post("/api/slots/check", selectionOf(slot), slotCheckResponse);
    expect(result).toMatchObject({ available: false, slot: null });
    expect(result.meta.strongConsistency).toBe(true);
    expect(result.alternatives.length).toBeGreaterThan(0);
    expect(result.alternatives.some((alternative) => alternative.startsAt === slot.startsAt && alternative.providerId === slot.providerId)).toBe(false);
  });

  it("offers other searched providers' times that day when the slot's provider has none left, then the next days", async () => {
    const { slots } = await search({});
    const dayOf = (candidate: Slot) => candidate.startsAt.slice(0, 10);
    // A provider's last free slot of a day on which other providers still have slots.
    const lone = slots.find(
      (candidate) =>
        slots.filter((other) => other.providerId === candidate.providerId && dayOf(other) === dayOf(candidate)).length === 1 &&
        slots.some((other) => other.providerId !== candidate.providerId && dayOf(other) === dayOf(candidate)),
    );
    if (!lone) throw new Error("the pinned seed has no provider's lone slot on a day with other providers' slots");
    for (let taken = 0; taken < lone.remainingCapacity; taken += 1) await bookInEhr(lone, 11 + taken);
    const facilityIds = [...new Set(slots.map((candidate) => candidate.facilityId))];
    const result = await post("/api/slots/check", { ...selectionOf(lone), searchedFacilityIds: facilityIds }, slotCheckResponse);
    expect(result.available).toBe(false);
    const sameDay = result.alternatives.filter((alternative) => dayOf(alternative) === dayOf(lone));
    expect(sameDay.length).toBeGreaterThan(0);
    expect(sameDay.every((alternative) => alternative.providerId !== lone.providerId)).toBe(true);
    expect(result.alternatives.every((alternative) => dayOf(alternative) >= dayOf(lone))).toBe(true);
    expect(result.alternatives.map((alternative) => Date.parse(alternative.startsAt))).toEqual(result.alternatives.map((alternative) => Date.parse(alternative.startsAt)).sort((a, b) => a - b));
  });

  it("refuses alternatives scoped by a malformed search with a 400 naming the field", async () => {
    const { slots } = await search({});
    const slot = slots[0];
    if (!slot) throw new Error("no slot");
    const body = await post("/api/slots/check", { ...selectionOf(slot), searchedFacilityIds: ["not an id"] }, appErrorBody, 400);
    expect(body.message).toMatch(/searchedFacilityIds/);
  });
});

describe("holds", () => {
  it("holds a slot, refuses the last place again (already_held to the same user, conflict to another), and releases idempotently", async () => {
    const { slots } = await search({});
    const slot = slots.find((candidate) => candidate.remainingCapacity === 1 && Date.parse(candidate.startsAt) > harness.now() + 7 * 86_400_000);
    if (!slot) throw new Error("no single-capacity slot");
    const { hold } = await post("/api/holds", selectionOf(slot), holdResponse);
    expect(hold.status).toBe("active");
    expect(Date.parse(hold.expiresAt)).toBeGreaterThan(harness.now());
    // The same user again (another tab of theirs): held already, not taken; another user: taken.
    const checked = await post("/api/slots/check", selectionOf(slot), slotCheckResponse);
    expect(checked).toMatchObject({ available: false, heldByYou: true });
    const again = await post("/api/holds", selectionOf(slot), appErrorBody, 409);
    expect(again.code).toBe(ALREADY_HELD_CODE);
    const colleague = harness.emulator.emulator.state.org(ORG_A_ID)?.ehr.providers.find((provider) => !provider.hidden && provider.id !== harness.userWithRole("Physician"))?.id ?? "";
    const conflict = await harness.api("/api/holds", { token: await harness.hostToken({ userId: colleague }), method: "POST", body: selectionOf(slot) });
    expect(conflict.status).toBe(409);
    const checkedByAnother = await harness.api("/api/slots/check", { token: await harness.hostToken({ userId: colleague }), method: "POST", body: selectionOf(slot) });
    expect(z.parse(slotCheckResponse, await checkedByAnother.json()).heldByYou).toBeUndefined();
    expect(z.parse(appErrorBody, await conflict.json()).code).toBe("conflict");
    for (let i = 0; i < 2; i += 1) {
      const response = await harness.api(`/api/holds/${hold.id}`, { token: await harness.hostToken(), method: "DELETE" });
      expect(z.parse(holdReleaseResponse, await response.json())).toEqual({ released: true });
    }
    await post("/api/holds", selectionOf(slot), holdResponse);
  });

  it("refuses a malformed selection with a 400 naming the field", async () => {
    const body = await post("/api/holds", { providerId: "x", facilityId: "y", startsAt: "tomorrow", endsAt: "later", appointmentTypeId: typeId }, appErrorBody, 400);
    expect(body.message).toMatch(/providerId|startsAt/);
  });
});

describe("holds belong to the user", () => {
  const HOLD_PATH = "POST /v4/schedule/holds";
  /** Provider and day of every slot handed out. */
  const takenSlots = new Set<string>();

  function orgA() {
    const org = harness.emulator.emulator.state.org(ORG_A_ID);
    if (!org) throw new Error("no org A");
    return org;
  }

  /** A user of org A of its own for each test, so no test's holds count against another's basket. */
  const nextUser = (() => {
    let next = 0;
    return () => {
      const physician = harness.userWithRole("Physician");
      const users = orgA().ehr.providers.filter((provider) => !provider.hidden && provider.id !== physician);
      const user = users[next++];
      if (!user) throw new Error("the seed has too few users");
      return user.id;
    };
  })();

  const patientOf = (index: number) => {
    const patient = orgA().ehr.patients[index];
    if (!patient) throw new Error(`no patient ${index}`);
    return patient.id;
  };

  /**
   * Free slots three to five weeks ahead (the tests above book and hold in
   * the first two), one per provider and day: a provider's slots of one day
   * can overlap, and holding one would take another.
   */
  async function freeSlots(count: number): Promise<Slot[]> {
    const start = new Date(harness.now() + 21 * 86_400_000).toISOString().slice(0, 10);
    const end = new Date(harness.now() + 34 * 86_400_000).toISOString().slice(0, 10);
    const { slots } = await search({ startDate: start, endDate: end });
    const key = (slot: Slot) => `${slot.providerId}|${slot.startsAt.slice(0, 10)}`;
    const picked: Slot[] = [];
    for (const slot of slots) {
      if (picked.length === count) break;
      if (slot.remainingCapacity === 0 || takenSlots.has(key(slot))) continue;
      takenSlots.add(key(slot));
      picked.push(slot);
    }
    if (picked.length < count) throw new Error(`fewer than ${count} free slots`);
    return picked;
  }

  /** "Okafor, Ada": the patient as the EHR names them. */
  const patientNameOf = (index: number) => {
    const patient = orgA().ehr.patients[index];
    if (!patient) throw new Error(`no patient ${index}`);
    return `${patient.lastName}, ${patient.firstName}`;
  };

  async function freeSlot(): Promise<Slot> {
    const [slot] = await freeSlots(1);
    if (!slot) throw new Error("no free slot");
    return slot;
  }

  type TokenClaims = Parameters<BffHarness["hostToken"]>[0];

  async function holdAs(claims: TokenClaims, body: HoldRequest): Promise<Response> {
    return harness.api("/api/holds", { token: await harness.hostToken(claims), method: "POST", body });
  }

  async function heldBy(claims: TokenClaims) {
    const response = await harness.api("/api/holds", { token: await harness.hostToken(claims) });
    expect(response.status).toBe(200);
    return z.parse(heldSlotsResponse, await response.json()).holds;
  }

  async function release(claims: TokenClaims, holdId: string): Promise<Response> {
    return harness.api(`/api/holds/${holdId}`, { token: await harness.hostToken(claims), method: "DELETE" });
  }

  const upstreamCalls = (call: string) => harness.upstreamWrites.filter((write) => write.call.startsWith(call)).length;
  const serviceHoldStatus = (holdId: string) => {
    const hold = orgA().holds.get(holdId);
    return hold ? harness.emulator.emulator.state.holdStatus(hold) : "unknown";
  };
  const serviceHoldsOn = (slot: Slot) =>
    harness.emulator.emulator.state.activeHolds(orgA()).filter((hold) => Date.parse(hold.startsAt) === Date.parse(slot.startsAt) && toPrefixedId("prv", hold.providerId) === slot.providerId).length;

  it("keeps the hold as the user's, for the token's patient (the body's, in another id form, is the same one), and lists it in GET", async () => {
    const userId = nextUser();
    const slot = await freeSlot();
    const tokenPatient = patientOf(3);
    const before = harness.now();
    // Ids in the raw form are accepted and answered in the service's.
    const body = { ...selectionOf(slot), providerId: toRawUuid(slot.providerId), facilityId: toRawUuid(slot.facilityId), patientId: toPrefixedId("pat", tokenPatient) };
    const response = await holdAs({ userId, patientId: tokenPatient }, body);
    expect(response.status).toBe(200);
    const { hold, held } = z.parse(holdResponse, await response.json());
    expect(held).toEqual({
      id: hold.id,
      slot: { providerId: slot.providerId, facilityId: slot.facilityId, startsAt: slot.startsAt, endsAt: slot.endsAt },
      appointmentTypeId: typeId,
      slotLengthMinutes: (Date.parse(slot.endsAt) - Date.parse(slot.startsAt)) / 60_000,
      isNewPatient: false,
      patientId: tokenPatient,
      patientName: patientNameOf(3),
      expiresAt: hold.expiresAt,
      heldAt: held.heldAt,
    });
    expect(Date.parse(held.heldAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(held.heldAt)).toBeLessThanOrEqual(harness.now());
    expect(await heldBy({ userId })).toEqual([held]);
    expect(serviceHoldStatus(hold.id)).toBe("active");
    // With the BFF's clock when it answered: the browser counts the holds down on its own clock from it.
    const listedAt = harness.now();
    const { asOf } = z.parse(heldSlotsResponse, await (await harness.api("/api/holds", { token: await harness.hostToken({ userId }) })).json());
    expect(Date.parse(asOf)).toBeGreaterThanOrEqual(listedAt);
    expect(Date.parse(asOf)).toBeLessThanOrEqual(harness.now());
  });

  it("refuses a slot chosen for one patient when the token names another (the EHR switched patient meanwhile): nothing is held", async () => {
    const userId = nextUser();
    const slot = await freeSlot();
    const holdsSent = upstreamCalls("POST /v4/schedule/holds");
    const response = await holdAs({ userId, patientId: patientOf(3) }, { ...selectionOf(slot), patientId: toPrefixedId("pat", patientOf(4)) });
    expect(response.status).toBe(409);
    const body = z.parse(appErrorBody, await response.json());
    expect(body.code).toBe(PATIENT_CHANGED_CODE);
    expect(body.message).toMatch(/patient open in the EHR changed .* nothing was held/);
    expect(upstreamCalls("POST /v4/schedule/holds")).toBe(holdsSent);
    expect(await heldBy({ userId })).toEqual([]);
    expect(serviceHoldsOn(slot)).toBe(0);
  });

  it("takes the body's patient only when the token names none, and keeps the type, length and new-patient flag held", async () => {
    const userId = nextUser();
    const [forPatient, forNoOne] = await freeSlots(2);
    if (!forPatient || !forNoOne) throw new Error("no slots");
    const bodyPatient = patientOf(5);
    const first = await holdAs({ userId }, { ...selectionOf(forPatient), patientId: toPrefixedId("pat", bodyPatient) });
    expect(first.status).toBe(200);
    expect(z.parse(holdResponse, await first.json()).held.patientId).toBe(bodyPatient);
    const length = (Date.parse(forNoOne.endsAt) - Date.parse(forNoOne.startsAt)) / 60_000;
    const second = await holdAs({ userId }, { ...selectionOf(forNoOne), slotLengthMinutes: length });
    expect(second.status).toBe(200);
    expect(z.parse(holdResponse, await second.json()).held).toMatchObject({ patientId: null, slotLengthMinutes: length, isNewPatient: false });
    expect((await heldBy({ userId })).map((held) => held.patientId).sort()).toEqual([bodyPatient, null].sort());
  });

  it(`refuses a hold beyond ${MAX_ACTIVE_HOLDS} with ${HOLD_LIMIT_CODE} without asking the service, and takes one again once a hold is released`, async () => {
    const userId = nextUser();
    const slots = await freeSlots(MAX_ACTIVE_HOLDS + 1);
    const extra = slots[MAX_ACTIVE_HOLDS];
    if (!extra) throw new Error("no slots");
    const holdIds: string[] = [];
    for (const slot of slots.slice(0, MAX_ACTIVE_HOLDS)) {
      const response = await holdAs({ userId }, selectionOf(slot));
      expect(response.status, await response.clone().text()).toBe(200);
      holdIds.push(z.parse(holdResponse, await response.json()).hold.id);
    }
    const callsBefore = upstreamCalls(HOLD_PATH);
    const serviceHoldsBefore = harness.emulator.emulator.state.activeHolds(orgA()).length;

    const refused = await holdAs({ userId }, selectionOf(extra));
    expect(refused.status).toBe(409);
    expect(z.parse(appErrorBody, await refused.json())).toMatchObject({ code: HOLD_LIMIT_CODE, message: "You already hold 3 slots: release one before holding another" });
    expect(upstreamCalls(HOLD_PATH)).toBe(callsBefore);
    expect(harness.emulator.emulator.state.activeHolds(orgA())).toHaveLength(serviceHoldsBefore);
    expect(serviceHoldsOn(extra)).toBe(0);
    expect(await heldBy({ userId })).toHaveLength(MAX_ACTIVE_HOLDS);

    expect((await release({ userId }, holdIds[0] ?? "")).status).toBe(200);
    expect((await holdAs({ userId }, selectionOf(extra))).status).toBe(200);
    expect(serviceHoldsOn(extra)).toBe(1);
  });

  it(`keeps to ${MAX_ACTIVE_HOLDS} holds when more arrive at once (two tabs, a double click), releasing at the service those that give way`, async () => {
    const userId = nextUser();
    const slots = await freeSlots(MAX_ACTIVE_HOLDS + 3);
    // A slow service: every request has counted the user's holds before the first is recorded.
    await harness.emulator.sandbox("POST", "/faults", { method: "POST", path: "/v4/schedule/holds", latencyMs: 300, count: slots.length });
    const responses = await Promise.all(slots.map((slot) => holdAs({ userId }, selectionOf(slot))));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(MAX_ACTIVE_HOLDS);
    expect(statuses.filter((status) => status === 409)).toHaveLength(3);
    expect(await heldBy({ userId })).toHaveLength(MAX_ACTIVE_HOLDS);
    // What the store refused is not left held at the service either.
    expect(slots.map(serviceHoldsOn).reduce((sum, n) => sum + n, 0)).toBe(MAX_ACTIVE_HOLDS);
  });

  it("lets no other user see or release the hold, in the organization or outside it; the owner releases it, in either case of its id, twice", async () => {
    const owner = nextUser();
    const colleague = nextUser();
    const slot = await freeSlot();
    const response = await holdAs({ userId: owner }, selectionOf(slot));
    expect(response.status).toBe(200);
    const { held } = z.parse(holdResponse, await response.json());
    const deletesBefore = upstreamCalls("DELETE /v4/schedule/holds/");

    expect(await heldBy({ userId: colleague })).toEqual([]);
    const refused = await release({ userId: colleague }, held.id);
    expect(refused.status).toBe(403);
    expect(z.parse(appErrorBody, await refused.json())).toMatchObject({ code: APP_ERROR_CODES.notOwner, message: "This slot is held by another user: only the user who held it can release it" });

    const otherOrg = { organizationId: ORG_B_ID, userId: harness.userWithRole("Physician", ORG_B_ID) };
    expect(await heldBy(otherOrg)).toEqual([]);
    const elsewhere = await release(otherOrg, held.id);
    expect(elsewhere.status).toBe(200);
    expect(z.parse(holdReleaseResponse, await elsewhere.json())).toEqual({ released: true });

    expect(upstreamCalls("DELETE /v4/schedule/holds/")).toBe(deletesBefore);
    expect(serviceHoldStatus(held.id)).toBe("active");
    expect(await heldBy({ userId: owner })).toEqual([held]);

    for (const id of [held.id.toUpperCase(), held.id]) {
      const released = await release({ userId: owner }, id);
      expect(released.status).toBe(200);
      expect(z.parse(holdReleaseResponse, await released.json())).toEqual({ released: true });
    }
    // The second release found no hold of the user's: Tandem did not ask the service again.
    expect(upstreamCalls("DELETE /v4/schedule/holds/")).toBe(deletesBefore + 1);
    expect(serviceHoldStatus(held.id)).toBe("released");
    expect(await heldBy({ userId: owner })).toEqual([]);
    expect(await store.holds.get(ORG_A_ID, held.id)).toBeNull();
  });

  it("refuses a second hold of a slot the user already holds (another tab of theirs) with already_held, without asking the service (issue 36 item 1)", async () => {
    const userId = nextUser();
    const slot = await freeSlot();
    expect((await holdAs({ userId }, selectionOf(slot))).status).toBe(200);
    const holdsAsked = upstreamCalls(HOLD_PATH);
    // Held again as another type or flag: still the very slot the user holds.
    const again = await holdAs({ userId }, selectionOf(slot, { isNewPatient: true }));
    expect(again.status).toBe(409);
    expect(z.parse(appErrorBody, await again.json())).toMatchObject({ code: ALREADY_HELD_CODE, message: "You already hold this slot: book it in the EHR or release it" });
    expect(upstreamCalls(HOLD_PATH)).toBe(holdsAsked);
    expect(await heldBy({ userId })).toHaveLength(1);
  });

  it("names the hold's patient as the EHR did when it was held, audited as a PHI read when read and when listed; no name without read:patients (issue 36 item 4)", async () => {
    const userId = nextUser();
    const slot = await freeSlot();
    const patientId = patientOf(6);
    const patientReads = async () => (await store.audit.list(ORG_A_ID)).filter((row) => row.action === "read" && row.resourceType === "patient" && row.resourceId === patientId).length;
    const response = await holdAs({ userId, patientId }, selectionOf(slot));
    expect(response.status).toBe(200);
    expect(z.parse(holdResponse, await response.json()).held.patientName).toBe(patientNameOf(6));
    expect(await patientReads()).toBe(1);
    // Listed in another patient's chart: still named, and shown only with its record.
    expect((await heldBy({ userId, patientId: patientOf(2) })).map((held) => held.patientName)).toEqual([patientNameOf(6)]);
    expect(await patientReads()).toBe(2);

    // Org B's installation does not grant read:patients: the hold is made, unnamed.
    const orgBUser = harness.userWithRole("Physician", ORG_B_ID);
    const orgB = harness.emulator.emulator.state.org(ORG_B_ID);
    const orgBPatient = orgB?.ehr.patients[0]?.id;
    const orgBToken = () => harness.hostToken({ organizationId: ORG_B_ID, userId: orgBUser });
    const orgBTypeId = z.parse(appointmentTypesResponse, await (await harness.api("/api/appointment-types", { token: await orgBToken() })).json()).appointmentTypes[0]?.id ?? "";
    const { slots } = z.parse(slotSearchResponse, await (await harness.api(`/api/slots?${new URLSearchParams({ appointmentTypeId: orgBTypeId, ...window() }).toString()}`, { token: await orgBToken() })).json());
    const orgBSlot = slots.filter((candidate) => candidate.remainingCapacity > 0).at(-1);
    if (!orgBSlot || !orgBPatient) throw new Error("no slot or patient in org B");
    const unnamed = await holdAs({ organizationId: ORG_B_ID, userId: orgBUser, patientId: orgBPatient }, { ...selectionOf(orgBSlot), appointmentTypeId: orgBTypeId });
    expect(unnamed.status).toBe(200);
    expect(z.parse(holdResponse, await unnamed.json()).held).toMatchObject({ patientId: orgBPatient, patientName: null });
  });

  it("refuses a release by an id that is not a UUID", async () => {
    const response = await release({ userId: nextUser() }, "prv_0123");
    expect(response.status).toBe(400);
    expect(z.parse(appErrorBody, await response.json()).message).toMatch(/^holdId: /);
  });

  // Last: the clocks only move forward.
  it("stops listing a hold once it has expired, and purges its record", async () => {
    const userId = nextUser();
    const slot = await freeSlot();
    const response = await holdAs({ userId }, selectionOf(slot));
    expect(response.status).toBe(200);
    const { held } = z.parse(holdResponse, await response.json());
    expect(await heldBy({ userId })).toHaveLength(1);

    harness.advanceClocks((Date.parse(held.expiresAt) - harness.now()) / 1000 - 1);
    expect(await heldBy({ userId })).toHaveLength(1);
    harness.advanceClocks(2);
    expect(await heldBy({ userId })).toEqual([]);
    expect(await store.holds.get(ORG_A_ID, held.id)).toBeNull();
    const released = await release({ userId }, held.id);
    expect(z.parse(holdReleaseResponse, await released.json())).toEqual({ released: true });
  });
});
