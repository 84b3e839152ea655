import { useEffect, useRef, useState } from "react";
import type { Session } from "#contract/app-api/session.ts";
import type { WaitlistOffer } from "#contract/app-api/waitlist.ts";
import { useApiErrorDescription } from "#src/components/shell/api-error-notice.tsx";
import { Button } from "#src/components/ui/button.tsx";
import { formatTime } from "#src/lib/time-format.ts";
import { useSlotDescriber } from "#src/scheduling/use-slot-describer.ts";
import { canUseWaitlist } from "#contract/app-api/waitlist.ts";
import type { OfferHoldState } from "./offer-hold.ts";
import { useNow } from "#src/lib/use-now.ts";
import { useOfferHolds } from "./use-offer-holds.ts";
import { useWaitlistOffers, type ShownOffer } from "./use-waitlist-offers.ts";
import { offerHeadline, patientNameText, userText } from "./waitlist-text.ts";

// The waitlist's alert (issue 38), above whatever view is open, for front-desk
// and scheduler users: a cancellation has freed a slot that waitlisted
// patients fit, with one button per patient to hold it for them. Once anyone
// holds it, every tab's alert says who and for whom (the waitlist's list, read
// again on `waitlist.changed`). In the page's flow, above the view, so it
// never covers the list (at 400 px too); dismissable; the newest first, the
// rest behind a toggle.

/** Offers shown at once; the others behind "Show N more". */
const SHOWN_AT_ONCE = 2;

export function WaitlistOffersAlert({ session }: { session: Session }) {
  const isEnabled = canUseWaitlist(session.user.roles);
  const { offers, dismiss } = useWaitlistOffers(isEnabled);
  const { states, hold } = useOfferHolds();
  const [showsAll, setShowsAll] = useState(false);
  const announcement = useNewOfferAnnouncement(offers);
  if (!isEnabled) return null;
  const shown = showsAll ? offers : offers.slice(0, SHOWN_AT_ONCE);
  return (
    <>
      <p aria-live="polite" aria-atomic="true" className="sr-only" data-testid="waitlist-offer-announcement">
        {announcement}
      </p>
      {offers.length > 0 ? (
        <section aria-label="Waitlist offers" data-testid="waitlist-offers" className="mx-auto mb-3 max-w-6xl space-y-2">
          <ul className="space-y-2">
            {shown.map((item) => (
              <OfferCard key={item.offer.id} item={item} userId={session.user.id} holdState={states.get(item.offer.id) ?? null} onHold={(entryId) => hold(item.offer, entryId)} onDismiss={() => dismiss(item.offer.id)} />
            ))}
          </ul>
          {offers.length > SHOWN_AT_ONCE ? (
            <Button variant="ghost" aria-expanded={showsAll} onClick={() => setShowsAll((value) => !value)}>
              {showsAll ? "Show fewer offers" : `Show ${offers.length - SHOWN_AT_ONCE} more offer${offers.length - SHOWN_AT_ONCE === 1 ? "" : "s"}`}
            </Button>
          ) : null}
        </section>
      ) : null}
    </>
  );
}

/** A new open offer is read out once (the cards themselves are not a live region: their buttons would be read on every change). */
function useNewOfferAnnouncement(offers: readonly ShownOffer[]): string {
  const { describe, zoneOf, reader } = useSlotDescriber();
  const nowMs = useNow(60_000);
  const announced = useRef(new Set<string>());
  const [text, setText] = useState("");
  useEffect(() => {
    const fresh = offers.filter((item) => item.status === "open" && !announced.current.has(item.offer.id));
    if (fresh.length === 0) return;
    for (const item of fresh) announced.current.add(item.offer.id);
    const [newest] = fresh;
    if (newest) setText(`Waitlist: ${offerHeadline(newest.offer, describe.providerName(newest.offer.slot.providerId), { ...reader, zone: zoneOf(newest.offer.slot.facilityId) }, nowMs)}`);
  }, [offers, describe, zoneOf, reader, nowMs]);
  return text;
}

interface OfferCardProps {
  item: ShownOffer;
  userId: string;
  holdState: OfferHoldState | null;
  onHold: (entryId: string) => void;
  onDismiss: () => void;
}

