import type { HeldSlot } from "#contract/app-api/slots.ts";
import { isolateText } from "#src/lib/bidi.ts";

// Who a hold is for, as the holds bar and the slot list both say it: the
// patient open in the EHR when it was made, named as the EHR named them then
// when the BFF could read it.

/** A hold's patient, and the name kept with it. */
export type HeldFor = Pick<HeldSlot, "patientId"> & { patientName?: string | null };

/** Held for a patient, and not the one open in the EHR now. */
export function isHeldForOtherPatient(held: Pick<HeldSlot, "patientId">, openPatientId: string | null): boolean {
  return held.patientId !== null && held.patientId !== openPatientId;
}

/** The name kept with the hold, isolated for a sentence, or null. */
export const keptPatientName = (held: HeldFor): string | null => (held.patientName ? isolateText(held.patientName) : null);
