import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { WaitlistOffer } from "#contract/app-api/waitlist.ts";
import { switchCacheIdentity, type CacheIdentity } from "./cache-identity.ts";
import { getKnownOffers, offerStatus, receiveLiveOffer, recordListedOffers } from "./waitlist-offers-store.ts";

// The offers the alert knows of: a live offer shows at once; the list says
// who took it; taken is for good whatever arrives late; an offer the list no
// longer names (read after this page learnt of it) has closed; another
// identity's offers are never kept.

const FRONT_DESK: CacheIdentity = { organizationId: "org_a", userId: "front-desk" };
const OTHER: CacheIdentity = { organizationId: "org_b", userId: "someone" };

const offer = (id: string, takenBy: WaitlistOffer["takenBy"] = null): WaitlistOffer => ({
  id,
  slot: { providerId: "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", facilityId: "fac_11111111111111111111111111111111", startsAt: "2026-12-08T10:00:00-05:00", endsAt: "2026-12-08T10:20:00-05:00" },
  appointmentTypeId: "atp_dddddddddddddddddddddddddddddddd",
  slotLengthMinutes: 20,
  isNewPatient: false,
  matches: [{ entryId: "5e0c2b1a-0000-4000-8000-000000000001", patientId: "pat_1", patientName: "Ana Ruiz", waitingSince: "2026-12-01T15:00:00.000Z" }],
  freedAt: "2026-12-07T15:00:00.000Z",
  takenBy,
});
const TAKEN = { userId: "colleague", entryId: "5e0c2b1a-0000-4000-8000-000000000001", at: "2026-12-07T15:01:00.000Z" };

const statusOf = (id: string) => {
  const known = getKnownOffers();
  const entry = known.offers.get(id);
  return entry ? offerStatus(entry, known.lastListedAtMs) : "unknown";
};

beforeEach(() => switchCacheIdentity(new QueryClient(), FRONT_DESK));
afterEach(() => switchCacheIdentity(new QueryClient(), null));

describe("the waitlist offers store", () => {
  it("shows a live offer at once, before any list is read", () => {
    receiveLiveOffer(FRONT_DESK, offer("o1"), 1_000);
    expect(statusOf("o1")).toBe("open");
  });

  it("takes who took it from the list, and a late live copy of the offer does not re-open it", () => {
    receiveLiveOffer(FRONT_DESK, offer("o1"), 1_000);
    recordListedOffers(FRONT_DESK, [offer("o1", TAKEN)], 2_000);
    expect(statusOf("o1")).toBe("taken");
    receiveLiveOffer(FRONT_DESK, offer("o1"), 3_000);
    expect(statusOf("o1")).toBe("taken");
    expect(getKnownOffers().offers.get("o1")?.offer.takenBy).toEqual(TAKEN);
  });

  it("keeps an offer learnt after a list was asked for open, and closes one a later list no longer names", () => {
    recordListedOffers(FRONT_DESK, [], 1_000);
    receiveLiveOffer(FRONT_DESK, offer("o1"), 2_000);
    // A list asked for before the event reached this page: it could not name it yet.
    recordListedOffers(FRONT_DESK, [], 1_500);
    expect(statusOf("o1")).toBe("open");
    recordListedOffers(FRONT_DESK, [], 3_000);
    expect(statusOf("o1")).toBe("closed");
  });

  it("keeps offers the list names after a reload (nothing live yet)", () => {
    recordListedOffers(FRONT_DESK, [offer("o1"), offer("o2", TAKEN)], 1_000);
    expect([statusOf("o1"), statusOf("o2")]).toEqual(["open", "taken"]);
  });

  it("keeps nothing read as another identity, and starts empty when the identity changes", () => {
    receiveLiveOffer(OTHER, offer("o1"), 1_000);
    expect(getKnownOffers().offers.size).toBe(0);
    receiveLiveOffer(FRONT_DESK, offer("o2"), 1_000);
    switchCacheIdentity(new QueryClient(), OTHER);
    expect(getKnownOffers().offers.size).toBe(0);
  });
});