function OfferCard({ item, userId, holdState, onHold, onDismiss }: OfferCardProps) {
  const { offer, status } = item;
  const { describe, zoneOf, reader } = useSlotDescriber();
  const nowMs = useNow(60_000);
  const display = { ...reader, zone: zoneOf(offer.slot.facilityId) };
  const headline = offerHeadline(offer, describe.providerName(offer.slot.providerId), display, nowMs);
  const titleId = `waitlist-offer-${offer.id}`;
  const isBusy = holdState?.kind === "checking" || holdState?.kind === "holding";
  const isOpen = status === "open" && holdState?.kind !== "held" && holdState?.kind !== "gone" && holdState?.kind !== "taken";
  const isHeldHere = holdState?.kind === "held";
  // This user's hold whose answer was lost: the offer is theirs (so listed as closed), not a colleague's.
  const mayBeHeldHere = holdState?.kind === "failed" && holdState.outcomeUnknown;
  const title = status === "taken" || isHeldHere ? "Held from the waitlist" : mayBeHeldHere ? "Not confirmed by the EHR" : status === "closed" ? "Waitlist offer closed" : "A freed slot fits the waitlist";
  return (
    <li data-testid="waitlist-offer" data-offer-id={offer.id} data-status={status} data-starts-at={offer.slot.startsAt} data-provider-id={offer.slot.providerId} aria-labelledby={titleId} className={`rounded-lg border p-3 ${status === "open" ? "border-sky-300 bg-sky-50" : "border-slate-300 bg-white"}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 flex-1">
          <h2 id={titleId} className="text-sm font-semibold">
            {title}
          </h2>
          <p className="text-sm" data-testid="waitlist-offer-text">
            {headline}
          </p>
          <p className="text-xs text-slate-700">
            {describe.appointmentTypeName(offer)}, {offer.slotLengthMinutes} minutes · {describe.facilityName(offer.slot.facilityId)}
          </p>
        </div>
        <Button variant="ghost" onClick={onDismiss} aria-label={`Dismiss: ${headline}`}>
          Dismiss
        </Button>
      </div>
      {status === "taken" && offer.takenBy ? <p className="mt-2 text-sm font-medium" data-testid="waitlist-offer-taken">{takenText(offer, userId, describe.providerName, display)}</p> : null}
      {status === "closed" && !isHeldHere && !mayBeHeldHere ? (
        <p className="mt-2 text-sm font-medium" data-testid="waitlist-offer-closed">
          No longer offered: held from the waitlist by a colleague, or no longer free.
        </p>
      ) : null}
      {isOpen ? (
        <div role="group" aria-label="Hold it for" className="mt-2 flex flex-wrap gap-2">
          {offer.matches.map((match) => {
            const isThisOne = isBusy && holdState.entryId === match.entryId;
            return (
              <Button key={match.entryId} data-testid="hold-for-patient" data-entry-id={match.entryId} variant={match === offer.matches[0] ? "primary" : "secondary"} disabled={isBusy} aria-describedby={titleId} onClick={() => onHold(match.entryId)}>
                {isThisOne ? `Holding for ${patientNameText(match.patientName)}…` : `Hold for ${patientNameText(match.patientName)}`}
              </Button>
            );
          })}
        </div>
      ) : null}
      {holdState ? <HoldStateText state={holdState} offer={offer} /> : null}
      {mayBeHeldHere ? (
        <Button className="mt-2" variant="secondary" data-testid="hold-for-patient-again" data-entry-id={holdState.entryId} onClick={() => onHold(holdState.entryId)}>
          Try again for {patientNameText(offer.matches.find((match) => match.entryId === holdState.entryId)?.patientName ?? null)}
        </Button>
      ) : null}
    </li>
  );
}

/** "Held for Ana Ruiz by you at 10:02 AM", "… by Dr. Mia Lopez, MD at …". */
function takenText(offer: WaitlistOffer, userId: string, providerName: (id: string) => string, display: Parameters<typeof formatTime>[1]): string {
  const taken = offer.takenBy;
  if (!taken) return "";
  const match = offer.matches.find((candidate) => candidate.entryId === taken.entryId);
  return `Held for ${patientNameText(match?.patientName ?? null)} by ${userText(taken.userId, userId, providerName)} at ${formatTime(Date.parse(taken.at), display)}.`;
}

function HoldStateText({ state, offer }: { state: OfferHoldState; offer: WaitlistOffer }) {
  const name = patientNameText(offer.matches.find((match) => match.entryId === state.entryId)?.patientName ?? null);
  const failure = useApiErrorDescription(state.kind === "failed" ? state.error : null, "write");
  const text = (() => {
    switch (state.kind) {
      case "checking":
        return `Checking the slot in the EHR for ${name}…`;
      case "holding":
        return `Holding it for ${name}…`;
      case "held":
        return `Held for ${name}. Book it in the EHR with ${name} open (your holds, below).`;
      case "gone":
        return state.mayBeYours
          ? `No longer free in the EHR: your first try may be what holds it for ${name}. It stays in your holds as not confirmed until it frees itself.`
          : "No longer free: it was booked or held since the cancellation.";
      case "taken":
        return state.message;
      case "basketFull":
        return "You already hold as many slots as Tandem allows: book or release one of your holds, then try again.";
      case "alreadyHeld":
        return "You hold this slot already (another tab of yours).";
      case "failed":
        return state.outcomeUnknown
          ? `The EHR did not confirm the hold for ${name}: it may have made it. It is listed in your holds as not confirmed; try again, or let it go there.`
          : `${failure.title}. ${failure.detail}`;
    }
  })();
  const isProblem = state.kind === "failed" || state.kind === "gone" || state.kind === "taken" || state.kind === "basketFull";
  return (
    <p role={isProblem ? "alert" : "status"} data-testid="waitlist-offer-hold-state" data-state={state.kind} className={`mt-2 text-sm ${isProblem ? "text-red-800" : "text-slate-800"}`}>
      {text}
    </p>
  );
}
