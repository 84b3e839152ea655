import { describe, expect, it, vi } from "vitest";
import type { HoldRequest, HoldResponse, SlotCheckResponse } from "#contract/app-api/slots.ts";
import type { WaitlistOffer } from "#contract/app-api/waitlist.ts";
import { holdFromOffer, type OfferHoldDeps, type OfferHoldState } from "./offer-hold.ts";

// Holding a freed slot for a waitlisted patient: one strong check, then the
// hold with `fromWaitlist` (the BFF holds it for the entry's patient); a slot
// gone, or taken from the offer by a colleague first, said plainly.

const ENTRY = "5e0c2b1a-0000-4000-8000-000000000001";
const OFFER: WaitlistOffer = {
  id: "7a1c2b1a-0000-4000-8000-000000000009",
  slot: { providerId: "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", facilityId: "fac_11111111111111111111111111111111", startsAt: "2026-12-08T10:00:00-05:00", endsAt: "2026-12-08T10:20:00-05:00" },
  appointmentTypeId: "atp_dddddddddddddddddddddddddddddddd",
  slotLengthMinutes: 20,
  isNewPatient: false,
  matches: [{ entryId: ENTRY, patientId: "pat_1", patientName: "Ana Ruiz", waitingSince: "2026-12-01T15:00:00.000Z" }],
  freedAt: "2026-12-07T15:00:00.000Z",
  takenBy: null,
};
const META = { sourceSyncedAt: "2026-12-07T15:00:01.000Z", sourceKind: "ehr_kind_a", maxStalenessSeconds: 0, strongConsistency: true, strategy: "ehr_live", completeness: "complete", generatedAt: "2026-12-07T15:00:01.000Z" };
const available: SlotCheckResponse = { available: true, slot: { ...OFFER.slot, remainingCapacity: 1, templateIds: [] }, alternatives: [], meta: META };
const gone: SlotCheckResponse = { available: false, slot: null, alternatives: [], meta: META };
const HELD = { hold: { id: "hold-1", status: "active", expiresAt: "2026-12-07T15:10:00.000Z" }, held: { id: "hold-1" } } as unknown as HoldResponse;
class Refused extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

function deps(check: () => Promise<SlotCheckResponse>, hold: (request: HoldRequest) => Promise<HoldResponse>) {
  return {
    check: vi.fn(check),
    hold: vi.fn(hold),
    isConflict: (error: unknown) => error instanceof Refused && error.code === "conflict",
    isHoldLimit: (error: unknown) => error instanceof Refused && error.code === "hold_limit_reached",
    isAlreadyHeld: (error: unknown) => error instanceof Refused && error.code === "already_held",
    isOutcomeUnknown: () => false,
    takenMessage: (error: unknown) => (error instanceof Refused && error.code === "waitlist_offer_taken" ? "This slot was already held from the waitlist by a colleague." : null),
    onHeld: vi.fn(),
    holdsChanged: vi.fn(),
    waitlistChanged: vi.fn(),
    slotsChanged: vi.fn(),
    now: () => 1_000,
  } satisfies OfferHoldDeps;
}

async function run(d: OfferHoldDeps): Promise<OfferHoldState[]> {
  const states: OfferHoldState[] = [];
  await holdFromOffer(OFFER, ENTRY, d, (state) => states.push(state));
  return states;
}

describe("holdFromOffer", () => {
  it("checks the slot strongly as the offer's type, length and flag, then holds it from the offer for that entry", async () => {
    const d = deps(() => Promise.resolve(available), () => Promise.resolve(HELD));
    expect((await run(d)).map((state) => state.kind)).toEqual(["checking", "holding", "held"]);
    const selection = { providerId: OFFER.slot.providerId, facilityId: OFFER.slot.facilityId, startsAt: OFFER.slot.startsAt, endsAt: OFFER.slot.endsAt, appointmentTypeId: OFFER.appointmentTypeId, slotLengthMinutes: 20, isNewPatient: false };
    expect(d.check).toHaveBeenCalledWith(selection);
    expect(d.hold).toHaveBeenCalledWith({ ...selection, fromWaitlist: { offerId: OFFER.id, entryId: ENTRY } });
    expect(d.onHeld).toHaveBeenCalledWith(expect.objectContaining({ response: HELD, liveRead: { serviceMs: Date.parse(META.sourceSyncedAt), localMs: 1_000 } }));
    expect(d.waitlistChanged).toHaveBeenCalled();
    // The list marks it held from the holds: 24,000 slots are not read again for one hold.
    expect(d.slotsChanged).not.toHaveBeenCalled();
  });

  it("says the slot is gone when the live check finds it taken, and holds nothing", async () => {
    const d = deps(() => Promise.resolve(gone), () => Promise.resolve(HELD));
    expect((await run(d)).at(-1)).toEqual({ kind: "gone", entryId: ENTRY, mayBeYours: false });
    expect(d.hold).not.toHaveBeenCalled();
  });

  it("on a try again after a lost answer, says a slot found gone may be the first try's hold, for that patient only", async () => {
    const lost: OfferHoldState = { kind: "failed", entryId: ENTRY, step: "hold", error: new Error("lost"), outcomeUnknown: true };
    const states: OfferHoldState[] = [];
    await holdFromOffer(OFFER, ENTRY, deps(() => Promise.resolve(gone), () => Promise.resolve(HELD)), (state) => states.push(state), lost);
    expect(states.at(-1)).toEqual({ kind: "gone", entryId: ENTRY, mayBeYours: true });
    const other: OfferHoldState[] = [];
    await holdFromOffer(OFFER, ENTRY, deps(() => Promise.resolve(gone), () => Promise.resolve(HELD)), (state) => other.push(state), { ...lost, entryId: "another-entry" });
    expect(other.at(-1)).toEqual({ kind: "gone", entryId: ENTRY, mayBeYours: false });
  });

  it("says a colleague held it from the waitlist first, in the BFF's words, and reads the waitlist again", async () => {
    const d = deps(() => Promise.resolve(available), () => Promise.reject(new Refused("waitlist_offer_taken")));
    expect((await run(d)).at(-1)).toEqual({ kind: "taken", entryId: ENTRY, message: "This slot was already held from the waitlist by a colleague." });
    expect(d.waitlistChanged).toHaveBeenCalled();
    expect(d.onHeld).not.toHaveBeenCalled();
  });

  it("tells a full basket and a failure apart", async () => {
    expect((await run(deps(() => Promise.resolve(available), () => Promise.reject(new Refused("hold_limit_reached"))))).at(-1)?.kind).toBe("basketFull");
    const failure = new Error("network");
    expect((await run(deps(() => Promise.reject(failure), () => Promise.resolve(HELD)))).at(-1)).toEqual({ kind: "failed", entryId: ENTRY, step: "check", error: failure, outcomeUnknown: false });
  });
});
