import type { Note, SoapNote } from "#contract/clinic-api/note.ts";
import { localDateOf } from "#contract/time/zoned-time.ts";
import { formatDay, formatDayAndTime, formatLocalDay, formatNumber as formatAppNumber, formatTimeRange, type TimeDisplay } from "#src/lib/time-format.ts";

// Words and numbers the read-only note shows. Times and dates go through the
// app's one formatter (src/lib/time-format.ts): the user's locale, the
// facility's zone (`note.facility.timezone`), never the machine's. Numbers go
// through it too, in Tandem's own locale (APP_LOCALE).

const TEXT_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d{6})\+00$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Epoch ms of a note text timestamp (`2026-11-20 14:05:00.000000+00`, UTC); microseconds are floored to ms. Throws on anything else. */
export function parseTextTimestamp(text: string): number {
  const match = TEXT_TIMESTAMP.exec(text);
  if (!match) throw new Error(`Not a text timestamp (YYYY-MM-DD HH:MM:SS.ffffff+00): ${JSON.stringify(text)}`);
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const micros = Number(match[7]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) {
    throw new Error(`Not a valid date and time: ${JSON.stringify(text)}`);
  }
  return Date.UTC(year, month - 1, day, hour, minute, second, Math.floor(micros / 1000));
}

/** Epoch ms of a timestamp in any form a note carries (text timestamp, ISO 8601 with `Z` or an offset), else null. */
export function parseNoteInstant(text: string | null): number | null {
  if (text === null) return null;
  const trimmed = text.trim();
  if (TEXT_TIMESTAMP.test(trimmed)) {
    try {
      return parseTextTimestamp(trimmed);
    } catch {
      return null;
    }
  }
  if (ISO_DATE_TIME.test(trimmed)) {
    const epochMs = Date.parse(trimmed);
    return Number.isNaN(epochMs) ? null : epochMs;
  }
  return null;
}

const NOTE_DAY = { style: "short", year: true } as const;

/** "Fri, 20 Nov 2026, 09:05 EST" (en-GB, a user outside New York): the visit's day and time on the facility's clock. */
export function formatVisitDate(epochMs: number, display: TimeDisplay): string {
  return formatDayAndTime(epochMs, display, NOTE_DAY);
}

/** "Fri, 20 Nov 2026, 09:00–09:30 EST"; the end's date where it falls on another day, each zone name where they differ. */
export function formatNoteTimeRange(startMs: number, endMs: number, display: TimeDisplay): string {
  return formatTimeRange(startMs, endMs, display, NOTE_DAY);
}

/** A timestamp field of the note on the facility's clock; text that is not a timestamp is shown as written. */
export function formatNoteDateTime(text: string, display: TimeDisplay): string {
  const epochMs = parseNoteInstant(text);
  return epochMs === null ? text : formatVisitDate(epochMs, display);
}

/** The date part only of a timestamp field, in the facility's zone ("Fri, 20 Nov 2026"); a plain `YYYY-MM-DD` is a date with no zone ("21 Nov 2026"). */
export function formatNoteDate(text: string, display: TimeDisplay): string {
  const localDate = formatLocalDateText(text, display.locale);
  if (localDate !== null) return localDate;
  const epochMs = parseNoteInstant(text);
  return epochMs === null ? text : formatDay(epochMs, display, NOTE_DAY);
}

