import { describe, expect, it } from "vitest";
import { isSameId } from "#contract/ids.ts";
import { personKeyOf } from "../auth/person-key.ts";
import type { StoredWaitlistOffer } from "../store/store.ts";
import { waitlistOfferOf } from "./waitlist-views.ts";

// Who took an offer, as the SPA compares it with the session's `user.id`:
// the provider's id where the stored person key names one (ADR 0024).

const PROVIDER = "7d6e5f4a-3b21-4e6a-9b8c-5b0c1a7e3f2d";
const AT = Date.parse("2026-11-17T15:00:00Z");

const offer = (takenBy: string): StoredWaitlistOffer => ({
  id: "o1",
  organizationId: "org",
  freedKey: "k",
  appointmentId: "a1",
  facilityId: "fac",
  slotStartsAt: AT,
  freedAt: AT,
  status: "offered",
  attempts: 1,
  lastError: null,
  offered: {
    providerId: PROVIDER,
    facilityId: "fac",
    startsAt: "2026-11-18T10:00:00-05:00",
    endsAt: "2026-11-18T10:20:00-05:00",
    appointmentTypeId: "t",
    slotLengthMinutes: 20,
    isNewPatient: false,
    matches: [{ entryId: "e1", patientId: "p1", patientName: null, waitingSince: AT }],
  },
  taken: { userId: takenBy, entryId: "e1", at: AT },
});

describe("waitlistOfferOf", () => {
  it("names the user who took it by their provider id where the person key names one, else by the key", () => {
    expect(isSameId(waitlistOfferOf(offer(personKeyOf({ providerId: PROVIDER, accountId: "sub-1" })))?.takenBy?.userId ?? "", PROVIDER)).toBe(true);
    expect(waitlistOfferOf(offer(personKeyOf({ providerId: null, accountId: "sub-1" })))?.takenBy?.userId).toBe(personKeyOf({ providerId: null, accountId: "sub-1" }));
  });
});
