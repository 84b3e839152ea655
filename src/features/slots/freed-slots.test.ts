import { describe, expect, it } from "vitest";
import type { HeldSlot } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { freedEarlierSlots } from "./freed-slots.ts";
import { slotKey } from "#src/scheduling/slot-identity.ts";

const BROOKS = "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const ADAMS = "prv_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
const UWS = "fac_11111111111111111111111111111111";
const FU = "atp_dddddddddddddddddddddddddddddddd";

const slotAt = (providerId: string, time: string): Slot => ({ providerId, facilityId: UWS, startsAt: `2026-12-01T${time}:00-05:00`, endsAt: `2026-12-01T${time.slice(0, 3)}59:00-05:00`, remainingCapacity: 1, templateIds: [] });
const heldAt = (providerId: string, time: string, overrides: Partial<HeldSlot> = {}): HeldSlot => {
  const { providerId: provider, facilityId, startsAt, endsAt } = slotAt(providerId, time);
  return { id: `hold-${time}`, slot: { providerId: provider, facilityId, startsAt, endsAt }, appointmentTypeId: FU, slotLengthMinutes: 20, isNewPatient: false, patientId: null, patientName: null, expiresAt: "2026-12-01T15:00:00.000Z", heldAt: "2026-12-01T14:50:00.000Z", ...overrides };
};
const kind = { appointmentTypeId: FU, isNewPatient: false };

describe("slots freed earlier than the user's", () => {
  it("names a newly listed slot earlier than a hold with the same provider, type and flag", () => {
    const before = [slotAt(BROOKS, "10:00")];
    const after = [slotAt(BROOKS, "09:00"), ...before];
    const freed = freedEarlierSlots(new Set(before.map(slotKey)), after, [heldAt(BROOKS, "10:00")], kind);
    expect(freed.map((entry) => [entry.slot.startsAt, entry.instead.id])).toEqual([["2026-12-01T09:00:00-05:00", "hold-10:00"]]);
  });

  it("says nothing of slots already listed, later ones, another provider's, or a hold of another type or flag", () => {
    const previous = new Set([slotKey(slotAt(BROOKS, "08:00"))]);
    const listed = [slotAt(BROOKS, "08:00"), slotAt(BROOKS, "11:00"), slotAt(ADAMS, "09:00")];
    expect(freedEarlierSlots(previous, listed, [heldAt(BROOKS, "10:00")], kind)).toEqual([]);
    const earlier = [slotAt(BROOKS, "09:00")];
    expect(freedEarlierSlots(new Set(), earlier, [heldAt(BROOKS, "10:00", { appointmentTypeId: "atp_eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee" })], kind)).toEqual([]);
    expect(freedEarlierSlots(new Set(), earlier, [heldAt(BROOKS, "10:00", { isNewPatient: true })], kind)).toEqual([]);
  });
});
