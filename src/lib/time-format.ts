import { localDateOf, offsetMsAt, parseLocalDate } from "#contract/time/zoned-time.ts";

// The one formatter of times on screen (DESIGN.md, "Times on screen"): the
// user's locale through Intl, every time on the facility's wall clock, the
// facility's zone named where it differs from the user's at that instant.
// Pure: the locale and both zones are parameters (the browser's settings
// come in at the call site, src/lib/use-time-display.tsx), so no result
// depends on the machine's zone or locale. Zone arithmetic stays in
// contract/time. The numbers inside Tandem's own sentences are written here
// too, in Tandem's own locale (APP_LOCALE): no other module names a locale.

/** Who reads a time and whose clock it is on. */
export interface TimeDisplay {
  /** The user's BCP 47 locale (the browser's `navigator.language`). */
  readonly locale: string;
  /** The facility's IANA zone: every time is shown on its wall clock. */
  readonly zone: string;
  /** The user's own IANA zone: the facility's zone is named where its offset differs from this one. */
  readonly userZone: string;
}

export interface TimeOptions {
  seconds?: boolean;
  /** "omitted" where the zone is named once nearby (a grid's caption); default "where-different". */
  zoneName?: "where-different" | "omitted";
}

export interface DayOptions {
  /** "Tue 17 Nov" or "Tuesday 17 November" (in en-GB). */
  style?: "short" | "long";
  /** Default true. */
  weekday?: boolean;
  /** Default false. */
  year?: boolean;
  /** Default true; false gives the weekday and day of the month alone ("Mon 30"). */
  month?: boolean;
}

/**
 * Tandem's own locale, the one of its (English) words. Times and dates follow
 * the user's locale; this one is used where the browser gives none, and for
 * the numbers inside Tandem's sentences ("1,234.50", "1.2 MB"), which are
 * written the same for every user.
 */
export const APP_LOCALE = "en-US";
const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;
const MINUTES_PER_DAY = 1440;

const usableLocales = new Map<string, string>();

/** The locale as Intl takes it; a tag Intl refuses ("", "en_US") falls back rather than throwing mid-render. */
function usableLocale(locale: string): string {
  let usable = usableLocales.get(locale);
  if (usable === undefined) {
    try {
      usable = Intl.getCanonicalLocales(locale)[0] ?? APP_LOCALE;
    } catch {
      usable = APP_LOCALE;
    }
    usableLocales.set(locale, usable);
  }
  return usable;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const usableZones = new Map<string, string>();

/** The zone, or UTC where Intl does not know it (a bad zone in the data is shown in UTC, named, never in the machine's zone). */
export function usableZone(zone: string): string {
  let usable = usableZones.get(zone);
  if (usable === undefined) {
    try {
      new Intl.DateTimeFormat(APP_LOCALE, { timeZone: zone });
      usable = zone;
    } catch {
      usable = "UTC";
    }
    usableZones.set(zone, usable);
  }
  return usable;
}

function formatter(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let cached = formatters.get(key);
  if (!cached) {
    cached = new Intl.DateTimeFormat(usableLocale(locale), options);
    formatters.set(key, cached);
  }
  return cached;
}

const twelveHourLocales = new Map<string, boolean>();

/** Whether the locale writes times on a 12-hour clock ("9:40 AM") rather than a 24-hour one ("09:40"). */
export function usesTwelveHourClock(locale: string): boolean {
  // Asked for every time drawn; `resolvedOptions()` is slow enough to show in a week of hundreds of bands (profiled).
  let isTwelveHour = twelveHourLocales.get(locale);
  if (isTwelveHour === undefined) {
    const cycle = formatter(locale, { hour: "numeric", timeZone: "UTC" }).resolvedOptions().hourCycle;
    isTwelveHour = cycle === "h12" || cycle === "h11";
    twelveHourLocales.set(locale, isTwelveHour);
  }
  return isTwelveHour;
}

function timeOptions(locale: string, seconds: boolean): Intl.DateTimeFormatOptions {
  // V8 drops the leading zero of a 24-hour "numeric" hour ("9:40" in en-GB): ask for two digits there, and keep "9:40 AM" where the clock counts to 12.
  const hour = usesTwelveHourClock(locale) ? "numeric" : "2-digit";
  return seconds ? { hour, minute: "2-digit", second: "2-digit" } : { hour, minute: "2-digit" };
}

function dayOptions({ style = "long", weekday = true, year = false, month = true }: DayOptions): Intl.DateTimeFormatOptions {
  return { ...(weekday ? { weekday: style } : {}), day: "numeric", ...(month ? { month: style } : {}), ...(year ? { year: "numeric" } : {}) };
}

const zoneAbbreviations = new Map<string, string>();
/** Locales tried in turn for a zone's short name: the first that has a name rather than "GMT+11" wins (EST, AEDT, BST, IST). */
const ZONE_NAME_LOCALES = ["en-US", "en-AU", "en-GB", "en-IN"];

/** The zone's short name at an instant ("EST", "AEDT", else "GMT+10:30"), whatever the user's locale. */
export function zoneAbbreviation(epochMs: number, zone: string): string {
  const key = `${zone}|${offsetMsAt(epochMs, zone)}`;
  let name = zoneAbbreviations.get(key);
  if (name === undefined) {
    const candidates = ZONE_NAME_LOCALES.map(
      (locale) =>
        new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: "short" })
          .formatToParts(epochMs)
          .find((part) => part.type === "timeZoneName")?.value ?? zone,
    );
    name = candidates.find((candidate) => !/^(GMT|UTC)[+-]/.test(candidate)) ?? candidates[0] ?? zone;
    zoneAbbreviations.set(key, name);
  }
  return name;
}

