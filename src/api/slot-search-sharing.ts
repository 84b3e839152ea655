import { replaceEqualDeep } from "@tanstack/react-query";
import type { SlotSearchResponse } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { slotKey, slotsByKey } from "#src/scheduling/slot-identity.ts";

// A search read again (after a hold, a release, a live event) keeps the slot
// objects that did not change. TanStack Query's own structural sharing
// compares arrays place by place, so one slot gone from a 24,000-slot answer
// made every slot after it a new object, and the list keyed, placed and
// grouped them all again; matched by key, only the changed slots are new, and
// an answer with no slot changed keeps its list (and draws nothing again).

function isSameSlot(a: Slot, b: Slot): boolean {
  return (
    a.providerId === b.providerId &&
    a.facilityId === b.facilityId &&
    a.startsAt === b.startsAt &&
    a.endsAt === b.endsAt &&
    a.remainingCapacity === b.remainingCapacity &&
    a.templateIds.length === b.templateIds.length &&
    a.templateIds.every((id, index) => id === b.templateIds[index])
  );
}

/** `next` with every slot equal to one of `previous` replaced by that one; `previous` itself when nothing changed. */
export function shareUnchangedSlots(previous: SlotSearchResponse | undefined, next: SlotSearchResponse): SlotSearchResponse {
  if (!previous) return next;
  const before = slotsByKey(previous.slots);
  let isSameList = previous.slots.length === next.slots.length;
  const slots = next.slots.map((slot, index) => {
    const kept = before.get(slotKey(slot))?.find((candidate) => isSameSlot(candidate, slot));
    if (kept === undefined || kept !== previous.slots[index]) isSameList = false;
    return kept ?? slot;
  });
  const shared = { ...replaceEqualDeep(previous, { ...next, slots: previous.slots }), slots: isSameList ? previous.slots : slots };
  return shared.slots === previous.slots && shared.meta === previous.meta && shared.nextAvailableByProvider === previous.nextAvailableByProvider ? previous : shared;
}
