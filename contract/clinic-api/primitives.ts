import * as z from "zod/mini";
import { idPattern, prefixedIdPattern, UUID_PATTERN, type IdPrefix } from "../ids.ts";
import { isTimestamp } from "../time/timestamp.ts";

// Wire formats of seed 000 "Conventions". Each is a string schema with the
// exact pattern the seeds describe.

/** Whether the `YYYY-MM-DD` that `text` starts with is a day of the calendar: 2026-02-31 fits the patterns but names none (and broke date arithmetic). */
function isCalendarDay(text: string): boolean {
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return days !== undefined && day >= 1 && day <= days;
}

/** `YYYY-MM-DD`. */
export const localDate = z.string().check(
  z.regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, { message: "must be a date YYYY-MM-DD", abort: true }),
  z.refine(isCalendarDay, "must be a date YYYY-MM-DD"),
);

/** `HH:MM`, local wall-clock time. */
export const localTime = z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time HH:MM"));

/**
 * Any ISO 8601 date-time with a zone, however the service writes it
 * (contract/time/timestamp.ts): for the timestamps of events, which seed 001
 * describes only as "ISO 8601". Kept as sent; compared with
 * `compareTimestamps`, as instants.
 */
export const isoTimestamp = z.string().check(z.refine(isTimestamp, "must be an ISO 8601 date-time with a zone (Z or an offset such as +00:00)"));

/** ISO 8601 UTC with milliseconds, e.g. `2026-11-22T05:00:00.000Z`. */
export const utcTimestamp = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, "must be an ISO 8601 UTC timestamp with milliseconds"));

const OFFSET_DATE_TIME = /^\d{4}-\d{2}-\d{2}T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(?:[+-](\d{2}):(\d{2})|Z)$/;

/**
 * Offset date-times already found valid. A clinic group's slot search
 * repeats each start and end across its providers (tens of thousands of
 * slots, a few thousand distinct times), and checking each afresh was a
 * third of the contract check of such an answer (bench/RESULTS.md "History
 * moved from docs/deploy.md"). The check is pure; capped, since the strings
 * come from outside.
 */
const validOffsetDateTimes = new Set<string>();
export const MAX_REMEMBERED_OFFSET_DATE_TIMES = 32_768;

/** The pattern, and a real day, hours to 23, minutes and seconds to 59, an offset of at most 23:59. */
function isOffsetDateTime(text: string): boolean {
  if (validOffsetDateTimes.has(text)) return true;
  const [, hours, minutes, seconds = "00", offsetHours = "00", offsetMinutes = "00"] = OFFSET_DATE_TIME.exec(text) ?? [];
  const valid =
    hours !== undefined && isCalendarDay(text) && Number(hours) <= 23 && Number(minutes) <= 59 && Number(seconds) <= 59 && Number(offsetHours) <= 23 && Number(offsetMinutes) <= 59;
  if (valid) {
    if (validOffsetDateTimes.size >= MAX_REMEMBERED_OFFSET_DATE_TIMES) validOffsetDateTimes.clear();
    validOffsetDateTimes.add(text);
  }
  return valid;
}

/** ISO 8601 with the zone's UTC offset, e.g. `2026-03-08T03:30:00-04:00`. */
export const offsetDateTime = z.string().check(z.refine(isOffsetDateTime, "must be an ISO 8601 date-time with a UTC offset"));

/** Database-style text used by notes, tasks and their providers: `YYYY-MM-DD HH:MM:SS.ffffff+00`. */
export const textTimestamp = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00$/, "must be a text timestamp YYYY-MM-DD HH:MM:SS.ffffff+00"));

/** Decimal string with two decimals. */
export const money = z.string().check(z.regex(/^-?\d+\.\d{2}$/, "must be a decimal string with two decimals"));

export const rawUuid = z.string().check(z.regex(new RegExp(`^${UUID_PATTERN}$`, "i"), "must be a valid UUID"));

const prefixed = (prefix: IdPrefix) =>
  z.string().check(z.regex(new RegExp(`^${prefixedIdPattern([prefix])}$`), `must be a ${prefix}_ id (${prefix}_ followed by 32 hexadecimal characters)`));

export const patientId = prefixed("pat");
export const facilityId = prefixed("fac");
export const providerId = prefixed("prv");
export const appointmentTypeId = prefixed("atp");
export const availabilityTemplateId = prefixed("avt");
export const imageId = prefixed("img");

/**
 * A v3 path parameter of one kind: a `kind_` id or a raw UUID, in either case
 * (seed 000 "Conventions"). The `img_` one names a note's image.
 */
export const v3PathId = (kind: IdPrefix) =>
  z.string().check(z.regex(new RegExp(`^${idPattern([kind])}$`, "i"), `must be a valid id (${kind}_ followed by 32 hexadecimal characters, or a UUID)`));

/** A note: a v1 resource, so a raw UUID (seed 001 `/v1/notes/{noteId}`). */
export const noteId = rawUuid;
/** A note's image: a v3 resource (seed 001 `/v3/notes/{noteId}/images/{imageId}`). */
export const noteImageId = v3PathId("img");

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text the BFF's store keeps (PostgreSQL text and jsonb, on either engine)
 * refuses NUL and cannot encode an unpaired surrogate: a request carrying
 * either is a 400 naming the field, never a failed write (issue 34 item 5).
 */
export const storableText = () => z.refine<string>((text) => !text.includes("\u0000") && !LONE_SURROGATE.test(text), "must not contain NUL characters or unpaired surrogates");

/** An id the service accepts in either form (v3 path parameters, BFF inputs). */
export const anyId = z.string().check(
  z.regex(new RegExp(`^${idPattern()}$`, "i"), "must be a valid id (a UUID or a prefixed id)"),
);

/**
 * Zone names the runtime has accepted. Building an Intl.DateTimeFormat costs
 * tens of microseconds, and an availability answer repeats its zone on every
 * template (hundreds to thousands per answer at a clinic group's size): it was
 * a tenth of the BFF's CPU under the load benchmark (bench/RESULTS.md
 * "History moved from docs/deploy.md"). The zone database does not change while a
 * process runs. Capped, since every casing of a name is valid and the names
 * come from outside.
 */
const acceptedZones = new Set<string>();
const MAX_ACCEPTED_ZONES = 1024;

function isIanaZone(zone: string): boolean {
  if (acceptedZones.has(zone)) return true;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
  } catch {
    return false;
  }
  if (acceptedZones.size < MAX_ACCEPTED_ZONES) acceptedZones.add(zone);
  return true;
}

/** IANA zone name; checked against the runtime's zone database. */
export const ianaZone = z.string().check(z.refine(isIanaZone, "must be an IANA time zone name"));
