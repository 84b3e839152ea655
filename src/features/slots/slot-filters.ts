import { MAX_SLOT_SEARCH_FACILITY_DAYS, MAX_SLOT_WINDOW_DAYS, maxSlotSearchDays, maxSlotSearchFacilities, type SlotSearchQuery } from "#contract/app-api/slots.ts";
import { isSameId } from "#contract/ids.ts";
import { addDays, daysBetween } from "#contract/time/zoned-time.ts";
import type { SlotSearchParams } from "#src/scheduling/slot-search-params.ts";

// From the URL's params to the search the BFF gets, and back; and the
// filter form's draft. Pure functions, so the round trip is tested.

/** The default window: today and the 13 days after it (14 days), in local dates. */
export const DEFAULT_WINDOW_DAYS = 14;

export interface SlotFilterDefaults {
  /** The first appointment type; null while the types load (or when the organization has none). */
  appointmentTypeId: string | null;
  /** The current facility (the header's); null when the user sees none. */
  facilityId: string | null;
  /** Today's date in the current facility's zone. */
  today: string;
}

/** A type meant for new patients ("New Patient Visit", "NPV"): choosing it ticks "New patient". */
export function isNewPatientType(type: { name: string; abbreviation?: string }): boolean {
  return /\bnew patient\b/i.test(type.name) || type.abbreviation?.toUpperCase() === "NPV";
}

/**
 * The type a search starts with: the first that is not meant for new
 * patients, since "New patient" starts unticked (a New Patient Visit with the
 * box unticked contradicts itself); the first type when all are.
 */
export function defaultAppointmentType<T extends { name: string; abbreviation?: string }>(types: readonly T[]): T | null {
  return types.find((type) => !isNewPatientType(type)) ?? types[0] ?? null;
}

/** Whether the form's draft differs from the search the list answers (lists compared as sets). */
export function isDraftChanged(draft: SlotFilterDraft, applied: SlotSearchQuery): boolean {
  const original = draftOf(applied);
  const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();
  return (
    draft.appointmentTypeId !== original.appointmentTypeId ||
    !sameSet(draft.facilityIds, original.facilityIds) ||
    !sameSet(draft.providerIds, original.providerIds) ||
    draft.startDate !== original.startDate ||
    draft.endDate !== original.endDate ||
    draft.slotLength.trim() !== original.slotLength ||
    draft.isNewPatient !== original.isNewPatient
  );
}

/** Ids trimmed, without blanks, de-duplicated. */
function distinctIds(ids: readonly string[]): string[] {
  return [...new Set(ids.map((id) => id.trim()).filter((id) => id !== ""))];
}

/**
 * A comma-separated list of ids from the URL, as an array: the one place a
 * list of the slot finder's URL is split (the URL keeps lists as text,
 * ADR 0007; slot-search-params.ts). From here to the BFF's query string
 * (slotSearchQueryString) the lists stay arrays.
 */
export function splitIds(list: string | undefined): string[] {
  return list ? distinctIds(list.split(",")) : [];
}

/** The search's params with the lists already arrays (the URL's split by {@link splitIds}, or the form's own). */
type SlotSearchInput = Omit<SlotSearchParams, "facilityIds" | "providerIds"> & { facilityIds: readonly string[]; providerIds: readonly string[] };

/** The search to run from the URL's params: every param given or defaulted, ids sorted so equal searches share a query key. */
export function resolveSlotFilters(params: SlotSearchParams, defaults: SlotFilterDefaults): SlotSearchQuery | null {
  return resolveSearch({ ...params, facilityIds: splitIds(params.facilityIds), providerIds: splitIds(params.providerIds) }, defaults);
}

