import type { ReactNode } from "react";
import { Button } from "#src/components/ui/button.tsx";
import { CheckIcon } from "#src/components/ui/icons.tsx";
import { slotCountText } from "./holds-text.ts";

/** "You are holding 2 slots" over the held slots' cards, with Show / Hide to fold them to that one line (folded by default in a narrow frame, use-fold.ts). */
export function HeldSlotsList({ count, isFolded, onToggleFold, children }: { count: number; isFolded: boolean; onToggleFold: () => void; children: ReactNode }) {
  return (
    <div>
      <div className="flex items-start justify-between gap-2 px-1">
        <h2 className="text-sm font-semibold">
          <CheckIcon className="mr-1 h-[1em] w-[1em]" />
          You are holding {slotCountText(count)}
          {count > 1 && !isFolded ? <span className="font-normal text-slate-700"> · booking one releases the others held for the same patient</span> : null}
        </h2>
        <Button variant="ghost" className="shrink-0" aria-expanded={!isFolded} aria-controls="held-slots-list" onClick={onToggleFold}>
          {isFolded ? "Show" : "Hide"}
          <span className="sr-only"> the held slots</span>
        </Button>
      </div>
      <ul id="held-slots-list" hidden={isFolded} className="mt-1 space-y-2">
        {children}
      </ul>
    </div>
  );
}
