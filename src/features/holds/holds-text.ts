// The holds bar's counted sentences, in one place so singular and plural stay in step.

/** "1 slot", "3 slots". */
export function slotCountText(count: number): string {
  return count === 1 ? "1 slot" : `${count} slots`;
}

/** The Release button of the patient-changed notice: "Release it", "Release them". */
export function releaseUnconfirmedLabel(count: number): string {
  return `Release ${count === 1 ? "it" : "them"}`;
}

/** The patient-changed notice's body for `count` holds of the patient open before, named when their name was kept with the holds (`patientName`). */
export function patientChangedText(count: number, patientName: string | null = null): string {
  const whom = patientName ? `${patientName}, who was open before` : "the patient who was open before";
  return `You hold ${count === 1 ? "a slot" : `${count} slots`} for ${whom}. Release ${count === 1 ? "it" : "them"}, or keep holding while you come back to that patient.`;
}

/** After booking: "The hold was released, and so was the other slot held for this patient." */
export function releasedAfterBookingText(releasedOthers: number): string {
  const others = releasedOthers === 0 ? "" : `, and so ${releasedOthers === 1 ? "was the other slot" : `were the ${releasedOthers} other slots`} held for this patient`;
  return `The hold was released${others}.`;
}

/** Beside "You are holding 2 slots" when folded: "1 more not confirmed" (holds the EHR may have made). */
export function moreNotConfirmedText(count: number): string {
  return `${count} more not confirmed`;
}

/** The folded line when the EHR confirmed none of the user's holds: "You may be holding 1 slot · not confirmed". */
export function onlyNotConfirmedText(count: number): string {
  return `You may be holding ${slotCountText(count)} · not confirmed`;
}
