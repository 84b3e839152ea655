import type { WaitlistEntry, WaitlistOffer } from "#contract/app-api/waitlist.ts";
import { providerOfPersonKey } from "../auth/person-key.ts";
import type { StoredWaitlistEntry, StoredWaitlistOffer } from "../store/store.ts";
import type { BestMatch } from "./best-matches.ts";

// The stored waitlist as the contract answers it (contract/app-api/waitlist.ts).

const iso = (ms: number) => new Date(ms).toISOString();
/** A user as the SPA knows them: their provider id where the person key names one (the session's `user.id`), else the key. */
const userIdOf = (personKey: string) => providerOfPersonKey(personKey) ?? personKey;

export function waitlistEntryOf(entry: StoredWaitlistEntry, best: BestMatch): WaitlistEntry {
  return {
    id: entry.id,
    patientId: entry.patientId,
    patientName: entry.patientName,
    preferences: entry.preferences,
    createdAt: iso(entry.createdAt),
    createdBy: userIdOf(entry.createdBy),
    updatedAt: iso(entry.updatedAt),
    bestMatch: best.match,
    bestMatchSearch: best.search,
  };
}

/** The offer as the live event and GET /api/waitlist give it; null for a row that was never offered. */
export function waitlistOfferOf(offer: StoredWaitlistOffer): WaitlistOffer | null {
  const offered = offer.offered;
  if (offer.status !== "offered" || offered === null || offered.matches.length === 0) return null;
  return {
    id: offer.id,
    slot: { providerId: offered.providerId, facilityId: offered.facilityId, startsAt: offered.startsAt, endsAt: offered.endsAt },
    appointmentTypeId: offered.appointmentTypeId,
    slotLengthMinutes: offered.slotLengthMinutes,
    isNewPatient: offered.isNewPatient,
    matches: offered.matches.map((match) => ({ entryId: match.entryId, patientId: match.patientId, patientName: match.patientName, waitingSince: iso(match.waitingSince) })),
    freedAt: iso(offer.freedAt),
    takenBy: offer.taken === null ? null : { userId: userIdOf(offer.taken.userId), entryId: offer.taken.entryId, at: iso(offer.taken.at) },
  };
}
