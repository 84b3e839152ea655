import type { HoldResponse, SlotCheckRequest, SlotCheckResponse, SlotSelection } from "../../../contract/app-api/slots.ts";
import type { BookingRequest } from "../../../contract/bridge/messages.ts";
import type { Hold, Slot } from "../../../contract/clinic-api/schedule.ts";
import { slotKey } from "./group-slots.ts";
import { holdDeadlineMs } from "./hold-countdown.ts";

// Choosing a slot, as DESIGN.md "Rules that come from the spec" asks: slots
// are read from caches, so a chosen slot gets exactly one strong check (same
// type, length and new-patient flag), then a hold; a slot that is gone is a
// normal outcome (told plainly, alternatives offered), not an error. A hold
// is released when the user cancels, picks another slot, leaves, or the EHR
// has booked it. Plain TypeScript with its effects injected, so the rules are
// tested without a browser.

export interface SelectionParams {
  appointmentTypeId: string;
  slotLengthMinutes?: number | undefined;
  isNewPatient: boolean;
  /** The search the slot was listed by: a gone slot's alternatives come from it. */
  searchedFacilityIds?: string[] | undefined;
  searchedProviderIds?: string[] | undefined;
}

/** When the strong check read the EHR: on the service's clock, and on this browser's. */
export interface LiveRead {
  serviceMs: number;
  localMs: number;
}

export type HeldNotice = { kind: "declined"; reason: string } | { kind: "bookFailed"; error: unknown };

export type SelectionState =
  | { kind: "idle" }
  | { kind: "checking"; slot: Slot; request: SlotSelection }
  | { kind: "holding"; slot: Slot; request: SlotSelection }
  | { kind: "held"; slot: Slot; request: SlotSelection; hold: Hold; deadlineMs: number; liveRead: LiveRead; notice: HeldNotice | null }
  | { kind: "booking"; slot: Slot; request: SlotSelection; hold: Hold; deadlineMs: number; liveRead: LiveRead }
  /** `seenGoneAtMs`: the booking, on the service's clock (estimated); a cached list older than that still shows the slot. */
  | { kind: "booked"; slot: Slot; request: SlotSelection; appointmentId: string; seenGoneAtMs: number }
  /** `seenGoneAtMs`: when the live read saw it gone; a cached list older than that still shows it. */
  | { kind: "gone"; slot: Slot; request: SlotSelection; alternatives: Slot[]; seenGoneAtMs: number }
  | { kind: "expired"; slot: Slot; request: SlotSelection }
  | { kind: "released"; slot: Slot }
  | { kind: "failed"; slot: Slot; request: SlotSelection; step: "check" | "hold"; error: unknown };

export interface SelectionDeps {
  /** POST /api/slots/check: the strong read. */
  check: (request: SlotCheckRequest) => Promise<SlotCheckResponse>;
  /** POST /api/holds; rejects, and `isConflict` says whether the slot was taken (409). */
  hold: (request: SlotSelection) => Promise<HoldResponse>;
  isConflict: (error: unknown) => boolean;
  /** DELETE /api/holds/:id; idempotent. */
  release: (holdId: string) => Promise<unknown>;
  /** Asks the EHR to book over the bridge; resolves with its appointment id. */
  book: (request: BookingRequest) => Promise<string>;
  /** The EHR's reason when it declined the booking, else null (a timeout, a closed bridge). */
  declineReason: (error: unknown) => string | null;
  /** The schedule changed because of us (or we learnt it had): refetch the slot list. */
  slotsChanged: () => void;
  now?: () => number;
}

export function selectionOf(slot: Slot, params: SelectionParams): SlotSelection {
  const request: SlotSelection = {
    providerId: slot.providerId,
    facilityId: slot.facilityId,
    startsAt: slot.startsAt,
    endsAt: slot.endsAt,
    appointmentTypeId: params.appointmentTypeId,
    isNewPatient: params.isNewPatient,
  };
  if (params.slotLengthMinutes !== undefined) request.slotLengthMinutes = params.slotLengthMinutes;
  return request;
}

function isSameSelection(a: SlotSelection, b: SlotSelection): boolean {
  return slotKey(a) === slotKey(b) && a.appointmentTypeId === b.appointmentTypeId && a.slotLengthMinutes === b.slotLengthMinutes && a.isNewPatient === b.isNewPatient;
}

export class SlotSelectionFlow {
  private state: SelectionState = { kind: "idle" };
  private readonly listeners = new Set<() => void>();
  /** Bumped by every new selection, cancel and leave: answers to an older one are dropped (and a late hold released). */
  private generation = 0;
  private expiryTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly now: () => number;

  constructor(private readonly deps: SelectionDeps) {
    this.now = deps.now ?? Date.now;
  }

