import type { SlotSearchQuery } from "#contract/app-api/slots.ts";
import {
  MAX_WAITLIST_LIST_LENGTH,
  MAX_WAITLIST_NOTE_LENGTH,
  MAX_WAITLIST_RANGE_DAYS,
  type WaitlistPreferences,
} from "#contract/app-api/waitlist.ts";
import { addDays, daysBetween } from "#contract/time/zoned-time.ts";
import type { Weekday } from "../slot-time-filter.ts";

// The waitlist entry's form (issue 38): its draft as the inputs hold it, how
// it starts (from the slot finder's current search, with its times of day and
// weekdays, or from an entry being edited), and its check, which names the
// field and says what to do, as the BFF would refuse it (the contract's
// limits), so a save is not sent to be refused.

/** 0 = Monday … 6 = Sunday, as contract/time's `weekdayOf`. */
export const WEEKDAY_CODES = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
type WeekdayCode = (typeof WEEKDAY_CODES)[number];
const isWeekday = (day: number): day is Weekday => Number.isInteger(day) && day >= 0 && day <= 6;

export interface WaitlistDraft {
  appointmentTypeId: string;
  /** Minutes as typed; empty: the type's default for the new-patient flag. */
  slotLength: string;
  isNewPatient: boolean;
  facilityIds: string[];
  /** Empty: any provider. */
  providerIds: string[];
  startDate: string;
  endDate: string;
  /** "HH:MM", or empty for any. */
  startsFrom: string;
  startsBefore: string;
  /** Empty: every day. */
  weekdays: Weekday[];
  note: string;
}

export type WaitlistField = "appointmentTypeId" | "slotLength" | "facilityIds" | "providerIds" | "startDate" | "endDate" | "times" | "note";
export type WaitlistErrors = Partial<Record<WaitlistField, string>>;

/** The times of day and weekdays of the slot finder ("Times and days"): weekdays 0 = Monday. */
export interface SearchTimes {
  startsFrom: string | null;
  startsBefore: string | null;
  weekdays: readonly Weekday[];
}

export interface TypeLengths {
  id: string;
  name: string;
  defaultDurationMinutes: number;
  newPatientDurationMinutes: number;
}

/** The form as the current search leaves it: what the patient on the phone was just searched for. */
export function draftFromSearch(search: SlotSearchQuery, times: SearchTimes): WaitlistDraft {
  return {
    appointmentTypeId: search.appointmentTypeId,
    slotLength: search.slotLengthMinutes === undefined ? "" : String(search.slotLengthMinutes),
    isNewPatient: search.isNewPatient ?? false,
    facilityIds: [...(search.facilityIds ?? [])],
    providerIds: [...(search.providerIds ?? [])],
    startDate: search.startDate,
    endDate: search.endDate,
    startsFrom: times.startsFrom ?? "",
    startsBefore: times.startsBefore ?? "",
    weekdays: [...times.weekdays].sort(),
    note: "",
  };
}

/** The form for editing an entry: its preferences as they are. */
export function draftFromPreferences(preferences: WaitlistPreferences): WaitlistDraft {
  return {
    appointmentTypeId: preferences.appointmentTypeId,
    slotLength: String(preferences.slotLengthMinutes),
    isNewPatient: preferences.isNewPatient,
    facilityIds: [...preferences.facilityIds],
    providerIds: [...(preferences.providerIds ?? [])],
    startDate: preferences.startDate,
    endDate: preferences.endDate,
    startsFrom: preferences.startsFrom ?? "",
    startsBefore: preferences.startsBefore ?? "",
    weekdays: (preferences.days ?? []).map((code) => WEEKDAY_CODES.indexOf(code)).filter(isWeekday).sort(),
    note: preferences.note,
  };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

function isDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  try {
    return addDays(value, 0) === value;
  } catch {
    return false;
  }
}

/** The slot length the entry waits for: as typed (whole minutes, 5 to 480), or the type's default for the new-patient flag. */
export function slotLengthOf(draft: Pick<WaitlistDraft, "slotLength" | "isNewPatient">, type: TypeLengths | undefined): number | "invalid" | "unknown" {
  const typed = draft.slotLength.trim();
  if (typed === "") return type ? (draft.isNewPatient ? type.newPatientDurationMinutes : type.defaultDurationMinutes) : "unknown";
  if (!/^\d{1,3}$/.test(typed)) return "invalid";
  const minutes = Number(typed);
  return minutes >= 5 && minutes <= 480 ? minutes : "invalid";
}

/**
 * Checks the draft the way the BFF will, each problem at its field; gives the
 * preferences when there is none. `today`: the current facility's local date
 * (a range that has ended waits for nothing).
 */
