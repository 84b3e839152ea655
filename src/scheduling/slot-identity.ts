import type { HeldSlot, SlotSelection } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { cachedIdKey, isSameId } from "#contract/ids.ts";

// When two slots, or a slot and a hold, are the same: shared by the list, the
// selection flow and the holds.

type SlotIdentity = Pick<Slot, "providerId" | "facilityId" | "startsAt">;

/** One identity for a slot whatever form its ids or offset take: provider, facility, start instant. */
export function slotKey({ providerId, facilityId, startsAt }: SlotIdentity): string {
  // Made afresh each time: cheaper than remembering it per slot object (a large group's answer has about 24,000),
  // and what asks for every slot's key remembers the result (the list's placing, slotsByKey per list).
  return `${cachedIdKey(providerId)}|${cachedIdKey(facilityId)}|${Date.parse(startsAt)}`;
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

const indexesOfLists = new WeakMap<readonly SlotIdentity[], { length: number; byKey: ReadonlyMap<string, readonly SlotIdentity[]> }>();

/**
 * A list's slots by key, remembered per list (an answer, the list on screen):
 * finding the user's holds in it then costs a lookup per hold, not a pass over
 * every slot each time the holds change.
 */
export function slotsByKey<T extends SlotIdentity>(slots: readonly T[]): ReadonlyMap<string, readonly T[]> {
  const remembered = indexesOfLists.get(slots);
  // The same array with the same length is the same list: lists are built whole and not changed after.
  if (remembered && remembered.length === slots.length) return remembered.byKey as ReadonlyMap<string, readonly T[]>;
  const byKey = new Map<string, T[]>();
  for (const slot of slots) {
    const key = slotKey(slot);
    const same = byKey.get(key);
    if (same) same.push(slot);
    else byKey.set(key, [slot]);
  }
  indexesOfLists.set(slots, { length: slots.length, byKey });
  return byKey;
}
