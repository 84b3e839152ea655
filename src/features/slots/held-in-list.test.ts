import { describe, expect, it } from "vitest";
import type { HeldSlot, SlotSearchQuery } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { slotKey } from "#src/scheduling/slot-identity.ts";
import { heldForOtherPatients, heldKeysOnList, heldSlotsMissingFromList } from "./held-in-list.ts";

const PROVIDER = "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const OTHER_PROVIDER = "prv_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
const FACILITY = "fac_11111111111111111111111111111111";
const FACILITY_RAW = "11111111-1111-1111-1111-111111111111";
const OTHER_FACILITY = "fac_22222222222222222222222222222222";
const TYPE = "atp_dddddddddddddddddddddddddddddddd";
const zoneOf = () => "America/New_York";

function held(overrides: Partial<HeldSlot> = {}, slot: Partial<HeldSlot["slot"]> = {}): HeldSlot {
  return {
    id: "hold-1",
    slot: { providerId: PROVIDER, facilityId: FACILITY, startsAt: "2026-12-01T08:00:00-05:00", endsAt: "2026-12-01T08:30:00-05:00", ...slot },
    appointmentTypeId: TYPE,
    slotLengthMinutes: 30,
    isNewPatient: false,
    patientId: null,
    patientName: null,
    expiresAt: "2026-12-01T13:10:00.000Z",
    heldAt: "2026-12-01T13:00:00.000Z",
    ...overrides,
  };
}

const search: SlotSearchQuery = { appointmentTypeId: TYPE, facilityIds: [FACILITY_RAW], startDate: "2026-11-30", endDate: "2026-12-13", isNewPatient: false };
const listedSlot = (startsAt: string): Slot => ({ providerId: PROVIDER, facilityId: FACILITY, startsAt, endsAt: startsAt, remainingCapacity: 1, templateIds: [] });

describe("the user's held slots on the list they were held from", () => {
  it("puts back a held slot the list read after the hold no longer has, with no place left", () => {
    expect(heldSlotsMissingFromList([held()], [[listedSlot("2026-12-01T08:40:00-05:00")]], search, zoneOf)).toEqual([
      { providerId: PROVIDER, facilityId: FACILITY, startsAt: "2026-12-01T08:00:00-05:00", endsAt: "2026-12-01T08:30:00-05:00", remainingCapacity: 0, templateIds: [] },
    ]);
  });

  it("adds nothing when the list still has it (the same instant in another offset form too)", () => {
    expect(heldSlotsMissingFromList([held()], [[listedSlot("2026-12-01T13:00:00Z")]], search, zoneOf)).toEqual([]);
  });

  it("leaves out holds this search could not have listed", () => {
    const others = [
      held({ appointmentTypeId: "atp_eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee" }),
      held({ isNewPatient: true }),
      held({}, { facilityId: OTHER_FACILITY }),
      held({}, { startsAt: "2026-12-14T08:00:00-05:00" }),
      // 23:30 on the 29th in New York is the 30th in UTC: the facility's date decides.
      held({}, { startsAt: "2026-11-29T23:30:00-05:00" }),
    ];
    expect(heldSlotsMissingFromList(others, [[]], search, zoneOf)).toEqual([]);
    expect(heldSlotsMissingFromList([held()], [[]], { ...search, slotLengthMinutes: 20 }, zoneOf)).toEqual([]);
    expect(heldSlotsMissingFromList([held()], [[]], { ...search, providerIds: [OTHER_PROVIDER] }, zoneOf)).toEqual([]);
    expect(heldSlotsMissingFromList([held()], [[]], null, zoneOf)).toEqual([]);
  });
});

describe("the Held mark on a listed slot", () => {
  const slotAt = (startsAt: string, endsAt: string): Slot => ({ providerId: PROVIDER, facilityId: FACILITY, startsAt, endsAt, remainingCapacity: 2, templateIds: [] });
  const eightOClock = slotAt("2026-12-01T13:00:00Z", "2026-12-01T13:30:00Z");

  it("marks the slot held as this search's kind, with the same start and end (in any offset form)", () => {
    const later = slotAt("2026-12-01T13:40:00Z", "2026-12-01T14:10:00Z");
    expect([...heldKeysOnList([held()], [[eightOClock], [later]], search)]).toEqual([slotKey(eightOClock)]);
  });

  it("does not mark a slot at the same time held as another type, flag or length, nor any slot without a search", () => {
    expect(heldKeysOnList([held({ appointmentTypeId: "atp_eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee" })], [[eightOClock]], search).size).toBe(0);
    expect(heldKeysOnList([held({ isNewPatient: true })], [[eightOClock]], search).size).toBe(0);
    expect(heldKeysOnList([held({ slotLengthMinutes: 45 }, { endsAt: "2026-12-01T08:45:00-05:00" })], [[eightOClock]], search).size).toBe(0);
    expect(heldKeysOnList([held()], [[slotAt("2026-12-01T13:00:00Z", "2026-12-01T13:20:00Z")]], { ...search, slotLengthMinutes: 20 }).size).toBe(0);
    expect(heldKeysOnList([held()], [[eightOClock]], null).size).toBe(0);
  });
});

describe("whom a listed held slot is held for", () => {
  const ORTIZ = "pat_ortiz";
  const ANDERSON = "pat_anderson";
  const at = (time: string) => ({ startsAt: `2026-12-01T${time}:00-05:00`, endsAt: `2026-12-01T${time}:00-05:00` });

  it("names the patient kept with a hold when the EHR has another patient open, or says the patient open before when none was kept", () => {
    const forOrtiz = held({ id: "h1", patientId: ORTIZ, patientName: "Ortiz, Christopher" }, at("08:00"));
    const unnamed = held({ id: "h2", patientId: ORTIZ, patientName: null }, at("09:00"));
    const forAnderson = held({ id: "h3", patientId: ANDERSON, patientName: "Anderson, Carlos" }, at("10:00"));
    const keys = new Set([forOrtiz, unnamed, forAnderson].map((hold) => slotKey(hold.slot)));
    const whom = heldForOtherPatients([forOrtiz, unnamed, forAnderson], keys, ANDERSON);
    expect([...whom.entries()]).toEqual([
      [slotKey(forOrtiz.slot), "Ortiz, Christopher"],
      [slotKey(unnamed.slot), "the patient open before"],
    ]);
  });

  it("says nothing of holds made with no patient open, of slots not listed, or of a slot held for the open patient too", () => {
    const noPatient = held({ id: "h1" }, at("08:00"));
    const notListed = held({ id: "h2", patientId: ORTIZ, patientName: "Ortiz, Christopher" }, at("09:00"));
    const both = [held({ id: "h3", patientId: ORTIZ, patientName: "Ortiz, Christopher" }, at("10:00")), held({ id: "h4", patientId: ANDERSON }, at("10:00"))];
    const keys = new Set([slotKey(noPatient.slot), ...both.map((hold) => slotKey(hold.slot))]);
    expect(heldForOtherPatients([noPatient, notListed, ...both], keys, ANDERSON).size).toBe(0);
  });
});
