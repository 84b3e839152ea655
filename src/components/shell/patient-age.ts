import { localDateOf } from "#contract/time/zoned-time.ts";

// The patient's age in whole years on a given day (the banner's "(42 y)").
// Pure: "today" is the calendar date of `nowMs` in `zone`, both given by the
// caller, so a test pins them (ADR 0011) and the machine's date and zone never
// decide it.

/** The calendar date (year, month 1-12, day) of an instant in a zone. */
function calendarDate(nowMs: number, zone: string): { year: number; month: number; day: number } {
  const [year = Number.NaN, month = Number.NaN, day = Number.NaN] = localDateOf(nowMs, zone).split("-").map(Number);
  return { year, month, day };
}

/** Whole years from `dateOfBirth` (YYYY-MM-DD) to the day `nowMs` falls on in `zone`; a birthday counts from its day. */
export function ageOn(dateOfBirth: string, nowMs: number, zone: string): number {
  const [year = 0, month = 1, day = 1] = dateOfBirth.split("-").map(Number);
  const today = calendarDate(nowMs, zone);
  let years = today.year - year;
  if (today.month < month || (today.month === month && today.day < day)) years -= 1;
  return years;
}
