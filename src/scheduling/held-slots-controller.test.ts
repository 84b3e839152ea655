import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { HeldSlot, SlotCheckResponse } from "#contract/app-api/slots.ts";
import type { BookingRequest } from "#contract/bridge/messages.ts";
import type { BookedInEhr } from "#src/bridge/app-link.ts";
import { HeldSlotsController, type HeldSlotsDeps } from "./held-slots-controller.ts";
import { SlotSelectionFlow, type SelectionDeps } from "./slot-selection-flow.ts";

const NOW = Date.parse("2026-12-01T14:00:00.000Z");

function heldSlot(id: string, overrides: Partial<HeldSlot> = {}): HeldSlot {
  return {
    id,
    slot: { providerId: "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", facilityId: "fac_11111111111111111111111111111111", startsAt: "2026-12-01T10:00:00-05:00", endsAt: "2026-12-01T10:20:00-05:00" },
    appointmentTypeId: "atp_dddddddddddddddddddddddddddddddd",
    slotLengthMinutes: 20,
    isNewPatient: false,
    patientId: "patient-7",
    patientName: null,
    expiresAt: "2026-12-01T14:05:00.000Z",
    heldAt: "2026-12-01T14:00:00.000Z",
    ...overrides,
  };
}

class Declined extends Error {}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((ok) => {
    resolve = ok;
  });
  return { promise, resolve };
}

/** A live check's meta, as the BFF gives it. */
const LIVE_META: SlotCheckResponse["meta"] = { sourceSyncedAt: "2026-12-01T14:00:00.000Z", sourceKind: "ehr_kind_a", maxStalenessSeconds: 0, strongConsistency: true, strategy: "ehr_live", completeness: "complete", generatedAt: "2026-12-01T14:00:00.000Z" };

/** A selection flow's calls that refuse nothing and report nothing, but for the check and the hold given. */
function selectionDepsWith(calls: Pick<SelectionDeps, "check" | "hold"> & Partial<SelectionDeps>): SelectionDeps {
  return {
    isConflict: () => false,
    isHoldLimit: () => false,
    isAlreadyHeld: () => false,
    isOutcomeUnknown: () => false,
    maybeHeldOf: () => null,
    holdsChanged: () => undefined,
    release: () => Promise.resolve(),
    onHeld: () => undefined,
    slotsChanged: () => undefined,
    ...calls,
  };
}

/** `abandonSelection`: what the provider wires it to (the selection flow's cancel). */
function fakeDeps({ abandonSelection = () => undefined }: { abandonSelection?: () => void } = {}) {
  const calls = { release: [] as string[], book: [] as BookingRequest[], removed: [] as string[], holdsChanged: 0, slotsChanged: 0, slept: [] as number[], abandoned: 0 };
  const answers = {
    book: (): Promise<BookedInEhr> => Promise.resolve({ appointmentId: "3f0c9a52-1111-4222-8333-444455556666", reference: "EHR-3F0C9A52" }),
    release: (): Promise<unknown> => Promise.resolve({ released: true }),
  };
  const deps: HeldSlotsDeps = {
    release: (holdId) => {
      calls.release.push(holdId);
      return answers.release();
    },
    book: (request) => {
      calls.book.push(request);
      return answers.book();
    },
    declineReason: (error) => (error instanceof Declined ? error.message : null),
    addHeld: () => undefined,
    removeHeld: (ids) => calls.removed.push(...ids),
    holdsChanged: () => {
      calls.holdsChanged += 1;
    },
    slotsChanged: () => {
      calls.slotsChanged += 1;
    },
    abandonSelection: () => {
      calls.abandoned += 1;
      abandonSelection();
    },
    now: () => Date.now(),
    sleep: (ms) => {
      calls.slept.push(ms);
      return Promise.resolve();
    },
  };
  return { calls, answers, controller: new HeldSlotsController(deps) };
}

beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("booking a held slot", () => {
  it("books it in the EHR as it is held (type, flag, time) for the open patient, keeps the EHR's reference, and releases the hold", async () => {
    const { controller, calls } = fakeDeps();
    const held = heldSlot("hold-1");
    await controller.book(held, "patient-7", [held]);
    expect(calls.book).toEqual([
      { holdId: "hold-1", providerId: held.slot.providerId, facilityId: held.slot.facilityId, startsAt: held.slot.startsAt, endsAt: held.slot.endsAt, appointmentTypeId: held.appointmentTypeId, isNewPatient: false, patientId: "patient-7" },
    ]);
    expect(controller.getActivity().outcome).toMatchObject({ kind: "booked", held: { id: "hold-1" }, appointment: { reference: "EHR-3F0C9A52" }, releasedOthers: [] });
    expect(calls.release).toEqual(["hold-1"]);
    expect(calls.slotsChanged).toBe(1);
  });

  it("releases the other slots held for the same patient, and only those", async () => {
    const { controller, calls } = fakeDeps();
    const chosen = heldSlot("hold-1");
    const otherForPatient = heldSlot("hold-2", { slot: { ...chosen.slot, startsAt: "2026-12-03T15:30:00-05:00", endsAt: "2026-12-03T15:50:00-05:00" } });
    const forAnotherPatient = heldSlot("hold-3", { patientId: "patient-9" });
    await controller.book(chosen, "patient-7", [chosen, otherForPatient, forAnotherPatient]);
    expect(calls.release.sort()).toEqual(["hold-1", "hold-2"]);
    expect(calls.removed).toEqual(["hold-1", "hold-2"]);
    expect(controller.getActivity().outcome).toMatchObject({ kind: "booked", releasedOthers: [{ id: "hold-2" }] });
  });

  it("tries a failed release of a booked basket again, so no hold is left to block its slot; gives up after the last wait", async () => {
    const { calls, answers, controller } = fakeDeps();
    let failures = 1;
    answers.release = () => (failures-- > 0 ? Promise.reject(new Error("503")) : Promise.resolve({ released: true }));
    const held = heldSlot("hold-1");
    await controller.book(held, "patient-7", [held]);
    expect(calls.release).toEqual(["hold-1", "hold-1"]);
    expect(calls.slept).toEqual([1_000]);
    expect(calls.holdsChanged).toBe(1);

    answers.release = () => Promise.reject(new Error("503"));
    calls.release.length = 0;
    calls.slept.length = 0;
    const other = heldSlot("hold-2");
    await controller.book(other, "patient-7", [other]);
    expect(calls.release).toEqual(["hold-2", "hold-2", "hold-2"]);
    expect(calls.slept).toEqual([1_000, 3_000]);
  });

  it("keeps the hold and says why when the EHR declines", async () => {
    const { controller, calls, answers } = fakeDeps();
    answers.book = () => Promise.reject(new Declined("The patient already has an appointment then"));
    await controller.book(heldSlot("hold-1"), "patient-7", []);
    expect(controller.getActivity().notices.get("hold-1")).toEqual({ kind: "declined", reason: "The patient already has an appointment then" });
    expect(controller.getActivity().booking.size).toBe(0);
    expect(calls.release).toEqual([]);
  });

  it("books once when Book is pressed twice", async () => {
    const { controller, calls, answers } = fakeDeps();
    const booking = deferred<BookedInEhr>();
    answers.book = () => booking.promise;
    const held = heldSlot("hold-1");
    const first = controller.book(held, "patient-7", [held]);
    void controller.book(held, "patient-7", [held]);
    void controller.release(held);
    expect(controller.getActivity().booking.has("hold-1")).toBe(true);
    booking.resolve({ appointmentId: "a", reference: null });
    await first;
    expect(calls.book).toHaveLength(1);
    expect(controller.getActivity().outcome?.kind).toBe("booked");
  });

  it("counts the hold as expired when the EHR fails after the deadline", async () => {
    const { controller, answers } = fakeDeps();
    answers.book = () => {
      vi.setSystemTime(NOW + 301_000);
      return Promise.reject(new Error("timeout"));
    };
    await controller.book(heldSlot("hold-1"), "patient-7", []);
    expect(controller.getActivity().outcome).toMatchObject({ kind: "expired", held: { id: "hold-1" } });
  });
});

