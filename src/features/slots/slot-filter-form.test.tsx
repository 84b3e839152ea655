import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { SlotSearchQuery } from "#contract/app-api/slots.ts";
import { SlotFilterForm } from "./slot-filter-form.tsx";
import { searchScopeLimits, draftOf } from "./slot-filters.ts";
import { NO_TIME_FILTER } from "#src/scheduling/slot-time-filter.ts";

// The filter form against the BFF's bound on one search (issue 34: 126
// facility-days, MAX_SLOT_SEARCH_FACILITY_DAYS): it says, next to the field
// that binds, why it offers no more, and its end date stops where the chosen
// facilities do. Server-rendered markup (the pickers' lists open in a popover,
// so what they disable is checked through `searchScopeLimits`).

const FOLLOW_UP = { id: "atp_aaaabbbbccccddddeeeeffff00001111", name: "Follow-Up Visit", abbreviation: "FU", defaultDurationMinutes: 20, newPatientDurationMinutes: 30 };
const FACILITIES = Array.from({ length: 9 }, (_, index) => ({ value: `0a1b2c3d-4e5f-4a6b-8c9d-0e1f2a3b4c${String(index).padStart(2, "0")}`, label: `Site ${index + 1}` }));
const ids = (count: number) => FACILITIES.slice(0, count).map((facility) => facility.value);

function render(applied: SlotSearchQuery): string {
  return renderToStaticMarkup(
    <SlotFilterForm
      applied={applied}
      appliedTime={NO_TIME_FILTER}
      appointmentTypes={[FOLLOW_UP]}
      facilityOptions={FACILITIES}
      providerOptions={[]}
      isLoadingProviders={false}
      isSearching={false}
      onSearch={() => undefined}
      today="2026-11-01"
    />,
  );
}

/** The `<input>` labelled "To", as markup. */
const endDateInput = (html: string) => /<input[^>]*id="[^"]*-to"[^>]*>/.exec(html)?.[0] ?? "";

describe("the slot filter form within the search bound", () => {
  it("two facilities over 62 days: the facilities field says why no more can be chosen", () => {
    const html = render({ appointmentTypeId: FOLLOW_UP.id, facilityIds: ids(2), startDate: "2026-11-17", endDate: "2027-01-17", isNewPatient: false });
    expect(html).toContain("At most 2 facilities over 62 days: a shorter window allows more.");
    expect(html).not.toContain("window may span at most");
    expect(endDateInput(html)).toContain('max="2027-01-17"');
  });

  it("every facility (nine): the dates say how far the window may reach, and the end date stops there", () => {
    const html = render({ appointmentTypeId: FOLLOW_UP.id, facilityIds: ids(9), startDate: "2026-11-17", endDate: "2026-11-30", isNewPatient: false });
    expect(html).toContain("With 9 facilities the window may span at most 14 days: fewer facilities allow more.");
    expect(endDateInput(html)).toContain('max="2026-11-30"');
    expect(endDateInput(html)).toMatch(/aria-describedby="[^"]*-dates-hint"/);
    // Nine over 14 days is within the bound: all may stay chosen.
    expect(html).not.toContain("a shorter window allows more");
  });

  it("a window past 62 days: the dates say the window is too long, not that no facility may be chosen", () => {
    const html = render({ appointmentTypeId: FOLLOW_UP.id, facilityIds: ids(1), startDate: "2026-11-28", endDate: "2027-06-30", isNewPatient: false });
    expect(html).toContain("A search may span at most 62 days: choose an earlier end date.");
    expect(html).not.toContain("At most 0 facilities");
  });

  it("one facility over 14 days: no bound binds, nothing is said", () => {
    const html = render({ appointmentTypeId: FOLLOW_UP.id, facilityIds: ids(1), startDate: "2026-11-17", endDate: "2026-11-30", isNewPatient: false });
    expect(html).not.toContain("allows more");
    expect(endDateInput(html)).toContain('max="2027-01-17"');
  });

  it("gives the picker the most facilities the window allows (it disables choices past them) and the date field the last end date the facilities allow", () => {
    const draft = (count: number, endDate: string) => draftOf({ appointmentTypeId: FOLLOW_UP.id, facilityIds: ids(count), startDate: "2026-11-17", endDate, isNewPatient: false });
    expect(searchScopeLimits(draft(1, "2027-01-17"), 9).maxFacilities).toBe(2);
    expect(searchScopeLimits(draft(1, "2026-11-30"), 9).maxFacilities).toBe(9);
    expect(searchScopeLimits(draft(3, "2026-11-30"), 9).maxEndDate).toBe("2026-12-28");
    expect(searchScopeLimits(draft(1, "not a date"), 9).maxFacilities).toBeUndefined();
  });
});
