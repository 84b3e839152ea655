import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { appErrorBody } from "../../contract/app-api/errors.ts";
import { appointmentTypesResponse } from "../../contract/app-api/session.ts";
import { holdReleaseResponse, holdResponse, slotCheckResponse, slotSearchResponse, type SlotSelection } from "../../contract/app-api/slots.ts";
import type { Slot } from "../../contract/clinic-api/schedule.ts";
import { ORG_A_ID } from "../../emulator/world/identities.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { createBffHarness, type BffHarness } from "../test-support/bff-harness.ts";

// The slot finder's BFF routes against the emulator: searches from the
// staleness cache, the one strong check per selection, holds and release.

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
  it("holds a slot, refuses the last place twice with 409 conflict, and releases idempotently", async () => {
    const { slots } = await search({});
    const slot = slots.find((candidate) => candidate.remainingCapacity === 1 && Date.parse(candidate.startsAt) > harness.now() + 7 * 86_400_000);
    if (!slot) throw new Error("no single-capacity slot");
    const { hold } = await post("/api/holds", selectionOf(slot), holdResponse);
    expect(hold.status).toBe("active");
    expect(Date.parse(hold.expiresAt)).toBeGreaterThan(harness.now());
    const conflict = await post("/api/holds", selectionOf(slot), appErrorBody, 409);
    expect(conflict.code).toBe("conflict");
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
