import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { checkSlot, createHold, isSlotConflict, releaseHold } from "../../api/slots-queries.ts";
import { useBridge } from "../../bridge/bridge-provider.tsx";
import { BookingDeclined } from "../../bridge/host-bridge.ts";
import { SlotSelectionFlow, type SelectionState } from "./slot-selection-flow.ts";

/** The selection flow wired to the BFF, the host bridge and the query cache; any hold is given back when the view unmounts. */
export function useSlotSelection(): { flow: SlotSelectionFlow; state: SelectionState } {
  const queryClient = useQueryClient();
  const { bridge } = useBridge();
  const bridgeRef = useRef(bridge);
  useEffect(() => {
    bridgeRef.current = bridge;
  }, [bridge]);
  const [flow] = useState(
    () =>
      new SlotSelectionFlow({
        check: checkSlot,
        hold: createHold,
        isConflict: isSlotConflict,
        release: releaseHold,
        book: (request) => bridgeRef.current.book(request),
        declineReason: (error) => (error instanceof BookingDeclined ? error.message || "The EHR declined the booking" : null),
        slotsChanged: () => {
          void queryClient.invalidateQueries({ queryKey: ["slots"] });
        },
      }),
  );
  const state = useSyncExternalStore(flow.subscribe, flow.getState);
  useEffect(() => () => flow.leave(), [flow]);
  return { flow, state };
}
