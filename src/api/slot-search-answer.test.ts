import fc from "fast-check";
import * as z from "zod/mini";
import { describe, expect, it } from "vitest";
import { slotSearchResponse } from "#contract/app-api/slots.ts";
import { quickSlotSearchParse, slotSearchAnswer } from "./slot-search-answer.ts";

// The quick path gives the contract's verdict and output on every answer: a
// valid one parsed to the same value (fresh objects, unknown keys dropped), and
// anything else handed to the contract's schema, which names the problem.

const PROVIDERS = ["prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "prv_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"];
const FACILITY = "fac_11111111111111111111111111111111";
const TEMPLATE = "avt_cccccccccccccccccccccccccccccccc";
const META = { sourceSyncedAt: "2026-11-30T12:00:00.000Z", sourceKind: "cache", maxStalenessSeconds: 60, strongConsistency: false, strategy: "native", completeness: "complete", generatedAt: "2026-11-30T12:00:00.000Z" };

const validSlot = fc.record({
  providerId: fc.constantFrom(...PROVIDERS),
  facilityId: fc.constant(FACILITY),
  startsAt: fc.constantFrom("2026-12-01T08:00:00-05:00", "2026-12-01T08:30:00-05:00", "2026-12-01T13:00:00Z"),
  endsAt: fc.constantFrom("2026-12-01T08:30:00-05:00", "2026-12-01T09:00:00.5-05:00"),
  remainingCapacity: fc.nat(3),
  templateIds: fc.array(fc.constant(TEMPLATE), { maxLength: 2 }),
});

/** A field of one slot replaced by something the contract may or may not take. */
const oddValue = fc.oneof(
  fc.constantFrom(null, undefined, true, -1, 1.5, 2 ** 60, "", "prv_AAAA", "fac_11111111111111111111111111111111", "2026-02-30T08:00:00-05:00", "2026-12-01T24:00:00Z", "2026-12-01 08:00", [], {}, [TEMPLATE, 7], ["avt_x"]),
  fc.string(),
  fc.integer(),
);
const FIELDS = ["providerId", "facilityId", "startsAt", "endsAt", "remainingCapacity", "templateIds", "extra"] as const;

const answer = fc
  .record({
    slots: fc.array(validSlot, { maxLength: 8 }),
    spoil: fc.option(fc.record({ at: fc.nat(), field: fc.constantFrom(...FIELDS), value: oddValue }), { nil: undefined }),
    nextAvailable: fc.constantFrom<Record<string, unknown>>({}, { [PROVIDERS[0]!]: "2026-12-02" }, { [PROVIDERS[0]!]: "2026-12-32" }),
    wholeSlot: fc.option(fc.constantFrom(null, "slot", [], 3), { nil: undefined }),
  })
  .map(({ slots, spoil, nextAvailable, wholeSlot }) => {
    const spoiled: unknown[] = slots.map((one) => ({ ...one }));
    if (spoil && spoiled.length > 0) (spoiled[spoil.at % spoiled.length] as Record<string, unknown>)[spoil.field] = spoil.value;
    if (wholeSlot !== undefined) spoiled.push(wholeSlot);
    return { slots: spoiled, nextAvailableByProvider: nextAvailable, meta: META };
  });

describe("the slot search's answer, checked the quick way", () => {
  it("agrees with the contract's schema on every answer, valid or not", () => {
    fc.assert(
      fc.property(answer, (input) => {
        const contract = z.safeParse(slotSearchResponse, input);
        const quick = z.safeParse(slotSearchAnswer, input);
        expect(quick.success).toBe(contract.success);
        if (contract.success) expect(quick.data).toEqual(contract.data);
        else expect(quick.error?.issues).toEqual(contract.error.issues);
      }),
      { numRuns: 500 },
    );
  });

  it("parses a valid answer itself into fresh slots without unknown fields, and leaves anything doubtful to the contract", () => {
    const slot = { providerId: PROVIDERS[0], facilityId: FACILITY, startsAt: "2026-12-01T08:00:00-05:00", endsAt: "2026-12-01T08:30:00-05:00", remainingCapacity: 1, templateIds: [TEMPLATE], note: "x" };
    const parsed = quickSlotSearchParse({ slots: [slot], nextAvailableByProvider: {}, meta: META });
    expect(parsed).not.toBe(z.INVALID);
    const { note: _note, ...known } = slot;
    expect(parsed === z.INVALID ? null : parsed.slots).toEqual([known]);
    expect(parsed === z.INVALID ? null : parsed.slots[0]?.templateIds).not.toBe(slot.templateIds);
    expect(quickSlotSearchParse({ slots: [{ ...slot, remainingCapacity: -1 }], nextAvailableByProvider: {}, meta: META })).toBe(z.INVALID);
    expect(quickSlotSearchParse({ slots: [slot], nextAvailableByProvider: {}, meta: {} })).toBe(z.INVALID);
  });
});
