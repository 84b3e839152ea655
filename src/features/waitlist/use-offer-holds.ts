import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo, useState } from "react";
import type { WaitlistOffer } from "#contract/app-api/waitlist.ts";
import { ApiError } from "#src/api/bff-client.ts";
import { queryKeys } from "#src/api/query-keys.ts";
import { holdCalls } from "#src/scheduling/hold-calls.ts";
import { useHolds } from "#src/scheduling/holds-provider.tsx";
import { holdFromOffer, type OfferHoldDeps, type OfferHoldState } from "./offer-hold.ts";

// The alert's holds, per offer: what this page's user is doing with each
// (checking, holding, held, or why not). A hold made here joins the user's
// holds (the holds bar, with its countdown and Book in EHR).

export function useOfferHolds(): { states: ReadonlyMap<string, OfferHoldState>; hold: (offer: WaitlistOffer, entryId: string) => void } {
  const queryClient = useQueryClient();
  const { controller } = useHolds();
  const [states, setStates] = useState<ReadonlyMap<string, OfferHoldState>>(() => new Map());
  const deps: OfferHoldDeps = useMemo(
    () => ({
      ...holdCalls,
      takenMessage: (error) => (error instanceof ApiError && error.status === 409 ? error.body.message : null),
      onHeld: (fresh) => controller.added(fresh),
      holdsChanged: () => void queryClient.invalidateQueries({ queryKey: queryKeys.holds() }),
      waitlistChanged: () => void queryClient.invalidateQueries({ queryKey: queryKeys.waitlist.all }),
      slotsChanged: () => void queryClient.invalidateQueries({ queryKey: queryKeys.slots.all }),
    }),
    [controller, queryClient],
  );
  const hold = useCallback(
    (offer: WaitlistOffer, entryId: string) => {
      const current = states.get(offer.id);
      if (current?.kind === "checking" || current?.kind === "holding") return;
      void holdFromOffer(offer, entryId, deps, (state) => setStates((previous) => new Map(previous).set(offer.id, state)), current ?? null);
    },
    [deps, states],
  );
  return { states, hold };
}
