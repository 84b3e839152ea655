import * as z from "zod/mini";
import { idKey } from "../ids.ts";
import { rawUuid, utcTimestamp } from "../clinic-api/primitives.ts";
import { localDateShape, searchId, timeOfDay } from "./search-fields.ts";
import { slotPlace } from "./slots.ts";

// GET/POST/PATCH/DELETE /api/waitlist (DESIGN.md "The BFF's API"; issue 38):
// the organization's waitlist, for front-desk and scheduler roles only. An
// entry is what a patient asked for ("anything earlier with Dr. Brooks,
// mornings"); when a cancellation frees a slot that fits, every front-desk
// and scheduler user of the organization with Tandem open gets one
// `waitlist.offer` live event (contract/app-api/live-events.ts) per freed slot.
// The patient of a new entry is the host token's patient, never the body's.

const WEEKDAY = z.enum(["mon", "tue", "wed", "thu", "fri", "sat", "sun"]);

/** The longest date range an entry may wait over (from its startDate to its endDate, inclusive). */
export const MAX_WAITLIST_RANGE_DAYS = 92;
/** The longest free-text note on an entry. */
export const MAX_WAITLIST_NOTE_LENGTH = 500;
/** At most this many facilities and providers named on one entry. */
export const MAX_WAITLIST_LIST_LENGTH = 50;
/** At most this many waiting entries per organization (a paper list is far shorter). */
export const MAX_WAITING_ENTRIES = 2_000;


/** What the patient asked for: the slot finder's filters, as the form starts from the current search. */
export const waitlistPreferences = z.object({
  appointmentTypeId: searchId,
  /** Whole minutes from 5 to 480, as the slot finder's. */
  slotLengthMinutes: z.int().check(z.gte(5), z.lte(480)),
  isNewPatient: z.boolean(),
  facilityIds: z.array(searchId).check(z.minLength(1), z.maxLength(MAX_WAITLIST_LIST_LENGTH)),
  /** null: any provider. */
  providerIds: z.nullable(z.array(searchId).check(z.minLength(1), z.maxLength(MAX_WAITLIST_LIST_LENGTH))),
  /** The local dates (each facility's own calendar) the patient could come, inclusive; at most MAX_WAITLIST_RANGE_DAYS. */
  startDate: localDateShape,
  endDate: localDateShape,
  /** Times of day on the facility's clock ("HH:MM"), as the "Times and days" filter; null: any. */
  startsFrom: z.nullable(timeOfDay),
  startsBefore: z.nullable(timeOfDay),
  /** Weekdays the patient could come; null: any. */
  days: z.nullable(z.array(WEEKDAY).check(z.minLength(1), z.maxLength(7))),
  /** "prefers a call after 4 pm". */
  note: z.string().check(z.maxLength(MAX_WAITLIST_NOTE_LENGTH)),
});
export type WaitlistPreferences = z.infer<typeof waitlistPreferences>;

/** The same wish, whatever order its lists were picked in and whichever form its ids are written in (the same patient asking twice is one entry). */
export function isSamePreferences(a: WaitlistPreferences, b: WaitlistPreferences): boolean {
  const ids = (list: readonly string[] | null) => (list === null ? null : [...new Set(list.map(idKey))].sort().join(","));
  const days = (list: readonly string[] | null) => (list === null ? null : [...new Set(list)].sort().join(","));
  return (
    idKey(a.appointmentTypeId) === idKey(b.appointmentTypeId) &&
    a.slotLengthMinutes === b.slotLengthMinutes &&
    a.isNewPatient === b.isNewPatient &&
    ids(a.facilityIds) === ids(b.facilityIds) &&
    ids(a.providerIds) === ids(b.providerIds) &&
    a.startDate === b.startDate &&
    a.endDate === b.endDate &&
    a.startsFrom === b.startsFrom &&
    a.startsBefore === b.startsBefore &&
    days(a.days) === days(b.days) &&
    a.note.trim() === b.note.trim()
  );
}

/** POST /api/waitlist: the open patient (from the token) waits for these preferences. */
export const waitlistCreateRequest = z.strictObject({ preferences: waitlistPreferences });
export type WaitlistCreateRequest = z.infer<typeof waitlistCreateRequest>;

