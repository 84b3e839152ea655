import type { HeldSlot } from "#contract/app-api/slots.ts";
import { useBridge } from "#src/bridge/bridge-provider.tsx";
import { ApiErrorNotice } from "#src/components/shell/api-error-notice.tsx";
import { useSlotDescriber } from "#src/scheduling/use-slot-describer.ts";
import { HeldSlotCard } from "./held-slot-card.tsx";
import { HeldSlotsList } from "./held-slots-list.tsx";
import { cannotBookReason, heldForText, isHoldsBarShown, onePatientNameOf } from "./holds-bar-model.ts";
import { useHolds } from "#src/scheduling/holds-provider.tsx";
import { MaybeHeldSlotCard } from "./maybe-held-slot-card.tsx";
import { OutcomeNotices } from "./outcome-notice.tsx";
import { PatientChangedNotice } from "./patient-changed-notice.tsx";
import { SelectionPanel } from "./selection-panel.tsx";
import { useFold } from "./use-fold.ts";
import { useOpenPatientName } from "./use-open-patient-name.ts";
import { useUnconfirmedHolds } from "./use-unconfirmed-holds.ts";

// "You are holding …": the user's holds at the foot of every view, with the
// slot being chosen above them and the latest outcome (booked, expired,
// released). Holds made for a patient who is no longer open in the EHR are
// kept until the user says what to do with them. What it shows is derived in
// holds-bar-model.ts; its state and parts are hooks and components of their
// own, wired here.

export function HoldsBar() {
  const { canHold, holds, maybeHeld, letGo, holdsError, refetchHolds, controller, activity, flow, selection, select } = useHolds();
  const { bridge, context } = useBridge();
  const { describe } = useSlotDescriber();
  const openPatientId = context.patientId ?? null;
  const openPatientName = useOpenPatientName(openPatientId);
  const { unconfirmed, keepHolding } = useUnconfirmedHolds(holds, openPatientId);
  const { isFolded, toggleFold } = useFold(holds.length + maybeHeld.length);

  if (!isHoldsBarShown({ canHold, holdCount: holds.length + maybeHeld.length, outcomeCount: activity.outcomes.length, selection, holdsError })) return null;

  const patientText = (held: Pick<HeldSlot, "patientId">) => heldForText(held, openPatientId, openPatientName);
  const bookingContext = { isStandalone: bridge.mode === "standalone", openPatientId };

  return (
    <section data-testid="holds-bar" aria-label="Your holds" className="sticky bottom-0 z-20 space-y-2 border-t border-slate-200 bg-slate-50/95 p-2 shadow-[0_-4px_12px_rgba(15,23,42,0.08)] backdrop-blur">
      <div className="mx-auto max-h-[55vh] max-w-6xl space-y-2 overflow-y-auto">
        <SelectionPanel state={selection} describe={describe} onCancel={() => flow.cancel()} onSelect={(slot) => selection.kind !== "idle" && select(slot, selection.params)} />
        <OutcomeNotices outcomes={activity.outcomes} describe={describe} patientTextOf={patientText} onDismiss={(ids) => controller.dismissOutcomes(ids)} />
        {holdsError && holds.length === 0 ? <ApiErrorNotice error={holdsError} onRetry={refetchHolds} lead="Your holds could not be read." /> : null}
        {unconfirmed.length > 0 ? <PatientChangedNotice count={unconfirmed.length} patientName={onePatientNameOf(unconfirmed)} onRelease={() => void controller.releaseAll(unconfirmed)} onKeep={keepHolding} /> : null}
        {holds.length + maybeHeld.length > 0 ? (
          <HeldSlotsList
            heldCount={holds.length}
            maybeHeldCount={maybeHeld.length}
            isFolded={isFolded}
            onToggleFold={toggleFold}
            held={holds.map((held) => (
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
            maybeHeld={maybeHeld.map((attempt) => (
              <MaybeHeldSlotCard key={attempt.id} maybeHeld={attempt} describe={describe} patientText={patientText(attempt)} onLetGo={() => letGo(attempt)} onFreed={refetchHolds} />
            ))}
          />
        ) : null}
      </div>
    </section>
  );
}