/** "14 Mar 1968" (en-GB) for `1968-03-14`, else null. */
export function formatLocalDateText(text: string, locale: string): string | null {
  const match = LOCAL_DATE.exec(text.trim());
  if (!match) return null;
  const [year, month, day] = match.slice(1, 4).map(Number) as [number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return formatLocalDay(match[0], locale, { ...NOTE_DAY, weekday: false });
}

/** Whole years between a birth date and a local date (both `YYYY-MM-DD`). */
export function ageOn(dateOfBirth: string, date: string): number | null {
  const birth = LOCAL_DATE.exec(dateOfBirth);
  const on = LOCAL_DATE.exec(date);
  if (!birth || !on) return null;
  const [birthYear, birthMonth, birthDay] = birth.slice(1, 4).map(Number) as [number, number, number];
  const [year, month, day] = on.slice(1, 4).map(Number) as [number, number, number];
  let years = year - birthYear;
  if (month < birthMonth || (month === birthMonth && day < birthDay)) years -= 1;
  return years >= 0 ? years : null;
}

/** "DOB 14 Mar 1968 (58 y at visit)": the age is at the visit's local date in the facility's zone. */
export function dateOfBirthText(dateOfBirth: string, visitEpochMs: number, display: TimeDisplay): string {
  const shown = formatLocalDateText(dateOfBirth, display.locale) ?? dateOfBirth;
  const age = ageOn(dateOfBirth, localDateOf(visitEpochMs, display.zone));
  return age === null ? `DOB ${shown}` : `DOB ${shown} (${age} y at visit)`;
}

// ---------------------------------------------------------------------------
// Names and statuses.

/** True when a value carries something to read. */
export function hasText(value: string | null | undefined): value is string {
  return typeof value === "string" && value.trim() !== "";
}

/** "ready_for_review" → "Ready for review". */
export function readableValue(value: string): string {
  const words = value
    .trim()
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .replace(/\s+/g, " ")
    .toLowerCase();
  return words === "" ? "Not stated" : `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

const NOTE_STATUS_TEXT: Readonly<Record<string, string>> = {
  awaiting_sign: "Awaiting signature",
  signed: "Signed",
  in_progress: "In progress",
};

export function noteStatusText(status: string): string {
  return NOTE_STATUS_TEXT[status] ?? readableValue(status);
}

export type StatusTone = "pending" | "done" | "working" | "neutral";

export function noteStatusTone(status: string): StatusTone {
  if (status === "awaiting_sign") return "pending";
  if (status === "signed") return "done";
  if (status === "in_progress") return "working";
  return "neutral";
}

/** "Jane Ann Doe". */
export function patientDisplayName(patient: Pick<Note["patient"], "firstName" | "lastName" | "middleName">): string {
  return [patient.firstName, patient.middleName ?? "", patient.lastName].map((part) => part.trim()).filter((part) => part !== "").join(" ") || "Unnamed patient";
}

/** "JD": at most two letters, first and last name. */
export function initialsOf(patient: Pick<Note["patient"], "firstName" | "lastName">): string {
  const letters = [patient.firstName, patient.lastName].map((part) => part.trim().charAt(0).toUpperCase()).join("");
  return letters === "" ? "?" : letters;
}

// ---------------------------------------------------------------------------
// Vitals. Each number is in the unit its *Type field names (the seed
// generator writes F/C, lbs/kg, in/cm); a null or unknown type shows the
// number without guessing a unit (an unknown type is shown as written).

export function formatNumber(value: number): string {
  return formatAppNumber(value, { maximumFractionDigits: 2 });
}

function withUnit(value: number | null, unit: string | null, separator = " "): string | null {
  if (value === null) return null;
  return unit === null ? formatNumber(value) : `${formatNumber(value)}${separator}${unit}`;
}

function unitOf(type: string | null, known: Readonly<Record<string, string>>): string | null {
  if (!hasText(type)) return null;
  return known[type.trim().toLowerCase()] ?? type.trim();
}

const TEMPERATURE_UNITS: Readonly<Record<string, string>> = { f: "°F", "°f": "°F", fahrenheit: "°F", c: "°C", "°c": "°C", celsius: "°C" };
const WEIGHT_UNITS: Readonly<Record<string, string>> = { lb: "lb", lbs: "lb", pound: "lb", pounds: "lb", kg: "kg", kgs: "kg", kilogram: "kg", kilograms: "kg" };
const HEIGHT_UNITS: Readonly<Record<string, string>> = { in: "in", inch: "in", inches: "in", cm: "cm", centimeter: "cm", centimeters: "cm", centimetre: "cm", centimetres: "cm" };

export function formatTemperature(value: number | null, type: string | null): string | null {
  return withUnit(value, unitOf(type, TEMPERATURE_UNITS));
}

export function formatWeight(value: number | null, type: string | null): string | null {
  return withUnit(value, unitOf(type, WEIGHT_UNITS));
}

export function formatHeight(value: number | null, type: string | null): string | null {
  return withUnit(value, unitOf(type, HEIGHT_UNITS));
}

/** "120/80 mmHg, sitting"; one half missing is said in words. */
export function formatBloodPressure(systolic: number | null, diastolic: number | null, position: string | null = null): string | null {
  let reading: string;
  if (systolic !== null && diastolic !== null) reading = `${formatNumber(systolic)}/${formatNumber(diastolic)} mmHg`;
  else if (systolic !== null) reading = `Systolic ${formatNumber(systolic)} mmHg (diastolic not recorded)`;
  else if (diastolic !== null) reading = `Diastolic ${formatNumber(diastolic)} mmHg (systolic not recorded)`;
  else return null;
  return hasText(position) ? `${reading}, ${position.trim().toLowerCase()}` : reading;
}

export function formatPulse(value: number | null): string | null {
  return withUnit(value, "bpm");
}

export function formatRespiration(value: number | null): string | null {
  return withUnit(value, "/min", "");
}

export function formatOxygenSaturation(value: number | null): string | null {
  return withUnit(value, "%", "");
}

/** "21% (room air)". */
export function formatFio2(value: number | null, device: string | null): string | null {
  const reading = withUnit(value, "%", "");
  if (reading === null) return hasText(device) ? device.trim() : null;
  return hasText(device) ? `${reading} (${device.trim().toLowerCase()})` : reading;
}

export function formatBmi(value: number | null): string | null {
  return withUnit(value, "kg/m²");
}

/** BSA arrives as text ("1.85"): a plain number gets m², other text is shown as written. */
export function formatBsa(value: string | null): string | null {
  if (!hasText(value)) return null;
  const trimmed = value.trim();
  return /^\d+(\.\d+)?$/.test(trimmed) ? `${trimmed} m²` : trimmed;
}

// ---------------------------------------------------------------------------
// Billing. The payload names no currency, so amounts are shown as plain
// decimals with two places rather than guessing a symbol.

/** "1,234.50". */
export function formatAmount(value: number): string {
  return formatAppNumber(value, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** "1 unit", "2 units", "1.5 units". */
export function formatUnits(units: number): string {
  return `${formatNumber(units)} ${units === 1 ? "unit" : "units"}`;
}

export function billingLineTotal(line: Pick<SoapNote["billing"][number], "units" | "unitPrice">): number {
  return Math.round(line.units * line.unitPrice * 100) / 100;
}

export function billingTotal(lines: readonly Pick<SoapNote["billing"][number], "units" | "unitPrice">[]): number {
  return Math.round(lines.reduce((sum, line) => sum + line.units * line.unitPrice * 100, 0)) / 100;
}

/** "30 minutes", "1 minute". */
export function formatMinutes(minutes: number): string {
  return `${formatNumber(minutes)} ${minutes === 1 ? "minute" : "minutes"}`;
}
