import { defaultParseSearch, defaultStringifySearch } from "@tanstack/react-router";
import { describe, expect, it } from "vitest";
import { draftOf, filtersFromDraft, isRunnable, parseSlotLength, resolveSlotFilters, slotLengthWarning, toSlotSearchParams, widenedWindow, widestWindowDays, windowStartingOn, withKnownIds } from "./slot-filters.ts";
import { unreadSlotParams, validateSlotSearch } from "#src/scheduling/slot-search-params.ts";

const RIVERSIDE = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
const LAKESIDE = "0a1b2c3d-4e5f-4a6b-8c9d-0e1f2a3b4c5d";
const DR_BROOKS = "prv_0123456789abcdef0123456789abcdef";
const DR_OKAFOR = "11112222-3333-4444-8555-666677778888";
const FOLLOW_UP = "atp_aaaabbbbccccddddeeeeffff00001111";
const DEFAULTS = { appointmentTypeId: FOLLOW_UP, facilityId: RIVERSIDE, today: "2026-11-01" };

/** What the router does with a URL: its default parser, then the route's validateSearch. */
const readUrl = (search: string) => validateSlotSearch(defaultParseSearch(search));
const writeUrl = (params: Record<string, unknown>) => defaultStringifySearch(params);

describe("the filter schema and defaults", () => {
  it("fills every default from an empty URL: first type, current facility, all providers, today + 14 days", () => {
    expect(resolveSlotFilters(readUrl(""), DEFAULTS)).toEqual({ appointmentTypeId: FOLLOW_UP, facilityIds: [RIVERSIDE], startDate: "2026-11-01", endDate: "2026-11-14", isNewPatient: false });
  });

  it("cannot search before the appointment types (or a facility) are known", () => {
    expect(resolveSlotFilters({}, { ...DEFAULTS, appointmentTypeId: null })).toBeNull();
    expect(resolveSlotFilters({}, { ...DEFAULTS, facilityId: null })).toBeNull();
  });

  it("round-trips through a real URL: parse, serialize, parse gives the same search", () => {
    const url = `?appointmentTypeId=${FOLLOW_UP}&facilityIds=${LAKESIDE},${RIVERSIDE}&providerIds=${DR_OKAFOR},${DR_BROOKS}&startDate=2026-03-08&endDate=2026-03-21&slotLengthMinutes=40&isNewPatient=true`;
    const first = resolveSlotFilters(readUrl(url), DEFAULTS);
    expect(first).toEqual({
      appointmentTypeId: FOLLOW_UP,
      facilityIds: [LAKESIDE, RIVERSIDE].sort(),
      providerIds: [DR_OKAFOR, DR_BROOKS].sort(),
      startDate: "2026-03-08",
      endDate: "2026-03-21",
      slotLengthMinutes: 40,
      isNewPatient: true,
    });
    if (!first) throw new Error("unreachable");
    const again = resolveSlotFilters(readUrl(writeUrl(toSlotSearchParams(first))), DEFAULTS);
    expect(again).toEqual(first);
  });

  it("writes the defaults into the URL, so a shared link means the same search tomorrow", () => {
    const filters = resolveSlotFilters({}, DEFAULTS);
    if (!filters) throw new Error("unreachable");
    const url = writeUrl(toSlotSearchParams(filters));
    expect(url).toContain("startDate=2026-11-01");
    expect(url).toContain(`facilityIds=${RIVERSIDE}`);
    expect(url).not.toContain("providerIds");
    expect(resolveSlotFilters(readUrl(url), { ...DEFAULTS, today: "2026-12-25" })).toEqual(filters);
  });

  it("drops values that do not parse instead of failing the page", () => {
    const params = readUrl("?appointmentTypeId=nope&facilityIds=not-an-id&startDate=2026-13-40&slotLengthMinutes=2000&isNewPatient=maybe&endDate=2026-03-01");
    expect(params).toEqual({ endDate: "2026-03-01", dropped: "appointmentTypeId,facilityIds,startDate,slotLengthMinutes,isNewPatient" });
  });

  it("reads duplicates and spaces in a hand-written list as one id each", () => {
    expect(resolveSlotFilters(validateSlotSearch({ providerIds: `${DR_BROOKS},${DR_BROOKS}` }), DEFAULTS)?.providerIds).toEqual([DR_BROOKS]);
    expect(validateSlotSearch({ providerIds: `${DR_BROOKS}, ${DR_OKAFOR}` }).providerIds).toBeUndefined();
  });
});

