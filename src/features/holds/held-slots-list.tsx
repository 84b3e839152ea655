import type { ReactNode } from "react";
import { Button } from "#src/components/ui/button.tsx";
import { CheckIcon } from "#src/components/ui/icons.tsx";
import { maybeHeldHeading } from "./hold-outcome-text.ts";
import { moreNotConfirmedText, onlyNotConfirmedText, slotCountText } from "./holds-text.ts";

export interface HeldSlotsListProps {
  heldCount: number;
  /** Holds the EHR may have made (not confirmed): folded into the same line. */
  maybeHeldCount: number;
  isFolded: boolean;
  onToggleFold: () => void;
  /** The held slots' cards. */
  held: ReactNode;
  /** The not-confirmed holds' cards. */
  maybeHeld: ReactNode;
}

/** The heading line: the held slots counted, and when folded the not-confirmed ones too, as their cards are out of sight. */
function HoldsLine({ heldCount, maybeHeldCount, isFolded }: Pick<HeldSlotsListProps, "heldCount" | "maybeHeldCount" | "isFolded">) {
  if (heldCount === 0) return <h2 className="text-sm font-semibold">{isFolded ? onlyNotConfirmedText(maybeHeldCount) : maybeHeldHeading(maybeHeldCount)}</h2>;
  const aside = isFolded ? (maybeHeldCount > 0 ? moreNotConfirmedText(maybeHeldCount) : null) : heldCount > 1 ? "booking one releases the others held for the same patient" : null;
  return (
    <h2 className="text-sm font-semibold">
      <CheckIcon className="mr-1 h-[1em] w-[1em]" />
      You are holding {slotCountText(heldCount)}
      {aside ? <span className="font-normal text-slate-700"> · {aside}</span> : null}
    </h2>
  );
}

/**
 * "You are holding 2 slots" over the held slots' cards and those the EHR did not confirm, with Show / Hide to
 * fold them all to that one line (folded by default in a narrow frame, use-fold.ts).
 */
export function HeldSlotsList({ heldCount, maybeHeldCount, isFolded, onToggleFold, held, maybeHeld }: HeldSlotsListProps) {
  return (
    <div>
      <div className="flex items-center justify-between gap-2 px-1">
        <HoldsLine heldCount={heldCount} maybeHeldCount={maybeHeldCount} isFolded={isFolded} />
        <Button variant="ghost" className="shrink-0" aria-expanded={!isFolded} aria-controls="held-slots-list" onClick={onToggleFold}>
          {isFolded ? "Show" : "Hide"}
          <span className="sr-only"> the held slots</span>
        </Button>
      </div>
      <div id="held-slots-list" hidden={isFolded} className="space-y-2">
        {heldCount > 0 ? <ul className="mt-1 space-y-2">{held}</ul> : null}
        {maybeHeldCount > 0 ? (
          <div>
            {/* With no held slot, the line above is this heading. */}
            {heldCount > 0 ? <h2 className="px-1 text-sm font-semibold">{maybeHeldHeading(maybeHeldCount)}</h2> : null}
            <ul className="mt-1 space-y-2">{maybeHeld}</ul>
          </div>
        ) : null}
      </div>
    </div>
  );
}
