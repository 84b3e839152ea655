import { describe, expect, it } from "vitest";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { ORG_A_ID, ORG_B_ID } from "../world/identities.ts";
import { createTestEmulator, type TestEmulator } from "../testing/emulator-client.ts";

// Seed 000 "Bookable slot", "Availability template"; seed 001 "Schedule";
// DESIGN.md's assumed parameter names.

const WINDOW = { startDate: "2026-11-23", endDate: "2026-12-06" };

async function firstType(test: TestEmulator, organizationId = ORG_A_ID) {
  const { appointmentTypes } = await test.get("GET /v3/appointment-types", { organizationId });
  const type = appointmentTypes[0];
  if (!type) throw new Error("no appointment types");
  return type;
}

async function slots(test: TestEmulator, query: Record<string, string | number | boolean | undefined> = {}, organizationId = ORG_A_ID) {
  const appointmentTypeId = query.appointmentTypeId ?? (await firstType(test, organizationId)).id;
  return test.get("GET /v2/schedule/slots", { organizationId, query: { ...WINDOW, ...query, appointmentTypeId } });
}

const addDaysTo = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const lengthMinutes = (slot: Slot) => (Date.parse(slot.endsAt) - Date.parse(slot.startsAt)) / 60_000;

describe("slots (seed 001 Schedule)", () => {
  it("answers slots with prefixed ids, nextAvailableByProvider and staleness meta", async () => {
    const test = createTestEmulator();
    const data = await slots(test);
    expect(data.slots.length).toBeGreaterThan(20);
    expect(data.slots[0]?.providerId).toMatch(/^prv_/);
    // The default 60 s sync interval plus the least margin the mirror keeps (a due sync waits for the next check).
    expect(data.meta).toMatchObject({ strongConsistency: false, maxStalenessSeconds: 62, completeness: "complete" });
    expect(Object.keys(data.nextAvailableByProvider).length).toBeGreaterThan(0);
  });

  it("names each provider's first free date within 56 days of a narrow window, as one search over those days finds it", async () => {
    const test = createTestEmulator();
    for (const startDate of ["2026-11-28", "2026-12-01"]) {
      const narrow = await slots(test, { startDate, endDate: startDate });
      const wide = await slots(test, { startDate, endDate: addDaysTo(startDate, 56) });
      const expected: Record<string, string> = {};
      for (const slot of wide.slots) expected[slot.providerId] ??= slot.startsAt.slice(0, 10);
      expect(narrow.nextAvailableByProvider).toEqual(expected);
    }
  });

  it("states the sync interval plus its margin as the bound, in whole seconds rounded up", async () => {
    const test = createTestEmulator({ settings: { syncIntervalSeconds: 30.5, stalenessMarginSeconds: 2 } });
    expect((await slots(test)).meta.maxStalenessSeconds).toBe(33);
    // test.get parses with the contract, whose maxStalenessSeconds is an integer.
    const week = await test.get("GET /v3/schedule/availability-templates", { organizationId: ORG_A_ID, query: WINDOW });
    expect(week.meta.maxStalenessSeconds).toBe(33);
  });

  it("new-patient length: the flag changes the type's default slot length", async () => {
    const test = createTestEmulator();
    const type = await firstType(test);
    const established = await slots(test, { isNewPatient: false });
    const newPatient = await slots(test, { isNewPatient: true });
    expect(established.slots.every((slot) => lengthMinutes(slot) === type.defaultDurationMinutes)).toBe(true);
    expect(newPatient.slots.every((slot) => lengthMinutes(slot) === type.newPatientDurationMinutes)).toBe(true);
    expect(type.newPatientDurationMinutes).not.toBe(type.defaultDurationMinutes);
  });

  it("an explicit slot length wins over the type's default", async () => {
    const test = createTestEmulator();
    const data = await slots(test, { slotLengthMinutes: 15 });
    expect(data.slots.every((slot) => lengthMinutes(slot) === 15)).toBe(true);
  });

  it("additive overlap: overlapping templates sum their capacity and stay separate rows", async () => {
    const test = createTestEmulator();
    const { appointmentTypes } = await test.get("GET /v3/appointment-types");
    // Overlaps exist where two templates allow the same type (e.g. a clinic and a procedure block).
    const perType = await Promise.all(appointmentTypes.map((type) => slots(test, { appointmentTypeId: type.id, slotLengthMinutes: 15 })));
    const overlapping = perType.flatMap((data) => data.slots).filter((slot) => slot.templateIds.length >= 2);
    expect(overlapping.length).toBeGreaterThan(0);
    const org = test.emulator.state.org(ORG_A_ID);
    const concurrencyOf = (id: string) => org?.ehr.templates.find((template) => template.id === id)?.concurrency ?? 0;
    for (const slot of overlapping) {
      const summed = slot.templateIds.reduce((total, id) => total + concurrencyOf(id), 0);
      expect(slot.remainingCapacity).toBeLessThanOrEqual(summed);
    }
    expect(overlapping.some((slot) => slot.remainingCapacity > Math.max(...slot.templateIds.map(concurrencyOf)))).toBe(true);

    const slot = overlapping[0];
    const templates = await test.get("GET /v3/schedule/availability-templates", {
      query: { providerId: slot?.providerId, facilityId: slot?.facilityId, ...WINDOW },
    });
    const overlapIds = new Set(slot?.templateIds);
    expect(templates.templates.filter((template) => overlapIds.has(template.id))).toHaveLength(overlapIds.size);
  });

  it.each([false, true])("strong vs stale reads: a booking in the EHR shows in a strong read at once, in a cached read only after the sync (answer memo %s)", async (benchAnswerMemo) => {
    const test = createTestEmulator({ settings: { benchAnswerMemo } });
    const before = await slots(test);
    const slot = before.slots.find((candidate) => candidate.remainingCapacity === 1);
    if (!slot) throw new Error("no single-capacity slot");
    const patient = test.emulator.state.org(ORG_A_ID)?.ehr.patients[0];
    const booked = await test.sandbox("POST", `/ehr/${ORG_A_ID}/appointments`, {
      patientId: patient?.id,
      providerId: slot.providerId,
      facilityId: slot.facilityId,
      startsAt: slot.startsAt,
      endsAt: slot.endsAt,
    });
    expect(booked.status).toBe(201);
    const same = (candidate: Slot) => candidate.providerId === slot.providerId && candidate.startsAt === slot.startsAt;

    const cached = await slots(test);
    expect(cached.slots.some(same)).toBe(true);
    const strong = await slots(test, { consistency: "strong" });
    expect(strong.meta.strongConsistency).toBe(true);
    expect(strong.slots.some(same)).toBe(false);

    test.emulator.clock.set({ advanceSeconds: 5 });
    await test.sandbox("POST", "/sync", { organizationId: ORG_A_ID });
    const synced = await slots(test);
    expect(synced.slots.some(same)).toBe(false);
    expect(Date.parse(synced.meta.sourceSyncedAt)).toBeGreaterThan(Date.parse(before.meta.sourceSyncedAt));
  });

  it("a strong read follows a booking changed in the EHR: cancelled, or moved to another provider, the place is free at once", async () => {
    const test = createTestEmulator();
    const before = await slots(test);
    const slot = before.slots.find((candidate) => candidate.remainingCapacity === 1);
    const otherProvider = before.slots.find((candidate) => candidate.providerId !== slot?.providerId)?.providerId;
    if (!slot || !otherProvider) throw new Error("no single-capacity slot, or no second provider");
    const same = (candidate: Slot) => candidate.providerId === slot.providerId && candidate.startsAt === slot.startsAt;
    const patient = test.emulator.state.org(ORG_A_ID)?.ehr.patients[0];
    const idOf = (body: unknown) => String((body as { appointment: { id: string } }).appointment.id);
    const booking = { patientId: patient?.id, providerId: slot.providerId, facilityId: slot.facilityId, startsAt: slot.startsAt, endsAt: slot.endsAt };

    const first = await test.sandbox("POST", `/ehr/${ORG_A_ID}/appointments`, booking);
    expect((await slots(test, { consistency: "strong" })).slots.some(same)).toBe(false);
    expect((await test.sandbox("PATCH", `/ehr/${ORG_A_ID}/appointments/${idOf(first.body)}`, { status: "cancelled" })).status).toBe(200);
    expect((await slots(test, { consistency: "strong" })).slots.some(same)).toBe(true);

    const second = await test.sandbox("POST", `/ehr/${ORG_A_ID}/appointments`, booking);
    expect((await slots(test, { consistency: "strong" })).slots.some(same)).toBe(false);
    expect((await test.sandbox("PATCH", `/ehr/${ORG_A_ID}/appointments/${idOf(second.body)}`, { providerId: otherProvider })).status).toBe(200);
    expect((await slots(test, { consistency: "strong" })).slots.some(same)).toBe(true);
  });

  it("a cached read lists a slot until the instant it starts, not a millisecond after, though the mirror has not changed", async () => {
    const test = createTestEmulator({ settings: { strongReadLatencyMs: 0, syncIntervalSeconds: 30 * 86_400 } });
    const first = (await slots(test)).slots[0];
    if (!first) throw new Error("no slot");
    const same = (candidate: Slot) => candidate.providerId === first.providerId && candidate.startsAt === first.startsAt;
    test.emulator.clock.set({ now: new Date(Date.parse(first.startsAt) - 30_000).toISOString(), frozen: true });
    const before = await slots(test);
    test.emulator.clock.set({ advanceSeconds: 30 });
    const atStart = await slots(test);
    test.emulator.clock.set({ advanceSeconds: 0.001 });
    const after = await slots(test);
    expect([before, atStart, after].map((answer) => answer.meta.sourceSyncedAt)).toEqual([before.meta.sourceSyncedAt, before.meta.sourceSyncedAt, before.meta.sourceSyncedAt]);
    expect(before.slots.some(same)).toBe(true);
    expect(atStart.slots.some(same)).toBe(true);
    expect(after.slots.some(same)).toBe(false);
  });

  it("treats the window as each facility's local dates, in the facility's zone", async () => {
    const test = createTestEmulator();
    const data = await slots(test, {}, ORG_B_ID);
    expect(data.slots.every((slot) => /[+]1[01]:[03]0$/.test(slot.startsAt))).toBe(true);
    expect(data.slots.every((slot) => slot.startsAt.slice(0, 10) >= WINDOW.startDate && slot.startsAt.slice(0, 10) <= WINDOW.endDate)).toBe(true);
  });

  it("refuses an unknown appointment type, facility or provider by name", async () => {
    const test = createTestEmulator();
    const result = await test.call("GET /v2/schedule/slots", { query: { appointmentTypeId: "atp_00000000000000000000000000000000", ...WINDOW } });
    expect(result.status).toBe(400);
    expect(result.error?.message).toMatch(/appointmentTypeId/);
  });
});

