import { describe, expect, it } from "vitest";
import type { SlotSearchQuery, SlotSearchResponse } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { combineSlotSearchParts, searchWindows, type SlotSearchPart } from "./slot-search-parts.ts";

const search = (facilityIds: string[] | undefined, startDate: string, endDate: string): SlotSearchQuery => ({
  appointmentTypeId: "atp_1",
  ...(facilityIds && { facilityIds }),
  startDate,
  endDate,
  slotLengthMinutes: 20,
});
const facilities = (count: number) => Array.from({ length: count }, (_, index) => `fac_${index}`);
const spans = (windows: SlotSearchQuery[]) => windows.map((window) => `${window.startDate}..${window.endDate}`);

describe("searchWindows", () => {
  it("keeps a one-facility search over two weeks one read", () => {
    expect(spans(searchWindows(search(["fac_a"], "2026-12-01", "2026-12-14")))).toEqual(["2026-12-01..2026-12-14"]);
    expect(spans(searchWindows(search(undefined, "2026-12-01", "2026-12-14")))).toEqual(["2026-12-01..2026-12-14"]);
  });

  it("reads every facility of a large group a day first, then a few days at a time, earliest first, covering each day once", () => {
    const windows = searchWindows(search(facilities(9), "2026-12-28", "2027-01-08"));
    expect(spans(windows)).toEqual(["2026-12-28..2026-12-28", "2026-12-29..2026-12-31", "2027-01-01..2027-01-03", "2027-01-04..2027-01-06", "2027-01-07..2027-01-08"]);
    // Everything but the window is the search's own.
    for (const window of windows) expect(window).toMatchObject({ appointmentTypeId: "atp_1", facilityIds: facilities(9), slotLengthMinutes: 20 });
  });

  it("counts a search naming providers as the facilities they make up: a dozen in two facilities is one read over two weeks, 90 in nine is three facilities' worth", () => {
    const providers = (count: number) => Array.from({ length: count }, (_, index) => `prv_${index}`);
    expect(spans(searchWindows({ ...search(facilities(2), "2026-12-01", "2026-12-14"), providerIds: providers(12) }))).toEqual(["2026-12-01..2026-12-14"]);
    expect(spans(searchWindows({ ...search(facilities(9), "2026-12-01", "2026-12-14"), providerIds: providers(90) }))).toEqual(["2026-12-01..2026-12-04", "2026-12-05..2026-12-13", "2026-12-14..2026-12-14"]);
    // Never more than the facilities searched, however many providers are named.
    expect(spans(searchWindows({ ...search(facilities(2), "2026-12-01", "2026-12-14"), providerIds: providers(300) }))).toEqual(spans(searchWindows(search(facilities(2), "2026-12-01", "2026-12-14"))));
  });

  it("never makes a window of no days, however many facilities", () => {
    expect(spans(searchWindows(search(facilities(40), "2026-12-01", "2026-12-03")))).toEqual(["2026-12-01..2026-12-01", "2026-12-02..2026-12-02", "2026-12-03..2026-12-03"]);
  });
});

const slot = (providerId: string, startsAt: string): Slot => ({ providerId, facilityId: "fac_a", startsAt, endsAt: startsAt, remainingCapacity: 1, templateIds: [] });
const answer = (slots: Slot[], nextAvailableByProvider: Record<string, string>, sourceSyncedAt: string, completeness = "complete"): SlotSearchResponse => ({
  slots,
  nextAvailableByProvider,
  meta: { sourceSyncedAt, sourceKind: "cache", maxStalenessSeconds: 60, strongConsistency: false, strategy: "native", completeness, generatedAt: sourceSyncedAt },
});
const part = (startDate: string, endDate: string, body: SlotSearchResponse): SlotSearchPart => ({ startDate, endDate, searchEndDate: "2026-12-05", answer: body });

describe("combineSlotSearchParts", () => {
  it("is nothing before the first part", () => {
    expect(combineSlotSearchParts([])).toBeUndefined();
  });

  it("lists the parts' slots in order, says how far it has come, and is whole once the last day is in", () => {
    const first = part("2026-12-01", "2026-12-01", answer([slot("prv_a", "2026-12-01T09:00:00-05:00")], { prv_a: "2026-12-01", prv_b: "2026-12-03" }, "2026-12-01T08:00:00Z"));
    const second = part("2026-12-02", "2026-12-05", answer([slot("prv_b", "2026-12-03T09:00:00-05:00")], { prv_a: "2026-12-04", prv_b: "2026-12-03" }, "2026-12-01T08:00:30Z"));
    const sofar = combineSlotSearchParts([first]);
    expect(sofar).toMatchObject({ loadedThrough: "2026-12-01", isComplete: false });
    const whole = combineSlotSearchParts([first, second]);
    expect(whole?.slots.map((listed) => listed.providerId)).toEqual(["prv_a", "prv_b"]);
    expect(whole).toMatchObject({ loadedThrough: "2026-12-05", isComplete: true });
    // Each provider's earliest date over the parts.
    expect(whole?.nextAvailableByProvider).toEqual({ prv_a: "2026-12-01", prv_b: "2026-12-03" });
  });

  it("is as fresh as its oldest part, and incomplete if any part is", () => {
    const older = part("2026-12-01", "2026-12-01", answer([], {}, "2026-12-01T07:59:00Z"));
    const newer = part("2026-12-02", "2026-12-05", answer([], {}, "2026-12-01T08:00:30Z", "partial_beyond_sync_horizon"));
    const whole = combineSlotSearchParts([older, newer]);
    expect(whole?.meta.sourceSyncedAt).toBe("2026-12-01T07:59:00Z");
    expect(whole?.meta.completeness).toBe("partial_beyond_sync_horizon");
  });
});
