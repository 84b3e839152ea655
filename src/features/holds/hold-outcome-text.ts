import type { MaybeHeldSlot } from "#contract/app-api/slots.ts";
import type { SelectionState } from "#src/scheduling/slot-selection-flow.ts";
import type { SlotDescriber } from "#src/scheduling/use-slot-describer.ts";

// What Tandem says of a hold whose outcome it does not know (issue 35 item
// 4): the EHR may have made it, so it is the user's until it frees itself.
// "Nothing is held" is said only of a hold refused before it reached the EHR.

type Describer = Pick<SlotDescriber, "phrase" | "timeAt">;

/** "10:42 AM EST": when a hold the EHR may have made frees itself at the latest, in its facility's zone. */
export const freesAtText = (maybeHeld: Pick<MaybeHeldSlot, "freesAt" | "slot">, describe: Pick<SlotDescriber, "timeAt">) => describe.timeAt(Date.parse(maybeHeld.freesAt), maybeHeld.slot.facilityId);

/** The live check or the hold found the slot taken, and the user's own earlier attempt on it may be what took it. */
export function mayAlreadyHoldText(phrase: string, freesAt: string): string {
  return `${phrase} is not free, and the EHR may be holding it for you: it did not confirm your earlier hold of it. It frees itself by ${freesAt} at the latest; it is listed below as not confirmed.`;
}

/** What a failed check or hold left behind. */
export function selectionFailureText(state: Extract<SelectionState, { kind: "failed" }>, describe: Describer): string {
  const phrase = describe.phrase(state.slot);
  if (!state.outcomeUnknown) return `${state.step === "check" ? "Could not check" : "Could not hold"} ${phrase}. Nothing is held.`;
  if (state.maybeHeld === null) return `Tandem's server did not answer while holding ${phrase}, so whether the EHR held it is unknown: if it did, it is listed below as not confirmed once Tandem's server is back.`;
  return `The EHR may have held ${phrase} for you: its answer did not reach Tandem. It is listed below as not confirmed, and frees itself by ${freesAtText(state.maybeHeld, describe)} at the latest.`;
}

/** A card's line under a hold the EHR may have made. */
export function maybeHeldText(freesAt: string): string {
  return `Not confirmed: the EHR may have held this slot for you (its answer did not reach Tandem). It frees itself by ${freesAt} at the latest.`;
}

/** After Let it go, when Tandem never learnt the EHR's id for the hold. */
export function nothingToReleaseText(freesAt: string): string {
  return `Nothing to release: the EHR never told Tandem this hold's id. If it was made, it frees itself by ${freesAt} at the latest.`;
}

/** Over the holds the EHR may have made: "The EHR may be holding 1 slot for you that it did not confirm". */
export function maybeHeldHeading(count: number): string {
  return `The EHR may be holding ${count === 1 ? "1 slot" : `${count} slots`} for you that it did not confirm`;
}
