import { queryOptions } from "@tanstack/react-query";
import * as z from "zod/mini";
import {
  ALREADY_HELD_CODE,
  HOLD_LIMIT_CODE,
  heldSlotsResponse,
  holdOutcomeUnknownExtras,
  holdReleaseResponse,
  holdResponse,
  type HoldReleaseResponse,
  type HeldSlot,
  type HoldRequest,
  type HeldSlotsResponse,
  type HoldResponse,
  type MaybeHeldSlot,
} from "#contract/app-api/slots.ts";
import { isSameId } from "#contract/ids.ts";
import { ApiError, callBff } from "./bff-client.ts";
import { queryKeys } from "./query-keys.ts";

// The user's holds (DESIGN.md "The BFF's API"): kept in the BFF's store, so
// a hold belongs to the user, not to a view, and survives navigation and
// reloads. `queryKeys.holds()` is invalidated by every hold, release and booking,
// in this tab and, through the live events' `holds.changed`, in every other tab of the user.

/** The user's holds as the SPA keeps them: their instants on this browser's clock. */
export type HeldSlots = Omit<HeldSlotsResponse, "asOf">;

/** The same slot as the same kind for the same patient: the BFF sends such an attempt again rather than make a second. */
function isAttemptAt(attempt: MaybeHeldSlot, held: HeldSlot): boolean {
  const same = (a: string | null, b: string | null) => (a === null || b === null ? a === b : isSameId(a, b));
  return (
    isSameId(attempt.slot.providerId, held.slot.providerId) &&
    isSameId(attempt.slot.facilityId, held.slot.facilityId) &&
    Date.parse(attempt.slot.startsAt) === Date.parse(held.slot.startsAt) &&
    Date.parse(attempt.slot.endsAt) === Date.parse(held.slot.endsAt) &&
    isSameId(attempt.appointmentTypeId, held.appointmentTypeId) &&
    attempt.slotLengthMinutes === held.slotLengthMinutes &&
    attempt.isNewPatient === held.isNewPatient &&
    same(attempt.patientId, held.patientId)
  );
}

/**
 * The list once `held` is recorded: added (in place of an earlier copy), and the attempt it answered gone, one the
 * EHR may have made of the same hold, which the BFF sent again and settled with it (ADR 0012 addendum). Until the
 * list is read again it would stand beside the hold as "not confirmed".
 */
export function withHeld(list: HeldSlots | undefined, held: HeldSlot): HeldSlots {
  return {
    holds: [...(list?.holds ?? []).filter((candidate) => candidate.id !== held.id), held],
    maybeHeld: (list?.maybeHeld ?? []).filter((attempt) => !isAttemptAt(attempt, held)),
  };
}

/**
 * The list's `expiresAt` and `freesAt` moved onto this browser's clock: each instant plus the browser's lead over
 * the server's clock, so a hold counts down and one the EHR may have made frees itself by the workstation's
 * clock, even one minutes off. The lead is taken from when the request was sent against `asOf`, stamped after
 * it arrived: the request's time on the way makes it smaller, so a count errs early, never late.
 */
export function onThisBrowsersClock({ asOf, ...answer }: HeldSlotsResponse, askedAtMs: number): HeldSlots {
  const browserLeadMs = askedAtMs - Date.parse(asOf);
  const shifted = (instant: string) => new Date(Date.parse(instant) + browserLeadMs).toISOString();
  return {
    holds: answer.holds.map((held) => ({ ...held, expiresAt: shifted(held.expiresAt) })),
    maybeHeld: answer.maybeHeld.map((attempt) => ({ ...attempt, freesAt: shifted(attempt.freesAt) })),
  };
}

export const heldSlotsQuery = () =>
  queryOptions({
    queryKey: queryKeys.holds(),
    queryFn: async ({ signal }) => {
      const askedAtMs = Date.now();
      return onThisBrowsersClock(await callBff("/api/holds", heldSlotsResponse, { signal }), askedAtMs);
    },
    // The store is the truth; a hold made or released in this page updates the cache at once.
    staleTime: 30_000,
  });

/** Holds a slot; rejects with an `ApiError` 409 (`conflict`: taken; HOLD_LIMIT_CODE: the basket is full). */
export function createHold(request: HoldRequest): Promise<HoldResponse> {
  return callBff("/api/holds", holdResponse, { method: "POST", body: request });
}

/**
 * Releases a hold, or lets go of one the EHR may have made (a `maybeHeld` id):
 * `released: false` when there is nothing Tandem can release (it frees itself
 * by `freesAt`). Idempotent: a hold that has already expired or gone (404)
 * counts as released.
 */
export async function releaseHold(holdId: string): Promise<HoldReleaseResponse> {
  try {
    return await callBff(`/api/holds/${encodeURIComponent(holdId)}`, holdReleaseResponse, { method: "DELETE" });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { released: true };
    throw error;
  }
}

/** The hold answered that the slot was taken between the check and the hold. */
export function isSlotConflict(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409 && error.body.code === "conflict";
}

/** The hold was refused because the user already holds as many slots as Tandem allows. */
export function isHoldLimit(error: unknown): boolean {
  return error instanceof ApiError && error.body.code === HOLD_LIMIT_CODE;
}

/** The hold was refused because the user already holds this very slot (another tab of theirs held it). */
export function isAlreadyHeld(error: unknown): boolean {
  return error instanceof ApiError && error.body.code === ALREADY_HELD_CODE;
}

/** The hold the EHR may have made when the BFF lost its answer (issue 35 item 4), from the error's body; null for any other failure. */
export function maybeHeldOfError(error: unknown): MaybeHeldSlot | null {
  if (!(error instanceof ApiError)) return null;
  const extras = z.safeParse(holdOutcomeUnknownExtras, error.body);
  return extras.success ? extras.data.maybe_held : null;
}

/**
 * Whether the hold may have been made: the BFF lost the service's answer
 * (its body says so), or Tandem's server itself did not answer (not reached,
 * or the connection lost), so the SPA cannot know how far the request went.
 */
export function isHoldOutcomeUnknown(error: unknown): boolean {
  return !(error instanceof ApiError) || maybeHeldOfError(error) !== null;
}
