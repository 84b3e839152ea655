import { WAITLIST_OFFER_TAKEN_CODE } from "#contract/app-api/waitlist.ts";
import type { HoldRequest } from "#contract/app-api/slots.ts";
import { isSameId } from "#contract/ids.ts";
import { AppError, badRequest } from "../http/app-error.ts";
import { isHoldOfSlot } from "../schedule/held-slots.ts";
import type { StoredWaitlistEntry, WaitlistRepository } from "../store/store.ts";

// POST /api/holds with `fromWaitlist` (issue 38; contract/app-api/slots.ts):
// the hold is for the offer's entry's patient, and the offer is taken by the
// user before the EHR is asked, in one statement, so of two colleagues
// clicking the same alert exactly one goes on; the other gets 409
// `waitlist_offer_taken`. A hold the EHR refused gives the offer back; one
// whose outcome is unknown keeps it taken (the EHR may have held it), and the
// same user may try that patient's hold again.

export interface OfferClaim {
  /** The waitlisted patient the hold is for. */
  entry: StoredWaitlistEntry;
  /** The user's own try again after an answer was lost: the offer was theirs already, and stays theirs whatever this try's outcome (the first may have held it). */
  isRetry: boolean;
  /** The EHR refused the hold: the offer is open again for the colleagues. */
  giveBack(): Promise<void>;
}

const minutesOf = (request: Pick<HoldRequest, "startsAt" | "endsAt">) => Math.round((Date.parse(request.endsAt) - Date.parse(request.startsAt)) / 60_000);

const takenByYouForAnother = () => new AppError(409, WAITLIST_OFFER_TAKEN_CODE, "You already held this slot from the waitlist for another patient, and the EHR may have made that hold: see your holds");

const offerTaken = () => new AppError(409, WAITLIST_OFFER_TAKEN_CODE, "This slot was already held from the waitlist by a colleague: it is no longer offered");

/** Checks the offer and its entry against the request and takes the offer for the user; throws the answer when it cannot. */
export async function claimOffer(
  waitlist: Pick<WaitlistRepository, "getOffer" | "get" | "takeOffer" | "releaseOffer">,
  who: { organizationId: string; userId: string },
  request: HoldRequest & { fromWaitlist: { offerId: string; entryId: string } },
  at: number,
): Promise<OfferClaim> {
  const { organizationId, userId } = who;
  const offerId = request.fromWaitlist.offerId.toLowerCase();
  const entryId = request.fromWaitlist.entryId.toLowerCase();
  const offer = await waitlist.getOffer(organizationId, offerId);
  const offered = offer?.status === "offered" ? offer.offered : null;
  if (offer === null || offered === null) throw new AppError(404, "not_found", "fromWaitlist.offerId: no such waitlist offer in this organization");
  const taken = offer.taken;
  const isRetry = taken !== null && taken.userId === userId && taken.entryId === entryId;
  if (taken !== null && !isRetry) throw taken.userId === userId ? takenByYouForAnother() : offerTaken();
  if (offer.slotStartsAt <= at) throw new AppError(409, "conflict", "This waitlist offer's slot has already started");
  const sameKind =
    isSameId(offered.appointmentTypeId, request.appointmentTypeId, "atp") &&
    offered.slotLengthMinutes === (request.slotLengthMinutes ?? minutesOf(request)) &&
    offered.isNewPatient === (request.isNewPatient ?? false);
  if (!isHoldOfSlot(offered, request) || !sameKind) throw badRequest("fromWaitlist: the slot asked for is not the offer's (its provider, facility, times, type, length and new-patient flag must be the offer's)");
  if (!offered.matches.some((match) => match.entryId === entryId)) throw badRequest("fromWaitlist.entryId: that entry is not among the patients the offer fits");
  const entry = await waitlist.get(organizationId, entryId);
  if (entry === null || entry.endedAt !== null) throw new AppError(409, "conflict", "That patient is no longer waiting: they were booked, removed, or their range passed");
  if (!isRetry && !(await waitlist.takeOffer(organizationId, offerId, { userId, entryId, at }))) throw offerTaken();
  return {
    entry,
    isRetry,
    async giveBack() {
      await waitlist.releaseOffer(organizationId, offerId, { userId, at });
    },
  };
}