/** PATCH /api/waitlist/:id: the preferences replaced whole (the patient stays). */
export const waitlistUpdateRequest = z.strictObject({ preferences: waitlistPreferences });
export type WaitlistUpdateRequest = z.infer<typeof waitlistUpdateRequest>;

/** Why an entry stopped waiting. */
export const waitlistEndReason = z.enum(["removed", "booked", "range_passed"]);
export type WaitlistEndReason = z.infer<typeof waitlistEndReason>;

/** A free slot that fits an entry now, as the BFF last read it (its cache, never strong). */
export const waitlistMatch = z.object({ slot: slotPlace, appointmentTypeId: z.string(), slotLengthMinutes: z.int() });
export type WaitlistMatch = z.infer<typeof waitlistMatch>;

export const waitlistEntry = z.object({
  id: rawUuid,
  /** The patient open in the EHR when the entry was made (the token's), and the EHR's name for them then. */
  patientId: z.string(),
  patientName: z.nullable(z.string()),
  preferences: waitlistPreferences,
  createdAt: utcTimestamp,
  /** The user who added the entry: their provider id (the session's `user.id`) where they are one. */
  createdBy: z.string(),
  updatedAt: utcTimestamp,
  /** The earliest free slot that fits; null when none does, or when the BFF did not find out (`bestMatchSearch`). */
  bestMatch: z.nullable(waitlistMatch),
  /**
   * Whether the BFF looked: `looked` (a null `bestMatch` means none fits),
   * `failed` (the clinic data service's slots could not be read), `skipped`
   * (not looked for in this answer: beyond the searches one list makes, or an
   * entry's own answer to a change).
   */
  bestMatchSearch: z.enum(["looked", "failed", "skipped"]),
});
export type WaitlistEntry = z.infer<typeof waitlistEntry>;

/** The waitlisted patients a freed slot fits, longest waiting first. */
export const waitlistOfferMatch = z.object({ entryId: rawUuid, patientId: z.string(), patientName: z.nullable(z.string()), waitingSince: utcTimestamp });
export type WaitlistOfferMatch = z.infer<typeof waitlistOfferMatch>;

/** One freed slot and who fits it: at most one per freed slot, however often its event is delivered. */
export const waitlistOffer = z.object({
  id: rawUuid,
  slot: slotPlace,
  appointmentTypeId: z.string(),
  slotLengthMinutes: z.int(),
  isNewPatient: z.boolean(),
  matches: z.array(waitlistOfferMatch).check(z.minLength(1)),
  /** When the cancellation's event reached the BFF. */
  freedAt: utcTimestamp,
  /** Once a user has held the slot from this offer: who and when; null while open. */
  takenBy: z.nullable(z.object({ userId: z.string(), entryId: rawUuid, at: utcTimestamp })),
});
export type WaitlistOffer = z.infer<typeof waitlistOffer>;

/** GET /api/waitlist: the organization's waiting entries (longest waiting first) and its open offers (slots still in the future). */
export const waitlistResponse = z.object({ entries: z.array(waitlistEntry), offers: z.array(waitlistOffer) });
export type WaitlistResponse = z.infer<typeof waitlistResponse>;

/** POST and PATCH answer the entry; DELETE answers `{ ended: "removed" }`. */
export const waitlistEntryResponse = z.object({ entry: waitlistEntry });
export type WaitlistEntryResponse = z.infer<typeof waitlistEntryResponse>;
export const waitlistDeleteResponse = z.object({ ended: waitlistEndReason });

/** The roles that use the waitlist (issue 38): a user with none of them reads none of it, and hears no `waitlist.*` event. */
export const WAITLIST_ROLES = ["Front Desk", "Scheduler"] as const;

export function canUseWaitlist(roles: readonly string[]): boolean {
  return roles.some((role) => (WAITLIST_ROLES as readonly string[]).includes(role));
}

/** The 409 code of POST /api/holds `fromWaitlist` when a colleague already held the slot from that offer. */
export const WAITLIST_OFFER_TAKEN_CODE = "waitlist_offer_taken";
/** The 409 code of POST /api/waitlist when the organization already has MAX_WAITING_ENTRIES waiting. */
export const WAITLIST_FULL_CODE = "waitlist_full";