/** A zone's IANA name as words: "America/New York" for America/New_York. */
export function formatZoneName(zone: string): string {
  return zone.replaceAll("_", " ");
}

/** The last part of a zone's IANA name as words, its city: "New York" for America/New_York. */
export function formatZoneCity(zone: string): string {
  return formatZoneName(zone.split("/").at(-1) ?? zone);
}

/**
 * Whether the wall-clock time of this instant happens twice in the zone (the
 * repeated hour after clocks go back): the same wall time read with the
 * offset of the day before or after lands on another instant that has that
 * offset.
 */
function isRepeatedWallTime(epochMs: number, zone: string): boolean {
  const offset = offsetMsAt(epochMs, zone);
  const wallMs = epochMs + offset;
  for (const other of [offsetMsAt(epochMs - MS_PER_DAY, zone), offsetMsAt(epochMs + MS_PER_DAY, zone)]) {
    if (other !== offset && offsetMsAt(wallMs - other, zone) === other) return true;
  }
  return false;
}

/**
 * The facility zone's short name ("EST", "AEDT", else "GMT+10:30") where the
 * user needs it, else null: where its UTC offset differs from the user's at
 * that instant (so America/Detroit is not named for a user in New York), and
 * in the repeated hour after clocks go back, where the wall time alone
 * happens twice.
 */
export function zoneNameAt(epochMs: number, display: TimeDisplay): string | null {
  return isOtherZone(epochMs, display.zone, display.userZone) || isRepeatedWallTime(epochMs, display.zone) ? zoneAbbreviation(epochMs, display.zone) : null;
}

/** Whether `zone`'s UTC offset differs from the user's at that instant (America/Detroit does not differ from America/New_York). */
export function isOtherZone(epochMs: number, zone: string, userZone: string): boolean {
  return zone !== userZone && offsetMsAt(epochMs, zone) !== offsetMsAt(epochMs, userZone);
}

function withZoneName(text: string, epochMs: number, display: TimeDisplay, zoneName: TimeOptions["zoneName"]): string {
  if (zoneName === "omitted") return text;
  const name = zoneNameAt(epochMs, display);
  return name === null ? text : `${text} ${name}`;
}

/** The time of day on the facility's clock: "9:40 AM" (en-US), "09:40" (en-GB), "09:40 EST" for a user elsewhere. */
export function formatTime(epochMs: number, display: TimeDisplay, options: TimeOptions = {}): string {
  const text = formatter(display.locale, { ...timeOptions(display.locale, options.seconds ?? false), timeZone: display.zone }).format(epochMs);
  return withZoneName(text, epochMs, display, options.zoneName);
}

/** A local calendar date (`YYYY-MM-DD`), no zone involved: "Tuesday 17 November", "Tue 17 Nov", "17 Nov 2026" (en-GB). */
export function formatLocalDay(date: string, locale: string, options: DayOptions = {}): string {
  // Noon UTC of that date, formatted in UTC: the date itself whatever the machine's zone.
  return formatter(locale, { ...dayOptions(options), timeZone: "UTC" }).format(parseLocalDate(date) * MS_PER_DAY + MS_PER_DAY / 2);
}

/** The facility's local date of an instant: "Tuesday 17 November" (en-GB), as formatLocalDay. */
export function formatDay(epochMs: number, display: TimeDisplay, options: DayOptions = {}): string {
  return formatLocalDay(localDateOf(epochMs, display.zone), display.locale, options);
}

