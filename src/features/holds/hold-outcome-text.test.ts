import { describe, expect, it } from "vitest";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { ApiError } from "#src/api/bff-client.ts";
import { isHoldOutcomeUnknown, maybeHeldOfError } from "#src/api/holds-queries.ts";
import type { SelectionState } from "#src/scheduling/slot-selection-flow.ts";
import { MAYBE_HELD } from "./testing/maybe-held.ts";
import { maybeHeldHeading, maybeHeldText, mayAlreadyHoldText, nothingToReleaseText, selectionFailureText } from "./hold-outcome-text.ts";

// Issue 35 item 4: a hold whose answer was lost is said as "the EHR may have
// held this", with the time it frees itself at the latest; "Nothing is held"
// only when the hold was refused before it reached the EHR.

const SLOT: Slot = { ...MAYBE_HELD.slot, remainingCapacity: 1, templateIds: [] };
const describeSlot = {
  phrase: () => "10:00 AM with Dr Brooks on Tuesday 1 December",
  timeAt: (epochMs: number) => new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", timeZone: "America/New_York" }).format(epochMs),
};
const chosen = { slot: SLOT, request: { ...MAYBE_HELD.slot, appointmentTypeId: MAYBE_HELD.appointmentTypeId }, params: { appointmentTypeId: MAYBE_HELD.appointmentTypeId, isNewPatient: false } };
const failed = (over: Partial<Extract<SelectionState, { kind: "failed" }>>): Extract<SelectionState, { kind: "failed" }> => ({ kind: "failed", step: "hold", error: null, outcomeUnknown: false, maybeHeld: null, ...chosen, ...over });

describe("a failed hold", () => {
  it("says 'Nothing is held' only when the hold was refused before it reached the EHR", () => {
    expect(selectionFailureText(failed({}), describeSlot)).toBe("Could not hold 10:00 AM with Dr Brooks on Tuesday 1 December. Nothing is held.");
  });

  it("says the EHR may have held it, listed below, and by when it frees itself, when the BFF lost the answer", () => {
    const text = selectionFailureText(failed({ outcomeUnknown: true, maybeHeld: MAYBE_HELD }), describeSlot);
    expect(text).toBe("The EHR may have held 10:00 AM with Dr Brooks on Tuesday 1 December for you: its answer did not reach Tandem. It is listed below as not confirmed, and frees itself by 10:42 AM at the latest.");
  });

  it("names Tandem's server when it did not answer at all", () => {
    expect(selectionFailureText(failed({ outcomeUnknown: true }), describeSlot)).toMatch(/^Tandem's server did not answer while holding .*, so whether the EHR held it is unknown/);
  });
});

describe("the words of a hold the EHR may have made", () => {
  it("the retry of the same slot: may already hold it, and the time it frees itself", () => {
    expect(mayAlreadyHoldText("10:00 AM with Dr Brooks", "10:42 AM")).toBe(
      "10:00 AM with Dr Brooks is not free, and the EHR may be holding it for you: it did not confirm your earlier hold of it. It frees itself by 10:42 AM at the latest; it is listed below as not confirmed.",
    );
  });

  it("the card, its heading, and Let it go with nothing to release", () => {
    expect(maybeHeldHeading(1)).toBe("The EHR may be holding 1 slot for you that it did not confirm");
    expect(maybeHeldHeading(2)).toBe("The EHR may be holding 2 slots for you that it did not confirm");
    expect(maybeHeldText("10:42 AM")).toBe("Not confirmed: the EHR may have held this slot for you (its answer did not reach Tandem). It frees itself by 10:42 AM at the latest.");
    expect(nothingToReleaseText("10:42 AM")).toBe("Nothing to release: the EHR never told Tandem this hold's id. If it was made, it frees itself by 10:42 AM at the latest.");
  });
});

describe("reading the BFF's answer", () => {
  it("finds the attempt in an error whose outcome is unknown, and treats Tandem's server not answering as unknown", () => {
    const lost = new ApiError(504, { code: "upstream_timeout", message: "…", trace_id: "t", outcome: "unknown", maybe_held: MAYBE_HELD });
    expect(maybeHeldOfError(lost)).toEqual(MAYBE_HELD);
    expect(isHoldOutcomeUnknown(lost)).toBe(true);
    expect(isHoldOutcomeUnknown(new TypeError("Failed to fetch"))).toBe(true);
    const refused = new ApiError(503, { code: "store_unavailable", message: "…", trace_id: "t" });
    expect(maybeHeldOfError(refused)).toBeNull();
    expect(isHoldOutcomeUnknown(refused)).toBe(false);
  });
});