describe("booking while a slot is being checked (issue 36 item 7)", () => {
  const slot = heldSlot("hold-9").slot;
  const check = deferred<SlotCheckResponse>();
  const selectionDeps = (made: string[]): SelectionDeps =>
    selectionDepsWith({
      check: () => check.promise,
      hold: (request) => {
        made.push(request.startsAt);
        const held = heldSlot("hold-9");
        return Promise.resolve({ hold: { id: held.id, status: "active", expiresAt: held.expiresAt }, held });
      },
    });

  it("a check started before the booking makes no hold once it answers: no stray hold is left for ten minutes", async () => {
    const made: string[] = [];
    const flow = new SlotSelectionFlow(selectionDeps(made));
    const { controller, calls } = fakeDeps({ abandonSelection: () => flow.cancel() });
    const checking = flow.select({ ...slot, startsAt: "2026-12-01T11:00:00-05:00", endsAt: "2026-12-01T11:20:00-05:00", remainingCapacity: 1, templateIds: [] }, { appointmentTypeId: "atp_dddddddddddddddddddddddddddddddd", isNewPatient: false });
    expect(flow.getState().kind).toBe("checking");
    await controller.book(heldSlot("hold-1"), "patient-7", [heldSlot("hold-1")]);
    check.resolve({ available: true, slot: null, alternatives: [], meta: LIVE_META });
    await checking;
    expect(made).toEqual([]);
    expect(flow.getState().kind).toBe("idle");
    expect(calls.abandoned).toBeGreaterThan(0);
  });
});

