import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { HoldResponse, MaybeHeldSlot, SlotCheckResponse, SlotSelection } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { SlotSelectionFlow, type FreshHold, type SelectionDeps, type SelectionParams, type UsersHold } from "./slot-selection-flow.ts";

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
class HoldLimit extends Error {}
class AlreadyHeld extends Error {}
/** The BFF lost the service's answer and lists the attempt (`maybeHeld`), or null: Tandem's server itself did not answer. */
class Unanswered extends Error {
  constructor(readonly maybeHeld: MaybeHeldSlot | null) {
    super("504");
  }
}

/** The BFF's record of an attempt on `slot` whose answer was lost. */
const maybeHeldOn = (slot: Slot): MaybeHeldSlot => ({
  id: "0a0a0a0a-0000-4000-8000-000000000001",
  slot: { providerId: slot.providerId, facilityId: slot.facilityId, startsAt: slot.startsAt, endsAt: slot.endsAt },
  appointmentTypeId: FOLLOW_UP.appointmentTypeId,
  slotLengthMinutes: 20,
  isNewPatient: false,
  patientId: null,
  triedAt: "2026-12-01T14:00:00.000Z",
  freesAt: "2026-12-01T14:11:00.000Z",
  canRelease: false,
});

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** A fake BFF that records every call, with the answers the test sets. */
function fakeBackend() {
  const calls = { check: [] as SlotSelection[], hold: [] as SlotSelection[], release: [] as string[], held: [] as FreshHold[], slotsChanged: 0, holdsChanged: 0 };
  let holdCount = 0;
  const answers = {
    check: (request: SlotSelection): Promise<SlotCheckResponse> => Promise.resolve({ available: true, slot: { ...TEN_OCLOCK, startsAt: request.startsAt, endsAt: request.endsAt }, alternatives: [], meta: META }),
    hold: (request: SlotSelection): Promise<HoldResponse> => {
      holdCount += 1;
      const id = `hold-${holdCount}`;
      return Promise.resolve({
        hold: { id, status: "active", expiresAt: "2026-12-01T14:05:00.000Z", createdAt: "2026-12-01T14:00:00.000Z" },
        held: { id, slot: TEN_OCLOCK, appointmentTypeId: request.appointmentTypeId, slotLengthMinutes: 20, isNewPatient: request.isNewPatient ?? false, patientId: null, patientName: null, expiresAt: "2026-12-01T14:05:00.000Z", heldAt: "2026-12-01T14:00:00.000Z" },
      });
    },
    release: (): Promise<unknown> => Promise.resolve({ released: true }),
  };
  const deps: SelectionDeps = {
    check: (request) => {
      calls.check.push(request);
      return answers.check(request);
    },
    hold: (request) => {
      calls.hold.push(request);
      return answers.hold(request);
    },
    isConflict: (error) => error instanceof Conflict,
    isHoldLimit: (error) => error instanceof HoldLimit,
    isAlreadyHeld: (error) => error instanceof AlreadyHeld,
    isOutcomeUnknown: (error) => error instanceof Unanswered,
    maybeHeldOf: (error) => (error instanceof Unanswered ? error.maybeHeld : null),
    holdsChanged: () => {
      calls.holdsChanged += 1;
    },
    release: (holdId) => {
      calls.release.push(holdId);
      return answers.release();
    },
    onHeld: (fresh) => calls.held.push(fresh),
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
  it("makes exactly one strong check for the selection, with the search's type, length and flag, then one hold handed to the holds", async () => {
    const { flow, calls } = fakeBackend();
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    expect(calls.check).toEqual([
      { providerId: TEN_OCLOCK.providerId, facilityId: TEN_OCLOCK.facilityId, startsAt: TEN_OCLOCK.startsAt, endsAt: TEN_OCLOCK.endsAt, appointmentTypeId: FOLLOW_UP.appointmentTypeId, slotLengthMinutes: 20, isNewPatient: false },
    ]);
    expect(calls.hold).toEqual(calls.check);
    expect(calls.held).toMatchObject([{ response: { held: { id: "hold-1" } }, deadlineMs: NOW + 300_000, liveRead: { serviceMs: Date.parse(META.sourceSyncedAt), localMs: NOW } }]);
    expect(flow.getState().kind).toBe("idle");
  });

  it("does not read the slot list again after a hold: the list still has the slot, marked Held from the holds", async () => {
    const { flow, calls } = fakeBackend();
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    expect(calls.held).toHaveLength(1);
    expect(calls.slotsChanged).toBe(0);
  });

  it("sends the patient only when one is given (outside the EHR); the token's patient wins at the BFF", async () => {
    const { flow, calls } = fakeBackend();
    await flow.select(TEN_OCLOCK, FOLLOW_UP, { patientId: "patient-7" });
    expect(calls.hold[0]).toMatchObject({ patientId: "patient-7" });
  });

  it("ignores the same selection again (double click, Enter twice) while it is being checked", async () => {
    const { flow, calls, answers } = fakeBackend();
    const check = deferred<SlotCheckResponse>();
    answers.check = () => check.promise;
    const first = flow.select(TEN_OCLOCK, FOLLOW_UP);
    const second = flow.select(TEN_OCLOCK, FOLLOW_UP);
    check.resolve({ available: true, slot: TEN_OCLOCK, alternatives: [], meta: META });
    await Promise.all([first, second]);
    expect(calls.check).toHaveLength(1);
    expect(calls.hold).toHaveLength(1);
  });

  it("checks again when the same time is chosen with another length or flag: that is another selection", async () => {
    const { flow, calls } = fakeBackend();
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    await flow.select(TEN_OCLOCK, { ...FOLLOW_UP, isNewPatient: true });
    expect(calls.check.map((request) => request.isNewPatient)).toEqual([false, true]);
  });

  it("keeps an earlier hold when another slot is held: holds are a basket, not one per view", async () => {
    const { flow, calls } = fakeBackend();
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    await flow.select(TEN_TWENTY, FOLLOW_UP);
    expect(calls.held.map((fresh) => fresh.response.held.id)).toEqual(["hold-1", "hold-2"]);
    expect(calls.release).toEqual([]);
  });

  it("says a full basket plainly without checking or holding", async () => {
    const { flow, calls } = fakeBackend();
    const others = [TEN_TWENTY, { ...TEN_TWENTY, startsAt: "2026-12-01T11:00:00-05:00" }, { ...TEN_TWENTY, startsAt: "2026-12-01T11:20:00-05:00" }];
    await flow.select(TEN_OCLOCK, FOLLOW_UP, { holds: others.map((slot) => ({ slot, appointmentTypeId: FOLLOW_UP.appointmentTypeId, isNewPatient: false })) });
    expect(flow.getState()).toMatchObject({ kind: "basketFull", notConfirmed: 0, slot: TEN_OCLOCK, params: FOLLOW_UP });
    expect(calls.check).toHaveLength(0);
  });

  it("says the user holds the slot already, as the same kind, without checking or holding", async () => {
    const { flow, calls } = fakeBackend();
    const held = { slot: TEN_OCLOCK, appointmentTypeId: FOLLOW_UP.appointmentTypeId, isNewPatient: false };
    const others = [TEN_TWENTY, { ...TEN_TWENTY, startsAt: "2026-12-01T11:00:00-05:00" }].map((slot) => ({ ...held, slot }));
    await flow.select(TEN_OCLOCK, FOLLOW_UP, { holds: [held, ...others] });
    expect(flow.getState()).toMatchObject({ kind: "alreadyHeld", slot: TEN_OCLOCK, params: FOLLOW_UP });
    expect(calls.check).toHaveLength(0);
    expect(calls.hold).toHaveLength(0);
  });

  it("checks a slot held only as another kind, or another slot than the one held", async () => {
    const { flow, calls } = fakeBackend();
    const held = { slot: TEN_OCLOCK, appointmentTypeId: FOLLOW_UP.appointmentTypeId, isNewPatient: false };
    await flow.select(TEN_OCLOCK, { ...FOLLOW_UP, isNewPatient: true }, { holds: [held] });
    await flow.select({ ...TEN_OCLOCK, endsAt: "2026-12-01T10:30:00-05:00" }, { ...FOLLOW_UP, slotLengthMinutes: 30 }, { holds: [held] });
    await flow.select(TEN_TWENTY, FOLLOW_UP, { holds: [held] });
    expect(calls.check).toHaveLength(3);
  });

  it("treats the BFF's hold limit as a full basket (another tab held meanwhile)", async () => {
    const { flow, answers, calls } = fakeBackend();
    answers.hold = () => Promise.reject(new HoldLimit());
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    expect(flow.getState().kind).toBe("basketFull");
    expect(calls.holdsChanged).toBe(1);
  });

  it("says a slot the user holds from another tab is held already, not 'just taken', when the live check finds it gone to their hold (issue 36 item 1)", async () => {
    const { flow, calls, answers } = fakeBackend();
    // This page has not heard of the other tab's hold yet; the BFF knows it is the user's.
    answers.check = () => Promise.resolve({ available: false, slot: null, alternatives: [TEN_TWENTY], meta: META, heldByYou: true });
    await flow.select(TEN_OCLOCK, FOLLOW_UP, { holds: [] });
    expect(flow.getState()).toMatchObject({ kind: "alreadyHeld", slot: TEN_OCLOCK });
    expect(calls.hold).toHaveLength(0);
    expect(calls.holdsChanged).toBe(1);
  });

  it("says the slot is held already when the BFF refuses a second hold of it (another tab held it meanwhile), and reads the holds again", async () => {
    const { flow, calls, answers } = fakeBackend();
    answers.hold = () => Promise.reject(new AlreadyHeld());
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    expect(flow.getState()).toMatchObject({ kind: "alreadyHeld", slot: TEN_OCLOCK });
    expect(calls.held).toHaveLength(0);
    expect(calls.holdsChanged).toBe(1);
  });

  it("puts away an outcome the holds made untrue: a full basket once a place is free, held already once that hold ends (issue 36 item 3)", async () => {
    const { flow } = fakeBackend();
    const heldAs = (slot: Slot): UsersHold => ({ slot, appointmentTypeId: FOLLOW_UP.appointmentTypeId, isNewPatient: false });
    const three = [TEN_TWENTY, { ...TEN_TWENTY, startsAt: "2026-12-01T11:00:00-05:00" }, { ...TEN_TWENTY, startsAt: "2026-12-01T11:20:00-05:00" }].map(heldAs);
    await flow.select(TEN_OCLOCK, FOLLOW_UP, { holds: three });
    expect(flow.getState().kind).toBe("basketFull");
    flow.holdsChanged(three, []);
    expect(flow.getState().kind).toBe("basketFull");
    flow.holdsChanged(three.slice(1), []);
    expect(flow.getState().kind).toBe("idle");

    const tenOclock = heldAs(TEN_OCLOCK);
    await flow.select(TEN_OCLOCK, FOLLOW_UP, { holds: [tenOclock] });
    expect(flow.getState().kind).toBe("alreadyHeld");
    flow.holdsChanged([tenOclock], []);
    expect(flow.getState().kind).toBe("alreadyHeld");
    flow.holdsChanged([], []);
    expect(flow.getState().kind).toBe("idle");
  });

  it("says a gone slot plainly, offers the alternatives, refetches the list and does not hold", async () => {
    const { flow, calls, answers } = fakeBackend();
    answers.check = () => Promise.resolve({ available: false, slot: null, alternatives: [TEN_TWENTY], meta: META });
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    // Seen gone by the live read: a cached list read before then still shows it, and the view hides it.
    expect(flow.getState()).toMatchObject({ kind: "gone", alternatives: [TEN_TWENTY], seenGoneAtMs: Date.parse(META.sourceSyncedAt), params: FOLLOW_UP });
    expect(calls.hold).toHaveLength(0);
    expect(calls.slotsChanged).toBe(1);
  });

  it("names the user's own overlapping hold, of another kind, when the live check finds the slot gone", async () => {
    const { flow, answers } = fakeBackend();
    answers.check = () => Promise.resolve({ available: false, slot: null, alternatives: [], meta: META });
    // Held as a 30-minute new-patient visit from 10:00: it overlaps 10:20-10:40 with the same provider.
    const ownHold = { slot: { ...TEN_OCLOCK, endsAt: "2026-12-01T10:30:00-05:00" }, appointmentTypeId: FOLLOW_UP.appointmentTypeId, isNewPatient: true };
    const elsewhere = { ...ownHold, slot: { ...ownHold.slot, providerId: "prv_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb" } };
    await flow.select(TEN_TWENTY, FOLLOW_UP, { holds: [elsewhere, ownHold] });
    expect(flow.getState()).toMatchObject({ kind: "gone", ownHold });
    // Another provider's hold, or one that ends as this slot starts, took nothing from it.
    await flow.select(TEN_TWENTY, FOLLOW_UP, { holds: [elsewhere, { ...ownHold, slot: TEN_OCLOCK }] });
    expect(flow.getState()).toMatchObject({ kind: "gone", ownHold: null });
  });

  it("puts away an outcome already told when the user changes view, but not a check or hold in flight", async () => {
    const { flow, calls, answers } = fakeBackend();
    answers.hold = () => Promise.reject(new Error("503"));
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    expect(flow.getState().kind).toBe("failed");
    flow.dismissSettled();
    expect(flow.getState().kind).toBe("idle");

    const check = deferred<SlotCheckResponse>();
    answers.check = () => check.promise;
    answers.hold = () => Promise.reject(new Error("503"));
    const selecting = flow.select(TEN_TWENTY, FOLLOW_UP);
    flow.dismissSettled();
    expect(flow.getState().kind).toBe("checking");
    check.resolve({ available: true, slot: TEN_TWENTY, alternatives: [], meta: META });
    await selecting;
    // The hold was still tried, and its failure is told in the new view.
    expect(calls.hold).toHaveLength(2);
    expect(flow.getState().kind).toBe("failed");
  });

  it("says a hold whose answer was lost may have been made, with the BFF's record of it, and refetches the holds that now list it", async () => {
    const { flow, calls, answers } = fakeBackend();
    answers.hold = () => Promise.reject(new Unanswered(maybeHeldOn(TEN_OCLOCK)));
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    expect(flow.getState()).toMatchObject({ kind: "failed", step: "hold", outcomeUnknown: true, maybeHeld: maybeHeldOn(TEN_OCLOCK) });
    expect(calls.holdsChanged).toBe(1);

    // Tandem's server did not answer at all: unknown too, without a record to show yet.
    answers.hold = () => Promise.reject(new Unanswered(null));
    await flow.select(TEN_TWENTY, FOLLOW_UP);
    expect(flow.getState()).toMatchObject({ kind: "failed", outcomeUnknown: true, maybeHeld: null });
  });

  it("puts away 'whether the EHR held it is unknown' once the holds list that very slot as held, not before", async () => {
    const { flow, answers } = fakeBackend();
    answers.hold = () => Promise.reject(new Unanswered(null));
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    const heldAs = (slot: Slot): UsersHold => ({ slot, appointmentTypeId: FOLLOW_UP.appointmentTypeId, isNewPatient: false });
    flow.holdsChanged([heldAs(TEN_TWENTY)], []);
    expect(flow.getState()).toMatchObject({ kind: "failed", outcomeUnknown: true });
    flow.holdsChanged([heldAs(TEN_TWENTY), heldAs(TEN_OCLOCK)], []);
    expect(flow.getState().kind).toBe("idle");
  });

  it("takes the BFF's record of a hold Tandem's server never answered for once the holds list it (the server restarted mid-call), and no other slot's", async () => {
    const { flow, answers } = fakeBackend();
    answers.hold = () => Promise.reject(new Unanswered(null));
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    flow.holdsChanged([], [maybeHeldOn(TEN_TWENTY)]);
    expect(flow.getState()).toMatchObject({ kind: "failed", outcomeUnknown: true, maybeHeld: null });
    flow.holdsChanged([], [maybeHeldOn(TEN_TWENTY), maybeHeldOn(TEN_OCLOCK)]);
    expect(flow.getState()).toMatchObject({ kind: "failed", step: "hold", outcomeUnknown: true, maybeHeld: maybeHeldOn(TEN_OCLOCK) });
  });

  it("names the user's own attempt the EHR may have made when the live check or the hold finds that very slot taken, never 'just taken'", async () => {
    const { flow, answers } = fakeBackend();
    const maybeHeld = [maybeHeldOn(TEN_OCLOCK)];
    answers.check = () => Promise.resolve({ available: false, slot: null, alternatives: [], meta: META });
    await flow.select(TEN_OCLOCK, FOLLOW_UP, { maybeHeld });
    expect(flow.getState()).toMatchObject({ kind: "gone", maybeOwn: maybeHeldOn(TEN_OCLOCK) });
    // The list's slot may be shorter than the length the attempt asked for (a 15-minute grid, a 20-minute type).
    await flow.select({ ...TEN_OCLOCK, endsAt: "2026-12-01T10:15:00-05:00" }, FOLLOW_UP, { maybeHeld });
    expect(flow.getState()).toMatchObject({ kind: "gone", maybeOwn: maybeHeldOn(TEN_OCLOCK) });
    // Another slot is not the attempt's.
    await flow.select(TEN_TWENTY, FOLLOW_UP, { maybeHeld });
    expect(flow.getState()).toMatchObject({ kind: "gone", maybeOwn: null });

    answers.check = () => Promise.resolve({ available: true, slot: TEN_OCLOCK, alternatives: [], meta: META });
    answers.hold = () => Promise.reject(new Conflict("conflict"));
    await flow.select(TEN_OCLOCK, FOLLOW_UP, { maybeHeld });
    expect(flow.getState()).toMatchObject({ kind: "gone", maybeOwn: maybeHeldOn(TEN_OCLOCK) });
  });

  it("counts holds the EHR may have made in the basket: a full basket is said without checking", async () => {
    const { flow, calls } = fakeBackend();
    const held = { slot: TEN_TWENTY, appointmentTypeId: FOLLOW_UP.appointmentTypeId, isNewPatient: false };
    const maybeHeld = [maybeHeldOn({ ...TEN_TWENTY, startsAt: "2026-12-01T11:00:00-05:00" }), maybeHeldOn({ ...TEN_TWENTY, startsAt: "2026-12-01T11:20:00-05:00" })];
    await flow.select(TEN_OCLOCK, FOLLOW_UP, { holds: [held], maybeHeld });
    expect(flow.getState()).toMatchObject({ kind: "basketFull", notConfirmed: 2 });
    expect(calls.check).toHaveLength(0);
  });

  it("a hold refused outright (503) is known not to be made", async () => {
    const { flow, answers } = fakeBackend();
    answers.hold = () => Promise.reject(new Error("503"));
    await flow.select(TEN_OCLOCK, FOLLOW_UP);
    expect(flow.getState()).toMatchObject({ kind: "failed", step: "hold", outcomeUnknown: false });
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
    expect(calls.held).toHaveLength(1);
  });

  it("drops the answer of a selection the user cancelled, releasing a hold that arrives late", async () => {
    const { flow, calls, answers } = fakeBackend();
    const lateHold = deferred<HoldResponse>();
    answers.hold = () => lateHold.promise;
    const first = flow.select(TEN_OCLOCK, FOLLOW_UP);
    await vi.waitFor(() => expect(calls.hold).toHaveLength(1));
    flow.cancel();
    expect(flow.getState().kind).toBe("idle");
    lateHold.resolve({
      hold: { id: "late", status: "active", expiresAt: "2026-12-01T14:05:00.000Z" },
      held: { id: "late", slot: TEN_OCLOCK, appointmentTypeId: FOLLOW_UP.appointmentTypeId, slotLengthMinutes: 20, isNewPatient: false, patientId: null, patientName: null, expiresAt: "2026-12-01T14:05:00.000Z", heldAt: "2026-12-01T14:00:00.000Z" },
    });
    await first;
    expect(flow.getState().kind).toBe("idle");
    expect(calls.release).toEqual(["late"]);
    expect(calls.held).toEqual([]);
  });
});
