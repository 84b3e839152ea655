import { createHold, isAlreadyHeld, isHoldLimit, isHoldOutcomeUnknown, isSlotConflict } from "#src/api/holds-queries.ts";
import { checkSlot } from "#src/api/slots-queries.ts";
import type { HoldCalls } from "./slot-selection-flow.ts";

/** The BFF's strong check and hold, with what their refusals mean: every way of holding a slot (the slot list, a waitlist offer) wires these. */
export const holdCalls: HoldCalls = {
  check: checkSlot,
  hold: createHold,
  isConflict: isSlotConflict,
  isHoldLimit,
  isAlreadyHeld,
  isOutcomeUnknown: isHoldOutcomeUnknown,
};
