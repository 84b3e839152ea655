import type { HeldSlot } from "#contract/app-api/slots.ts";
import { STANDALONE_BOOKING_REASON } from "#src/bridge/standalone-link.ts";
import { isHeldForOtherPatient, keptPatientName, type HeldFor } from "#src/scheduling/held-for.ts";
import type { SelectionState } from "#src/scheduling/slot-selection-flow.ts";

// What the holds bar shows, derived from the holds and the patient open in
// the EHR: whether it shows at all, who each hold is for, why one cannot be
// booked, and which holds of a patient no longer open still need an answer.

/** "for Alvarez, Maria": who the hold is for, as the card and the booked notice say it; a hold kept for a patient no longer open names them. */
export function heldForText(held: HeldFor, openPatientId: string | null, openPatientName: string | null): string {
  if (isHeldForOtherPatient(held, openPatientId)) {
    const name = keptPatientName(held);
    return name ? `for ${name} (the patient open before)` : "for the patient open before";
  }
  if (held.patientId === null && openPatientId === null) return "with no patient open";
  const name = openPatientName ?? keptPatientName(held);
  return name ? `for ${name}` : "for this patient";
}

/** Why Book in EHR is off for this hold, or null when it can be booked. */
export function cannotBookReason(held: HeldFor, { isStandalone, openPatientId }: { isStandalone: boolean; openPatientId: string | null }): string | null {
  if (isStandalone) return STANDALONE_BOOKING_REASON;
  if (isHeldForOtherPatient(held, openPatientId)) {
    const name = keptPatientName(held);
    return name ? `Held for ${name}, the patient who was open before: open them in the EHR to book it, or release it.` : "Held for the patient who was open before: open that patient in the EHR to book it, or release it.";
  }
  if (openPatientId === null) return "No patient is open in the EHR: open the patient there to book.";
  return null;
}

/** The one patient these holds are for, named (isolated for a sentence), or null: several patients, or no name kept. */
export function onePatientNameOf(holds: readonly HeldFor[]): string | null {
  const [first] = holds;
  if (!first || holds.some((held) => held.patientId !== first.patientId)) return null;
  return keptPatientName(first);
}

/** Holds of a patient no longer open that the user has not yet chosen to keep. */
export function unconfirmedHolds<T extends Pick<HeldSlot, "id" | "patientId">>(holds: readonly T[], openPatientId: string | null, kept: ReadonlySet<string>): T[] {
  return holds.filter((held) => isHeldForOtherPatient(held, openPatientId) && !kept.has(held.id));
}

interface HoldsBarInput {
  canHold: boolean;
  holdCount: number;
  /** How many outcomes (booked, expired, released) are still shown. */
  outcomeCount: number;
  selection: Pick<SelectionState, "kind">;
  holdsError: unknown;
}

/** The bar takes no room while there is nothing to show: no hold, outcome, slot being chosen or error. */
export function isHoldsBarShown({ canHold, holdCount, outcomeCount, selection, holdsError }: HoldsBarInput): boolean {
  if (!canHold) return false;
  return holdCount > 0 || outcomeCount > 0 || selection.kind !== "idle" || Boolean(holdsError);
}
