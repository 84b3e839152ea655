import { MS_PER_DAY, utcTimestamp } from "../../seed/format.ts";

// Dates and timestamps of the billing seed. Billing lags (submission,
// payment, posting) are counted in whole UTC days: close enough for them,
// and independent of the host's zone.

/** `YYYY-MM-DD` (UTC) of an instant. */
export const dateOf = (ms: number): string => utcTimestamp(ms).slice(0, 10);

/** Midnight UTC starting a date. */
export const dayStartMs = (date: string): number => Date.parse(`${date}T00:00:00.000Z`);

/** Midnight UTC `days` after a date. */
export const daysAfter = (date: string, days: number): number => dayStartMs(date) + days * MS_PER_DAY;

/** The later of a record's `updatedAt` and `ms`. */
export function touched(updatedAt: string, ms: number): string {
  return Date.parse(updatedAt) >= ms ? updatedAt : utcTimestamp(ms);
}
