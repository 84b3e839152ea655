// @vitest-environment happy-dom
import { renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { HeldSlot, SlotSearchQuery, SlotSearchResponse } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { slotKey } from "#src/scheduling/slot-identity.ts";
import type { SlotTimeFilter } from "#src/scheduling/slot-time-filter.ts";
import { useListedSlots } from "./use-listed-slots.ts";

// A large group's answer is grouped once per answer and order: the holds
// changing, or the same filters coming back as a new object, keep the grouped
// list (the same object, so nothing is grouped or drawn again); the Held
// marks and the count follow the holds.

const PROVIDER = "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const FACILITY = "fac_11111111111111111111111111111111";
const TYPE = "atp_dddddddddddddddddddddddddddddddd";
const ZONE = "America/New_York";

const slotAt = (hour: number): Slot => ({
  providerId: PROVIDER,
  facilityId: FACILITY,
  startsAt: `2026-12-01T${String(hour).padStart(2, "0")}:00:00-05:00`,
  endsAt: `2026-12-01T${String(hour).padStart(2, "0")}:30:00-05:00`,
  remainingCapacity: 1,
  templateIds: [],
});

const answer: SlotSearchResponse = {
  slots: [8, 9, 10, 11].map(slotAt),
  nextAvailableByProvider: {},
  meta: { sourceSyncedAt: "2026-11-30T12:00:00.000Z", sourceKind: "cache", maxStalenessSeconds: 60, strongConsistency: false, strategy: "native", completeness: "complete", generatedAt: "2026-11-30T12:00:00.000Z" },
};
const search = (): SlotSearchQuery => ({ appointmentTypeId: TYPE, facilityIds: [FACILITY], startDate: "2026-11-30", endDate: "2026-12-13", isNewPatient: false });

const holdOf = (slot: Slot, id: string): HeldSlot => ({
  id,
  slot: { providerId: slot.providerId, facilityId: slot.facilityId, startsAt: slot.startsAt, endsAt: slot.endsAt },
  appointmentTypeId: TYPE,
  slotLengthMinutes: 30,
  isNewPatient: false,
  patientId: null,
  patientName: null,
  expiresAt: "2026-12-01T13:10:00.000Z",
  heldAt: "2026-12-01T13:00:00.000Z",
});

const ANY_TIME: SlotTimeFilter = { startsFrom: null, startsBefore: null, weekdays: [] };
const zoneOf = () => ZONE;
const providerName = () => "Dr Brooks";
const facilityName = () => "Midtown";

function renderListed() {
  return renderHook((props: { holds: readonly HeldSlot[]; listedSearch: SlotSearchQuery; order: "provider" | "time"; data?: SlotSearchResponse }) =>
    useListedSlots({ data: answer, selection: { kind: "idle" }, outcome: null, timeFilter: ANY_TIME, zoneOf, fallbackZone: ZONE, providerName, facilityName, ...props }),
  { initialProps: { holds: [], listedSearch: search(), order: "provider" } });
}

describe("the listed slots of one answer", () => {
  it("keeps the grouped list when the user holds a slot of it, and marks that slot held and not free", () => {
    const { result, rerender } = renderListed();
    const grouped = result.current.days;
    expect(result.current.slotCount).toBe(4);
    const first = answer.slots[0]!;
    rerender({ holds: [holdOf(first, "hold-1")], listedSearch: search(), order: "provider" });
    expect(result.current.days).toBe(grouped);
    expect([...result.current.heldKeys]).toEqual([slotKey(first)]);
    expect(result.current.slotCount).toBe(3);
    expect(result.current.firstKey).toBe(slotKey(answer.slots[1]!));
  });

  it("keeps the grouped list and the Held marks when the same holds and filters come back as new objects", () => {
    const { result, rerender } = renderListed();
    const first = answer.slots[0]!;
    rerender({ holds: [holdOf(first, "hold-1")], listedSearch: search(), order: "provider" });
    const { days, heldKeys } = result.current;
    rerender({ holds: [holdOf(first, "hold-1")], listedSearch: search(), order: "provider" });
    expect(result.current.days).toBe(days);
    expect(result.current.heldKeys).toBe(heldKeys);
  });

  it("groups each order once: switching back to one shown before gives the same list", () => {
    const { result, rerender } = renderListed();
    const byProvider = result.current.days;
    rerender({ holds: [], listedSearch: search(), order: "time" });
    expect(result.current.days).not.toBe(byProvider);
    expect(result.current.days[0]?.rows[0]?.kind).toBe("hour");
    rerender({ holds: [], listedSearch: search(), order: "provider" });
    expect(result.current.days).toBe(byProvider);
  });

  it("keeps the grouped list for a newer read of the same slots (the list kept by the query's structural sharing)", () => {
    const { result, rerender } = renderListed();
    const grouped = result.current.days;
    rerender({ holds: [], listedSearch: search(), order: "provider", data: { ...answer, meta: { ...answer.meta, sourceSyncedAt: "2026-11-30T12:05:00.000Z" } } });
    expect(result.current.days).toBe(grouped);
  });
});

describe("the listed slots of a wide search's parts", () => {
  const nextDay = (slot: Slot): Slot => ({ ...slot, startsAt: slot.startsAt.replace("2026-12-01", "2026-12-02"), endsAt: slot.endsAt.replace("2026-12-01", "2026-12-02") });
  const firstPart = { startDate: "2026-11-30", endDate: "2026-12-01", slots: answer.slots };
  const secondPart = { startDate: "2026-12-02", endDate: "2026-12-13", slots: answer.slots.map(nextDay) };
  const inParts = (parts: (typeof firstPart)[]) => ({ ...answer, slots: parts.flatMap((part) => part.slots), parts });

  it("groups only the part that arrives: the days already listed keep their grouped objects", () => {
    const { result, rerender } = renderListed();
    rerender({ holds: [], listedSearch: search(), order: "provider", data: inParts([firstPart]) });
    const firstDay = result.current.days[0];
    expect(result.current.days.map((day) => day.date)).toEqual(["2026-12-01"]);
    rerender({ holds: [], listedSearch: search(), order: "provider", data: inParts([firstPart, secondPart]) });
    expect(result.current.days.map((day) => day.date)).toEqual(["2026-12-01", "2026-12-02"]);
    expect(result.current.days[0]).toBe(firstDay);
    expect(result.current.slotCount).toBe(8);
    expect(result.current.firstKey).toBe(slotKey(answer.slots[0]!));
  });

  it("marks a held slot of a later part, and keeps a held slot the answer lacks on its own day", () => {
    const { result, rerender } = renderListed();
    const laterSlot = secondPart.slots[1]!;
    rerender({ holds: [holdOf(laterSlot, "hold-1")], listedSearch: search(), order: "provider", data: inParts([firstPart, secondPart]) });
    expect([...result.current.heldKeys]).toEqual([slotKey(laterSlot)]);
    expect(result.current.slotCount).toBe(7);
    // The service no longer lists it (its one place is the user's hold): it stays, on its day, marked Held.
    const withoutIt = { ...secondPart, slots: secondPart.slots.filter((slot) => slot !== laterSlot) };
    rerender({ holds: [holdOf(laterSlot, "hold-1")], listedSearch: search(), order: "provider", data: inParts([firstPart, withoutIt]) });
    expect(result.current.days.map((day) => day.date)).toEqual(["2026-12-01", "2026-12-02"]);
    expect([...result.current.heldKeys]).toEqual([slotKey(laterSlot)]);
    expect(result.current.slotCount).toBe(7);
  });

  it("groups the parts together when their days overlap (a service's window days that are not the facilities')", () => {
    const { result, rerender } = renderListed();
    const overlapping = { startDate: "2026-12-02", endDate: "2026-12-13", slots: [answer.slots[0]!].map((slot) => ({ ...slot, startsAt: slot.startsAt.replace("08:00", "07:00") })) };
    rerender({ holds: [], listedSearch: search(), order: "provider", data: inParts([firstPart, overlapping]) });
    expect(result.current.days.map((day) => day.date)).toEqual(["2026-12-01"]);
    expect(result.current.slotCount).toBe(5);
  });
});
