// Wire forms of timestamps (seed 000 "Conventions"), by integer arithmetic
// on UTC (never the host's zone); a large world formats a few hundred
// thousand of them, so this avoids a Date per call.
import { civilFromDays } from "#contract/time/zoned-time.ts";

export const MS_PER_MINUTE = 60_000;
export const MS_PER_HOUR = 3_600_000;
export const MS_PER_DAY = 86_400_000;

const pad2 = (value: number): string => (value < 10 ? `0${value}` : String(value));

// Timestamps come in runs on the same day; remember the last day's text.
let cachedDayNumber = Number.NaN;
let cachedDate = "";

function utcDate(dayNumber: number): string {
  if (dayNumber !== cachedDayNumber) {
    const { year, month, day } = civilFromDays(dayNumber);
    cachedDate = `${year}-${pad2(month)}-${pad2(day)}`;
    cachedDayNumber = dayNumber;
  }
  return cachedDate;
}

/** `YYYY-MM-DD` and `HH:MM:SS.sss` in UTC (years 1000-9999). */
function utcParts(epochMs: number): [string, string] {
  const dayNumber = Math.floor(epochMs / MS_PER_DAY);
  const msOfDay = epochMs - dayNumber * MS_PER_DAY;
  const hours = Math.floor(msOfDay / MS_PER_HOUR);
  const minutes = Math.floor((msOfDay % MS_PER_HOUR) / MS_PER_MINUTE);
  const seconds = Math.floor((msOfDay % MS_PER_MINUTE) / 1000);
  const millis = Math.floor(msOfDay % 1000);
  return [utcDate(dayNumber), `${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${String(millis).padStart(3, "0")}`];
}

/** `YYYY-MM-DDTHH:MM:SS.sssZ`. */
export function utcTimestamp(epochMs: number): string {
  const [date, time] = utcParts(epochMs);
  return `${date}T${time}Z`;
}

/** Database-style text of notes and tasks: `YYYY-MM-DD HH:MM:SS.ffffff+00`. */
export function textTimestamp(epochMs: number): string {
  const [date, time] = utcParts(epochMs);
  return `${date} ${time}000+00`;
}

/** The text form of an ISO UTC timestamp (`…Z` to `… +00`). */
export function textFromUtc(utc: string): string {
  return textTimestamp(Date.parse(utc));
}

/** `YYYYMMDDTHHMMSS` of a local date and `HH:MM` time, as RFC 5545 writes local date-times. */
export function icalLocalDateTime(date: string, time: string): string {
  return `${date.replaceAll("-", "")}T${time.replace(":", "")}00`;
}

/** `HH:MM` from minutes after midnight. */
export function hhmm(minuteOfDay: number): string {
  const hours = Math.floor(minuteOfDay / 60) % 24;
  const minutes = minuteOfDay % 60;
  return `${String(hours).padStart(2, "0")}:${String(minutes).padStart(2, "0")}`;
}

/** Whole years between a `YYYY-MM-DD` birth date and a `YYYY-MM-DD` date. */
export function ageOn(dateOfBirth: string, date: string): number {
  const [by, bm, bd] = dateOfBirth.split("-").map(Number) as [number, number, number];
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}
