import { useEffect, useRef, useState } from "react";
import type { HoldReleaseResponse, MaybeHeldSlot } from "#contract/app-api/slots.ts";
import { describeApiError } from "#src/components/shell/api-error-notice.tsx";
import { Button } from "#src/components/ui/button.tsx";
import type { SlotDescriber } from "#src/scheduling/use-slot-describer.ts";
import { HeldAs } from "./held-slot-card.tsx";
import { freesAtText, maybeHeldText, nothingToReleaseText } from "./hold-outcome-text.ts";

// A hold the EHR may have made for the user (its answer never reached
// Tandem; issue 35 item 4): the slot, what it was asked as, and the time it
// frees itself at the latest, with Let it go. Without the EHR's id for it
// there is nothing to release, and the card says so; it leaves the list when
// it has freed itself.

export interface MaybeHeldSlotCardProps {
  maybeHeld: MaybeHeldSlot;
  describe: SlotDescriber;
  /** "for Alvarez, Maria", "with no patient open". */
  patientText: string;
  onLetGo: () => Promise<HoldReleaseResponse>;
  /**
   * Its `freesAt` has passed by this browser's clock: the list is read again, and Tandem's server, whose clock
   * decides, no longer lists it (a browser clock ahead of the EHR's must not drop it early).
   */
  onFreed: () => void;
}

type LetGoState = { kind: "idle" } | { kind: "lettingGo" } | { kind: "nothingToRelease" } | { kind: "failed"; error: unknown };

export function MaybeHeldSlotCard({ maybeHeld, describe, patientText, onLetGo, onFreed }: MaybeHeldSlotCardProps) {
  const [letGo, setLetGo] = useState<LetGoState>({ kind: "idle" });
  const { id } = maybeHeld;
  const freesAtMs = Date.parse(maybeHeld.freesAt);
  const onFreedRef = useRef(onFreed);
  onFreedRef.current = onFreed;
  useEffect(() => {
    // Once per attempt: a list read again that still has it (a browser clock ahead) asks no more.
    const timer = setTimeout(() => onFreedRef.current(), Math.max(0, freesAtMs - Date.now()));
    return () => clearTimeout(timer);
  }, [id, freesAtMs]);

  const freesAt = freesAtText(maybeHeld, describe);
  const titleId = `maybe-held-${id}`;
  const letItGo = async () => {
    setLetGo({ kind: "lettingGo" });
    try {
      const answer = await onLetGo();
      // Released: the list drops the card.
      if (!answer.released) setLetGo({ kind: "nothingToRelease" });
    } catch (error) {
      setLetGo({ kind: "failed", error });
    }
  };

  return (
    <li data-testid="maybe-held" data-maybe-held-id={id} aria-labelledby={titleId} className="rounded-md border border-dashed border-amber-400 bg-amber-50 px-2 py-1.5">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
        <p id={titleId} className="min-w-0 text-sm">
          <HeldAs held={maybeHeld} describe={describe} /> <span>{patientText}</span>
          <br />
          <span className="font-semibold">{describe.phrase(maybeHeld.slot)}</span>
          <span className="text-slate-700"> · {describe.facilityName(maybeHeld.slot.facilityId)}</span>
        </p>
        {letGo.kind === "nothingToRelease" ? null : (
          <Button data-testid="let-go" variant="secondary" onClick={() => void letItGo()} disabled={letGo.kind === "lettingGo"} aria-describedby={titleId}>
            {letGo.kind === "lettingGo" ? "Letting go…" : "Let it go"}
          </Button>
        )}
      </div>
      <p className="mt-1 text-sm" data-testid="maybe-held-text">
        {maybeHeldText(freesAt)}
      </p>
      {letGo.kind === "nothingToRelease" ? (
        <p role="status" className="mt-1 text-sm font-medium">
          {nothingToReleaseText(freesAt)}
        </p>
      ) : null}
      {letGo.kind === "failed" ? (
        <p role="alert" className="mt-1 text-sm">
          {describeApiError(letGo.error, "write").title}. It may still be held; try again, or let it run out by {freesAt}.
        </p>
      ) : null}
    </li>
  );
}
