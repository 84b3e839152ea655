import type { WaitlistOffer } from "#contract/app-api/waitlist.ts";
import { identityKey, onCacheIdentityChange, type CacheIdentity } from "./cache-identity.ts";

// The waitlist offers this page knows of (issue 38), from two sources: the
// live `waitlist.offer` events (at once, whatever view is open) and GET
// /api/waitlist's `offers` (the BFF's store: open offers survive a reload, and
// a hold a colleague made from one shows in `takenBy`). An offer the list
// stops naming, read after this page learnt of it, has closed (taken, or its
// slot no longer offered). Kept per identity (ADR 0025): another organization
// or user starts empty. Ids and slots only, never kept beyond the page.

export interface KnownOffer {
  offer: WaitlistOffer;
  /** When this page last learnt of it (a live event, or a list naming it). */
  learntAtMs: number;
  /** Named by the last list read. */
  isListed: boolean;
}

export interface KnownOffers {
  offers: ReadonlyMap<string, KnownOffer>;
  /** When the last list read was asked for, or null before any. */
  lastListedAtMs: number | null;
}

/** The state of an offer as this page can tell it. */
export type OfferStatus = "open" | "taken" | "closed";

/** At most this many offers are kept: the oldest go first (a clinic's afternoon has far fewer). */
const MAX_KNOWN_OFFERS = 100;

const EMPTY: KnownOffers = { offers: new Map(), lastListedAtMs: null };

let owner = identityKey(null);
let known: KnownOffers = EMPTY;
const listeners = new Set<() => void>();

function publish(next: KnownOffers): void {
  known = next;
  for (const listener of [...listeners]) listener();
}

onCacheIdentityChange((identity) => {
  owner = identityKey(identity);
  publish(EMPTY);
});

/** Taken is for good: a copy read before the hold (an event delivered late, a list in flight) never re-opens it. */
function merged(before: WaitlistOffer | undefined, after: WaitlistOffer): WaitlistOffer {
  return before?.takenBy && !after.takenBy ? { ...after, takenBy: before.takenBy } : after;
}

function bounded(offers: Map<string, KnownOffer>): Map<string, KnownOffer> {
  if (offers.size <= MAX_KNOWN_OFFERS) return offers;
  const newestFirst = [...offers.values()].sort((a, b) => b.learntAtMs - a.learntAtMs).slice(0, MAX_KNOWN_OFFERS);
  return new Map(newestFirst.map((entry) => [entry.offer.id, entry]));
}

/** A `waitlist.offer` event read from the stream opened as `identity`. */
export function receiveLiveOffer(identity: CacheIdentity | null, offer: WaitlistOffer, nowMs = Date.now()): void {
  if (identityKey(identity) !== owner) return;
  const offers = new Map(known.offers);
  const before = offers.get(offer.id);
  offers.set(offer.id, { offer: merged(before?.offer, offer), learntAtMs: nowMs, isListed: before?.isListed ?? false });
  publish({ ...known, offers: bounded(offers) });
}

/** GET /api/waitlist's offers, read as `identity`, asked for at `askedAtMs`. */
export function recordListedOffers(identity: CacheIdentity | null, listed: readonly WaitlistOffer[], askedAtMs: number): void {
  if (identityKey(identity) !== owner) return;
  const offers = new Map<string, KnownOffer>();
  for (const [id, entry] of known.offers) offers.set(id, { ...entry, isListed: false });
  for (const offer of listed) {
    const before = offers.get(offer.id);
    offers.set(offer.id, { offer: merged(before?.offer, offer), learntAtMs: Math.max(before?.learntAtMs ?? 0, askedAtMs), isListed: true });
  }
  publish({ offers: bounded(offers), lastListedAtMs: Math.max(known.lastListedAtMs ?? 0, askedAtMs) });
}

/**
 * Open or taken as the offer says, while the list names it or was read before
 * this page learnt of it; closed when a list read since no longer names it
 * and nothing said it was taken (the BFF lists open offers only).
 */
export function offerStatus(entry: KnownOffer, lastListedAtMs: number | null): OfferStatus {
  if (entry.offer.takenBy) return "taken";
  if (entry.isListed || lastListedAtMs === null || entry.learntAtMs > lastListedAtMs) return "open";
  return "closed";
}

export function getKnownOffers(): KnownOffers {
  return known;
}

export function subscribeKnownOffers(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
