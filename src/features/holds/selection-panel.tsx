import type { ReactNode } from "react";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { MAX_ACTIVE_HOLDS } from "#contract/app-api/slots.ts";
import { ApiError } from "#src/api/bff-client.ts";
import { ApiErrorNotice } from "#src/components/shell/api-error-notice.tsx";
import { Button } from "#src/components/ui/button.tsx";
import { Spinner } from "#src/components/ui/spinner.tsx";
import { Notice } from "#src/components/ui/notice.tsx";
import type { SelectionState } from "#src/scheduling/slot-selection-flow.ts";
import { slotLengthMinutes } from "#src/scheduling/slot-text.ts";
import type { SlotDescriber } from "#src/scheduling/use-slot-describer.ts";
import { freesAtText, mayAlreadyHoldText, selectionFailureText } from "./hold-outcome-text.ts";

// The slot being chosen, before it is held: checking live, holding, gone
// (with alternatives; named as the user's own doing when one of their holds
// overlaps it, or an earlier hold of it whose answer was lost may be theirs),
// the basket full, held by the user already, or a failure. A gone slot is a
// normal outcome told in plain words, not an error page. "Nothing is held" is
// said only when the hold was refused before it reached the EHR.

interface SelectionPanelProps {
  state: SelectionState;
  describe: SlotDescriber;
  onCancel: () => void;
  /** Choose this slot, as the chosen one was searched (a retry, an alternative). */
  onSelect: (slot: Slot) => void;
}

/** An alternative's button text: the time (with the day where it differs from the gone slot's) and always the provider. */
export function alternativeText(alternative: Slot, gone: Slot, describe: SlotDescriber): string {
  const when = describe.day(alternative) === describe.day(gone) ? describe.time(alternative) : `${describe.day(alternative)}, ${describe.time(alternative)}`;
  return `${when} · ${describe.providerName(alternative.providerId)}`;
}

/** An outcome where nothing was checked or held: said, with Dismiss. */
function OutcomeNotice({ state, tone, title, onDismiss, children }: { state: SelectionState["kind"]; tone: "info" | "warning"; title: string; onDismiss: () => void; children: ReactNode }) {
  return (
    <div data-testid="selection-panel" data-state={state} className="rounded-lg bg-white shadow-lg">
      <Notice
        tone={tone}
        title={title}
        actions={
          <Button variant="secondary" onClick={onDismiss}>
            Dismiss
          </Button>
        }
      >
        {children}
      </Notice>
    </div>
  );
}

/** "You already hold 3 slots", naming those the EHR did not confirm as the holds bar does. */
function basketFullTitle(notConfirmed: number): string {
  return notConfirmed === 0 ? `You already hold ${MAX_ACTIVE_HOLDS} slots` : `You already hold ${MAX_ACTIVE_HOLDS} slots (${notConfirmed} not confirmed)`;
}

export function SelectionPanel({ state, describe, onCancel, onSelect }: SelectionPanelProps) {
  switch (state.kind) {
    case "idle":
      return null;
    case "checking":
    case "holding":
      return (
        <div role="status" aria-busy="true" data-testid="selection-panel" data-state={state.kind} className="rounded-lg border-2 border-slate-300 bg-white p-3 shadow-lg">
          <p className="text-sm">
            <Spinner className="mr-2" />
            {state.kind === "checking" ? "Checking live in the EHR that " : "Holding "}
            <span className="font-semibold">{describe.phrase(state.slot)}</span>
            {state.kind === "checking" ? " is still free…" : "…"}
          </p>
          <div className="mt-2">
            <Button variant="secondary" onClick={onCancel}>
              Cancel
            </Button>
          </div>
        </div>
      );
    case "basketFull":
      return (
        <OutcomeNotice state="basketFull" tone="warning" title={basketFullTitle(state.notConfirmed)} onDismiss={onCancel}>
          {describe.phrase(state.slot)} was not held. {state.notConfirmed > 0 ? "A hold the EHR did not confirm counts until it frees itself. " : ""}Book or release one of the slots you hold below, then choose it again.
        </OutcomeNotice>
      );
    case "alreadyHeld":
      return (
        <OutcomeNotice state="alreadyHeld" tone="info" title="You hold this slot already" onDismiss={onCancel}>
          {describe.phrase(state.slot)} is held for you: book it in the EHR or release it below.
        </OutcomeNotice>
      );
    case "gone":
      return (
        <div data-testid="slot-gone-notice" className="rounded-lg bg-white shadow-lg">
          <Notice
            tone="warning"
            title={state.maybeOwn ? "You may already hold this slot (the EHR did not confirm)" : state.ownHold ? "Your own hold takes this time" : "That time was just taken"}
            actions={
              <Button variant="secondary" onClick={onCancel}>
                Dismiss
              </Button>
            }
          >
            {state.maybeOwn ? (
              <p>{mayAlreadyHoldText(describe.phrase(state.slot), freesAtText(state.maybeOwn, describe))}</p>
            ) : state.ownHold ? (
              <p>
                {describe.phrase(state.slot)} is not free: you hold {describe.providerName(state.ownHold.slot.providerId)} from {describe.time(state.ownHold.slot)} as{" "}
                {describe.appointmentTypeName(state.ownHold)}, {slotLengthMinutes(state.ownHold.slot)} minutes (below). Release that hold to take this time instead.
              </p>
            ) : (
              <p>{describe.phrase(state.slot)} is no longer free in the EHR, so it has been taken off the list.</p>
            )}
            {state.alternatives.length > 0 ? (
              <div className="mt-2">
                <p className="font-medium">Nearest free times:</p>
                <ul className="mt-1 flex flex-wrap gap-1.5">
                  {state.alternatives.map((slot) => (
                    <li key={`${slot.providerId}${slot.startsAt}`}>
                      <Button variant="secondary" data-testid="slot-alternative" data-starts-at={slot.startsAt} data-provider-id={slot.providerId} aria-label={describe.label(slot)} onClick={() => onSelect(slot)}>
                        {alternativeText(slot, state.slot, describe)}
                      </Button>
                    </li>
                  ))}
                </ul>
              </div>
            ) : (
              <p className="mt-1">Choose another time from the list.</p>
            )}
          </Notice>
        </div>
      );
    case "failed":
      // Tandem's server did not answer the hold, and has listed it since: saying it cannot be reached is no longer true.
      if (state.maybeHeld !== null && !(state.error instanceof ApiError)) {
        return (
          <div data-testid="selection-panel" data-state="failed" className="rounded-lg bg-white shadow-lg">
            <Notice
              tone="warning"
              title="The EHR may have held this slot for you"
              actions={
                <>
                  <Button variant="secondary" onClick={() => onSelect(state.slot)}>
                    Try again
                  </Button>
                  <Button variant="ghost" onClick={onCancel}>
                    Dismiss
                  </Button>
                </>
              }
            >
              {selectionFailureText(state, describe)}
            </Notice>
          </div>
        );
      }
      return (
        <div data-testid="selection-panel" data-state="failed" className="rounded-lg bg-white shadow-lg">
          <ApiErrorNotice error={state.error} lead={selectionFailureText(state, describe)} onRetry={() => onSelect(state.slot)} onDismiss={onCancel} />
        </div>
      );
  }
}
