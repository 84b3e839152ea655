import { describe, expect, it } from "vitest";
import type { HeldSlotsResponse } from "#contract/app-api/slots.ts";
import { MAYBE_HELD } from "#src/features/holds/testing/maybe-held.ts";
import { onThisBrowsersClock } from "./holds-queries.ts";

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