function resolveSearch(params: SlotSearchInput, defaults: SlotFilterDefaults): SlotSearchQuery | null {
  const appointmentTypeId = params.appointmentTypeId ?? defaults.appointmentTypeId;
  const listed = distinctIds(params.facilityIds);
  const facilityIds = listed.length > 0 ? listed : defaults.facilityId ? [defaults.facilityId] : [];
  const providerIds = distinctIds(params.providerIds);
  if (!appointmentTypeId || facilityIds.length === 0) return null;
  const startDate = params.startDate ?? defaults.today;
  const endDate = params.endDate ?? addDays(startDate, DEFAULT_WINDOW_DAYS - 1);
  const filters: SlotSearchQuery = {
    appointmentTypeId,
    facilityIds: [...facilityIds].sort(),
    startDate,
    endDate,
    isNewPatient: params.isNewPatient ?? false,
  };
  if (providerIds.length > 0) filters.providerIds = providerIds.sort();
  if (params.slotLengthMinutes !== undefined) filters.slotLengthMinutes = params.slotLengthMinutes;
  return filters;
}

/**
 * A link's ids that this organization does not have (another one's, or gone)
 * dropped, so the search takes its defaults rather than failing; `unknown`
 * names the filters that lost an id, as the form names them. A list not yet
 * loaded (empty) checks nothing.
 */
export function withKnownIds(params: SlotSearchParams, known: { appointmentTypeIds: readonly string[]; facilityIds: readonly string[] }): { params: SlotSearchParams; unknown: string[] } {
  const next = { ...params };
  const unknown: string[] = [];
  const isKnown = (id: string, ids: readonly string[]) => ids.some((candidate) => isSameId(candidate, id));
  if (next.appointmentTypeId !== undefined && known.appointmentTypeIds.length > 0 && !isKnown(next.appointmentTypeId, known.appointmentTypeIds)) {
    delete next.appointmentTypeId;
    unknown.push("appointment type");
  }
  if (next.facilityIds !== undefined && known.facilityIds.length > 0) {
    const listed = splitIds(next.facilityIds);
    const kept = listed.filter((id) => isKnown(id, known.facilityIds));
    if (kept.length < listed.length) {
      if (kept.length > 0) next.facilityIds = kept.join(",");
      else delete next.facilityIds;
      unknown.push("facilities");
    }
  }
  return { params: next, unknown };
}

/** The URL params of a search (lists comma-separated, the one place they are joined for the URL; defaults written out, so a shared link means the same search). */
export function toSlotSearchParams(filters: SlotSearchQuery): SlotSearchParams {
  return {
    appointmentTypeId: filters.appointmentTypeId,
    facilityIds: filters.facilityIds && filters.facilityIds.length > 0 ? filters.facilityIds.join(",") : undefined,
    providerIds: filters.providerIds && filters.providerIds.length > 0 ? filters.providerIds.join(",") : undefined,
    startDate: filters.startDate,
    endDate: filters.endDate,
    slotLengthMinutes: filters.slotLengthMinutes,
    isNewPatient: filters.isNewPatient ? true : undefined,
  };
}

/** The filter form while the user edits it (inputs hold text). */
export interface SlotFilterDraft {
  appointmentTypeId: string;
  facilityIds: string[];
  /** Empty: all providers. */
  providerIds: string[];
  startDate: string;
  endDate: string;
  /** Minutes as typed; empty: the appointment type's default. */
  slotLength: string;
  isNewPatient: boolean;
}

export function draftOf(filters: SlotSearchQuery): SlotFilterDraft {
  return {
    appointmentTypeId: filters.appointmentTypeId,
    facilityIds: filters.facilityIds ?? [],
    providerIds: filters.providerIds ?? [],
    startDate: filters.startDate,
    endDate: filters.endDate,
    slotLength: filters.slotLengthMinutes === undefined ? "" : String(filters.slotLengthMinutes),
    isNewPatient: filters.isNewPatient ?? false,
  };
}

export type SlotFilterField = "appointmentTypeId" | "facilityIds" | "startDate" | "endDate" | "slotLength";
export type SlotFilterErrors = Partial<Record<SlotFilterField, string>>;

/**
 * The fields whose errors an edit touches: the dates are checked together, and the end date's error also says how
 * far the window may reach with the facilities chosen.
 */
export function errorFieldsChangedBy(patch: Partial<SlotFilterDraft>): Set<SlotFilterField> {
  const changed = new Set<SlotFilterField>();
  for (const key of Object.keys(patch) as (keyof SlotFilterDraft)[]) {
    if (key === "startDate" || key === "endDate") changed.add("startDate").add("endDate");
    else if (key === "facilityIds") changed.add("facilityIds").add("endDate");
    else if (key === "appointmentTypeId" || key === "slotLength") changed.add(key);
  }
  return changed;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  try {
    addDays(value, 0);
    return true;
  } catch {
    return false;
  }
}

