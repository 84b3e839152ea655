import { isLocalDate, mondayOf } from "./week-window.ts";
import type { AvailabilitySearchParams } from "./availability-search-params.ts";

// From the URL's params to what the view shows, and back. Pure, so the
// defaults and the round trip are tested.

export type AvailabilityViewMode = "provider" | "facility";
export type AvailabilityLayout = "week" | "day" | "agenda";

export interface AvailabilityFilters {
  facilityId: string;
  /** Null: every provider with templates at the facility. */
  providerId: string | null;
  /** The Monday of the week shown, in the facility's zone. */
  startDate: string;
  view: AvailabilityViewMode;
  showInactive: boolean;
  /** Null: chosen from the width (the week grid where it fits, else the agenda). */
  layout: AvailabilityLayout | null;
  /** The day of the day layout: a date of the week shown. */
  day: string;
}

export interface AvailabilityDefaults {
  /** The header's current facility; null when the user sees none. */
  facilityId: string | null;
  /** The Monday of this week in that facility's zone. */
  thisWeek: string;
  /** Today in that facility's zone. */
  today: string;
}

export function resolveAvailabilityFilters(params: AvailabilitySearchParams, defaults: AvailabilityDefaults): AvailabilityFilters | null {
  const facilityId = params.facilityId ?? defaults.facilityId;
  if (!facilityId) return null;
  const startDate = params.startDate && isLocalDate(params.startDate) ? mondayOf(params.startDate) : defaults.thisWeek;
  const inWeek = (date: string | undefined): date is string => date !== undefined && isLocalDate(date) && mondayOf(date) === startDate;
  const day = inWeek(params.day) ? params.day : inWeek(defaults.today) ? defaults.today : startDate;
  return {
    facilityId,
    providerId: params.providerId ?? null,
    startDate,
    view: params.view === "facility" ? "facility" : "provider",
    showInactive: params.showInactive === true,
    layout: params.layout === "week" || params.layout === "day" || params.layout === "agenda" ? params.layout : null,
    day,
  };
}

/** The URL params of a view (defaults left out, except the facility and week, so a shared link means the same view). */
export function toAvailabilitySearchParams(filters: AvailabilityFilters): AvailabilitySearchParams {
  return {
    facilityId: filters.facilityId,
    providerId: filters.providerId ?? undefined,
    startDate: filters.startDate,
    view: filters.view === "facility" ? "facility" : undefined,
    showInactive: filters.showInactive ? true : undefined,
    layout: filters.layout ?? undefined,
    day: filters.layout === "day" ? filters.day : undefined,
  };
}
