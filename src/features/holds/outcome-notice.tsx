import { useEffect, useRef } from "react";
import type { HeldSlot } from "#contract/app-api/slots.ts";
import { Button } from "#src/components/ui/button.tsx";
import { CheckIcon } from "#src/components/ui/icons.tsx";
import type { SlotDescriber } from "#src/scheduling/use-slot-describer.ts";
import { HeldAs } from "./held-slot-card.tsx";
import type { HoldOutcome } from "#src/scheduling/held-slots-controller.ts";
import { releasedAfterBookingText } from "./holds-text.ts";
import { useSearchAgain } from "./use-search-again.ts";

// Every hold that ended, until dismissed (issue 36 item 3): each booking in
// the EHR on its own, the holds that expired in one notice (with a way back to
// the search), the holds released in one line, and those another tab of the
// user's booked or released in another. Three holds
// expiring together are three slots named in one notice, not one announced
// and two vanished.

interface OutcomeNoticesProps {
  outcomes: readonly HoldOutcome[];
  describe: SlotDescriber;
  /** Who a hold was for ("for Alvarez, Maria"). */
  patientTextOf: (held: HeldSlot) => string;
  /** Puts away the outcomes of these holds. */
  onDismiss: (holdIds: readonly string[]) => void;
}

type OutcomeOf<K extends HoldOutcome["kind"]> = Extract<HoldOutcome, { kind: K }>;

const isKind =
  <K extends HoldOutcome["kind"]>(kind: K) =>
  (outcome: HoldOutcome): outcome is OutcomeOf<K> =>
    outcome.kind === kind;

export function OutcomeNotices({ outcomes, describe, patientTextOf, onDismiss }: OutcomeNoticesProps) {
  const booked = outcomes.filter(isKind("booked"));
  const expired = outcomes.filter(isKind("expired")).map((outcome) => outcome.held);
  const released = outcomes.filter(isKind("released")).map((outcome) => outcome.held);
  const endedElsewhere = outcomes.filter(isKind("endedElsewhere")).map((outcome) => outcome.held);
  const idsOf = (holds: readonly HeldSlot[]) => holds.map((held) => held.id);
  return (
    <>
      {booked.map((outcome) => (
        <BookedNotice key={outcome.held.id} outcome={outcome} describe={describe} patientText={patientTextOf(outcome.held)} onDismiss={() => onDismiss([outcome.held.id])} />
      ))}
      {expired.length > 0 ? <ExpiredNotice holds={expired} describe={describe} onDismiss={() => onDismiss(idsOf(expired))} /> : null}
      {released.length > 0 ? <ReleasedNotice holds={released} describe={describe} onDismiss={() => onDismiss(idsOf(released))} /> : null}
      {endedElsewhere.length > 0 ? <EndedElsewhereNotice holds={endedElsewhere} describe={describe} onDismiss={() => onDismiss(idsOf(endedElsewhere))} /> : null}
    </>
  );
}

/** "10:00 AM EST with …", or a list of them: the slots of the holds one notice is about. */
function SlotPhrases({ holds, describe }: { holds: readonly HeldSlot[]; describe: SlotDescriber }) {
  const [only] = holds;
  if (holds.length === 1 && only) return <>{describe.phrase(only.slot)}</>;
  return (
    <ul className="list-disc pl-5">
      {holds.map((held) => (
        <li key={held.id}>{describe.phrase(held.slot)}</li>
      ))}
    </ul>
  );
}

/** Holds that ended, listed after a lead that says how: one slot's phrase ends with a full stop, several follow a colon. */
function EndedHoldsNotice({ lead, holds, describe, onDismiss }: { lead: string; holds: readonly HeldSlot[]; describe: SlotDescriber; onDismiss: () => void }) {
  return (
    <div role="status" className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-300 bg-white p-2">
      <div className="text-sm">
        {lead}
        <SlotPhrases holds={holds} describe={describe} />
        {holds.length === 1 ? "." : null}
      </div>
      <Button variant="ghost" onClick={onDismiss}>
        Dismiss
      </Button>
    </div>
  );
}

function ReleasedNotice({ holds, describe, onDismiss }: { holds: readonly HeldSlot[]; describe: SlotDescriber; onDismiss: () => void }) {
  const lead = holds.length === 1 ? "Released the hold on " : `Released the holds on ${holds.length} slots:`;
  return <EndedHoldsNotice lead={lead} holds={holds} describe={describe} onDismiss={onDismiss} />;
}

/** Holds another tab or window of the user's booked or released: this page cannot say which. */
function EndedElsewhereNotice({ holds, describe, onDismiss }: { holds: readonly HeldSlot[]; describe: SlotDescriber; onDismiss: () => void }) {
  const lead = holds.length === 1 ? "No longer held (booked or released in another tab or window): " : `${holds.length} slots no longer held (booked or released in another tab or window):`;
  return <EndedHoldsNotice lead={lead} holds={holds} describe={describe} onDismiss={onDismiss} />;
}

function BookedNotice({ outcome, describe, patientText, onDismiss }: { outcome: OutcomeOf<"booked">; describe: SlotDescriber; patientText: string; onDismiss: () => void }) {
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

function ExpiredNotice({ holds, describe, onDismiss }: { holds: readonly HeldSlot[]; describe: SlotDescriber; onDismiss: () => void }) {
  const searchAgain = useSearchAgain(onDismiss);
  const isOne = holds.length === 1;
  return (
    <div data-testid="hold-panel" data-state="expired" className="rounded-lg border-2 border-amber-500 bg-white p-3">
      <div role="status">
        <h2 className="text-base font-semibold">
          <span aria-hidden="true">! </span>
          {isOne ? "The hold has expired" : `${holds.length} holds have expired`}
        </h2>
        <div className="text-sm">
          <SlotPhrases holds={holds} describe={describe} /> {isOne ? "is" : "are"} no longer held and may be taken by someone else. Search again to see what is free now.
        </div>
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
