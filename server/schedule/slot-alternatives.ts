import type { Slot } from "#contract/clinic-api/schedule.ts";
import { parseV3PathId } from "#contract/ids.ts";

// What to offer when a chosen slot turns out gone (DESIGN.md "Slots are read
// from caches … tells the user plainly when it is gone"): the nearest free
// times of the same local day across the providers that were searched, and
// when that day has too few, the earliest of the following days. Slots carry
// their facility's offset, so the date part of `startsAt` is the local date.

export const MAX_ALTERNATIVES = 5;

const localDateOf = (slot: Pick<Slot, "startsAt">) => slot.startsAt.slice(0, 10);
const providerKey = (id: string) => parseV3PathId(id, "prv") ?? id;
const facilityKey = (id: string) => parseV3PathId(id, "fac") ?? id;
const slotIdentity = (slot: Pick<Slot, "providerId" | "facilityId" | "startsAt">) => `${providerKey(slot.providerId)}|${facilityKey(slot.facilityId)}|${Date.parse(slot.startsAt)}`;

/**
 * Up to {@link MAX_ALTERNATIVES} free slots other than `gone`, from every
 * candidate list given (the live read first: where a slot appears in several,
 * the first list's copy wins). Same local day first, nearest in time; then
 * later days, earliest first; answered in time order.
 */
export function pickAlternatives(gone: Pick<Slot, "providerId" | "facilityId" | "startsAt">, candidateLists: readonly (readonly Slot[])[]): Slot[] {
  const goneIdentity = slotIdentity(gone);
  const goneDate = localDateOf(gone);
  const target = Date.parse(gone.startsAt);
  const byIdentity = new Map<string, Slot>();
  for (const list of candidateLists) {
    for (const slot of list) {
      const identity = slotIdentity(slot);
      if (identity === goneIdentity || slot.remainingCapacity <= 0 || byIdentity.has(identity)) continue;
      byIdentity.set(identity, slot);
    }
  }
  const candidates = [...byIdentity.values()];
  const sameDay = candidates
    .filter((slot) => localDateOf(slot) === goneDate)
    .sort((a, b) => Math.abs(Date.parse(a.startsAt) - target) - Math.abs(Date.parse(b.startsAt) - target) || Date.parse(a.startsAt) - Date.parse(b.startsAt));
  const laterDays = candidates.filter((slot) => localDateOf(slot) > goneDate).sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt));
  return [...sameDay, ...laterDays].slice(0, MAX_ALTERNATIVES).sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt));
}
