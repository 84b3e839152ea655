import type { WaitlistEntry, WaitlistOffer, WaitlistOfferMatch, WaitlistPreferences } from "#contract/app-api/waitlist.ts";
import { isSameId } from "#contract/ids.ts";
import { daysBetween, localDateOf } from "#contract/time/zoned-time.ts";
import { isolateText } from "#src/lib/bidi.ts";
import { formatDayAndTime, formatLocalDayRange, formatRecentTime, formatWallTime, type TimeDisplay } from "#src/lib/time-format.ts";

// The waitlist in words (issue 38): how long someone has waited, what they
// asked for, and the offer's sentence ("Tue, Dec 8, 10:00 AM EST with Dr.
// Jacob Brooks, MD freed: 2 waitlisted patients fit: Ana Ruiz (waiting 6
// days), Wei Chen (3 days)"). Every time through the app's one formatter
// (src/lib/time-format.ts), on the facility's clock.

const WEEKDAY_NAMES: Record<string, string> = { mon: "Mon", tue: "Tue", wed: "Wed", thu: "Thu", fri: "Fri", sat: "Sat", sun: "Sun" };
const WEEKDAY_ORDER = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

/** Whole local days (in `zone`) from `sinceIso` to `nowMs`: added yesterday is 1. */
export function daysWaiting(sinceIso: string, nowMs: number, zone: string): number {
  return Math.max(0, daysBetween(localDateOf(Date.parse(sinceIso), zone), localDateOf(nowMs, zone)));
}

/** "waiting 6 days", "waiting 1 day", "added today". */
export function waitingText(days: number): string {
  if (days === 0) return "added today";
  return `waiting ${days} day${days === 1 ? "" : "s"}`;
}

/** "6 days", "1 day", "today": the shorter form after the first name of a list. */
function waitingShortText(days: number): string {
  if (days === 0) return "today";
  return `${days} day${days === 1 ? "" : "s"}`;
}

/** The patient's name as the EHR gave it, isolated for a sentence; a neutral word when Tandem may not read names. */
export function patientNameText(name: string | null): string {
  return name ? isolateText(name) : "A patient (name not readable)";
}

/** "Ana Ruiz (waiting 6 days), Wei Chen (3 days)": longest waiting first, as the offer lists them. */
export function matchesText(matches: readonly WaitlistOfferMatch[], nowMs: number, zone: string): string {
  return matches
    .map((match, index) => {
      const days = daysWaiting(match.waitingSince, nowMs, zone);
      return `${patientNameText(match.patientName)} (${index === 0 ? waitingText(days) : waitingShortText(days)})`;
    })
    .join(", ");
}

/** "Tue, Dec 8, 10:00 AM EST with Dr. Jacob Brooks, MD": the freed slot, on its facility's clock. */
export function offerSlotText(offer: Pick<WaitlistOffer, "slot">, providerName: string, display: TimeDisplay): string {
  return `${formatDayAndTime(Date.parse(offer.slot.startsAt), display)} with ${providerName}`;
}

/** "… freed: 2 waitlisted patients fit: Ana Ruiz (waiting 6 days), Wei Chen (3 days)". */
export function offerHeadline(offer: Pick<WaitlistOffer, "slot" | "matches">, providerName: string, display: TimeDisplay, nowMs: number): string {
  const count = offer.matches.length;
  const fit = count === 1 ? "1 waitlisted patient fits" : `${count} waitlisted patients fit`;
  return `${offerSlotText(offer, providerName, display)} freed: ${fit}: ${matchesText(offer.matches, nowMs, display.zone)}`;
}

/** "12:00 PM–5:00 PM", "from 4:00 PM", "before 12:00 PM", or null for any time. */
function timesText(preferences: Pick<WaitlistPreferences, "startsFrom" | "startsBefore">, locale: string): string | null {
  const wall = (time: string) => formatWallTime(Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5)), locale);
  const { startsFrom, startsBefore } = preferences;
  if (startsFrom && startsBefore) return `starting ${wall(startsFrom)}–${wall(startsBefore)}`;
  if (startsFrom) return `starting ${wall(startsFrom)} or later`;
  if (startsBefore) return `starting before ${wall(startsBefore)}`;
  return null;
}

/** "Tue, Wed, Thu"; null for every day. */
function daysText(days: WaitlistPreferences["days"]): string | null {
  if (!days || days.length === 0 || days.length === 7) return null;
  return [...days].sort((a, b) => WEEKDAY_ORDER.indexOf(a) - WEEKDAY_ORDER.indexOf(b)).map((day) => WEEKDAY_NAMES[day] ?? day).join(", ");
}

/** "1–31 December 2026, starting before 12:00 PM, Tue, Thu": when the patient could come. */
export function whenText(preferences: WaitlistPreferences, locale: string): string {
  return [formatLocalDayRange(preferences.startDate, preferences.endDate, locale), timesText(preferences, locale), daysText(preferences.days)].filter(Boolean).join(", ");
}

/** "Dr. Jacob Brooks, MD or Dr. Ana Lee" / "any provider". */
export function providersText(providerIds: readonly string[] | null, providerName: (id: string) => string): string {
  if (!providerIds || providerIds.length === 0) return "any provider";
  return new Intl.ListFormat("en", { type: "disjunction" }).format(providerIds.map(providerName));
}

/** "Upper West Side and Lincoln Park". */
export function facilitiesText(facilityIds: readonly string[], facilityName: (id: string) => string): string {
  return new Intl.ListFormat("en", { type: "conjunction" }).format(facilityIds.map(facilityName));
}

/** Who did it, as the viewer reads it: "you", the provider's name, or "a colleague" (a user the pickers do not list). */
export function userText(userId: string, viewerId: string, providerName: (id: string) => string): string {
  if (isSameId(userId, viewerId)) return "you";
  return providerName(userId).replace(/^Unlisted provider$/, "a colleague");
}

/** "Added by you at 6:40 AM EST" today, "… on Mon, Nov 16, 6:40 AM EST" before. */
export function addedText(entry: Pick<WaitlistEntry, "createdBy" | "createdAt">, viewerId: string, providerName: (id: string) => string, display: TimeDisplay, nowMs: number): string {
  const addedMs = Date.parse(entry.createdAt);
  const sameDay = localDateOf(addedMs, display.zone) === localDateOf(nowMs, display.zone);
  return `Added by ${userText(entry.createdBy, viewerId, providerName)} ${sameDay ? "at" : "on"} ${formatRecentTime(addedMs, nowMs, display)}`;
}
