import { useCallback, useMemo, useState } from "react";
import type { SlotSearchQuery } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { useLatest } from "#src/lib/use-latest.ts";
import type { SelectionParams } from "#src/scheduling/slot-selection-flow.ts";

// Choosing a slot on the list: one live check, then a hold that joins the
// user's holds (holds-provider.tsx), made as the search the list answers
// asked for. A stale list is inert (DESIGN.md); a role that cannot hold is
// told so instead.

interface HoldOnSelectInput {
  /** The search the list on screen answers. */
  source: SlotSearchQuery | null;
  isListStale: boolean;
  canHold: boolean;
  select: (slot: Slot, params: SelectionParams) => void;
  /** Called just before a slot is selected. */
  onSelecting: () => void;
}

function selectionParamsOf(source: SlotSearchQuery | null): SelectionParams | null {
  return source
    ? { appointmentTypeId: source.appointmentTypeId, slotLengthMinutes: source.slotLengthMinutes, isNewPatient: source.isNewPatient ?? false, searchedFacilityIds: source.facilityIds, searchedProviderIds: source.providerIds }
    : null;
}

export function useHoldOnSelect({ source, isListStale, canHold, select, onSelecting }: HoldOnSelectInput) {
  const [isRoleNoticeShown, setRoleNoticeShown] = useState(false);
  // Read when a slot is chosen, so the callback (on every slot button) does not change with each search.
  const selectionParams = useLatest(useMemo(() => selectionParamsOf(source), [source]));
  const onSelect = useCallback(
    (slot: Slot) => {
      if (isListStale) return;
      if (!canHold) {
        setRoleNoticeShown(true);
        return;
      }
      const selectionFor = selectionParams.current;
      if (!selectionFor) return;
      onSelecting();
      select(slot, selectionFor);
    },
    [canHold, select, isListStale, selectionParams, onSelecting],
  );
  return { onSelect, isRoleNoticeShown };
}
