import { MAX_ACTIVE_HOLDS, type HeldSlot, type HoldRequest, type HoldResponse, type MaybeHeldSlot, type SlotCheckRequest, type SlotCheckResponse, type SlotSelection } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { isSameId } from "#contract/ids.ts";
import { isHeldAs, slotKey } from "./slot-identity.ts";
import { holdDeadlineMs } from "./hold-countdown.ts";

// Choosing a slot, as DESIGN.md "Rules that come from the spec" asks: slots
// are read from caches, so a chosen slot gets exactly one strong check (same
// type, length and new-patient flag), then a hold; a slot that is gone is a
// normal outcome (told plainly, alternatives offered), not an error. Once
// held, the hold belongs to the user, not to this flow: it is handed to
// `onHeld` (the holds bar, held-slots-controller.ts) and the flow is idle
// again, so another slot can be added to the basket. Plain TypeScript with
// its effects injected, so the rules are tested without a browser.

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

/** A hold just made in this page: the countdown runs from when the request was sent (hold-countdown.ts). */
export interface FreshHold {
  response: HoldResponse;
  deadlineMs: number;
  liveRead: LiveRead;
}

export type SelectionState =
  | { kind: "idle" }
  | ({ kind: "checking" } & Chosen)
  | ({ kind: "holding" } & Chosen)
  /**
   * `seenGoneAtMs`: when the live read saw it gone; a cached list older than
   * that still shows it. `ownHold`: a hold of the user's own on that provider's
   * time (as another type or length), which may be what took it.
   * `maybeOwn`: an earlier hold of this very slot by the user whose answer
   * was lost (the BFF lists it as not confirmed): the EHR may have made it,
   * and it may be what takes the slot.
   */
  | ({ kind: "gone"; alternatives: Slot[]; seenGoneAtMs: number; ownHold: UsersHold | null; maybeOwn: MaybeHeldSlot | null } & Chosen)
  /** The user already holds as many slots as Tandem allows: nothing was checked. `notConfirmed`: how many of them the EHR may have made (listed as not confirmed). */
  | ({ kind: "basketFull"; notConfirmed: number } & Chosen)
  /** The user already holds this very slot, as this kind: nothing was checked (the check would find it taken, by them). */
  | ({ kind: "alreadyHeld" } & Chosen)
  /**
   * `outcomeUnknown`: the hold's answer was lost after it was sent, so the EHR
   * may have made it; `maybeHeld` is how the BFF lists it (null when Tandem's
   * server itself did not answer).
   */
  | ({ kind: "failed"; step: "check" | "hold"; error: unknown; outcomeUnknown: boolean; maybeHeld: MaybeHeldSlot | null } & Chosen);

/** The slot chosen, what it is checked and held as, and the search it came from (for a retry or an alternative). */
export interface Chosen {
  slot: Slot;
  request: SlotSelection;
  params: SelectionParams;
}

/** The strong check and the hold, and what a refused or lost hold means: the calls every way of holding a slot makes (the slot list, a waitlist offer). */
export interface HoldCalls {
  /** POST /api/slots/check: the strong read. */
  check: (request: SlotCheckRequest) => Promise<SlotCheckResponse>;
  /** POST /api/holds; rejects, and `isConflict` says whether the slot was taken (409). */
  hold: (request: HoldRequest) => Promise<HoldResponse>;
  isConflict: (error: unknown) => boolean;
  /** The hold was refused because the basket is full (the server's count may be ahead of this page's). */
  isHoldLimit: (error: unknown) => boolean;
  /** The hold was refused because the user already holds this slot (another tab of theirs held it). */
  isAlreadyHeld: (error: unknown) => boolean;
  /** The hold's answer was lost after it was sent: whether the EHR made it is unknown. */
  isOutcomeUnknown: (error: unknown) => boolean;
}

