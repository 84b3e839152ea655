import * as z from "zod/mini";
import { currentCacheIdentity, identityKey } from "#src/api/cache-identity.ts";

// The offers this tab's user put away (issue 38: the alert is dismissable):
// kept for the tab (sessionStorage where the browser lets the frame have it,
// else this page's memory), under the organization and user (ADR 0025), so a
// reload does not bring a dismissed offer back. Offer ids only.

const MAX_KEPT = 200;
const storageKey = () => `tandem.waitlist-dismissed.${identityKey(currentCacheIdentity())}`;
const idList = z.array(z.string());

const inMemory = new Map<string, readonly string[]>();
const listeners = new Set<() => void>();
let snapshot: { key: string; ids: ReadonlySet<string> } | null = null;

function read(key: string): readonly string[] {
  const held = inMemory.get(key);
  if (held) return held;
  try {
    const raw = window.sessionStorage.getItem(key);
    const parsed = raw === null ? null : z.safeParse(idList, JSON.parse(raw) as unknown);
    return parsed?.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** The ids dismissed in this tab by the identity signed in now (the same set while nothing changes). */
export function getDismissedOffers(): ReadonlySet<string> {
  const key = storageKey();
  if (snapshot?.key !== key) snapshot = { key, ids: new Set(read(key)) };
  return snapshot.ids;
}

export function dismissOffer(offerId: string): void {
  const key = storageKey();
  const ids = [...read(key).filter((id) => id !== offerId), offerId].slice(-MAX_KEPT);
  inMemory.set(key, ids);
  try {
    window.sessionStorage.setItem(key, JSON.stringify(ids));
  } catch {
    // kept in memory only
  }
  snapshot = { key, ids: new Set(ids) };
  for (const listener of [...listeners]) listener();
}

export function subscribeDismissedOffers(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
