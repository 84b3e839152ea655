import { describe, expect, it } from "vitest";
import type { EhrAppointment, EhrTemplate } from "../world/types.ts";
import type { HoldRecord } from "./service-state.ts";
import { SlotAnswerMemo, type SlotAnswerInputs } from "./slot-answer-memo.ts";

const ORG = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
const AT_MINUTE = Date.parse("2026-11-23T14:00:00.000Z");

const hold = (id: string): HoldRecord => ({
  id,
  organizationId: ORG,
  providerId: "p",
  facilityId: "f",
  startsAt: "2026-11-24T14:00:00.000Z",
  endsAt: "2026-11-24T14:30:00.000Z",
  startsAtMs: Date.parse("2026-11-24T14:00:00.000Z"),
  endsAtMs: Date.parse("2026-11-24T14:30:00.000Z"),
  appointmentTypeId: "atp",
  slotLengthMinutes: 30,
  isNewPatient: false,
  createdAt: "2026-11-23T13:00:00.000Z",
  expiresAtMs: AT_MINUTE + 600_000,
  releasedAt: null,
});

function inputs(overrides: Partial<SlotAnswerInputs> = {}): SlotAnswerInputs {
  return { templates: [] as EhrTemplate[], appointmentsByProvider: new Map<string, EhrAppointment[]>(), activeHolds: [], now: AT_MINUTE, ...overrides };
}

/** A memo whose answers count how often they were made. */
function counting() {
  const memo = new SlotAnswerMemo();
  let made = 0;
  const answer = (search: string, from: SlotAnswerInputs, size = 10) => memo.answer(ORG, search, from, () => `"made":${++made}${" ".repeat(size)}`);
  return { answer, made: () => made };
}

describe("SlotAnswerMemo: a mirror search's answer is made once while nothing it is made of changes", () => {
  it("the same search over the same mirror, holds and minute is answered from what was kept", () => {
    const { answer, made } = counting();
    const from = inputs();
    expect(answer("a", from)).toBe(answer("a", { ...from, now: AT_MINUTE - 59_999 }));
    expect(made()).toBe(1);
    answer("b", from);
    expect(made()).toBe(2);
  });

  it("a new mirror (a sync replaced its templates or bookings) makes it again", () => {
    const { answer, made } = counting();
    const from = inputs();
    answer("a", from);
    answer("a", { ...from, templates: [] });
    answer("a", { ...from, appointmentsByProvider: new Map() });
    expect(made()).toBe(3);
  });

  it("another set of active holds makes it again, in whatever order they are listed", () => {
    const { answer, made } = counting();
    const from = inputs({ activeHolds: [hold("h1"), hold("h2")] });
    answer("a", from);
    answer("a", { ...from, activeHolds: [hold("h2"), hold("h1")] });
    expect(made()).toBe(1);
    answer("a", { ...from, activeHolds: [hold("h1")] });
    answer("a", { ...from, activeHolds: [] });
    expect(made()).toBe(3);
  });

  it("a slot starting at a minute is listed until that instant and not a millisecond after: the next minute makes it again", () => {
    const { answer, made } = counting();
    const from = inputs();
    answer("a", { ...from, now: AT_MINUTE });
    answer("a", { ...from, now: AT_MINUTE - 30_000 });
    expect(made()).toBe(1);
    answer("a", { ...from, now: AT_MINUTE + 1 });
    expect(made()).toBe(2);
  });

  it("keeps at most 32 MiB of JSON per organization", () => {
    const { answer, made } = counting();
    const from = inputs();
    const large = 12 * 1024 * 1024;
    answer("a", from, large);
    answer("b", from, large);
    answer("a", from, large);
    expect(made()).toBe(2);
    answer("c", from, large);
    answer("a", from, large);
    expect(made()).toBe(4);
  });
});