describe("holds (assumed POST /v4/schedule/holds; seed DELETE)", () => {
  async function holdableSlot(test: TestEmulator) {
    const type = await firstType(test);
    const data = await slots(test);
    const slot = data.slots.find((candidate) => candidate.remainingCapacity === 1);
    if (!slot) throw new Error("no single-capacity slot");
    return { slot, body: { providerId: slot.providerId, facilityId: slot.facilityId, startsAt: slot.startsAt, endsAt: slot.endsAt, appointmentTypeId: type.id } };
  }

  it("a hold takes capacity; a second hold on the last place is a 409 conflict", async () => {
    const test = createTestEmulator();
    const { slot, body } = await holdableSlot(test);
    const { hold } = await test.get("POST /v4/schedule/holds", { body });
    expect(hold.status).toBe("active");
    expect(Date.parse(hold.expiresAt)).toBe(test.emulator.clock.now() + 600_000);
    const after = await slots(test);
    expect(after.slots.some((candidate) => candidate.providerId === slot.providerId && candidate.startsAt === slot.startsAt)).toBe(false);
    const second = await test.call("POST /v4/schedule/holds", { body });
    expect(second.status).toBe(409);
    expect(second.error?.code).toBe("conflict");
  });

  // The load bench's answer memo (EMULATOR_BENCH_ANSWER_MEMO) must not change an answer.
  it.each([false, true])("a hold shows at once in searches that can list its provider, filtered by facility or provider; another provider's search is unchanged (answer memo %s)", async (benchAnswerMemo) => {
    const test = createTestEmulator({ settings: { benchAnswerMemo } });
    const { slot, body } = await holdableSlot(test);
    const other = (await slots(test)).slots.find((candidate) => candidate.providerId !== slot.providerId);
    if (!other) throw new Error("no second provider");
    const byFacility = { facilityIds: slot.facilityId };
    const byProvider = { providerIds: slot.providerId };
    const byOther = { providerIds: other.providerId };
    const same = (candidate: Slot) => candidate.providerId === slot.providerId && candidate.startsAt === slot.startsAt;
    // Read (and, with the memo, kept) before the hold.
    expect((await slots(test, byFacility)).slots.some(same)).toBe(true);
    expect((await slots(test, byProvider)).slots.some(same)).toBe(true);
    const otherBefore = await slots(test, byOther);

    await test.get("POST /v4/schedule/holds", { body });
    expect((await slots(test, byFacility)).slots.some(same)).toBe(false);
    expect((await slots(test, byProvider)).slots.some(same)).toBe(false);
    expect((await slots(test)).slots.some(same)).toBe(false);
    expect((await slots(test, byOther)).slots).toEqual(otherBefore.slots);
  });

  it("release is idempotent, and an expired hold still releases", async () => {
    const test = createTestEmulator();
    const { body } = await holdableSlot(test);
    const { hold } = await test.get("POST /v4/schedule/holds", { body });
    expect(await test.get("DELETE /v4/schedule/holds/{holdId}", { params: { holdId: hold.id } })).toEqual({ released: true });
    expect(await test.get("DELETE /v4/schedule/holds/{holdId}", { params: { holdId: hold.id } })).toEqual({ released: true });

    const again = await test.get("POST /v4/schedule/holds", { body });
    test.emulator.clock.set({ advanceSeconds: 601 });
    expect(await test.get("DELETE /v4/schedule/holds/{holdId}", { params: { holdId: again.hold.id } })).toEqual({ released: true });
  });

  it("an expired hold gives its capacity back", async () => {
    const test = createTestEmulator();
    const { slot, body } = await holdableSlot(test);
    await test.get("POST /v4/schedule/holds", { body });
    test.emulator.clock.set({ advanceSeconds: 601 });
    const after = await slots(test);
    expect(after.slots.some((candidate) => candidate.providerId === slot.providerId && candidate.startsAt === slot.startsAt)).toBe(true);
  });

  it("refuses a hold whose end is not start + slot length", async () => {
    const test = createTestEmulator();
    const { body } = await holdableSlot(test);
    const result = await test.call("POST /v4/schedule/holds", { body: { ...body, endsAt: body.startsAt } });
    expect(result.status).toBe(400);
    expect(result.error?.message).toMatch(/endsAt/);
  });

  it("answers 404 for an unknown hold", async () => {
    const test = createTestEmulator();
    const result = await test.call("DELETE /v4/schedule/holds/{holdId}", { params: { holdId: "00000000-0000-4000-8000-000000000000" } });
    expect(result.status).toBe(404);
  });
});

describe("availability templates (seed 001 Schedule; assumed names)", () => {
  it("returns templates, their instances in the window from the contract expansion, and meta", async () => {
    const test = createTestEmulator();
    const data = await test.get("GET /v3/schedule/availability-templates", { query: WINDOW });
    expect(data.templates.length).toBeGreaterThan(5);
    expect(data.instances.length).toBeGreaterThan(10);
    const ids = new Set(data.templates.map((template) => template.id));
    expect(data.instances.every((instance) => ids.has(instance.templateId))).toBe(true);
    expect(data.meta.strongConsistency).toBe(false);
  });
});