describe("releasing and expiry", () => {
  it("releases on request and says so; a failed release keeps it listed with a notice", async () => {
    const { controller, calls, answers } = fakeDeps();
    await controller.release(heldSlot("hold-1"));
    expect(controller.getActivity().outcome).toMatchObject({ kind: "released" });
    answers.release = () => Promise.reject(new Error("503"));
    await controller.release(heldSlot("hold-2"));
    expect(controller.getActivity().notices.get("hold-2")?.kind).toBe("releaseFailed");
    expect(controller.getActivity().outcomes.map((outcome) => outcome.held.id)).toEqual(["hold-1"]);
    expect(calls.holdsChanged).toBe(2);
  });

  it("checks a slot chosen while a release is on its way once the release is answered: the service counts the hold, and the slots it overlaps, until then", async () => {
    const { controller, answers } = fakeDeps();
    const release = deferred<unknown>();
    answers.release = () => release.promise;
    const checked: string[] = [];
    const flow = new SlotSelectionFlow(
      selectionDepsWith({
        check: (request) => {
          checked.push(request.startsAt);
          return Promise.resolve({ available: true, slot: null, alternatives: [], meta: LIVE_META });
        },
        hold: () => Promise.resolve({ hold: { id: "hold-2", status: "active", expiresAt: "2026-12-01T14:05:00.000Z" }, held: heldSlot("hold-2") }),
        releasesInFlight: () => controller.releasesInFlight(),
      }),
    );
    expect(controller.releasesInFlight()).toBeNull();
    // 10:00-10:20 released; 10:10, which it overlaps, chosen at once.
    const releasing = controller.release(heldSlot("hold-1"));
    const choosing = flow.select({ ...heldSlot("hold-1").slot, startsAt: "2026-12-01T10:10:00-05:00", endsAt: "2026-12-01T10:30:00-05:00", remainingCapacity: 1, templateIds: [] }, { appointmentTypeId: "atp_dddddddddddddddddddddddddddddddd", isNewPatient: false });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(flow.getState().kind).toBe("checking");
    expect(checked).toEqual([]);
    release.resolve({ released: true });
    await Promise.all([releasing, choosing]);
    expect(checked).toEqual(["2026-12-01T10:10:00-05:00"]);
    expect(flow.getState().kind).toBe("idle");
    expect(controller.releasesInFlight()).toBeNull();

    // A release that never answers holds the next check back 3 s, not for ever.
    answers.release = () => new Promise(() => undefined);
    void controller.release(heldSlot("hold-2"));
    const next = flow.select({ ...heldSlot("hold-2").slot, startsAt: "2026-12-01T10:30:00-05:00", endsAt: "2026-12-01T10:50:00-05:00", remainingCapacity: 1, templateIds: [] }, { appointmentTypeId: "atp_dddddddddddddddddddddddddddddddd", isNewPatient: false });
    await vi.advanceTimersByTimeAsync(2_999);
    expect(checked).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await next;
    expect(checked).toEqual(["2026-12-01T10:10:00-05:00", "2026-12-01T10:30:00-05:00"]);
  });

  it("reads the holds again after a release, not the slot list (the released slot is still on it)", async () => {
    const { controller, calls } = fakeDeps();
    await controller.releaseAll([heldSlot("hold-1"), heldSlot("hold-2")]);
    expect(calls.release).toEqual(["hold-1", "hold-2"]);
    expect(calls.holdsChanged).toBe(1);
    expect(calls.slotsChanged).toBe(0);
  });

  it("expires only at the deadline, counted from when this page sent the hold request", () => {
    const { controller, calls } = fakeDeps();
    const held = heldSlot("hold-1", { expiresAt: "2026-12-01T14:10:00.000Z" });
    controller.added({ response: { hold: { id: "hold-1", status: "active", expiresAt: held.expiresAt }, held }, deadlineMs: NOW + 300_000, liveRead: { serviceMs: NOW, localMs: NOW } });
    vi.setSystemTime(NOW + 299_000);
    controller.expire(held);
    expect(controller.getActivity().outcome).toBeNull();
    vi.setSystemTime(NOW + 300_000);
    controller.expire(held);
    expect(controller.getActivity().outcome).toMatchObject({ kind: "expired" });
    expect(calls.release).toEqual(["hold-1"]);
  });

  it("announces every hold that ends: three expiring together are three outcomes, until each is dismissed (issue 36 item 3)", () => {
    const { controller } = fakeDeps();
    const holds = ["hold-1", "hold-2", "hold-3"].map((id) => heldSlot(id));
    vi.setSystemTime(Date.parse("2026-12-01T14:05:00.000Z"));
    for (const held of holds) controller.expire(held);
    expect(controller.getActivity().outcomes.map((outcome) => [outcome.kind, outcome.held.id])).toEqual([
      ["expired", "hold-1"],
      ["expired", "hold-2"],
      ["expired", "hold-3"],
    ]);
    controller.dismissOutcomes(["hold-1", "hold-3"]);
    expect(controller.getActivity().outcomes.map((outcome) => outcome.held.id)).toEqual(["hold-2"]);
    expect(controller.getActivity().outcome?.held.id).toBe("hold-2");
  });

  it("tells a hold that left the list without this page ending it (another tab booked, released or expired it), and not one it ended itself", async () => {
    const { controller } = fakeDeps();
    await controller.release(heldSlot("hold-1"));
    const expiring = heldSlot("hold-3", { expiresAt: "2026-12-01T14:00:30.000Z" });
    controller.leftTheList([heldSlot("hold-1"), heldSlot("hold-2"), expiring]);
    expect(controller.getActivity().outcomes.map((outcome) => [outcome.kind, outcome.held.id])).toEqual([
      ["released", "hold-1"],
      ["endedElsewhere", "hold-2"],
      ["expired", "hold-3"],
    ]);
  });

  it("uses the stored expiry for a hold listed after a reload", () => {
    const { controller } = fakeDeps();
    expect(controller.deadlineOf(heldSlot("hold-1"))).toBe(Date.parse("2026-12-01T14:05:00.000Z"));
  });
});
