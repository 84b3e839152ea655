// Conversions between the interface's instants (epoch ms, ISO 8601 strings)
// and the `timestamp with time zone` columns.

// A zone designator is required: without one `Date` reads the machine's local time.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;

export function dateFromEpochMs(ms: number, field: string): Date {
  const date = new Date(ms);
  if (!Number.isFinite(date.getTime())) throw new RangeError(`store: ${field} must be a finite epoch time in milliseconds`);
  return date;
}

export function dateFromIso(value: string, field: string): Date {
  const date = ISO_INSTANT.test(value) ? new Date(value) : new Date(Number.NaN);
  if (!Number.isFinite(date.getTime())) throw new RangeError(`store: ${field} must be an ISO 8601 timestamp with a zone, e.g. 2026-11-22T05:00:00.000Z`);
  return date;
}
