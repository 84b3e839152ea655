import * as z from "zod/mini";

// Wire formats of seed 000 "Conventions". Each is a string schema with the
// exact pattern the seeds describe.

/** `YYYY-MM-DD`. */
export const localDate = z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, "must be a date YYYY-MM-DD"));

/** `HH:MM`, local wall-clock time. */
export const localTime = z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time HH:MM"));

/** ISO 8601 UTC with milliseconds, e.g. `2026-11-22T05:00:00.000Z`. */
export const utcTimestamp = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, "must be an ISO 8601 UTC timestamp with milliseconds"));

/** ISO 8601 with the zone's UTC offset, e.g. `2026-03-08T03:30:00-04:00`. */
export const offsetDateTime = z.string().check(
  z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?([+-]\d{2}:\d{2}|Z)$/, "must be an ISO 8601 date-time with a UTC offset"),
);

/** Database-style text used by notes, tasks and their providers: `YYYY-MM-DD HH:MM:SS.ffffff+00`. */
export const textTimestamp = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00$/, "must be a text timestamp YYYY-MM-DD HH:MM:SS.ffffff+00"));

/** Decimal string with two decimals. */
export const money = z.string().check(z.regex(/^-?\d+\.\d{2}$/, "must be a decimal string with two decimals"));

export const rawUuid = z.string().check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "must be a valid UUID"));

const prefixed = (prefix: string) =>
  z.string().check(z.regex(new RegExp(`^${prefix}_[0-9a-f]{32}$`), `must be a ${prefix}_ id (${prefix}_ followed by 32 hexadecimal characters)`));

export const patientId = prefixed("pat");
export const facilityId = prefixed("fac");
export const providerId = prefixed("prv");
export const appointmentTypeId = prefixed("atp");
export const availabilityTemplateId = prefixed("avt");
export const imageId = prefixed("img");

/** An id the service accepts in either form (v3 path parameters, BFF inputs). */
export const anyId = z.string().check(
  z.regex(/^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(pat|fac|prv|atp|avt|img)_[0-9a-f]{32})$/i, "must be a valid id (a UUID or a prefixed id)"),
);

/** IANA zone name; checked against the runtime's zone database. */
export const ianaZone = z.string().check(
  z.refine((zone) => {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, "must be an IANA time zone name"),
);
