import { useEffect, useRef } from "react";
import type { HeldSlot } from "#contract/app-api/slots.ts";
import { Button } from "#src/components/ui/button.tsx";
import { CheckIcon } from "#src/components/ui/icons.tsx";
import type { SlotDescriber } from "#src/scheduling/use-slot-describer.ts";
import { HeldAs } from "./held-slot-card.tsx";
import type { HoldOutcome } from "#src/scheduling/held-slots-controller.ts";
import { releasedAfterBookingText } from "./holds-text.ts";
import { useSearchAgain } from "./use-search-again.ts";

// The latest thing that happened to a hold, until dismissed: booked in the
// EHR, expired (with a way back to the search), or released.

interface OutcomeNoticeProps {
  outcome: HoldOutcome;
  describe: SlotDescriber;
  /** Who the hold was for ("for Alvarez, Maria"). */
  patientText: string;
  onDismiss: () => void;
}

export function OutcomeNotice({ outcome, describe, patientText, onDismiss }: OutcomeNoticeProps) {
  switch (outcome.kind) {
    case "booked":
      return <BookedNotice outcome={outcome} describe={describe} patientText={patientText} onDismiss={onDismiss} />;
    case "expired":
      return <ExpiredNotice held={outcome.held} describe={describe} onDismiss={onDismiss} />;
    case "released":
      return (
        <div role="status" className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-300 bg-white p-2">
          <p className="text-sm">Released the hold on {describe.phrase(outcome.held.slot)}.</p>
          <Button variant="ghost" onClick={onDismiss}>
            Dismiss
          </Button>
        </div>
      );
  }
}

function BookedNotice({ outcome, describe, patientText, onDismiss }: OutcomeNoticeProps & { outcome: Extract<HoldOutcome, { kind: "booked" }> }) {
  const ref = useRef<HTMLDivElement>(null);
  // Focus moves to the confirmation (not to the page body), so the next key press starts from it.
  useEffect(() => ref.current?.focus(), [outcome]);
  const { held, appointment, releasedOthers } = outcome;
  return (
    <div ref={ref} tabIndex={-1} data-testid="hold-panel" data-state="booked" className="rounded-lg border-2 border-brand-700 bg-white p-3 outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
      <div role="status">
        <h2 className="text-base font-semibold">
          <CheckIcon className="mr-1 h-[1em] w-[1em]" />
          Booked in the EHR
        </h2>
        <p className="text-sm">
          <HeldAs held={held} describe={describe} /> <span data-testid="booked-for">{patientText}</span>
          <br />
          <span className="font-semibold">{describe.phrase(held.slot)}</span>
          <span className="text-slate-700"> · {describe.facilityName(held.slot.facilityId)}</span>
        </p>
        <p data-testid="booked-reference" className="text-sm">
          {appointment.reference ? (
            <>
              EHR appointment <span className="font-semibold">{appointment.reference}</span>.
            </>
          ) : (
            "The EHR has the appointment."
          )}{" "}
          {releasedAfterBookingText(releasedOthers.length)}
        </p>
      </div>
      <div className="mt-2">
        <Button variant="secondary" onClick={onDismiss}>
          Done
        </Button>
      </div>
    </div>
  );
}

function ExpiredNotice({ held, describe, onDismiss }: { held: HeldSlot; describe: SlotDescriber; onDismiss: () => void }) {
  const searchAgain = useSearchAgain(onDismiss);
  return (
    <div data-testid="hold-panel" data-state="expired" className="rounded-lg border-2 border-amber-500 bg-white p-3">
      <div role="status">
        <h2 className="text-base font-semibold">
          <span aria-hidden="true">! </span>The hold has expired
        </h2>
        <p className="text-sm">{describe.phrase(held.slot)} is no longer held and may be taken by someone else. Search again to see what is free now.</p>
      </div>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button data-testid="search-again" onClick={searchAgain}>
          Search again
        </Button>
        <Button variant="secondary" onClick={onDismiss}>
          Dismiss
        </Button>
      </div>
    </div>
  );
}
