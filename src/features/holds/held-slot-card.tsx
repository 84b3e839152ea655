import { useEffect } from "react";
import type { HeldSlot } from "#contract/app-api/slots.ts";
import { describeApiError } from "#src/components/shell/api-error-notice.tsx";
import { Button } from "#src/components/ui/button.tsx";
import { Notice } from "#src/components/ui/notice.tsx";
import { formatCountdown, holdAnnouncement, holdStage } from "#src/scheduling/hold-countdown.ts";
import type { SlotDescriber } from "#src/scheduling/use-slot-describer.ts";
import type { HoldNotice } from "#src/scheduling/held-slots-controller.ts";
import { useNow } from "#src/lib/use-now.ts";

// One held slot in the holds bar: what it is held as (type, length, patient),
// when and with whom, the countdown, and Book in EHR / Release.

function HoldCountdown({ deadlineMs, phrase, onExpired }: { deadlineMs: number; phrase: string; onExpired: () => void }) {
  const now = useNow(1_000);
  const msLeft = deadlineMs - now;
  useEffect(() => {
    if (msLeft <= 0) onExpired();
  }, [msLeft, onExpired]);
  const stage = holdStage(msLeft);
  return (
    <>
      <span className="text-sm whitespace-nowrap">
        Expires in{" "}
        <time data-testid="hold-countdown" dateTime={`PT${Math.max(0, Math.ceil(msLeft / 1000))}S`} className={`font-semibold tabular-nums ${stage === "lastMinute" ? "text-red-800" : ""}`}>
          {formatCountdown(msLeft)}
        </time>
        {stage === "lastMinute" ? <span className="ml-1 font-medium text-red-800">(under a minute)</span> : null}
      </span>
      {/* Polite, and changing only at one minute left and at expiry: never every second. */}
      <span aria-live="polite" aria-atomic="true" className="sr-only">
        {holdAnnouncement(stage, phrase)}
      </span>
    </>
  );
}

/** "New Patient Visit (new patient), 40 minutes": what the slot is held, checked and booked as. */
export function HeldAs({ held, describe }: { held: Pick<HeldSlot, "appointmentTypeId" | "isNewPatient" | "slotLengthMinutes">; describe: SlotDescriber }) {
  return (
    <span data-testid="held-appointment-type" className="font-semibold">
      {describe.appointmentTypeName(held)}, {held.slotLengthMinutes} minutes
    </span>
  );
}

function noticeText(notice: HoldNotice): { title: string; text: string } {
  switch (notice.kind) {
    case "declined":
      return { title: "The EHR did not book it", text: `${notice.reason}. The slot is still held.` };
    case "bookFailed":
      return { title: "The EHR did not answer", text: `${describeApiError(notice.error, "write").detail} The slot is still held.` };
    case "releaseFailed":
      return { title: "The hold could not be released", text: `${describeApiError(notice.error, "write").title}. It is still held; try again, or let it run out.` };
  }
}

export interface HeldSlotCardProps {
  held: HeldSlot;
  describe: SlotDescriber;
  /** "for Alvarez, Maria", "for the patient open before", "with no patient open". */
  patientText: string;
  deadlineMs: number;
  isBooking: boolean;
  notice: HoldNotice | null;
  /** Why it cannot be booked from here (outside the EHR, no patient open, another patient open), or null. */
  cannotBookReason: string | null;
  onBook: () => void;
  onRelease: () => void;
  onExpired: () => void;
}

export function HeldSlotCard({ held, describe, patientText, deadlineMs, isBooking, notice, cannotBookReason, onBook, onRelease, onExpired }: HeldSlotCardProps) {
  const titleId = `held-${held.id}`;
  const shownNotice = notice ? noticeText(notice) : null;
  return (
    <li data-testid="hold-panel" data-state={isBooking ? "booking" : "held"} data-hold-id={held.id} aria-labelledby={titleId} className="rounded-md border border-brand-200 bg-white px-2 py-1.5">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
        <p id={titleId} className="min-w-0 flex-1 basis-80 text-sm">
          <HeldAs held={held} describe={describe} /> <span data-testid="held-for">{patientText}</span>
          <br />
          <span className="font-semibold">{describe.phrase(held.slot)}</span>
          <span className="text-slate-700"> · </span>
          <span className="inline-block text-slate-700">{describe.facilityName(held.slot.facilityId)}</span>
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <HoldCountdown deadlineMs={deadlineMs} phrase={describe.phrase(held.slot)} onExpired={onExpired} />
          {cannotBookReason ? null : (
            <Button data-testid="book-in-ehr" onClick={onBook} disabled={isBooking} aria-describedby={titleId}>
              {isBooking ? "Booking in the EHR…" : "Book in EHR"}
            </Button>
          )}
          <Button data-testid="release-hold" variant="secondary" onClick={onRelease} disabled={isBooking} aria-describedby={titleId}>
            Release
          </Button>
        </div>
      </div>
      {cannotBookReason ? <p className="mt-1 text-xs text-slate-700">{cannotBookReason}</p> : null}
      {shownNotice ? (
        <div className="mt-2">
          <Notice tone="warning" title={shownNotice.title}>
            {shownNotice.text}
          </Notice>
        </div>
      ) : null}
    </li>
  );
}