export interface SelectionDeps extends HoldCalls {
  /** The BFF's record of such a hold, from the error, or null. */
  maybeHeldOf: (error: unknown) => MaybeHeldSlot | null;
  /** A hold the EHR may have made is the user's from now on (the holds bar lists it): the holds list has changed. */
  holdsChanged: () => void;
  /** DELETE /api/holds/:id, for a hold that arrives after the user moved on; idempotent. */
  release: (holdId: string) => Promise<unknown>;
  /** The slot is held: from here the holds bar owns it. */
  onHeld: (fresh: FreshHold) => void;
  /** The list on screen is wrong about a slot (a check or a hold found it gone): refetch the slot list. */
  slotsChanged: () => void;
  /** The user's releases still on their way, settling once answered, or null (held-slots-controller.ts). */
  releasesInFlight?: () => Promise<void> | null;
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

/** A hold of the user's, as the holds list gives it. */
export type UsersHold = Pick<HeldSlot, "slot" | "appointmentTypeId" | "isNewPatient">;

/** The user's hold on the same provider's time as `slot`, if any: the service counts a hold against every slot it overlaps. */
/**
 * The user's hold (or attempt) with the slot's provider that overlaps it: a hold is asked for the type's
 * length, so it need not end where the listed slot does.
 */
function ownOverlapping<T extends { slot: Pick<Slot, "providerId" | "startsAt" | "endsAt"> }>(held: readonly T[] | undefined, slot: Slot): T | null {
  const startMs = Date.parse(slot.startsAt);
  const endMs = Date.parse(slot.endsAt);
  return held?.find((hold) => isSameId(hold.slot.providerId, slot.providerId) && Date.parse(hold.slot.startsAt) < endMs && startMs < Date.parse(hold.slot.endsAt)) ?? null;
}

/** How long a check waits for the user's releases on their way (a release answers in tens of milliseconds). */
const MAX_WAIT_FOR_RELEASES_MS = 3_000;

export interface SelectOptions {
  /** The patient to hold for when the host token names none (outside the EHR); the token's always wins. */
  patientId?: string | undefined;
  /** The user's holds: choosing one of them again, or any slot once they hold as many as allowed, says so instead of checking. */
  holds?: readonly UsersHold[];
  /** Holds the EHR may have made for the user (not confirmed): they take places in the basket, and may be what takes their slot. */
  maybeHeld?: readonly MaybeHeldSlot[];
}

export class SlotSelectionFlow {
  private state: SelectionState = { kind: "idle" };
  private readonly listeners = new Set<() => void>();
  /** Bumped by every new selection and cancel: answers to an older one are dropped (and a late hold released). */
  private generation = 0;
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
  async select(slot: Slot, params: SelectionParams, options: SelectOptions = {}): Promise<void> {
    const request = selectionOf(slot, params);
    const chosen: Chosen = { slot, request, params };
    const current = this.state;
    if ((current.kind === "checking" || current.kind === "holding") && isSameSelection(current.request, request)) return;
    const generation = ++this.generation;
    if (options.holds?.some((hold) => isHeldAs(hold, request))) {
      this.set({ kind: "alreadyHeld", ...chosen });
      return;
    }
    const notConfirmed = options.maybeHeld?.length ?? 0;
    if ((options.holds?.length ?? 0) + notConfirmed >= MAX_ACTIVE_HOLDS) {
      this.set({ kind: "basketFull", notConfirmed, ...chosen });
      return;
    }
    this.set({ kind: "checking", ...chosen });
    // A hold just released still counts at the service until its release lands: checked before, a slot it overlapped
    // would be called taken (and taken off the list) though it is free. A release that hangs holds the check back
    // only so long.
    const releasing = this.deps.releasesInFlight?.();
    if (releasing) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([releasing, new Promise<void>((resolve) => (timer = setTimeout(resolve, MAX_WAIT_FOR_RELEASES_MS)))]);
      clearTimeout(timer);
      if (generation !== this.generation) return;
    }

    let check: SlotCheckResponse;
    try {
      check = await this.deps.check({
        ...request,
        ...(params.searchedFacilityIds?.length ? { searchedFacilityIds: params.searchedFacilityIds } : {}),
        ...(params.searchedProviderIds?.length ? { searchedProviderIds: params.searchedProviderIds } : {}),
      });
    } catch (error) {
      if (generation === this.generation) this.set({ kind: "failed", ...chosen, step: "check", error, outcomeUnknown: false, maybeHeld: null });
      return;
    }
    if (generation !== this.generation) return;
    const gone = (): SelectionState => ({
      kind: "gone",
      ...chosen,
      alternatives: check.alternatives,
      seenGoneAtMs: Date.parse(check.meta.sourceSyncedAt),
      ownHold: ownOverlapping(options.holds, slot),
      maybeOwn: ownOverlapping(options.maybeHeld, slot),
    });
    if (!check.available) {
      // Gone to a hold of the user's own from another tab, which this page has not heard of yet: theirs, not taken.
      this.set(check.heldByYou ? { kind: "alreadyHeld", ...chosen } : gone());
      if (check.heldByYou) this.deps.holdsChanged();
      this.deps.slotsChanged();
      return;
    }

