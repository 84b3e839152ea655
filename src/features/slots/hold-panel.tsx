import { useEffect, useState } from "react";
import type { SlotSelection } from "../../../contract/app-api/slots.ts";
import type { Slot } from "../../../contract/clinic-api/schedule.ts";
import { ApiErrorNotice, describeApiError } from "../../components/shell/api-error-notice.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Notice } from "../../components/ui/notice.tsx";
import { formatCountdown, holdAnnouncement, holdStage } from "./hold-countdown.ts";
import type { SelectionState } from "./slot-selection-flow.ts";
import { slotLengthMinutes } from "./slot-text.ts";

// What happens to the chosen slot: checking, held (with the countdown and
// "Book in EHR"), booked, gone (with alternatives), expired. A gone slot is
// a normal outcome told in plain words, not an error page.

export interface SlotDescriber {
  /** "10:00 EST with Dr Brooks on Tuesday 1 December". */
  phrase: (slot: Slot) => string;
  /** "10:20 EST": the time in the facility's zone, the zone always named. */
  time: (slot: Slot) => string;
  /** The full accessible name, as in the list. */
  label: (slot: Slot) => string;
  /** "Thu 19 Nov": the slot's local day in its facility's zone. */
  day: (slot: Slot) => string;
  providerName: (providerId: string) => string;
  facilityName: (facilityId: string) => string;
  /** "New Patient Visit (new patient)": the appointment type the hold carries. */
  appointmentTypeName: (request: SlotSelection) => string;
}

interface HoldPanelProps {
  state: SelectionState;
  describe: SlotDescriber;
  hasPatient: boolean;
  /** Outside the EHR there is nothing to book in: why, shown instead of "Book in EHR". */
  bookingUnavailableReason?: string | null;
  onBook: () => void;
  onCancel: () => void;
  onRetry: (slot: Slot) => void;
  onSelectAlternative: (slot: Slot) => void;
  onSearchAgain: () => void;
  onTick: () => void;
}

/** An alternative's button text: the time, with the day and the provider wherever they differ from the gone slot's. */
function alternativeText(alternative: Slot, gone: Slot, describe: SlotDescriber): string {
  const parts = [describe.day(alternative) === describe.day(gone) ? describe.time(alternative) : `${describe.day(alternative)}, ${describe.time(alternative)}`];
  if (alternative.providerId !== gone.providerId) parts.push(describe.providerName(alternative.providerId));
  return parts.join(" · ");
}