describe("the filter form", () => {
  const valid = draftOf({ appointmentTypeId: FOLLOW_UP, facilityIds: [RIVERSIDE], startDate: "2026-11-01", endDate: "2026-11-14", isNewPatient: false });

  it("gives the search for a valid draft, an empty length meaning the type's default", () => {
    expect(filtersFromDraft(valid)).toEqual({ filters: { appointmentTypeId: FOLLOW_UP, facilityIds: [RIVERSIDE], startDate: "2026-11-01", endDate: "2026-11-14", isNewPatient: false }, errors: null });
    expect(filtersFromDraft({ ...valid, slotLength: " 45 " }).filters?.slotLengthMinutes).toBe(45);
  });

  it("keeps the form's lists as arrays: distinct and sorted, as a list read from the URL is", () => {
    const draft = { ...valid, facilityIds: [RIVERSIDE, LAKESIDE, RIVERSIDE], providerIds: [DR_OKAFOR, DR_BROOKS, DR_OKAFOR] };
    const filters = filtersFromDraft(draft).filters;
    expect(filters).toMatchObject({ facilityIds: [LAKESIDE, RIVERSIDE], providerIds: [DR_OKAFOR, DR_BROOKS].sort() });
    expect(filters && resolveSlotFilters(readUrl(writeUrl(toSlotSearchParams(filters))), DEFAULTS)).toEqual(filters);
  });

  it("names the field and says what to do", () => {
    expect(filtersFromDraft({ ...valid, facilityIds: [] }).errors).toEqual({ facilityIds: "Choose at least one facility." });
    expect(filtersFromDraft({ ...valid, endDate: "2026-10-31" }).errors).toEqual({ endDate: "The end date must be on or after the start date." });
    expect(filtersFromDraft({ ...valid, endDate: "2027-01-02" }).errors).toEqual({ endDate: "The window may span at most 62 days." });
    expect(filtersFromDraft({ ...valid, slotLength: "4" }).errors?.slotLength).toMatch(/5 to 480/);
    expect(filtersFromDraft({ ...valid, slotLength: "20.5" }).errors?.slotLength).toMatch(/whole minutes/);
    expect(filtersFromDraft({ ...valid, startDate: "" }).errors).toEqual({ startDate: "Enter a start date." });
  });

  it("refuses a window that starts before today, not one that starts today", () => {
    expect(filtersFromDraft(valid, "2026-11-02").errors).toEqual({ startDate: "The start date has passed: choose today or a later date (times gone by cannot be held)." });
    expect(filtersFromDraft(valid, "2026-11-01").errors).toBeNull();
  });

  it("does not run a shared link whose window the service would refuse", () => {
    const filters = resolveSlotFilters(readUrl("?startDate=2026-03-08&endDate=2026-03-01"), DEFAULTS);
    expect(filters && isRunnable(filters)).toBe(false);
  });

  it("refuses a scope the BFF would refuse (126 facility-days), naming the dates and what to narrow (issue 34)", () => {
    const nine = Array.from({ length: 9 }, (_, index) => `0a1b2c3d-4e5f-4a6b-8c9d-0e1f2a3b4c${String(index).padStart(2, "0")}`);
    expect(filtersFromDraft({ ...valid, facilityIds: nine, endDate: "2026-11-14" }).errors).toBeNull();
    expect(filtersFromDraft({ ...valid, facilityIds: nine, endDate: "2026-11-15" }).errors).toEqual({ endDate: "With 9 facilities the window may span at most 14 days: choose fewer facilities or fewer days." });
    expect(filtersFromDraft({ ...valid, facilityIds: [RIVERSIDE, LAKESIDE], endDate: "2027-01-01" }).errors).toBeNull();
    const many = Array.from({ length: 127 }, (_, index) => `0a1b2c3d-4e5f-4a6b-8c9d-${String(index).padStart(12, "0")}`);
    expect(filtersFromDraft({ ...valid, facilityIds: many, endDate: valid.startDate }).errors).toEqual({ facilityIds: "Choose at most 126 facilities." });
    const link = resolveSlotFilters(readUrl(`?facilityIds=${nine.join(",")}&startDate=2026-11-01&endDate=2026-12-31`), DEFAULTS);
    expect(link && isRunnable(link)).toBe(false);
  });

  it("widens no further than the facilities allow", () => {
    const filters = { appointmentTypeId: FOLLOW_UP, facilityIds: [RIVERSIDE, LAKESIDE, DR_OKAFOR], startDate: "2026-11-01", endDate: "2026-11-14" };
    expect(widestWindowDays(filters)).toBe(42);
    expect(widenedWindow(filters, 62)).toMatchObject({ endDate: "2026-12-12" });
  });

  it("moves and widens the window keeping its length, capped at 62 days", () => {
    const filters = { appointmentTypeId: FOLLOW_UP, facilityIds: [RIVERSIDE], startDate: "2026-11-01", endDate: "2026-11-14" };
    expect(windowStartingOn(filters, "2026-12-30")).toMatchObject({ startDate: "2026-12-30", endDate: "2027-01-12" });
    expect(widenedWindow(filters, 28)).toMatchObject({ startDate: "2026-11-01", endDate: "2026-11-28" });
    expect(widenedWindow(filters, 90)).toMatchObject({ endDate: "2027-01-01" });
  });
});