    const liveRead: LiveRead = { serviceMs: Date.parse(check.meta.sourceSyncedAt), localMs: this.now() };
    this.set({ kind: "holding", ...chosen, slot: check.slot ?? slot });
    const sentAtMs = this.now();
    let held: HoldResponse;
    try {
      held = await this.deps.hold(options.patientId ? { ...request, patientId: options.patientId } : request);
    } catch (error) {
      if (generation !== this.generation) return;
      if (this.deps.isConflict(error)) {
        // Taken between the check and the hold: the same plain outcome as a failed check.
        this.set(gone());
        this.deps.slotsChanged();
      } else if (this.deps.isAlreadyHeld(error)) {
        this.set({ kind: "alreadyHeld", ...chosen });
        this.deps.holdsChanged();
      } else if (this.deps.isHoldLimit(error)) {
        // Held elsewhere meanwhile (another tab): the list read again shows what fills the basket.
        this.set({ kind: "basketFull", notConfirmed, ...chosen });
        this.deps.holdsChanged();
      } else {
        const outcomeUnknown = this.deps.isOutcomeUnknown(error);
        // The BFF lists the attempt as the user's: the holds bar shows it, and the basket counts it.
        if (outcomeUnknown) this.deps.holdsChanged();
        this.set({ kind: "failed", ...chosen, step: "hold", error, outcomeUnknown, maybeHeld: this.deps.maybeHeldOf(error) });
      }
      return;
    }
    if (generation !== this.generation) {
      // The user cancelled while the hold was being made: give it back at once.
      void this.releaseQuietly(held.hold.id);
      return;
    }
    this.set({ kind: "idle" });
    // The list is not read again: the hold is marked on it from the holds (held-in-list.ts), and a read again would
    // mostly be the BFF's cached answer unchanged, yet a large group's 24,000 slots parsed on the main thread
    // just as the user picks the next slot (bench/RESULTS.md, "click to held").
    this.deps.onHeld({ response: held, deadlineMs: holdDeadlineMs(held.hold, sentAtMs), liveRead });
  }

  /** Cancel: abandons a check or hold in flight (a hold that still arrives is given back), or dismisses an outcome. */
  cancel(): void {
    this.generation += 1;
    if (this.state.kind !== "idle") this.set({ kind: "idle" });
  }

  /**
   * The user moved to another view: an outcome already told (gone, a full
   * basket, held already, a failure: nothing is being checked or held) is put
   * away with the list it was about; a check or hold in flight goes on, and
   * its outcome is shown where the user now is.
   */
  dismissSettled(): void {
    if (this.state.kind === "idle" || this.state.kind === "checking" || this.state.kind === "holding") return;
    this.cancel();
  }

  /**
   * The user's holds changed (made, released, booked, expired, here or in
   * another tab): an outcome they made untrue goes. A full basket with a place
   * free again, "held already" for a slot no longer held, a slot said to be
   * taken by a hold of the user's that has ended. A hold whose outcome
   * Tandem's server never told (it restarted mid-call) takes the BFF's record
   * of it once listed, with when it frees itself.
   */
  holdsChanged(holds: readonly UsersHold[], maybeHeld: readonly MaybeHeldSlot[]): void {
    const state = this.state;
    if (state.kind === "failed" && state.outcomeUnknown && state.maybeHeld === null) {
      const listed = maybeHeld.find((attempt) => slotKey(attempt.slot) === slotKey(state.request));
      if (listed) this.set({ ...state, maybeHeld: listed });
    }
    const isHeld = (request: SlotSelection) => holds.some((hold) => slotKey(hold.slot) === slotKey(request));
    const isStale =
      (state.kind === "basketFull" && holds.length + maybeHeld.length < MAX_ACTIVE_HOLDS) ||
      (state.kind === "alreadyHeld" && !isHeld(state.request)) ||
      (state.kind === "gone" && state.ownHold !== null && ownOverlapping(holds, state.slot) === null) ||
      (state.kind === "gone" && state.maybeOwn !== null && !maybeHeld.some((attempt) => attempt.id === state.maybeOwn?.id)) ||
      // A hold whose answer was lost, now listed as held (Tandem's server, back, learnt that the EHR made it): no longer unknown.
      (state.kind === "failed" && state.outcomeUnknown && isHeld(state.request));
    if (isStale) this.cancel();
  }

  /** Release is idempotent and best effort: a failure only means the hold runs out on its own. */
  private async releaseQuietly(holdId: string): Promise<void> {
    try {
      await this.deps.release(holdId);
    } catch {
      // The hold expires by itself; nothing the user needs to do.
    }
  }

  private set(next: SelectionState): void {
    this.state = next;
    for (const listener of [...this.listeners]) listener();
  }
}
