import { useEffect, useRef } from "react";
import type { HeldSlot } from "../../../contract/app-api/slots.ts";
import { useBridge } from "../../bridge/bridge-provider.tsx";
import { ApiErrorNotice } from "../../components/shell/api-error-notice.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { useSlotDescriber, type SlotDescriber } from "../slots/use-slot-describer.ts";
import { HeldAs, HeldSlotCard } from "./held-slot-card.tsx";
import type { HoldOutcome } from "./held-slots-controller.ts";
import { cannotBookReason, heldForText, isHoldsBarShown } from "./holds-bar-model.ts";
import { useHolds } from "./holds-provider.tsx";
import { patientChangedText, releasedAfterBookingText, releaseUnconfirmedLabel, slotCountText } from "./holds-text.ts";
import { SelectionPanel } from "./selection-panel.tsx";
import { useFold } from "./use-fold.ts";
import { useOpenPatientName } from "./use-open-patient-name.ts";
import { useSearchAgain } from "./use-search-again.ts";
import { useUnconfirmedHolds } from "./use-unconfirmed-holds.ts";
import { CheckIcon } from "../../components/ui/icons.tsx";

// "You are holding …": the user's holds at the foot of every view, with the
// slot being chosen above them and the latest outcome (booked, expired,
// released). Holds made for a patient who is no longer open in the EHR are
// kept until the user says what to do with them.

export function HoldsBar() {
  const { canHold, holds, holdsError, refetchHolds, controller, activity, flow, selection, select } = useHolds();
  const { bridge, context } = useBridge();
  const { describe } = useSlotDescriber();
  const openPatientId = context.patientId ?? null;
  const openPatientName = useOpenPatientName(openPatientId);
  const { unconfirmed, keepHolding } = useUnconfirmedHolds(holds, openPatientId);
  const { isFolded, toggleFold } = useFold(holds.length);

  if (!isHoldsBarShown({ canHold, holdCount: holds.length, outcome: activity.outcome, selection, holdsError })) return null;

  const patientText = (held: HeldSlot) => heldForText(held, openPatientId, openPatientName);
  const bookingContext = { isStandalone: bridge.mode === "standalone", openPatientId };

  return (
    <section data-testid="holds-bar" aria-label="Your holds" className="sticky bottom-0 z-20 space-y-2 border-t border-slate-200 bg-slate-50/95 p-2 shadow-[0_-4px_12px_rgba(15,23,42,0.08)] backdrop-blur">
      <div className="mx-auto max-h-[55vh] max-w-6xl space-y-2 overflow-y-auto">
        <SelectionPanel state={selection} describe={describe} onCancel={() => flow.cancel()} onSelect={(slot) => selection.kind !== "idle" && select(slot, selection.params)} />
        {activity.outcome ? <OutcomeNotice outcome={activity.outcome} describe={describe} patientText={patientText(activity.outcome.held)} onDismiss={() => controller.dismissOutcome()} /> : null}
        {holdsError && holds.length === 0 ? <ApiErrorNotice error={holdsError} onRetry={refetchHolds} /> : null}
        {unconfirmed.length > 0 ? (
          <Notice
            tone="warning"
            title="The patient changed in the EHR"
            actions={
              <>
                <Button variant="secondary" onClick={() => void controller.releaseAll(unconfirmed)}>
                  {releaseUnconfirmedLabel(unconfirmed.length)}
                </Button>
                <Button variant="ghost" onClick={keepHolding}>
                  Keep holding
                </Button>
              </>
            }
          >
            {patientChangedText(unconfirmed.length)}
          </Notice>
        ) : null}
        {holds.length > 0 ? (
          <div>
            <div className="flex items-start justify-between gap-2 px-1">
              <h2 className="text-sm font-semibold">
                <CheckIcon className="mr-1 h-[1em] w-[1em]" />You are holding {slotCountText(holds.length)}
                {holds.length > 1 && !isFolded ? <span className="font-normal text-slate-700"> · booking one releases the others held for the same patient</span> : null}
              </h2>
              <Button
                variant="ghost"
                aria-expanded={!isFolded}
                aria-controls="held-slots-list"
                onClick={toggleFold}
              >
                {isFolded ? "Show" : "Hide"}
              </Button>
            </div>
            <ul id="held-slots-list" hidden={isFolded} className="mt-1 space-y-2">
              {holds.map((held) => (
                <HeldSlotCard
                  key={held.id}
                  held={held}
                  describe={describe}
                  patientText={patientText(held)}
                  deadlineMs={controller.deadlineOf(held)}
                  isBooking={activity.booking.has(held.id)}
                  notice={activity.notices.get(held.id) ?? null}
                  cannotBookReason={cannotBookReason(held, bookingContext)}
                  onBook={() => void controller.book(held, openPatientId, holds)}
                  onRelease={() => void controller.release(held)}
                  onExpired={() => controller.expire(held)}
                />
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    </section>
  );
}

function OutcomeNotice({ outcome, describe, patientText, onDismiss }: { outcome: HoldOutcome; describe: SlotDescriber; patientText: string; onDismiss: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const searchAgain = useSearchAgain(onDismiss);
  // After booking, focus moves to the confirmation (not to the page body), so the next key press starts from it.
  useEffect(() => {
    if (outcome.kind === "booked") ref.current?.focus();
  }, [outcome]);
  const { held } = outcome;
  const dismiss = (
    <Button variant="secondary" onClick={onDismiss}>
      {outcome.kind === "booked" ? "Done" : "Dismiss"}
    </Button>
  );
  switch (outcome.kind) {
    case "booked":
      return (
        <div ref={ref} tabIndex={-1} data-testid="hold-panel" data-state="booked" className="rounded-lg border-2 border-brand-700 bg-white p-3 outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
          <div role="status">
            <h2 className="text-base font-semibold">
              <CheckIcon className="mr-1 h-[1em] w-[1em]" />Booked in the EHR
            </h2>
            <p className="text-sm">
              <HeldAs held={held} describe={describe} /> <span data-testid="booked-for">{patientText}</span>
              <br />
              <span className="font-semibold">{describe.phrase(held.slot)}</span>
              <span className="text-slate-700"> · {describe.facilityName(held.slot.facilityId)}</span>
            </p>
            <p data-testid="booked-reference" className="text-sm">
              {outcome.appointment.reference ? (
                <>
                  EHR appointment <span className="font-semibold">{outcome.appointment.reference}</span>.
                </>
              ) : (
                "The EHR has the appointment."
              )}{" "}
              {releasedAfterBookingText(outcome.releasedOthers.length)}
            </p>
          </div>
          <div className="mt-2">{dismiss}</div>
        </div>
      );
    case "expired":
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
            {dismiss}
          </div>
        </div>
      );
    case "released":
      return (
        <div role="status" className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-300 bg-white p-2">
          <p className="text-sm">Released the hold on {describe.phrase(held.slot)}.</p>
          <Button variant="ghost" onClick={onDismiss}>
            Dismiss
          </Button>
        </div>
      );
  }
}
