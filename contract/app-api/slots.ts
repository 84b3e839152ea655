import * as z from "zod/mini";
import { anyId, localDate, offsetDateTime, rawUuid, utcTimestamp } from "../clinic-api/primitives.ts";
import { slotsQuery } from "../clinic-api/queries.ts";
import { hold, slot, slotMeta } from "../clinic-api/schedule.ts";

// GET /api/slots, POST /api/slots/check, GET /api/holds, POST /api/holds, DELETE /api/holds/:id
// (DESIGN.md "The BFF's API"): names follow the upstream ones; ids in either
// form; answers in the form the service gives (`prv_`, `fac_`, `atp_`).

/** Maximum window the slot finder asks for; the service's bound is not shown (docs/assumed-contracts.md). */
export const MAX_SLOT_WINDOW_DAYS = 62;

/**
 * The most facility-days (facilities × days of the window) one search may
 * cover, whatever its providers (issue 34 item 1). Measured at
 * EMULATOR_SCALE=large (a group of 9 facilities and about 300 providers),
 * the shortest appointment type answers 47-65 KB of JSON per facility-day
 * on average, up to 101 KB for one weekday at one facility; the widest
 * search the form allowed (9 facilities × 62 days) answered 32.8 MB, more
 * than the BFF can take in. 126 is every facility of that group over the
 * default 14 days (5.9 MB measured) or two facilities over the whole 62
 * (7.9 MB): at the worst day's rate 12.6 MB, under the BFF's default read
 * limit of 16 MiB (UPSTREAM_MAX_BODY_BYTES; bench/large-search-bench.ts).
 */
export const MAX_SLOT_SEARCH_FACILITY_DAYS = 126;

/** The most days a search over `facilityCount` facilities may span (0: too many facilities for even one day). */
export function maxSlotSearchDays(facilityCount: number): number {
  return Math.min(MAX_SLOT_WINDOW_DAYS, Math.floor(MAX_SLOT_SEARCH_FACILITY_DAYS / Math.max(1, facilityCount)));
}

/** The most facilities a search spanning `days` days may cover. */
export function maxSlotSearchFacilities(days: number): number {
  return Math.floor(MAX_SLOT_SEARCH_FACILITY_DAYS / Math.max(1, days));
}

/** Why the BFF refuses a search of `facilityCount` facilities over `days` days (naming the parameters), or null when it takes it. */
export function slotSearchScopeProblem(facilityCount: number, days: number): string | null {
  if (facilityCount * days <= MAX_SLOT_SEARCH_FACILITY_DAYS) return null;
  const allowed = maxSlotSearchDays(facilityCount);
  const hint = allowed > 0 ? `with ${facilityCount} facilities the window may span at most ${allowed} days` : `at most ${MAX_SLOT_SEARCH_FACILITY_DAYS} facilities`;
  return `facilityIds, endDate: ${facilityCount} facilities over ${days} days is ${facilityCount * days} facility-days, more than one search may cover (${MAX_SLOT_SEARCH_FACILITY_DAYS}): choose fewer facilities or fewer days (${hint})`;
}

/** The service's slot query without `consistency`: searches always read the cache; only the check is strong. */
export const slotSearchQuery = z.omit(slotsQuery, { consistency: true });
export type SlotSearchQuery = z.infer<typeof slotSearchQuery>;

export const slotSearchResponse = z.object({
  slots: z.array(slot),
  nextAvailableByProvider: z.record(z.string(), localDate),
  meta: slotMeta,
});
export type SlotSearchResponse = z.infer<typeof slotSearchResponse>;

/** One slot, as the strong check and the hold take it. */
export const slotSelection = z.object({
  providerId: anyId,
  facilityId: anyId,
  startsAt: offsetDateTime,
  endsAt: offsetDateTime,
  appointmentTypeId: anyId,
  slotLengthMinutes: z.optional(z.int().check(z.minimum(5), z.maximum(480))),
  isNewPatient: z.optional(z.boolean()),
});
export type SlotSelection = z.infer<typeof slotSelection>;

/**
 * The check's body: the slot, and the search it was listed by. When the slot
 * is gone, alternatives come from that search's facilities and providers
 * (all providers when none were named); without them, from the slot's own
 * facility.
 */
export const slotCheckRequest = z.extend(slotSelection, {
  searchedFacilityIds: z.optional(z.array(anyId).check(z.minLength(1), z.maxLength(100))),
  searchedProviderIds: z.optional(z.array(anyId).check(z.minLength(1), z.maxLength(500))),
});
export type SlotCheckRequest = z.infer<typeof slotCheckRequest>;

export const slotCheckResponse = z.object({
  available: z.boolean(),
  /** The slot as the EHR has it now (remaining capacity may have changed), or null when gone. */
  slot: z.nullable(slot),
  /**
   * When gone: the nearest free slots of the same local day across the
   * searched providers (nearest in time first), then the next days' earliest,
   * up to five, in time order. The same day's come from the live read for the
   * slot's provider and from the cached search for the others.
   */
  alternatives: z.array(slot),
  meta: slotMeta,
  /**
   * Present, true, when the slot is gone to a hold of the caller's own (made
   * in another tab of theirs, one this page may not have heard of yet): "You
   * already hold this", never "just taken" (issue 36 item 1).
   */
  heldByYou: z.optional(z.literal(true)),
});
export type SlotCheckResponse = z.infer<typeof slotCheckResponse>;

/** At most this many active holds per user at once (the hold basket: "Tuesday 10:00 or Thursday 15:30?"). */
export const MAX_ACTIVE_HOLDS = 3;

