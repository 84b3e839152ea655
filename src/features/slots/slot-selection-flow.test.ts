import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { HoldResponse, SlotCheckResponse, SlotSelection } from "../../../contract/app-api/slots.ts";
import type { BookingRequest } from "../../../contract/bridge/messages.ts";
import type { Slot } from "../../../contract/clinic-api/schedule.ts";
import { SlotSelectionFlow, type SelectionDeps, type SelectionParams } from "./slot-selection-flow.ts";

const TEN_OCLOCK: Slot = {
  providerId: "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
  facilityId: "fac_11111111111111111111111111111111",
  startsAt: "2026-12-01T10:00:00-05:00",
  endsAt: "2026-12-01T10:20:00-05:00",
  remainingCapacity: 1,
  templateIds: ["avt_cccccccccccccccccccccccccccccccc"],
};
const TEN_TWENTY: Slot = { ...TEN_OCLOCK, startsAt: "2026-12-01T10:20:00-05:00", endsAt: "2026-12-01T10:40:00-05:00" };
const FOLLOW_UP: SelectionParams = { appointmentTypeId: "atp_dddddddddddddddddddddddddddddddd", slotLengthMinutes: 20, isNewPatient: false };
const META = { sourceSyncedAt: "2026-12-01T14:00:00.000Z", sourceKind: "ehr_kind_a", maxStalenessSeconds: 0, strongConsistency: true, strategy: "ehr_live", completeness: "complete", generatedAt: "2026-12-01T14:00:00.000Z" };
const NOW = Date.parse("2026-12-01T14:00:00.000Z");

class Conflict extends Error {}
class Declined extends Error {}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** A fake BFF and EHR that records every call, with the answers the test sets. */
function fakeBackend() {
  const calls = { check: [] as SlotSelection[], hold: [] as SlotSelection[], release: [] as string[], book: [] as BookingRequest[], slotsChanged: 0 };
  let holdCount = 0;
  const answers = {
    check: (request: SlotSelection): Promise<SlotCheckResponse> => Promise.resolve({ available: true, slot: { ...TEN_OCLOCK, startsAt: request.startsAt, endsAt: request.endsAt }, alternatives: [], meta: META }),
    hold: (): Promise<HoldResponse> => {
      holdCount += 1;
      return Promise.resolve({ hold: { id: `hold-${holdCount}`, status: "active", expiresAt: "2026-12-01T14:05:00.000Z", createdAt: "2026-12-01T14:00:00.000Z" } });
    },
    release: (): Promise<unknown> => Promise.resolve({ released: true }),
    book: (): Promise<string> => Promise.resolve("appt-1"),
  };
  const deps: SelectionDeps = {
    check: (request) => {
      calls.check.push(request);
      return answers.check(request);
    },
    hold: (request) => {
      calls.hold.push(request);
      return answers.hold();
    },
    isConflict: (error) => error instanceof Conflict,
    release: (holdId) => {
      calls.release.push(holdId);
      return answers.release();
    },
    book: (request) => {
      calls.book.push(request);
      return answers.book();
    },
    declineReason: (error) => (error instanceof Declined ? error.message : null),
    slotsChanged: () => {
      calls.slotsChanged += 1;
    },
    now: () => Date.now(),
  };
  return { calls, answers, flow: new SlotSelectionFlow(deps) };
}

beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("choosing a slot", () => {
  it("makes exactly one strong check for the selection, with the search's type, length and flag, then one hold", async () => {
    const { flow, calls } = fakeBackend();
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    expect(calls.check).toEqual([
      { providerId: TEN_OCLOCK.providerId, facilityId: TEN_OCLOCK.facilityId, startsAt: TEN_OCLOCK.startsAt, endsAt: TEN_OCLOCK.endsAt, appointmentTypeId: FOLLOW_UP.appointmentTypeId, slotLengthMinutes: 20, isNewPatient: false },
    ]);
    expect(calls.hold).toEqual(calls.check);
    expect(flow.getState()).toMatchObject({ kind: "held", hold: { id: "hold-1" }, deadlineMs: NOW + 300_000 });
  });

  it("ignores the same selection again (double click, Enter twice) while it is checked or held", async () => {
    const { flow, calls, answers } = fakeBackend();
    const check = deferred<SlotCheckResponse>();
    answers.check = () => check.promise;
    const first = flow.select(TEN_OCLOCK, FOLLOW_UP);
    const second = flow.select(TEN_OCLOCK, FOLLOW_UP);
    check.resolve({ available: true, slot: TEN_OCLOCK, alternatives: [], meta: META });
    await Promise.all([first, second]);
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    expect(calls.check).toHaveLength(1);
    expect(calls.hold).toHaveLength(1);
  });

  it("checks again when the same time is chosen with another length or flag: that is another selection", async () => {
    const { flow, calls } = fakeBackend();
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    await flow.select(TEN_OCLOCK, { ...FOLLOW_UP, isNewPatient: true });
    expect(calls.check.map((request) => request.isNewPatient)).toEqual([false, true]);
    expect(calls.release).toEqual(["hold-1"]);
  });

  it("says a gone slot plainly, offers the alternatives, refetches the list and does not hold", async () => {
    const { flow, calls, answers } = fakeBackend();
    answers.check = () => Promise.resolve({ available: false, slot: null, alternatives: [TEN_TWENTY], meta: META });
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    // Seen gone by the live read: a cached list read before then still shows it, and the view hides it.
    expect(flow.getState()).toMatchObject({ kind: "gone", alternatives: [TEN_TWENTY], seenGoneAtMs: Date.parse(META.sourceSyncedAt) });
    expect(calls.hold).toHaveLength(0);
    expect(calls.slotsChanged).toBe(1);
  });

  it("treats a 409 from the hold (taken after the check) as gone, not as an error", async () => {
    const { flow, calls, answers } = fakeBackend();
    answers.hold = () => Promise.reject(new Conflict("conflict"));
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    expect(flow.getState()).toMatchObject({ kind: "gone" });
    expect(calls.slotsChanged).toBe(1);
  });

  it("reports other failures with the step, and a retry is a new selection with its own check", async () => {
    const { flow, calls, answers } = fakeBackend();
    const outage = new Error("503");
    answers.check = () => Promise.reject(outage);
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    expect(flow.getState()).toMatchObject({ kind: "failed", step: "check", error: outage });
    answers.check = () => Promise.resolve({ available: true, slot: TEN_OCLOCK, alternatives: [], meta: META });
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    expect(calls.check).toHaveLength(2);
    expect(flow.getState().kind).toBe("held");
  });

  it("releases the held slot when another is picked, one check per selection", async () => {
    const { flow, calls } = fakeBackend();
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    await flow.select(TEN_TWENTY, FOLLOW_UP);
    expect(calls.check.map((request) => request.startsAt)).toEqual([TEN_OCLOCK.startsAt, TEN_TWENTY.startsAt]);
    expect(calls.release).toEqual(["hold-1"]);
    expect(flow.getState()).toMatchObject({ kind: "held", hold: { id: "hold-2" }, slot: { startsAt: TEN_TWENTY.startsAt } });
  });

  it("drops the answer of a selection the user has moved on from, releasing a hold that arrives late", async () => {
    const { flow, calls, answers } = fakeBackend();
    const lateHold = deferred<HoldResponse>();
    answers.hold = () => lateHold.promise;
    const first = flow.select(TEN_OCLOCK, FOLLOW_UP);
    await vi.waitFor(() => expect(calls.hold).toHaveLength(1));
    flow.cancel();
    expect(flow.getState().kind).toBe("idle");
    lateHold.resolve({ hold: { id: "late", status: "active", expiresAt: "2026-12-01T14:05:00.000Z" } });
    await first;
    expect(flow.getState().kind).toBe("idle");
    expect(calls.release).toEqual(["late"]);
  });
});

describe("a held slot", () => {
  it("is released on cancel, and the list refetched", async () => {
    const { flow, calls } = fakeBackend();
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    flow.cancel();
    await vi.waitFor(() => expect(calls.slotsChanged).toBe(2));
    expect(calls.release).toEqual(["hold-1"]);
    expect(flow.getState()).toMatchObject({ kind: "released" });
  });

  it("books in the EHR with the held slot and the patient, then releases the hold and refetches", async () => {
    const { flow, calls } = fakeBackend();
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    vi.advanceTimersByTime(30_000); // the receptionist confirms with the patient
    await flow.book("patient-7");
    expect(calls.book).toEqual([
      { holdId: "hold-1", providerId: TEN_OCLOCK.providerId, facilityId: TEN_OCLOCK.facilityId, startsAt: TEN_OCLOCK.startsAt, endsAt: TEN_OCLOCK.endsAt, appointmentTypeId: FOLLOW_UP.appointmentTypeId, isNewPatient: false, patientId: "patient-7" },
    ]);
    // Booked 30 s after the live read, on the service's clock: older cached lists still show the slot.
    expect(flow.getState()).toMatchObject({ kind: "booked", appointmentId: "appt-1", seenGoneAtMs: Date.parse(META.sourceSyncedAt) + 30_000 });
    expect(calls.release).toEqual(["hold-1"]);
    expect(calls.slotsChanged).toBe(2);
  });

  it("keeps the hold and says why when the EHR declines", async () => {
    const { flow, calls, answers } = fakeBackend();
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    answers.book = () => Promise.reject(new Declined("The patient already has an appointment then"));
    await flow.book(null);
    expect(flow.getState()).toMatchObject({ kind: "held", hold: { id: "hold-1" }, notice: { kind: "declined", reason: "The patient already has an appointment then" } });
    expect(calls.release).toEqual([]);
  });

  it("ignores a new selection while the EHR is booking", async () => {
    const { flow, calls, answers } = fakeBackend();
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    const booking = deferred<string>();
    answers.book = () => booking.promise;
    const book = flow.book(null);
    await flow.select(TEN_TWENTY, FOLLOW_UP);
    flow.cancel();
    expect(calls.check).toHaveLength(1);
    booking.resolve("appt-9");
    await book;
    expect(flow.getState()).toMatchObject({ kind: "booked", appointmentId: "appt-9" });
  });

  it("expires at its deadline and says so; the hold is given back and the list refetched", async () => {
    const { flow, calls } = fakeBackend();
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    await vi.advanceTimersByTimeAsync(299_000);
    expect(flow.getState().kind).toBe("held");
    await vi.advanceTimersByTimeAsync(2_000);
    expect(flow.getState()).toMatchObject({ kind: "expired" });
    expect(calls.release).toEqual(["hold-1"]);
    await vi.waitFor(() => expect(calls.slotsChanged).toBe(2));
  });

  it("is given back when the view is left", async () => {
    const { flow, calls } = fakeBackend();
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    flow.leave();
    expect(calls.release).toEqual(["hold-1"]);
    expect(flow.getState().kind).toBe("idle");
  });
});