/** Day and time on the facility's clock, joined as the locale joins them: "Tue 17 Nov, 09:40" (en-GB), "Tue, Nov 17, 9:40 AM EST" (en-US, a user elsewhere). Day style defaults to short. */
export function formatDayAndTime(epochMs: number, display: TimeDisplay, options: DayOptions & TimeOptions = {}): string {
  const text = formatter(display.locale, {
    ...dayOptions({ style: "short", ...options }),
    ...timeOptions(display.locale, options.seconds ?? false),
    timeZone: display.zone,
  }).format(epochMs);
  return withZoneName(text, epochMs, display, options.zoneName);
}

/**
 * When something happened, relative to now only in what it leaves out: the
 * time alone on the facility's date of `nowMs` ("Saved 9:40 AM", "as of
 * 9:40:12 AM EST"), the day too on another date ("Mon, Nov 16, 9:40 AM"),
 * and the year too in another year.
 */
export function formatRecentTime(epochMs: number, nowMs: number, display: TimeDisplay, options: TimeOptions = {}): string {
  const date = localDateOf(epochMs, display.zone);
  const today = localDateOf(nowMs, display.zone);
  if (date === today) return formatTime(epochMs, display, options);
  return formatDayAndTime(epochMs, display, { ...options, year: date.slice(0, 4) !== today.slice(0, 4) });
}

/**
 * A span on the facility's clock, with the start's day: "Fri, 20 Nov 2026,
 * 09:00–09:20" (en-GB, `year`); the end's day where it falls on another
 * date; each end's zone name where the two differ (a span across the
 * clocks going back: "… 01:30 EDT – 01:30 EST").
 */
export function formatTimeRange(startMs: number, endMs: number, display: TimeDisplay, options: DayOptions = {}): string {
  const sameDay = localDateOf(startMs, display.zone) === localDateOf(endMs, display.zone);
  const startZone = zoneNameAt(startMs, display);
  const endZone = zoneNameAt(endMs, display);
  if (sameDay && startZone === endZone) return `${formatDayAndTime(startMs, display, { ...options, zoneName: "omitted" })}–${formatTime(endMs, display)}`;
  const end = sameDay ? formatTime(endMs, display) : formatDayAndTime(endMs, display, options);
  return `${formatDayAndTime(startMs, display, options)} – ${end}`;
}

/**
 * A wall-clock time given as minutes after local midnight (a grid's hour
 * marks, where clocks change): "8:00 AM" / "08:00"; the end of the day, 1440,
 * is "24:00" on a 24-hour clock and "12:00 AM" on a 12-hour one.
 */
export function formatWallTime(minuteOfDay: number, locale: string): string {
  const minute = Math.round(minuteOfDay);
  const options = { ...timeOptions(locale, false), timeZone: "UTC" };
  if (minute >= MINUTES_PER_DAY && !usesTwelveHourClock(locale)) return formatter(locale, { ...options, hourCycle: "h24" }).format(0);
  return formatter(locale, options).format((((minute % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY) * MS_PER_MINUTE);
}

/** Two local dates as the locale writes a span of days: "5–11 October 2026", "28 September – 4 October 2026" (en-GB, with the locale's own spacing). */
export function formatLocalDayRange(startDate: string, endDate: string, locale: string): string {
  const toMs = (date: string) => parseLocalDate(date) * MS_PER_DAY + MS_PER_DAY / 2;
  return formatter(locale, { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).formatRange(toMs(startDate), toMs(endDate));
}

const numberFormats = new Map<string, Intl.NumberFormat>();

export interface NumberOptions {
  /** Default 3, as `Number.prototype.toLocaleString`. */
  maximumFractionDigits?: number;
  /** Default 0. */
  minimumFractionDigits?: number;
}

/** A number inside Tandem's sentences, in APP_LOCALE whatever the user's locale: "1,234.5", "1,234.50" (`minimumFractionDigits: 2`). */
export function formatNumber(value: number, { maximumFractionDigits = 3, minimumFractionDigits = 0 }: NumberOptions = {}): string {
  const key = `${minimumFractionDigits}|${maximumFractionDigits}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(APP_LOCALE, { minimumFractionDigits, maximumFractionDigits });
    numberFormats.set(key, format);
  }
  return format.format(value);
}

/** "in 4 seconds", "in 1 second", "now" once a wait counted down is over (0), or "in a moment" when an error gave no wait (`retry_after_seconds`). */
export function formatRetryWait(seconds: number | undefined): string {
  if (seconds === undefined) return "in a moment";
  if (seconds <= 0) return "now";
  const whole = Math.ceil(seconds);
  return `in ${formatNumber(whole)} second${whole === 1 ? "" : "s"}`;
}
