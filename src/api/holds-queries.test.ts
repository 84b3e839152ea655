import { describe, expect, it } from "vitest";
import type { HeldSlotsResponse } from "#contract/app-api/slots.ts";
import { toRawUuid } from "#contract/ids.ts";
import { MAYBE_HELD } from "#src/features/holds/testing/maybe-held.ts";
import { onThisBrowsersClock, withHeld } from "./holds-queries.ts";

// A workstation's clock may be minutes off Tandem's server's: the holds are counted down on the browser's own.

const SERVER_NOW = "2026-11-17T15:30:00.000Z";
const { slot, appointmentTypeId, slotLengthMinutes, isNewPatient, patientId } = MAYBE_HELD;
const HELD = { id: "0e5f1c2a-3b4d-4e6f-8a9b-0c1d2e3f4a5b", slot, appointmentTypeId, slotLengthMinutes, isNewPatient, patientId, patientName: null, heldAt: "2026-11-17T15:28:00.000Z", expiresAt: "2026-11-17T15:38:00.000Z" };
const answer: HeldSlotsResponse = { holds: [HELD], maybeHeld: [{ ...MAYBE_HELD, freesAt: "2026-11-17T15:40:00.000Z" }], asOf: SERVER_NOW };

describe("the holds list on this browser's clock", () => {
  it("keeps a hold's eight minutes left and an attempt's ten for a browser thirteen hours behind or five minutes ahead", () => {
    for (const browserLeadMs of [-13 * 3_600_000, 5 * 60_000, 0]) {
      const askedAtMs = Date.parse(SERVER_NOW) + browserLeadMs;
      const listed = onThisBrowsersClock(answer, askedAtMs);
      expect(Date.parse(listed.holds[0]?.expiresAt ?? "") - askedAtMs).toBe(8 * 60_000);
      expect(Date.parse(listed.maybeHeld[0]?.freesAt ?? "") - askedAtMs).toBe(10 * 60_000);
      expect(listed.holds[0]?.heldAt).toBe(HELD.heldAt);
      expect(listed).not.toHaveProperty("asOf");
    }
  });

  it("ends a count early, never late, by the request's time on the way", () => {
    // Clocks that agree; the request took 300 ms to reach the server, which stamped its answer then.
    const askedAtMs = Date.parse(SERVER_NOW) - 300;
    expect(Date.parse(onThisBrowsersClock(answer, askedAtMs).holds[0]?.expiresAt ?? "")).toBe(Date.parse(HELD.expiresAt) - 300);
  });
});

describe("a hold added to the list", () => {
  const listed = { holds: [], maybeHeld: [MAYBE_HELD] };

  it("takes the place of the attempt it answered (the same hold, sent again under its key), until the list is read again", () => {
    expect(withHeld(listed, HELD)).toEqual({ holds: [HELD], maybeHeld: [] });
    // Ids in the other form are the same ids.
    const rawIds = { ...HELD, appointmentTypeId: toRawUuid(HELD.appointmentTypeId), slot: { ...HELD.slot, providerId: toRawUuid(HELD.slot.providerId) } };
    expect(withHeld(listed, rawIds).maybeHeld).toEqual([]);
  });

  it("leaves an attempt at the slot as another kind or for another patient, and adds a hold once", () => {
    expect(withHeld(listed, { ...HELD, slotLengthMinutes: HELD.slotLengthMinutes + 10 }).maybeHeld).toEqual([MAYBE_HELD]);
    expect(withHeld(listed, { ...HELD, patientId: "pat_eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee" }).maybeHeld).toEqual([MAYBE_HELD]);
    expect(withHeld(withHeld(undefined, HELD), HELD)).toEqual({ holds: [HELD], maybeHeld: [] });
  });
});