export function preferencesFromDraft(
  draft: WaitlistDraft,
  types: readonly TypeLengths[],
  today: string,
): { preferences: WaitlistPreferences; errors: null } | { preferences: null; errors: WaitlistErrors } {
  const errors: WaitlistErrors = {};
  const type = types.find((candidate) => candidate.id === draft.appointmentTypeId);
  if (!draft.appointmentTypeId) errors.appointmentTypeId = "Choose an appointment type.";
  const length = slotLengthOf(draft, type);
  if (length === "invalid") errors.slotLength = "Slot length must be whole minutes from 5 to 480, or empty for the type's default.";
  else if (length === "unknown" && !errors.appointmentTypeId) errors.slotLength = "Enter the slot length in minutes (the type's default is not known).";
  if (draft.facilityIds.length === 0) errors.facilityIds = "Choose at least one facility.";
  else if (draft.facilityIds.length > MAX_WAITLIST_LIST_LENGTH) errors.facilityIds = `Choose at most ${MAX_WAITLIST_LIST_LENGTH} facilities.`;
  if (draft.providerIds.length > MAX_WAITLIST_LIST_LENGTH) errors.providerIds = `Choose at most ${MAX_WAITLIST_LIST_LENGTH} providers, or none for any provider.`;
  if (!isDate(draft.startDate)) errors.startDate = "Enter the first date the patient could come.";
  if (!isDate(draft.endDate)) errors.endDate = "Enter the last date the patient could come.";
  else if (isDate(draft.startDate)) {
    const span = daysBetween(draft.startDate, draft.endDate);
    if (span < 0) errors.endDate = "The last date must be on or after the first.";
    else if (span >= MAX_WAITLIST_RANGE_DAYS) errors.endDate = `The dates may span at most ${MAX_WAITLIST_RANGE_DAYS} days: choose a last date by ${addDays(draft.startDate, MAX_WAITLIST_RANGE_DAYS - 1)}.`;
    else if (draft.endDate < today) errors.endDate = "These dates have passed: choose dates from today on.";
  }
  const startsFrom = draft.startsFrom.trim();
  const startsBefore = draft.startsBefore.trim();
  if ((startsFrom !== "" && !TIME.test(startsFrom)) || (startsBefore !== "" && !TIME.test(startsBefore))) errors.times = "Enter times as hours and minutes (for example 16:00), or leave them empty.";
  else if (startsFrom !== "" && startsBefore !== "" && startsBefore <= startsFrom) errors.times = "“Starting before” must be later than “Starting from”.";
  if (draft.note.length > MAX_WAITLIST_NOTE_LENGTH) errors.note = `The note may be at most ${MAX_WAITLIST_NOTE_LENGTH} characters (it has ${draft.note.length}).`;
  if (Object.keys(errors).length > 0 || typeof length !== "number") return { preferences: null, errors };
  const weekdays = [...new Set(draft.weekdays)].filter(isWeekday).sort();
  const days: WeekdayCode[] | null = weekdays.length === 0 || weekdays.length === 7 ? null : weekdays.map((day) => WEEKDAY_CODES[day] ?? "mon");
  return {
    preferences: {
      appointmentTypeId: draft.appointmentTypeId,
      slotLengthMinutes: length,
      isNewPatient: draft.isNewPatient,
      facilityIds: [...draft.facilityIds],
      providerIds: draft.providerIds.length > 0 ? [...draft.providerIds] : null,
      startDate: draft.startDate,
      endDate: draft.endDate,
      startsFrom: startsFrom === "" ? null : startsFrom,
      startsBefore: startsBefore === "" ? null : startsBefore,
      days,
      note: draft.note.trim(),
    },
    errors: null,
  };
}

/** The fields in the order the form shows them: the first with a problem takes the focus. */
export const FIELD_ORDER: readonly WaitlistField[] = ["appointmentTypeId", "slotLength", "facilityIds", "providerIds", "startDate", "endDate", "times", "note"];

const FIELD_NAMES: readonly [RegExp, WaitlistField][] = [
  [/\bappointmentTypeId\b/, "appointmentTypeId"],
  [/\bslotLengthMinutes\b/, "slotLength"],
  [/\bfacilityIds\b/, "facilityIds"],
  [/\bproviderIds\b/, "providerIds"],
  [/\bstartDate\b/, "startDate"],
  [/\bendDate\b/, "endDate"],
  [/\b(startsFrom|startsBefore|days)\b/, "times"],
  [/\bnote\b/, "note"],
];

/** The field a BFF's 400 names (its message starts with the field's name), or null when it names none of the form's. */
export function fieldOfRefusal(message: string): WaitlistField | null {
  return FIELD_NAMES.find(([pattern]) => pattern.test(message))?.[1] ?? null;
}
