import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouterState } from "@tanstack/react-router";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import type { HeldSlot, HoldReleaseResponse, MaybeHeldSlot } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { heldSlotsQuery, maybeHeldOfError, releaseHold, withHeld } from "#src/api/holds-queries.ts";
import { queryKeys } from "#src/api/query-keys.ts";
import { sessionQuery } from "#src/api/session-query.ts";
import { useBridge } from "#src/bridge/bridge-provider.tsx";
import { BookingDeclined } from "#src/bridge/host-bridge.ts";
import { holdCalls } from "./hold-calls.ts";
import { SlotSelectionFlow, type SelectionParams, type SelectionState } from "./slot-selection-flow.ts";
import { HeldSlotsController, type HoldsActivity } from "./held-slots-controller.ts";

// The user's holds, above every view (DESIGN.md: a hold belongs to the user,
// not to a view): the list from the BFF's store, the selection flow that
// adds to it, and what is happening to each hold in this page. Living above
// the router's outlet, none of it is dropped when the user changes view.

export interface HoldsValue {
  /** Whether this user's role may hold slots at all. */
  canHold: boolean;
  holds: readonly HeldSlot[];
  /** Holds the EHR may have made for the user, not confirmed (their answers were lost): theirs until they free themselves. */
  maybeHeld: readonly MaybeHeldSlot[];
  /** Lets go of one: released in the EHR when Tandem learnt its id, else nothing to release (`released: false`). */
  letGo: (maybeHeld: MaybeHeldSlot) => Promise<HoldReleaseResponse>;
  /** The list could not be read (the holds are still in the store). */
  holdsError: unknown;
  refetchHolds: () => void;
  controller: HeldSlotsController;
  activity: HoldsActivity;
  flow: SlotSelectionFlow;
  selection: SelectionState;
  /** Checks the slot live and holds it, as the list it came from was searched. */
  select: (slot: Slot, params: SelectionParams) => void;
}

const HoldsContext = createContext<HoldsValue | null>(null);

export function useHolds(): HoldsValue {
  const value = useContext(HoldsContext);
  if (!value) throw new Error("useHolds outside a HoldsProvider");
  return value;
}

export function HoldsProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { bridge, context } = useBridge();
  const session = useQuery(sessionQuery());
  const canHold = session.data?.capabilities.canHoldSlots ?? false;
  const holdsQuery = useQuery({ ...heldSlotsQuery(), enabled: canHold });
  const bridgeRef = useRef(bridge);
  useEffect(() => {
    bridgeRef.current = bridge;
  }, [bridge]);

  const [{ controller, flow }] = useState(() => {
    const key = heldSlotsQuery().queryKey;
    const controller = new HeldSlotsController({
      release: releaseHold,
      book: (request) => bridgeRef.current.book(request),
      declineReason: (error) => (error instanceof BookingDeclined ? error.message || "The EHR declined the booking" : null),
      addHeld: (held) => queryClient.setQueryData(key, (old) => withHeld(old, held)),
      removeHeld: (ids) => queryClient.setQueryData(key, (old) => (old ? { ...old, holds: old.holds.filter((candidate) => !ids.includes(candidate.id)) } : old)),
      holdsChanged: () => void queryClient.invalidateQueries({ queryKey: key }),
      slotsChanged: () => void queryClient.invalidateQueries({ queryKey: queryKeys.slots.all }),
      abandonSelection: () => flow.cancel(),
    });
    const flow = new SlotSelectionFlow({
      ...holdCalls,
      maybeHeldOf: maybeHeldOfError,
      holdsChanged: () => void queryClient.invalidateQueries({ queryKey: key }),
      release: releaseHold,
      onHeld: (fresh) => controller.added(fresh),
      slotsChanged: () => void queryClient.invalidateQueries({ queryKey: queryKeys.slots.all }),
      releasesInFlight: () => controller.releasesInFlight(),
    });
    return { controller, flow };
  });
  const activity = useSyncExternalStore(controller.subscribe, controller.getActivity);
  const selection = useSyncExternalStore(flow.subscribe, flow.getState);
  const holds = useMemo(() => holdsQuery.data?.holds ?? [], [holdsQuery.data]);
  const maybeHeld = useMemo(() => holdsQuery.data?.maybeHeld ?? [], [holdsQuery.data]);
  const forgetMaybeHeld = useCallback(
    (id: string) => queryClient.setQueryData(heldSlotsQuery().queryKey, (old) => (old ? { ...old, maybeHeld: old.maybeHeld.filter((candidate) => candidate.id !== id) } : old)),
    [queryClient],
  );
  const letGo = useCallback(
    async (attempt: MaybeHeldSlot) => {
      const answer = await releaseHold(attempt.id);
      if (answer.released) {
        forgetMaybeHeld(attempt.id);
        void queryClient.invalidateQueries({ queryKey: queryKeys.slots.all });
      }
      return answer;
    },
    [forgetMaybeHeld, queryClient],
  );
  const patientId = context.patientId ?? undefined;

  const select = useCallback(
    (slot: Slot, params: SelectionParams) => void flow.select(slot, params, { patientId, holds, maybeHeld }),
    [flow, patientId, holds, maybeHeld],
  );

  // A selection's outcome belongs to the list it was chosen from: put away on leaving that view (not a hold in flight).
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  useEffect(() => flow.dismissSettled(), [pathname, flow]);

  // A hold that leaves the list read from the BFF without this page ending it (another tab booked or released it) is told too.
  // Compared only between two lists read for the same user: a list dropped on an identity change is not news.
  const listedBefore = useRef<readonly HeldSlot[] | null>(null);
  useEffect(() => {
    const listed = holdsQuery.data?.holds;
    const before = listedBefore.current;
    listedBefore.current = listed ?? null;
    if (!listed || !before) return;
    const left = before.filter((held) => !listed.some((candidate) => candidate.id === held.id));
    if (left.length > 0) controller.leftTheList(left);
  }, [holdsQuery.data, controller]);

  // An outcome the holds made untrue (a full basket with a place free again, "held already" for a hold that ended) goes.
  useEffect(() => flow.holdsChanged(holds, maybeHeld), [flow, holds, maybeHeld]);

  // A decline about the patient ("Pick a patient in the EHR first") is stale once another patient is open.
  useEffect(() => controller.dismissNotices(), [patientId, controller]);

  const { refetch } = holdsQuery;
  const value: HoldsValue = useMemo(
    () => ({ canHold, holds, maybeHeld, letGo, holdsError: holdsQuery.error, refetchHolds: () => void refetch(), controller, activity, flow, selection, select }),
    [canHold, holds, maybeHeld, letGo, holdsQuery.error, refetch, controller, activity, flow, selection, select],
  );
  return <HoldsContext.Provider value={value}>{children}</HoldsContext.Provider>;
}
