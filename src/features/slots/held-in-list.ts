import type { HeldSlot, SlotSearchQuery } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { isSameId } from "#contract/ids.ts";
import { localDateOf } from "#contract/time/zoned-time.ts";
import { isHeldForOtherPatient, keptPatientName } from "#src/scheduling/held-for.ts";
import { isHeldAs, slotKey, slotsByKey } from "#src/scheduling/slot-identity.ts";

// A slot the user holds stays on the list it was held from, marked Held: the
// service subtracts active holds from its slots (seed 001 "Schedule"), so the
// list read again after the hold no longer has it when it had one place left,
// and the user's own hold would vanish from under them. Only holds that this
// search could have listed come back: the same appointment type, new-patient
// flag and length, a searched facility and provider, a date in the window;
// and only the slot held as this search's kind is marked Held.

/** Whether `search` lists slots of the kind `held` was held as: the same appointment type, new-patient flag and (when the search names one) length. */
function isOfSearchKind(held: HeldSlot, search: SlotSearchQuery): boolean {
  if (!isSameId(held.appointmentTypeId, search.appointmentTypeId)) return false;
  if (held.isNewPatient !== (search.isNewPatient ?? false)) return false;
  return search.slotLengthMinutes === undefined || held.slotLengthMinutes === search.slotLengthMinutes;
}

/** The listed slots with `key`, over lists indexed once each (a wide search's parts). */
function listedWithKey(lists: readonly (readonly Slot[])[], key: string): Slot[] {
  return lists.flatMap((list) => slotsByKey(list).get(key) ?? []);
}

/** The user's holds that `search` would list but its lists lack, as slots with no place left (they are held). */
export function heldSlotsMissingFromList(holds: readonly HeldSlot[], lists: readonly (readonly Slot[])[], search: SlotSearchQuery | null, zoneOf: (facilityId: string) => string): Slot[] {
  if (!search || holds.length === 0) return [];
  return holds
    .filter((held) => {
      if (listedWithKey(lists, slotKey(held.slot)).length > 0) return false;
      if (!isOfSearchKind(held, search)) return false;
      if (search.facilityIds && search.facilityIds.length > 0 && !search.facilityIds.some((id) => isSameId(id, held.slot.facilityId))) return false;
      if (search.providerIds && search.providerIds.length > 0 && !search.providerIds.some((id) => isSameId(id, held.slot.providerId))) return false;
      const date = localDateOf(Date.parse(held.slot.startsAt), zoneOf(held.slot.facilityId));
      return date >= search.startDate && date <= search.endDate;
    })
    .map((held) => ({ ...held.slot, remainingCapacity: 0, templateIds: [] }));
}

/**
 * The keys of the listed slots the user holds, as this search's type and
 * new-patient flag, with the same start and end. A slot of another type,
 * flag or length at the same time is not the one held (and may still have a
 * place): it is not marked Held, and choosing it checks it like any other.
 */
export function heldKeysOnList(holds: readonly HeldSlot[], lists: readonly (readonly Slot[])[], search: SlotSearchQuery | null): Set<string> {
  if (!search || holds.length === 0) return new Set();
  const kind = { appointmentTypeId: search.appointmentTypeId, isNewPatient: search.isNewPatient ?? false };
  const keys = new Set<string>();
  for (const held of holds) {
    const key = slotKey(held.slot);
    if (listedWithKey(lists, key).some((slot) => isHeldAs(held, { ...slot, ...kind }))) keys.add(key);
  }
  return keys;
}

/**
 * Whom the listed slots held for a patient no longer open are held for, by key ("Ortiz, Christopher"): after
 * the EHR switched patients, a plain "Held" would read as held for the patient open now.
 */
export function heldForOtherPatients(holds: readonly HeldSlot[], heldKeys: ReadonlySet<string>, openPatientId: string | null): Map<string, string> {
  const whom = new Map<string, string>();
  const heldForOpenPatient = new Set(holds.filter((held) => !isHeldForOtherPatient(held, openPatientId)).map((held) => slotKey(held.slot)));
  for (const held of holds) {
    const key = slotKey(held.slot);
    // A hold for the patient open now puts its key in heldForOpenPatient, so what is left is held for another.
    if (heldKeys.has(key) && !heldForOpenPatient.has(key)) whom.set(key, keptPatientName(held) ?? "the patient open before");
  }
  return whom;
}
