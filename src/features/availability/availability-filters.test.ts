import { describe, expect, it } from "vitest";
import { resolveAvailabilityFilters, toAvailabilitySearchParams } from "./availability-filters.ts";
import { validateAvailabilitySearch } from "./availability-search-params.ts";

const FACILITY = "1b566c2c-b5f1-4bbf-beb3-23271408baaa";
const PROVIDER = "prv_0123456789abcdef0123456789abcdef";
const DEFAULTS = { facilityId: null, thisWeek: "2026-11-16", today: "2026-11-18" };

describe("availability filters in the URL", () => {
  it("drops params that do not parse and keeps the rest", () => {
    expect(validateAvailabilitySearch({ facilityId: FACILITY, providerId: "nope", startDate: "2026-13-01", view: "facility", showInactive: true, layout: "month", day: "2026-11-31x" })).toEqual({ facilityId: FACILITY, view: "facility", showInactive: true });
    expect(validateAvailabilitySearch({ view: "month", startDate: "2026-10-07", layout: "agenda" })).toEqual({ startDate: "2026-10-07", layout: "agenda" });
  });

  it("defaults to the current facility, this week, all providers, per provider, inactive hidden, the layout chosen from the width, today for the day", () => {
    expect(resolveAvailabilityFilters({}, { ...DEFAULTS, facilityId: FACILITY })).toEqual({ facilityId: FACILITY, providerId: null, startDate: "2026-11-16", view: "provider", showInactive: false, layout: null, day: "2026-11-18" });
    expect(resolveAvailabilityFilters({}, DEFAULTS)).toBeNull();
  });

  it("snaps any date to its week's Monday, and round-trips", () => {
    const filters = resolveAvailabilityFilters({ facilityId: FACILITY, providerId: PROVIDER, startDate: "2026-10-04", view: "facility", showInactive: true, layout: "week" }, DEFAULTS);
    expect(filters).toEqual({ facilityId: FACILITY, providerId: PROVIDER, startDate: "2026-09-28", view: "facility", showInactive: true, layout: "week", day: "2026-09-28" });
    expect(filters && resolveAvailabilityFilters(validateAvailabilitySearch(toAvailabilitySearchParams(filters)), DEFAULTS)).toEqual(filters);
    expect(resolveAvailabilityFilters({ startDate: "2026-02-30" }, { ...DEFAULTS, facilityId: FACILITY })?.startDate).toBe("2026-11-16");
  });

  it("keeps the day layout's day in the URL, and a day outside the week falls back to the week's Monday", () => {
    const filters = resolveAvailabilityFilters({ facilityId: FACILITY, startDate: "2026-11-23", layout: "day", day: "2026-11-26" }, DEFAULTS);
    expect(filters).toMatchObject({ startDate: "2026-11-23", layout: "day", day: "2026-11-26" });
    expect(filters && toAvailabilitySearchParams(filters)).toMatchObject({ layout: "day", day: "2026-11-26" });
    expect(filters && resolveAvailabilityFilters(validateAvailabilitySearch(toAvailabilitySearchParams(filters)), DEFAULTS)).toEqual(filters);
    expect(resolveAvailabilityFilters({ facilityId: FACILITY, startDate: "2026-11-23", layout: "day", day: "2026-12-26" }, DEFAULTS)?.day).toBe("2026-11-23");
  });
});
