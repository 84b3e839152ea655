import type { HeldSlot } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { isSameId } from "#contract/ids.ts";
import { slotKey } from "#src/scheduling/slot-identity.ts";

// The freed-slot alert: when the list is read again (a cancellation in the
// EHR reached it through the webhook) and a slot appears that was not there
// before, earlier than one the user holds or has just booked, with the same
// provider and facility, held as the same type and new-patient flag as the
// list, the view says so: the patient on the phone may prefer it.

export interface FreedSlot {
  slot: Slot;
  /** The held or booked slot it is earlier than. */
  instead: HeldSlot;
}

/** What the list was searched for: a hold counts only when it is held as the same. */
export interface ListKind {
  appointmentTypeId: string;
  isNewPatient: boolean;
}

export function freedEarlierSlots(previousKeys: { has: (key: string) => boolean }, slots: readonly Slot[], mine: readonly HeldSlot[], kind: ListKind): FreedSlot[] {
  const freed: FreedSlot[] = [];
  for (const slot of slots) {
    if (previousKeys.has(slotKey(slot))) continue;
    const startMs = Date.parse(slot.startsAt);
    const instead = mine.find(
      (held) =>
        isSameId(held.appointmentTypeId, kind.appointmentTypeId) &&
        held.isNewPatient === kind.isNewPatient &&
        isSameId(held.slot.providerId, slot.providerId) &&
        isSameId(held.slot.facilityId, slot.facilityId) &&
        startMs < Date.parse(held.slot.startsAt),
    );
    if (instead) freed.push({ slot, instead });
  }
  return freed.sort((a, b) => Date.parse(a.slot.startsAt) - Date.parse(b.slot.startsAt));
}
