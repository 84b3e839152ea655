import { civilFromDays, daysFromCivil } from "./zoned-time.ts";

// The one rule for reading a timestamp the service sends where the seeds say
// only "ISO 8601" or "timestamp" (seed 001 "Events": the envelope's
// `timestamp`, the payloads' `updatedAt`, `occurredAt`, ...). Seed 000 says
// most are UTC with milliseconds, and notes use `YYYY-MM-DD
// HH:MM:SS.ffffff+00`; an event whose `updatedAt` carried microseconds, or no
// fraction, failed a milliseconds-only check and was lost (issue 34 item 4).
// So every ISO 8601 date-time with a zone is read: `T`, `t` or a space
// between date and time (the space is the seeds' database-style text), the
// extended (`2026-11-24T10:00:00Z`) or basic (`20261124T100000Z`) form,
// seconds or not, a fraction of any length after `.` or `,`, and `Z` or an
// offset `±hh:mm`, `±hhmm` or `±hh`; `24:00` (the end of a day) and a leap
// second `:60` roll over into the next day or minute, as PostgreSQL reads
// them. A time without a zone names no instant and is refused.
//
// Instants are compared as instants (seed 001 "Delivery guarantees" 3:
// order on the payload timestamp), to the microsecond, PostgreSQL's
// precision; digits beyond it are dropped. Not date-fns' `parseISO`: it
// reads a time without a zone as local time and keeps milliseconds only.

export interface Timestamp {
  /** Whole seconds since 1970-01-01T00:00:00Z. */
  epochSeconds: number;
  /** Microseconds within that second, 0 to 999,999. */
  micros: number;
  /** Milliseconds since the epoch (the microseconds below a millisecond dropped), as `Date` counts. */
  epochMs: number;
  /** The instant in UTC with six fraction digits, `2026-11-24T10:00:00.123456Z`: one text per instant, whose text order is its time order. */
  utc: string;
}

const ZONE = "(Z|z|[+-]\\d{2}(?::?\\d{2})?)";
const EXTENDED = new RegExp(`^(\\d{4})-(\\d{2})-(\\d{2})[Tt ](\\d{2}):(\\d{2})(?::(\\d{2})(?:[.,](\\d+))?)?${ZONE}$`);
const BASIC = new RegExp(`^(\\d{4})(\\d{2})(\\d{2})[Tt](\\d{2})(\\d{2})(?:(\\d{2})(?:[.,](\\d+))?)?${ZONE}$`);
const MAX_TEXT_LENGTH = 64;

const pad = (value: number, width: number) => String(value).padStart(width, "0");

function daysInMonth(year: number, month: number): number {
  return daysFromCivil(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1) - daysFromCivil(year, month, 1);
}

/** Seconds east of UTC, or null for an offset that names none (hours past 23, minutes past 59). */
function offsetSecondsOf(zone: string): number | null {
  if (zone === "Z" || zone === "z") return 0;
  const digits = zone.slice(1).replace(":", "");
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  if (hours > 23 || minutes > 59) return null;
  return (zone.startsWith("-") ? -1 : 1) * (hours * 3600 + minutes * 60);
}

/** The instant an ISO 8601 date-time with a zone names, or null when `text` is not one. */
export function readTimestamp(text: string): Timestamp | null {
  if (text.length > MAX_TEXT_LENGTH) return null;
  const match = EXTENDED.exec(text) ?? BASIC.exec(text);
  if (match === null) return null;
  const [, yearText, monthText, dayText, hourText, minuteText, secondText = "00", fraction = "", zone = "Z"] = match;
  const [year, month, day, hour, minute, second] = [yearText, monthText, dayText, hourText, minuteText, secondText].map(Number) as [number, number, number, number, number, number];
  const micros = Number(fraction.slice(0, 6).padEnd(6, "0"));
  const endOfDay = hour === 24 && minute === 0 && second === 0 && micros === 0;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if ((hour > 23 && !endOfDay) || minute > 59 || second > 60) return null;
  const offsetSeconds = offsetSecondsOf(zone);
  if (offsetSeconds === null) return null;

  const epochSeconds = daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds;
  const dayNumber = Math.floor(epochSeconds / 86_400);
  const civil = civilFromDays(dayNumber);
  // Four-digit years only, so that one instant has one text, in time order.
  if (civil.year < 0 || civil.year > 9999) return null;
  const secondOfDay = epochSeconds - dayNumber * 86_400;
  const utc = `${pad(civil.year, 4)}-${pad(civil.month, 2)}-${pad(civil.day, 2)}T${pad(Math.floor(secondOfDay / 3600), 2)}:${pad(Math.floor(secondOfDay / 60) % 60, 2)}:${pad(secondOfDay % 60, 2)}.${pad(micros, 6)}Z`;
  return { epochSeconds, micros, epochMs: epochSeconds * 1000 + Math.floor(micros / 1000), utc };
}

export const isTimestamp = (text: string): boolean => readTimestamp(text) !== null;

/**
 * Orders two timestamps by the instants they name (negative: `a` is earlier).
 * A text that is not a timestamp sorts before every instant, as if unknown.
 */
export function compareTimestamps(a: string, b: string): number {
  const [left, right] = [readTimestamp(a), readTimestamp(b)];
  if (left === null || right === null) return (left === null ? 0 : 1) - (right === null ? 0 : 1);
  return left.epochSeconds - right.epochSeconds || left.micros - right.micros;
}
