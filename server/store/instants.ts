import { sql, type SQL } from "drizzle-orm";
import { readTimestamp } from "#contract/time/timestamp.ts";

// Conversions between the interface's instants (epoch ms, ISO 8601 strings)
// and the `timestamp with time zone` columns. An ISO string is read by the
// contract's one timestamp rule (contract/time/timestamp.ts): any ISO 8601
// form with a zone; a zone is required, without one `Date` would read the
// machine's local time.

export function dateFromEpochMs(ms: number, field: string): Date {
  const date = new Date(ms);
  if (!Number.isFinite(date.getTime())) throw new RangeError(`store: ${field} must be a finite epoch time in milliseconds`);
  return date;
}

function utcOf(value: string, field: string): string {
  const timestamp = readTimestamp(value);
  if (timestamp === null) throw new RangeError(`store: ${field} must be an ISO 8601 timestamp with a zone, e.g. 2026-11-22T05:00:00.000Z`);
  return timestamp.utc;
}

export function dateFromIso(value: string, field: string): Date {
  return new Date(utcOf(value, field));
}

/**
 * The instant as a `timestamptz` value to the microsecond (a `Date` keeps
 * milliseconds only): for the columns that order events by their payload's
 * timestamp, where two changes may lie within one millisecond.
 */
export function timestamptzFromIso(value: string, field: string): SQL {
  return sql`${utcOf(value, field)}::timestamptz`;
}
