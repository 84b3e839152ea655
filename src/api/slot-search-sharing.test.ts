import { describe, expect, it } from "vitest";
import type { SlotSearchResponse } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { shareUnchangedSlots } from "./slot-search-sharing.ts";

const PROVIDER = "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const FACILITY = "fac_11111111111111111111111111111111";
const META = { sourceSyncedAt: "2026-11-30T12:00:00.000Z", sourceKind: "cache", maxStalenessSeconds: 60, strongConsistency: false, strategy: "native", completeness: "complete", generatedAt: "2026-11-30T12:00:00.000Z" };
const slotAt = (hour: number, remainingCapacity = 1): Slot => ({
  providerId: PROVIDER,
  facilityId: FACILITY,
  startsAt: `2026-12-01T${String(hour).padStart(2, "0")}:00:00-05:00`,
  endsAt: `2026-12-01T${String(hour).padStart(2, "0")}:30:00-05:00`,
  remainingCapacity,
  templateIds: ["avt_cccccccccccccccccccccccccccccccc"],
});
const answerOf = (slots: Slot[], meta = META): SlotSearchResponse => ({ slots, nextAvailableByProvider: {}, meta });

describe("a slot search read again", () => {
  it("keeps the slots that did not change, matched by key, when one before them has gone", () => {
    const previous = answerOf([8, 9, 10, 11].map((hour) => slotAt(hour)));
    const shared = shareUnchangedSlots(previous, answerOf([9, 10, 11].map((hour) => slotAt(hour))));
    expect(shared.slots).toHaveLength(3);
    shared.slots.forEach((slot, index) => expect(slot).toBe(previous.slots[index + 1]));
  });

  it("takes a slot whose capacity or end changed as new", () => {
    const previous = answerOf([slotAt(8), slotAt(9)]);
    const changed = slotAt(9, 2);
    const shared = shareUnchangedSlots(previous, answerOf([slotAt(8), changed]));
    expect(shared.slots[0]).toBe(previous.slots[0]);
    expect(shared.slots[1]).toBe(changed);
    expect(shared).toEqual(answerOf([slotAt(8), slotAt(9, 2)]));
  });

  it("keeps the list itself when no slot changed, and the whole answer when nothing did", () => {
    const previous = answerOf([slotAt(8), slotAt(9)]);
    const newerRead = shareUnchangedSlots(previous, answerOf([slotAt(8), slotAt(9)], { ...META, sourceSyncedAt: "2026-11-30T12:05:00.000Z" }));
    expect(newerRead.slots).toBe(previous.slots);
    expect(newerRead.meta.sourceSyncedAt).toBe("2026-11-30T12:05:00.000Z");
    expect(shareUnchangedSlots(previous, answerOf([slotAt(8), slotAt(9)]))).toBe(previous);
  });
});