/** The slot lengths the service takes (its `slotLengthMinutes`, contract/clinic-api/queries.ts). */
export const MIN_SLOT_LENGTH_MINUTES = 5;
export const MAX_SLOT_LENGTH_MINUTES = 480;
const SLOT_LENGTH_REFUSAL = `Slot length must be whole minutes from ${MIN_SLOT_LENGTH_MINUTES} to ${MAX_SLOT_LENGTH_MINUTES} (what the EHR accepts), or empty for the type's default.`;

/** The slot length as typed: empty (the type's default), whole minutes the service takes, or not one it takes. */
export function parseSlotLength(typed: string): number | "default" | "invalid" {
  const text = typed.trim();
  if (text === "") return "default";
  if (!/^\d{1,3}$/.test(text)) return "invalid";
  const minutes = Number(text);
  return minutes >= MIN_SLOT_LENGTH_MINUTES && minutes <= MAX_SLOT_LENGTH_MINUTES ? minutes : "invalid";
}

/**
 * A length the service takes but that does not fit the visit: under half or
 * over twice the type's usual length (new patient or not). Said, not refused:
 * a clinic may book a short recheck on purpose.
 */
export function slotLengthWarning(minutes: number | undefined, usual: { typeName: string; minutes: number } | undefined): string | null {
  if (minutes === undefined || !usual) return null;
  if (minutes * 2 < usual.minutes) return `${minutes} min is under half the ${usual.typeName}'s usual ${usual.minutes} min: check the visit fits.`;
  if (minutes > usual.minutes * 2) return `${minutes} min is over twice the ${usual.typeName}'s usual ${usual.minutes} min: check this is the length you mean.`;
  return null;
}

/**
 * Checks the draft the way the BFF will (names the field, says what to do), and gives the search when it is valid.
 * `today` (a local date): a window may not start before it, since the service lists no time gone by.
 */
export function filtersFromDraft(draft: SlotFilterDraft, today?: string): { filters: SlotSearchQuery; errors: null } | { filters: null; errors: SlotFilterErrors } {
  const errors: SlotFilterErrors = {};
  if (!draft.appointmentTypeId) errors.appointmentTypeId = "Choose an appointment type.";
  if (draft.facilityIds.length === 0) errors.facilityIds = "Choose at least one facility.";
  if (!isDate(draft.startDate)) errors.startDate = "Enter a start date.";
  else if (today !== undefined && draft.startDate < today) errors.startDate = "The start date has passed: choose today or a later date (times gone by cannot be held).";
  if (!isDate(draft.endDate)) errors.endDate = "Enter an end date.";
  else if (isDate(draft.startDate)) {
    const span = daysBetween(draft.startDate, draft.endDate);
    if (span < 0) errors.endDate = "The end date must be on or after the start date.";
    else if (span >= MAX_SLOT_WINDOW_DAYS) errors.endDate = `The window may span at most ${MAX_SLOT_WINDOW_DAYS} days.`;
    else if (draft.facilityIds.length > 0) {
      // The BFF's bound on one search (MAX_SLOT_SEARCH_FACILITY_DAYS): the form never sends one it refuses.
      const days = maxSlotSearchDays(draft.facilityIds.length);
      if (days === 0) errors.facilityIds = `Choose at most ${MAX_SLOT_SEARCH_FACILITY_DAYS} facilities.`;
      else if (span >= days) errors.endDate = `With ${draft.facilityIds.length} facilities the window may span at most ${days} days: choose fewer facilities or fewer days.`;
    }
  }
  const slotLength = parseSlotLength(draft.slotLength);
  if (slotLength === "invalid") errors.slotLength = SLOT_LENGTH_REFUSAL;
  const slotLengthMinutes = typeof slotLength === "number" ? slotLength : undefined;
  if (Object.keys(errors).length > 0) return { filters: null, errors };
  const filters = resolveSearch(
    { appointmentTypeId: draft.appointmentTypeId, facilityIds: draft.facilityIds, providerIds: draft.providerIds, startDate: draft.startDate, endDate: draft.endDate, slotLengthMinutes, isNewPatient: draft.isNewPatient },
    { appointmentTypeId: null, facilityId: null, today: draft.startDate },
  );
  return filters ? { filters, errors: null } : { filters: null, errors: { appointmentTypeId: "Choose an appointment type." } };
}