describe("a shared link's filters that cannot be used (issue 36 item 8)", () => {
  it("reach the view as undefined, not with their bad values, once the router merges the validated params over the raw ones", () => {
    const raw = defaultParseSearch("?startDate=2026-13-40&endDate=2026-02-31&slotLengthMinutes=2&isNewPatient=perhaps&order=time");
    // What TanStack Router's match gives the route: the raw params, then validateSearch's answer over them.
    const params = { ...raw, ...validateSlotSearch(raw) };
    expect(params).toEqual({ order: "time", dropped: "startDate,endDate,slotLengthMinutes,isNewPatient" });
    expect(resolveSlotFilters(params, DEFAULTS)).toMatchObject({ startDate: "2026-11-01", endDate: "2026-11-14" });
  });

  it("names each dropped filter as the form names it, across the router's rewrite of the URL, and nothing for a clean link", () => {
    const params = readUrl("?appointmentTypeId=nope&startDate=2026-13-40&slotLengthMinutes=2&order=sideways&endDate=2026-03-01");
    expect(params.dropped).toBe("appointmentTypeId,startDate,slotLengthMinutes,order");
    expect(unreadSlotParams(params)).toEqual(["appointment type", "start date", "slot length (whole minutes from 5 to 480)", "order"]);
    // The router writes the validated params back to the URL (bad values gone): read again, the message stays.
    expect(unreadSlotParams(readUrl(`?${writeUrl(params)}`))).toEqual(unreadSlotParams(params));
    // A search writes fresh params: no message.
    expect(readUrl(`?${writeUrl(toSlotSearchParams({ appointmentTypeId: FOLLOW_UP, facilityIds: [RIVERSIDE], startDate: "2026-03-01", endDate: "2026-03-14" }))}`).dropped).toBeUndefined();
    expect(unreadSlotParams(readUrl(`?appointmentTypeId=${FOLLOW_UP}&slotLengthMinutes=40&order=time&dropped=nonsense`))).toEqual([]);
  });

  it("drops ids the organization does not have (in either id form), keeping the facilities it has", () => {
    const known = { appointmentTypeIds: [FOLLOW_UP], facilityIds: [RIVERSIDE] };
    expect(withKnownIds({ appointmentTypeId: "atp_00000000000000000000000000000000", facilityIds: `${LAKESIDE},${RIVERSIDE}` }, known)).toEqual({ params: { facilityIds: RIVERSIDE }, unknown: ["appointment type", "facilities"] });
    expect(withKnownIds({ appointmentTypeId: "aaaabbbb-cccc-dddd-eeee-ffff00001111", facilityIds: RIVERSIDE }, known).unknown).toEqual([]);
    expect(withKnownIds({ facilityIds: LAKESIDE }, known).params.facilityIds).toBeUndefined();
    // Lists not loaded yet: nothing is judged.
    expect(withKnownIds({ appointmentTypeId: FOLLOW_UP, facilityIds: LAKESIDE }, { appointmentTypeIds: [], facilityIds: [] }).unknown).toEqual([]);
  });
});

describe("the slot length (issue 36 item 6)", () => {
  it("takes whole minutes from 5 to 480, as the service does, and refuses the rest naming the field", () => {
    expect(parseSlotLength(" ")).toBe("default");
    expect(parseSlotLength("5")).toBe(5);
    expect(parseSlotLength("480")).toBe(480);
    for (const typed of ["4", "481", "0", "7.5", "-10", "1e2", "twenty"]) expect(parseSlotLength(typed)).toBe("invalid");
    const valid = draftOf({ appointmentTypeId: FOLLOW_UP, facilityIds: [RIVERSIDE], startDate: "2026-11-01", endDate: "2026-11-14", isNewPatient: false });
    expect(filtersFromDraft({ ...valid, slotLength: "2" }).errors?.slotLength).toMatch(/^Slot length must be whole minutes from 5 to 480/);
  });

  it("warns under half or over twice the type's usual length, and says nothing within it", () => {
    const followUp = { typeName: "Follow-Up Visit", minutes: 20 };
    expect(slotLengthWarning(7, followUp)).toBe("7 min is under half the Follow-Up Visit's usual 20 min: check the visit fits.");
    expect(slotLengthWarning(45, followUp)).toBe("45 min is over twice the Follow-Up Visit's usual 20 min: check this is the length you mean.");
    for (const minutes of [10, 15, 20, 30, 40]) expect(slotLengthWarning(minutes, followUp)).toBeNull();
    expect(slotLengthWarning(undefined, followUp)).toBeNull();
    expect(slotLengthWarning(7, undefined)).toBeNull();
  });
});