  getState = (): SelectionState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The user chose a slot (Enter or click). Choosing the slot already being checked or held does nothing. */
  async select(slot: Slot, params: SelectionParams): Promise<void> {
    const request = selectionOf(slot, params);
    const current = this.state;
    if (current.kind === "booking") return; // the EHR is booking: never drop that hold under it
    if ((current.kind === "checking" || current.kind === "holding" || current.kind === "held") && isSameSelection(current.request, request)) return;
    this.releaseCurrentHold();
    const generation = ++this.generation;
    this.set({ kind: "checking", slot, request });

    let check: SlotCheckResponse;
    try {
      check = await this.deps.check({
        ...request,
        ...(params.searchedFacilityIds?.length ? { searchedFacilityIds: params.searchedFacilityIds } : {}),
        ...(params.searchedProviderIds?.length ? { searchedProviderIds: params.searchedProviderIds } : {}),
      });
    } catch (error) {
      if (generation === this.generation) this.set({ kind: "failed", slot, request, step: "check", error });
      return;
    }
    if (generation !== this.generation) return;
    if (!check.available) {
      this.set({ kind: "gone", slot, request, alternatives: check.alternatives, seenGoneAtMs: Date.parse(check.meta.sourceSyncedAt) });
      this.deps.slotsChanged();
      return;
    }

    const liveRead: LiveRead = { serviceMs: Date.parse(check.meta.sourceSyncedAt), localMs: this.now() };
    const confirmed = check.slot ?? slot;
    this.set({ kind: "holding", slot: confirmed, request });
    const sentAtMs = this.now();
    let held: HoldResponse;
    try {
      held = await this.deps.hold(request);
    } catch (error) {
      if (generation !== this.generation) return;
      if (this.deps.isConflict(error)) {
        // Taken between the check and the hold: the same plain outcome as a failed check.
        this.set({ kind: "gone", slot, request, alternatives: check.alternatives, seenGoneAtMs: Date.parse(check.meta.sourceSyncedAt) });
        this.deps.slotsChanged();
      } else {
        this.set({ kind: "failed", slot, request, step: "hold", error });
      }
      return;
    }
    if (generation !== this.generation) {
      // The user moved on while the hold was being made: give it back at once.
      void this.releaseQuietly(held.hold.id);
      return;
    }
    const deadlineMs = holdDeadlineMs(held.hold, sentAtMs);
    this.set({ kind: "held", slot: confirmed, request, hold: held.hold, deadlineMs, liveRead, notice: null });
    this.scheduleExpiry(deadlineMs);
    this.deps.slotsChanged();
  }

  /** "Book in EHR": asks the host to book the held slot; the hold is kept when the EHR declines. */
  async book(patientId: string | null): Promise<void> {
    const current = this.state;
    if (current.kind !== "held") return;
    const { slot, request, hold, deadlineMs, liveRead } = current;
    this.set({ kind: "booking", slot, request, hold, deadlineMs, liveRead });
    let appointmentId: string;
    try {
      appointmentId = await this.deps.book({
        holdId: hold.id,
        providerId: request.providerId,
        facilityId: request.facilityId,
        startsAt: request.startsAt,
        endsAt: request.endsAt,
        appointmentTypeId: request.appointmentTypeId,
        isNewPatient: request.isNewPatient,
        patientId,
      });
    } catch (error) {
      if (this.state.kind !== "booking" || this.state.hold.id !== hold.id) return;
      if (this.now() >= deadlineMs) {
        this.set({ kind: "expired", slot, request });
        void this.releaseQuietly(hold.id).then(() => this.deps.slotsChanged());
        return;
      }
      const reason = this.deps.declineReason(error);
      this.set({ kind: "held", slot, request, hold, deadlineMs, liveRead, notice: reason === null ? { kind: "bookFailed", error } : { kind: "declined", reason } });
      return;
    }
    if (this.state.kind !== "booking" || this.state.hold.id !== hold.id) return;
    this.clearExpiry();
    this.set({ kind: "booked", slot, request, appointmentId, seenGoneAtMs: liveRead.serviceMs + (this.now() - liveRead.localMs) });
    // The EHR has the appointment now: the hold has done its job.
    await this.releaseQuietly(hold.id);
    this.deps.slotsChanged();
  }

  /** Cancel: releases a hold, abandons a check in flight, or dismisses an outcome. */
  cancel(): void {
    const current = this.state;
    if (current.kind === "booking") return;
    this.generation += 1;
    this.clearExpiry();
    if (current.kind === "held") {
      void this.releaseQuietly(current.hold.id).then(() => this.deps.slotsChanged());
      this.set({ kind: "released", slot: current.slot });
      return;
    }
    this.set({ kind: "idle" });
  }

  /** Called by the countdown as well as by the timer: a throttled background tab may fire timers late. */
  expireIfDue(): void {
    const current = this.state;
    if (current.kind !== "held" || this.now() < current.deadlineMs) return;
    this.clearExpiry();
    this.set({ kind: "expired", slot: current.slot, request: current.request });
    // Our count errs early (hold-countdown.ts): give the slot back now, so "expired" is true for everyone.
    void this.releaseQuietly(current.hold.id).then(() => this.deps.slotsChanged());
  }

  /** The view is going away: give back any hold and drop answers still in flight. The flow stays usable. */
  leave(): void {
    this.generation += 1;
    this.clearExpiry();
    this.releaseCurrentHold();
    if (this.state.kind !== "idle") this.set({ kind: "idle" });
  }

  private releaseCurrentHold(): void {
    const current = this.state;
    if (current.kind === "held") {
      this.clearExpiry();
      void this.releaseQuietly(current.hold.id);
    }
  }

  /** Release is idempotent and best effort: a failure only means the hold runs out on its own. */
  private async releaseQuietly(holdId: string): Promise<void> {
    try {
      await this.deps.release(holdId);
    } catch {
      // The hold expires by itself; nothing the user needs to do.
    }
  }

  private scheduleExpiry(deadlineMs: number): void {
    this.clearExpiry();
    this.expiryTimer = setTimeout(
      () => {
        const current = this.state;
        if (current.kind === "held" && this.now() < current.deadlineMs) this.scheduleExpiry(current.deadlineMs);
        else this.expireIfDue();
      },
      Math.max(0, deadlineMs - this.now()) + 50,
    );
  }

  private clearExpiry(): void {
    if (this.expiryTimer !== undefined) clearTimeout(this.expiryTimer);
    this.expiryTimer = undefined;
  }

  private set(next: SelectionState): void {
    this.state = next;
    for (const listener of [...this.listeners]) listener();
  }
}
