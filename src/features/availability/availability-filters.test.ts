import { describe, expect, it } from "vitest";
import { resolveAvailabilityFilters, toAvailabilitySearchParams } from "./availability-filters.ts";
import { validateAvailabilitySearch } from "./availability-search-params.ts";

const FACILITY = "1b566c2c-b5f1-4bbf-beb3-23271408baaa";
const PROVIDER = "prv_0123456789abcdef0123456789abcdef";

describe("availability filters in the URL", () => {
  it("drops params that do not parse and keeps the rest", () => {
    expect(validateAvailabilitySearch({ facilityId: FACILITY, providerId: "nope", startDate: "2026-13-01", view: "facility", showInactive: true })).toEqual({ facilityId: FACILITY, view: "facility", showInactive: true });
    expect(validateAvailabilitySearch({ view: "month", startDate: "2026-10-07" })).toEqual({ startDate: "2026-10-07" });
  });

  it("defaults to the current facility, this week, all providers, per provider, inactive hidden", () => {
    expect(resolveAvailabilityFilters({}, { facilityId: FACILITY, thisWeek: "2026-11-16" })).toEqual({ facilityId: FACILITY, providerId: null, startDate: "2026-11-16", view: "provider", showInactive: false });
    expect(resolveAvailabilityFilters({}, { facilityId: null, thisWeek: "2026-11-16" })).toBeNull();
  });

  it("snaps any date to its week's Monday, and round-trips", () => {
    const filters = resolveAvailabilityFilters({ facilityId: FACILITY, providerId: PROVIDER, startDate: "2026-10-04", view: "facility", showInactive: true }, { facilityId: null, thisWeek: "2026-11-16" });
    expect(filters).toEqual({ facilityId: FACILITY, providerId: PROVIDER, startDate: "2026-09-28", view: "facility", showInactive: true });
    expect(filters && resolveAvailabilityFilters(validateAvailabilitySearch(toAvailabilitySearchParams(filters)), { facilityId: null, thisWeek: "2026-11-16" })).toEqual(filters);
    expect(resolveAvailabilityFilters({ startDate: "2026-02-30" }, { facilityId: FACILITY, thisWeek: "2026-11-16" })?.startDate).toBe("2026-11-16");
  });
});
