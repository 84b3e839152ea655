import type { HoldResponse, SlotCheckResponse, SlotSelection } from "#contract/app-api/slots.ts";
import type { WaitlistOffer } from "#contract/app-api/waitlist.ts";
import { holdDeadlineMs } from "#src/scheduling/hold-countdown.ts";
import type { FreshHold, HoldCalls } from "#src/scheduling/slot-selection-flow.ts";

// Holding a freed slot for a waitlisted patient from the offer's alert (issue
// 38), as DESIGN.md asks of every hold: one strong check of the slot (same
// type, length and new-patient flag), then POST /api/holds with
// `fromWaitlist`, so the BFF holds it for the entry's patient and marks the
// offer taken (first wins: a colleague's second click is refused). A slot
// gone since is a plain outcome, not an error. Effects injected, so the rules
// are tested without a browser.

export type OfferHoldState =
  | { kind: "checking"; entryId: string }
  | { kind: "holding"; entryId: string }
  | { kind: "held"; entryId: string }
  /** The slot is no longer free (booked or held in the EHR, or from this offer by a colleague); `mayBeYours`: a try again after a lost answer, whose first try may be what holds it. */
  | { kind: "gone"; entryId: string; mayBeYours: boolean }
  /** Refused: a colleague held it from this offer first (the BFF's message says so). */
  | { kind: "taken"; entryId: string; message: string }
  /** The user already holds as many slots as Tandem allows. */
  | { kind: "basketFull"; entryId: string }
  /** The user holds this slot already (another tab of theirs). */
  | { kind: "alreadyHeld"; entryId: string }
  /** `outcomeUnknown`: the hold's answer was lost; the EHR may have held it (the holds bar lists it). */
  | { kind: "failed"; entryId: string; step: "check" | "hold"; error: unknown; outcomeUnknown: boolean };

export interface OfferHoldDeps extends HoldCalls {
  /** Any other 409: the offer was taken by someone else first; its message, or null for another error. */
  takenMessage: (error: unknown) => string | null;
  /** The slot is held: the holds bar owns it from here. */
  onHeld: (fresh: FreshHold) => void;
  holdsChanged: () => void;
  /** Who took which offer changed, or may have: read the waitlist again. */
  waitlistChanged: () => void;
  slotsChanged: () => void;
  now?: () => number;
}

/** The slot of the offer, as the check and the hold take it: the type, length and new-patient flag the entries asked for. */
export function offerSelection(offer: WaitlistOffer): SlotSelection {
  return {
    providerId: offer.slot.providerId,
    facilityId: offer.slot.facilityId,
    startsAt: offer.slot.startsAt,
    endsAt: offer.slot.endsAt,
    appointmentTypeId: offer.appointmentTypeId,
    slotLengthMinutes: offer.slotLengthMinutes,
    isNewPatient: offer.isNewPatient,
  };
}

/** Checks the offer's slot live and holds it for the entry's patient; `report` is told each step. `previous`: this offer's state before, mine to try again after a lost answer. */
export async function holdFromOffer(offer: WaitlistOffer, entryId: string, deps: OfferHoldDeps, report: (state: OfferHoldState) => void, previous: OfferHoldState | null = null): Promise<void> {
  const mayBeYours = previous?.kind === "failed" && previous.outcomeUnknown && previous.entryId === entryId;
  const now = deps.now ?? Date.now;
  const selection = offerSelection(offer);
  report({ kind: "checking", entryId });
  let check: SlotCheckResponse;
  try {
    check = await deps.check(selection);
  } catch (error) {
    report({ kind: "failed", entryId, step: "check", error, outcomeUnknown: false });
    return;
  }
  if (!check.available) {
    report(check.heldByYou ? { kind: "alreadyHeld", entryId } : { kind: "gone", entryId, mayBeYours });
    deps.waitlistChanged();
    deps.slotsChanged();
    return;
  }
  const liveRead = { serviceMs: Date.parse(check.meta.sourceSyncedAt), localMs: now() };
  report({ kind: "holding", entryId });
  const sentAtMs = now();
  let held: HoldResponse;
  try {
    held = await deps.hold({ ...selection, fromWaitlist: { offerId: offer.id, entryId } });
  } catch (error) {
    if (deps.isConflict(error)) {
      report({ kind: "gone", entryId, mayBeYours });
      deps.slotsChanged();
    } else if (deps.isAlreadyHeld(error)) {
      report({ kind: "alreadyHeld", entryId });
      deps.holdsChanged();
    } else if (deps.isHoldLimit(error)) {
      report({ kind: "basketFull", entryId });
    } else {
      const taken = deps.takenMessage(error);
      if (taken !== null) report({ kind: "taken", entryId, message: taken });
      else {
        const outcomeUnknown = deps.isOutcomeUnknown(error);
        if (outcomeUnknown) deps.holdsChanged();
        report({ kind: "failed", entryId, step: "hold", error, outcomeUnknown });
      }
    }
    deps.waitlistChanged();
    return;
  }
  report({ kind: "held", entryId });
  // The slot list is not read again: it marks the slot held from the holds (as a hold from the list does).
  deps.onHeld({ response: held, deadlineMs: holdDeadlineMs(held.hold, sentAtMs), liveRead });
  deps.waitlistChanged();
}