/**
 * POST /api/holds: the slot, as the check takes it, and `patientId`, the
 * patient open when the slot was chosen. When the host token names no patient
 * (standalone use) the hold is for `patientId`; when it names one, the hold is
 * for the token's, and a different `patientId` is refused (409
 * PATIENT_CHANGED_CODE): the EHR switched patient after the slot was chosen.
 */
export const holdRequest = z.extend(slotSelection, {
  patientId: z.optional(anyId),
  /**
   * Held from a waitlist offer (issue 38): the hold is for that offer's
   * entry's patient (as stored with the entry, whatever patient is open), and
   * the offer is marked taken so no colleague holds it twice.
   */
  fromWaitlist: z.optional(z.object({ offerId: rawUuid, entryId: rawUuid })),
});
export type HoldRequest = z.infer<typeof holdRequest>;

/**
 * What names one slot: its provider, facility and times, in the form the
 * service gives (`prv_`, `fac_`, the facility's offset). A held slot carries
 * no capacity or templates: the hold's body does not have them, and the
 * capacity changes with every booking.
 */
export const slotPlace = z.pick(slot, { providerId: true, facilityId: true, startsAt: true, endsAt: true });
export type SlotPlace = z.infer<typeof slotPlace>;

/** What a slot is held as (the type, length and new-patient flag of the list it came from), and for whom. */
const heldAs = {
  slot: slotPlace,
  appointmentTypeId: z.string(),
  slotLengthMinutes: z.int(),
  isNewPatient: z.boolean(),
  /** The patient open in the EHR when it was held, or null when none was. */
  patientId: z.nullable(z.string()),
};

/**
 * A hold Tandem made for this user, as kept in the BFF's store: it belongs to
 * the user, not to a view, and lasts until it is booked, released or expires.
 */
export const heldSlot = z.object({
  /** The service's hold id (release it with DELETE /api/holds/:id). */
  id: z.string(),
  ...heldAs,
  /**
   * "Alvarez, Maria": the patient as the EHR named them when the hold was made
   * (the BFF's read, never the client's word), so a hold kept for a patient
   * no longer open says who it is for; null when none was open or Tandem may
   * not read patients.
   */
  patientName: z.nullable(z.string()),
  expiresAt: utcTimestamp,
  heldAt: utcTimestamp,
});
export type HeldSlot = z.infer<typeof heldSlot>;

/** POST /api/holds: the service's hold, and the record Tandem keeps of it. */
export const holdResponse = z.object({ hold, held: heldSlot });
export type HoldResponse = z.infer<typeof holdResponse>;

/**
 * A hold Tandem asked the EHR for whose outcome is unknown (the answer was
 * lost after the request was sent: a reset, a timeout, a 5xx, Tandem's server
 * failing after the call; issue 35 item 4): the EHR may have held the slot
 * for the user. It stays theirs, counted in their basket, until `freesAt`,
 * when a hold made then would have run out by itself.
 */
export const maybeHeldSlot = z.object({
  /** Tandem's id of the attempt (release it with DELETE /api/holds/:id). */
  id: z.string(),
  ...heldAs,
  /** When Tandem asked the EHR. */
  triedAt: utcTimestamp,
  /** The latest instant a hold made by that request can last until. */
  freesAt: utcTimestamp,
  /** Tandem learnt the EHR's hold id (the EHR held it, Tandem's server failed to record it): Let it go releases it in the EHR. */
  canRelease: z.boolean(),
});
export type MaybeHeldSlot = z.infer<typeof maybeHeldSlot>;

/**
 * GET /api/holds: this user's active holds in the token's organization,
 * soonest to expire first, and the holds the EHR may have made for them
 * (`maybeHeld`, oldest first).
 */
export const heldSlotsResponse = z.object({
  holds: z.array(heldSlot),
  maybeHeld: z.array(maybeHeldSlot),
  /**
   * Tandem's server's clock when it answered: the browser moves `expiresAt` and `freesAt` onto its own clock
   * from it, since a workstation's clock may be minutes off (src/api/holds-queries.ts).
   */
  asOf: utcTimestamp,
});
export type HeldSlotsResponse = z.infer<typeof heldSlotsResponse>;

/**
 * What POST /api/holds adds to its error body when the answer was lost after
 * the request was sent: the code stays that of the failure (which system),
 * `outcome` says the EHR may have held the slot, and `maybe_held` is the
 * attempt as GET /api/holds lists it.
 */
export const holdOutcomeUnknownExtras = z.object({ outcome: z.literal("unknown"), maybe_held: maybeHeldSlot });
export type HoldOutcomeUnknownExtras = z.infer<typeof holdOutcomeUnknownExtras>;

/** The 409 code when the user already holds MAX_ACTIVE_HOLDS slots (a taken slot is `conflict`). */
export const HOLD_LIMIT_CODE = "hold_limit_reached";

/** The 409 code when the user already holds this very slot (another tab of theirs held it): no second hold is made. */
export const ALREADY_HELD_CODE = "already_held";

/** The 409 code when the patient open in the EHR is no longer the one the slot was chosen for: nothing is held. */
export const PATIENT_CHANGED_CODE = "patient_changed";

/**
 * DELETE /api/holds/:id: released (or nothing of the user's was held), or,
 * for a hold the EHR may have made whose id Tandem never learnt, nothing
 * Tandem can release: it frees itself by `freesAt` at the latest.
 */
export const holdReleaseResponse = z.union([z.object({ released: z.literal(true) }), z.object({ released: z.literal(false), freesAt: utcTimestamp })]);
export type HoldReleaseResponse = z.infer<typeof holdReleaseResponse>;

/** `DELETE /api/holds/:id`: a hold's id is a raw UUID, as the service mints them (the assumed hold contract, DESIGN.md). */
export const holdId = rawUuid;
