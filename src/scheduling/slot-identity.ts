import type { HeldSlot, SlotSelection } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { idKey, isSameId } from "#contract/ids.ts";

// When two slots, or a slot and a hold, are the same: shared by the list, the
// selection flow and the holds.

/** One identity for a slot whatever form its ids or offset take: provider, facility, start instant. */
export function slotKey(slot: Pick<Slot, "providerId" | "facilityId" | "startsAt">): string {
  return `${idKey(slot.providerId)}|${idKey(slot.facilityId)}|${Date.parse(slot.startsAt)}`;
}

/** The user's hold is of this slot, as the same type, length (the end) and new-patient flag. */
export function isHeldAs(hold: Pick<HeldSlot, "slot" | "appointmentTypeId" | "isNewPatient">, selection: Pick<SlotSelection, "providerId" | "facilityId" | "startsAt" | "endsAt" | "appointmentTypeId" | "isNewPatient">): boolean {
  return (
    slotKey(hold.slot) === slotKey(selection) &&
    Date.parse(hold.slot.endsAt) === Date.parse(selection.endsAt) &&
    isSameId(hold.appointmentTypeId, selection.appointmentTypeId) &&
    hold.isNewPatient === (selection.isNewPatient ?? false)
  );
}
