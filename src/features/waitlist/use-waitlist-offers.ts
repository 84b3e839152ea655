import { useQuery } from "@tanstack/react-query";
import { useMemo, useSyncExternalStore } from "react";
import type { WaitlistOffer } from "#contract/app-api/waitlist.ts";
import { waitlistQuery } from "#src/api/waitlist-queries.ts";
import { getKnownOffers, offerStatus, subscribeKnownOffers, type OfferStatus } from "#src/api/waitlist-offers-store.ts";
import { dismissOffer, getDismissedOffers, subscribeDismissedOffers } from "./dismissed-offers.ts";
import { useNow } from "#src/lib/use-now.ts";

// The offers the alert shows: every offer this page knows of (live events and
// the waitlist's list, src/api/waitlist-offers-store.ts) whose slot has not
// begun and that this tab's user has not dismissed, newest first, each open,
// taken (by whom, from the list) or closed.

export interface ShownOffer {
  offer: WaitlistOffer;
  status: OfferStatus;
}

export function useWaitlistOffers(isEnabled: boolean): { offers: ShownOffer[]; dismiss: (offerId: string) => void } {
  // The list that brings offers made before this page opened, and who took which.
  useQuery({ ...waitlistQuery(), enabled: isEnabled });
  const known = useSyncExternalStore(subscribeKnownOffers, getKnownOffers);
  const dismissed = useSyncExternalStore(subscribeDismissedOffers, getDismissedOffers);
  const nowMs = useNow(30_000);
  const offers = useMemo(
    () =>
      [...known.offers.values()]
        .filter((entry) => !dismissed.has(entry.offer.id) && Date.parse(entry.offer.slot.startsAt) > nowMs)
        .map((entry) => ({ offer: entry.offer, status: offerStatus(entry, known.lastListedAtMs) }))
        .sort((a, b) => Date.parse(b.offer.freedAt) - Date.parse(a.offer.freedAt)),
    [known, dismissed, nowMs],
  );
  return { offers: isEnabled ? offers : [], dismiss: dismissOffer };
}