/** The time now, updated every second while mounted. */
function useSecondTick(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function HoldCountdown({ deadlineMs, phrase, onTick }: { deadlineMs: number; phrase: string; onTick: () => void }) {
  const now = useSecondTick();
  const msLeft = deadlineMs - now;
  useEffect(() => {
    if (msLeft <= 0) onTick();
  }, [msLeft, onTick]);
  const stage = holdStage(msLeft);
  return (
    <>
      <p className="text-sm">
        Hold expires in{" "}
        <time data-testid="hold-countdown" dateTime={`PT${Math.max(0, Math.ceil(msLeft / 1000))}S`} className={`font-semibold tabular-nums ${stage === "lastMinute" ? "text-red-800" : ""}`}>
          {formatCountdown(msLeft)}
        </time>
        {stage === "lastMinute" ? <span className="ml-1 font-medium text-red-800">(less than a minute)</span> : null}
      </p>
      {/* Polite, and changing only at one minute left and at expiry: never every second. */}
      <p aria-live="polite" aria-atomic="true" className="sr-only">
        {holdAnnouncement(stage, phrase)}
      </p>
    </>
  );
}

/** The slot and what it is held or booked as: the type, length and new-patient flag of the list it came from. */
function SlotSummary({ slot, request, describe }: { slot: Slot; request: SlotSelection; describe: SlotDescriber }) {
  return (
    <p className="text-sm">
      <span data-testid="held-appointment-type" className="font-semibold">
        {describe.appointmentTypeName(request)}, {slotLengthMinutes(slot)} minutes
      </span>
      <br />
      <span className="font-semibold">{describe.phrase(slot)}</span>
      <span className="text-slate-700"> · {describe.facilityName(slot.facilityId)}</span>
    </p>
  );
}

const panelClass = "rounded-lg border-2 bg-white p-3 shadow-lg";

export function HoldPanel({ state, describe, hasPatient, bookingUnavailableReason = null, onBook, onCancel, onRetry, onSelectAlternative, onSearchAgain, onTick }: HoldPanelProps) {
  switch (state.kind) {
    case "idle":
      return null;
    case "checking":
    case "holding":
      return (
        <div role="status" aria-busy="true" className={`${panelClass} border-slate-300`}>
          <p className="text-sm">
            <span aria-hidden="true" className="mr-2 inline-block h-3 w-3 animate-spin rounded-full border-2 border-slate-400 border-t-transparent align-middle" />
            {state.kind === "checking" ? "Checking live in the EHR that " : "Holding "}
            <span className="font-semibold">{describe.phrase(state.slot)}</span>
            {state.kind === "checking" ? " is still free…" : " for this patient…"}
          </p>
          <div className="mt-2">
            <Button variant="secondary" onClick={onCancel}>
              Cancel
            </Button>
          </div>
        </div>
      );
    case "held":
    case "booking": {
      const isBooking = state.kind === "booking";
      const notice = state.kind === "held" ? state.notice : null;
      return (
        <section data-testid="hold-panel" data-state={state.kind} aria-labelledby="hold-panel-title" className={`${panelClass} border-brand-700`}>
          <h2 id="hold-panel-title" className="text-base font-semibold">
            <span aria-hidden="true">✓ </span>
            {hasPatient ? "Held for this patient" : "Slot held"}
          </h2>
          <SlotSummary slot={state.slot} request={state.request} describe={describe} />
          <p className="hidden text-xs text-slate-600 sm:block">Checked live in the EHR; no one else can take it while the hold lasts.</p>
          <HoldCountdown deadlineMs={state.deadlineMs} phrase={describe.phrase(state.slot)} onTick={onTick} />
          {bookingUnavailableReason ? (
            <p className="mt-1 text-xs text-slate-700">{bookingUnavailableReason}</p>
          ) : !hasPatient ? (
            <p className="mt-1 text-xs text-slate-700">No patient is open in the EHR: open the patient there before booking.</p>
          ) : null}
          {notice ? (
            <div className="mt-2">
              <Notice tone="warning" title={notice.kind === "declined" ? "The EHR did not book it" : "The EHR did not answer"}>
                {notice.kind === "declined" ? `${notice.reason}. ` : `${describeApiError(notice.error).detail} `}
                The slot is still held.
              </Notice>
            </div>
          ) : null}
          <div className="mt-3 flex flex-wrap gap-2">
            {bookingUnavailableReason ? null : (
              <Button data-testid="book-in-ehr" onClick={onBook} disabled={isBooking} aria-describedby="hold-panel-title">
                {isBooking ? "Booking in the EHR…" : "Book in EHR"}
              </Button>
            )}
            <Button data-testid="release-hold" variant="secondary" onClick={onCancel} disabled={isBooking}>
              Release hold
            </Button>
          </div>
        </section>
      );
    }
    case "booked":
      return (
        <section data-testid="hold-panel" data-state="booked" aria-labelledby="hold-panel-title" className={`${panelClass} border-brand-700`}>
          <div role="status">
            <h2 id="hold-panel-title" className="text-base font-semibold">
              <span aria-hidden="true">✓ </span>Booked in the EHR
            </h2>
            <SlotSummary slot={state.slot} request={state.request} describe={describe} />
            <p className="text-xs text-slate-600">EHR appointment {state.appointmentId}. The hold has been released.</p>
          </div>
          <div className="mt-2">
            <Button variant="secondary" onClick={onCancel}>
              Find another slot
            </Button>
          </div>
        </section>
      );
    case "expired":
      return (
        <section data-testid="hold-panel" data-state="expired" aria-labelledby="hold-panel-title" className={`${panelClass} border-amber-500`}>
          <div role="status">
            <h2 id="hold-panel-title" className="text-base font-semibold">
              <span aria-hidden="true">! </span>The hold has expired
            </h2>
            <p className="text-sm">
              {describe.phrase(state.slot)} is no longer held and may be taken by someone else. Search again to see what is free now.
            </p>
          </div>
          <div className="mt-2 flex flex-wrap gap-2">
            <Button onClick={onSearchAgain}>Search again</Button>
            <Button variant="secondary" onClick={onCancel}>
              Dismiss
            </Button>
          </div>
        </section>
      );
    case "released":
      return (
        <div role="status" className={`${panelClass} flex flex-wrap items-center justify-between gap-2 border-slate-300`}>
          <p className="text-sm">Released the hold on {describe.phrase(state.slot)}.</p>
          <Button variant="ghost" onClick={onCancel}>
            Dismiss
          </Button>
        </div>
      );
    case "gone":
      return (
        <div data-testid="slot-gone-notice" className="rounded-lg bg-white shadow-lg">
          <Notice
            tone="warning"
            title="That time was just taken"
            actions={
              <Button variant="secondary" onClick={onCancel}>
                Dismiss
              </Button>
            }
          >
            <p>{describe.phrase(state.slot)} is no longer free in the EHR, so it has been taken off the list.</p>
            {state.alternatives.length > 0 ? (
              <div className="mt-2">
                <p className="font-medium">Nearest free times:</p>
                <ul className="mt-1 flex flex-wrap gap-1.5">
                  {state.alternatives.map((slot) => (
                    <li key={`${slot.providerId}${slot.startsAt}`}>
                      <Button variant="secondary" data-testid="slot-alternative" data-starts-at={slot.startsAt} data-provider-id={slot.providerId} aria-label={describe.label(slot)} onClick={() => onSelectAlternative(slot)}>
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
      return (
        <div className={panelClass}>
          <p className="mb-2 text-sm">
            {state.step === "check" ? "Could not check" : "Could not hold"} {describe.phrase(state.slot)}. Nothing is held.
          </p>
          <ApiErrorNotice error={state.error} onRetry={() => onRetry(state.slot)} />
          <div className="mt-2">
            <Button variant="ghost" onClick={onCancel}>
              Dismiss
            </Button>
          </div>
        </div>
      );
  }
}