/** Whether a search from the URL can run as is (a shared link with a bad window shows the form's message instead). */
export function isRunnable(filters: SlotSearchQuery): boolean {
  return filtersFromDraft(draftOf(filters)).errors === null;
}

/** The same window length starting on another date (the "next available" jump). */
export function windowStartingOn(filters: SlotSearchQuery, startDate: string): SlotSearchQuery {
  const length = Math.max(0, daysBetween(filters.startDate, filters.endDate));
  return { ...filters, startDate, endDate: addDays(startDate, length) };
}

/** The longest window a search of these facilities may span (the service's 62 days, fewer for many facilities). */
export function widestWindowDays(filters: Pick<SlotSearchQuery, "facilityIds">): number {
  return maxSlotSearchDays(filters.facilityIds?.length ?? 1);
}

/** A wider window from the same start (capped at the widest the search may span). */
export function widenedWindow(filters: SlotSearchQuery, days: number): SlotSearchQuery {
  return { ...filters, endDate: addDays(filters.startDate, Math.max(1, Math.min(days, widestWindowDays(filters))) - 1) };
}

/** The draft's window in days, or null while its dates are not a window (the form then says so on submit). */
export function draftWindowDays(draft: Pick<SlotFilterDraft, "startDate" | "endDate">): number | null {
  if (!isDate(draft.startDate) || !isDate(draft.endDate)) return null;
  const span = daysBetween(draft.startDate, draft.endDate);
  return span < 0 ? null : span + 1;
}

/**
 * What the BFF's bound on one search (MAX_SLOT_SEARCH_FACILITY_DAYS) leaves
 * the form: how many facilities the window allows and how far the window may
 * reach for the facilities chosen, each with why while it binds, so the form
 * never offers a search the BFF refuses.
 */
export function searchScopeLimits(draft: SlotFilterDraft, facilityOptionCount: number): { maxFacilities?: number; facilityHint?: string; maxEndDate?: string; datesHint?: string } {
  const limits: ReturnType<typeof searchScopeLimits> = {};
  const days = draftWindowDays(draft);
  // A window past the service's longest is wrong whatever the facilities: say so at the dates, not as "0 facilities".
  if (days !== null && days > MAX_SLOT_WINDOW_DAYS) limits.datesHint = `A search may span at most ${MAX_SLOT_WINDOW_DAYS} days: choose an earlier end date.`;
  else if (days !== null) {
    const maxFacilities = maxSlotSearchFacilities(days);
    limits.maxFacilities = maxFacilities;
    if (facilityOptionCount > maxFacilities) limits.facilityHint = `At most ${maxFacilities} facilities over ${days} days: a shorter window allows more.`;
  }
  const count = draft.facilityIds.length;
  const widest = maxSlotSearchDays(Math.max(1, count));
  if (isDate(draft.startDate) && widest > 0) limits.maxEndDate = addDays(draft.startDate, widest - 1);
  if (count > 1 && widest < MAX_SLOT_WINDOW_DAYS) limits.datesHint ??= `With ${count} facilities the window may span at most ${widest} days: fewer facilities allow more.`;
  return limits;
}

export function windowDays(filters: Pick<SlotSearchQuery, "startDate" | "endDate">): number {
  return daysBetween(filters.startDate, filters.endDate) + 1;
}

/** The slot length a search gives, as the service works it out (an explicit length, else the type's default for the new-patient flag). */
export function effectiveSlotLength(filters: Pick<SlotSearchQuery, "slotLengthMinutes" | "isNewPatient">, type: { defaultDurationMinutes: number; newPatientDurationMinutes: number } | undefined): number | undefined {
  if (filters.slotLengthMinutes !== undefined) return filters.slotLengthMinutes;
  if (!type) return undefined;
  return filters.isNewPatient ? type.newPatientDurationMinutes : type.defaultDurationMinutes;
}
