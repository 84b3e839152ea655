import { describe, expect, it } from "vitest";
import type { SlotSearchQuery, SlotSearchResponse } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { addDays, daysBetween } from "#contract/time/zoned-time.ts";
import { combineSlotSearchParts, firstWindow, windowAfter, type SlotSearchPart } from "./slot-search-parts.ts";

const search = (facilityIds: string[] | undefined, startDate: string, endDate: string): SlotSearchQuery => ({
  appointmentTypeId: "atp_1",
  ...(facilityIds && { facilityIds }),
  startDate,
  endDate,
  slotLengthMinutes: 20,
});
const facilities = (count: number) => Array.from({ length: count }, (_, index) => `fac_${index}`);
const spans = (windows: SlotSearchQuery[]) => windows.map((window) => `${window.startDate}..${window.endDate}`);

/**
 * The parts a search is read in, as the reader plans them, when the days `closed` have no slot and an empty part's
 * next available date is the first day after it that is not closed (`horizon`: none after that day).
 */
function searchWindows(query: SlotSearchQuery, closed: readonly string[] = [], horizon = "2099-12-31"): SlotSearchQuery[] {
  const windows: SlotSearchQuery[] = [];
  const found = { slots: false, nextAvailable: [] as string[] };
  const days = (from: string, to: string) => Array.from({ length: daysBetween(from, to) + 1 }, (_, index) => addDays(from, index));
  for (let window: SlotSearchQuery | null = firstWindow(query); window !== null; window = windowAfter(query, window, found)) {
    windows.push(window);
    found.slots ||= days(window.startDate, window.endDate).some((day) => !closed.includes(day));
    let next = addDays(window.endDate, 1);
    while (closed.includes(next)) next = addDays(next, 1);
    found.nextAvailable = found.slots || daysBetween(next, horizon) < 0 ? [] : [next, addDays(next, 2)];
  }
  return windows;
}

describe("the parts of a slot search", () => {
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

  it("after a part with no slot, reads on to a first part's span past the service's next available date, so a search starting on a weekend draws its first slots from a day's part", () => {
    const weekend = ["2026-12-05", "2026-12-06"];
    expect(spans(searchWindows(search(facilities(9), "2026-12-05", "2026-12-14"), weekend))).toEqual(["2026-12-05..2026-12-05", "2026-12-06..2026-12-07", "2026-12-08..2026-12-10", "2026-12-11..2026-12-13", "2026-12-14..2026-12-14"]);
    // Nothing until after the search: the rest of it in one part.
    expect(spans(searchWindows(search(facilities(9), "2026-12-05", "2026-12-10"), ["2026-12-05", "2026-12-06", "2026-12-07", "2026-12-08", "2026-12-09", "2026-12-10"]))).toEqual(["2026-12-05..2026-12-05", "2026-12-06..2026-12-10"]);
    // No next available date at all: later parts as usual, not a day at a time.
    expect(spans(searchWindows(search(facilities(9), "2026-12-05", "2026-12-10"), ["2026-12-05", "2026-12-06", "2026-12-07", "2026-12-08", "2026-12-09", "2026-12-10"], "2026-12-01"))).toEqual(["2026-12-05..2026-12-05", "2026-12-06..2026-12-08", "2026-12-09..2026-12-10"]);
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
