import type { HeldSlot } from "#contract/app-api/slots.ts";
import { STANDALONE_BOOKING_REASON } from "#src/bridge/standalone-link.ts";
import type { SelectionState } from "#src/scheduling/slot-selection-flow.ts";
import type { HoldOutcome } from "#src/scheduling/held-slots-controller.ts";

// What the holds bar shows, derived from the holds and the patient open in
// the EHR: whether it shows at all, who each hold is for, why one cannot be
// booked, and which holds of a patient no longer open still need an answer.

/** Held for a patient, and not the one open in the EHR now. */
export function isHeldForOtherPatient(held: Pick<HeldSlot, "patientId">, openPatientId: string | null): boolean {
  return held.patientId !== null && held.patientId !== openPatientId;
}

/** "for Alvarez, Maria": who the hold is for, as the card and the booked notice say it. */
export function heldForText(held: Pick<HeldSlot, "patientId">, openPatientId: string | null, openPatientName: string | null): string {
  if (isHeldForOtherPatient(held, openPatientId)) return "for the patient open before";
  if (held.patientId === null && openPatientId === null) return "with no patient open";
  return openPatientName ? `for ${openPatientName}` : "for this patient";
}

/** Why Book in EHR is off for this hold, or null when it can be booked. */
export function cannotBookReason(held: Pick<HeldSlot, "patientId">, { isStandalone, openPatientId }: { isStandalone: boolean; openPatientId: string | null }): string | null {
  if (isStandalone) return STANDALONE_BOOKING_REASON;
  if (isHeldForOtherPatient(held, openPatientId)) return "Held for the patient who was open before: open that patient in the EHR to book it, or release it.";
  if (openPatientId === null) return "No patient is open in the EHR: open the patient there to book.";
  return null;
}

/** Holds of a patient no longer open that the user has not yet chosen to keep. */
export function unconfirmedHolds<T extends Pick<HeldSlot, "id" | "patientId">>(holds: readonly T[], openPatientId: string | null, kept: ReadonlySet<string>): T[] {
  return holds.filter((held) => isHeldForOtherPatient(held, openPatientId) && !kept.has(held.id));
}

interface HoldsBarInput {
  canHold: boolean;
  holdCount: number;
  outcome: HoldOutcome | null;
  selection: Pick<SelectionState, "kind">;
  holdsError: unknown;
}

/** The bar takes no room while there is nothing to show: no hold, outcome, slot being chosen or error. */
export function isHoldsBarShown({ canHold, holdCount, outcome, selection, holdsError }: HoldsBarInput): boolean {
  if (!canHold) return false;
  return holdCount > 0 || outcome !== null || selection.kind !== "idle" || Boolean(holdsError);
}
