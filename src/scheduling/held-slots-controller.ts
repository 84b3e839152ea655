import type { HeldSlot } from "#contract/app-api/slots.ts";
import { isSameId } from "#contract/ids.ts";
import type { BookingRequest } from "#contract/bridge/messages.ts";
import type { BookedInEhr } from "#src/bridge/app-link.ts";
import type { FreshHold, LiveRead } from "./slot-selection-flow.ts";

// What the user does with the slots they hold (DESIGN.md: a hold belongs to
// the user, not to a view). The holds themselves are the BFF's (GET
// /api/holds); this keeps what happens to them in this page: a booking in
// flight, the EHR's answer, the outcome to show (booked, expired, released).
// A hold ends only by booking, an explicit release or expiry; booking one
// slot of the basket releases the patient's others. Plain TypeScript with its
// effects injected, so the rules are tested without a browser.

export type HoldNotice = { kind: "declined"; reason: string } | { kind: "bookFailed"; error: unknown } | { kind: "releaseFailed"; error: unknown };

export type HoldOutcome =
  /** `seenGoneAtMs`: the booking, on the service's clock (estimated); a cached list older than that still shows the slot. */
  | { kind: "booked"; held: HeldSlot; appointment: BookedInEhr; releasedOthers: HeldSlot[]; seenGoneAtMs: number }
  | { kind: "expired"; held: HeldSlot }
  | { kind: "released"; held: HeldSlot }
  /** No longer listed, and not ended in this page: booked or released in another tab or window of the user's. */
  | { kind: "endedElsewhere"; held: HeldSlot };

export interface HoldsActivity {
  /** Hold ids the EHR is booking now. */
  booking: ReadonlySet<string>;
  notices: ReadonlyMap<string, HoldNotice>;
  /** Every hold that ended in this page (booked, expired, released), oldest first, each until dismissed: three expiring at once are three outcomes. */
  outcomes: readonly HoldOutcome[];
  /** The latest of `outcomes`, or null. */
  outcome: HoldOutcome | null;
}

export interface HeldSlotsDeps {
  release: (holdId: string) => Promise<unknown>;
  /** Asks the EHR to book over the bridge. */
  book: (request: BookingRequest) => Promise<BookedInEhr>;
  /** The EHR's reason when it declined the booking, else null (a timeout, a closed bridge). */
  declineReason: (error: unknown) => string | null;
  /** Puts a hold just made into the list of holds at once. */
  addHeld: (held: HeldSlot) => void;
  /** Takes holds off the list at once (the store agrees once the release lands). */
  removeHeld: (holdIds: readonly string[]) => void;
  /** Refetch the holds from the store. */
  holdsChanged: () => void;
  /**
   * The user is booking: a slot check or hold started before it is abandoned
   * (a hold that still arrives is given back at once), so booking never
   * leaves a stray hold behind (issue 36 item 7).
   */
  abandonSelection: () => void;
  slotsChanged: () => void;
  now?: () => number;
  /** The waits before trying a quiet release again (booked, expired); default 1 s then 3 s. */
  releaseRetryDelaysMs?: readonly number[];
  sleep?: (ms: number) => Promise<void>;
}

const RELEASE_RETRY_DELAYS_MS = [1_000, 3_000];
/** Another tab counts a hold down from when it sent the request, so it ends it a little before the stored expiry. */
const EXPIRY_MARGIN_MS = 60_000;
const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class HeldSlotsController {
  private activity: HoldsActivity = { booking: new Set(), notices: new Map(), outcomes: [], outcome: null };
  private readonly listeners = new Set<() => void>();
  /** Holds made in this page: their countdown runs from when the request was sent, and when the EHR was read live. */
  private readonly timings = new Map<string, { deadlineMs: number; liveRead: LiveRead }>();
  private readonly now: () => number;
  /** Holds this page took off the list itself (booked, released, expired here): their outcome is told already. */
  private readonly endedHere = new Set<string>();
  /** Releases sent and not yet answered: the service counts a hold until its release lands. */
  private readonly releasing = new Set<Promise<unknown>>();

  constructor(private readonly deps: HeldSlotsDeps) {
    this.now = deps.now ?? Date.now;
  }

  getActivity = (): HoldsActivity => this.activity;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /**
   * Settles once every release sent so far has been answered; null when none is on its way. A hold leaves the list
   * at once, but the service counts it, against its slot and every slot of that provider it overlaps, until its
   * release lands: a slot chosen meanwhile is checked after (slot-selection-flow.ts).
   */
  releasesInFlight(): Promise<void> | null {
    if (this.releasing.size === 0) return null;
    return Promise.allSettled([...this.releasing]).then(() => undefined);
  }

  /** When the hold runs out on this browser's clock (the list's `expiresAt` is on it: holds-queries.ts). */
  deadlineOf(held: HeldSlot): number {
    return this.timings.get(held.id)?.deadlineMs ?? Date.parse(held.expiresAt);
  }

  /** The selection flow has just held a slot. */
  added(fresh: FreshHold): void {
    this.timings.set(fresh.response.held.id, { deadlineMs: fresh.deadlineMs, liveRead: fresh.liveRead });
    // Listed as the holds list lists it, on this browser's clock (holds-queries.ts).
    this.deps.addHeld({ ...fresh.response.held, expiresAt: new Date(fresh.deadlineMs).toISOString() });
  }

  /**
   * "Book in EHR" for one held slot, for the patient open in the EHR. Once
   * booked, the hold has done its job and is released, and so are the
   * other slots held for the same patient (the basket was a choice between them).
   */
  async book(held: HeldSlot, patientId: string | null, basket: readonly HeldSlot[]): Promise<void> {
    if (this.activity.booking.has(held.id)) return;
    this.deps.abandonSelection();
    this.update({ booking: new Set(this.activity.booking).add(held.id), notices: without(this.activity.notices, held.id) });
    let appointment: BookedInEhr;
    try {
      appointment = await this.deps.book({
        holdId: held.id,
        providerId: held.slot.providerId,
        facilityId: held.slot.facilityId,
        startsAt: held.slot.startsAt,
        endsAt: held.slot.endsAt,
        appointmentTypeId: held.appointmentTypeId,
        isNewPatient: held.isNewPatient,
        patientId,
      });
    } catch (error) {
      const booking = withoutMember(this.activity.booking, held.id);
      if (this.now() >= this.deadlineOf(held)) {
        this.update({ booking });
        this.expire(held, { force: true });
        return;
      }
      const reason = this.deps.declineReason(error);
      this.update({ booking, notices: new Map(this.activity.notices).set(held.id, reason === null ? { kind: "bookFailed", error } : { kind: "declined", reason }) });
      return;
    }
    const others = basket.filter((candidate) => !isSameId(candidate.id, held.id) && candidate.patientId === held.patientId);
    const timing = this.timings.get(held.id);
    const seenGoneAtMs = timing ? timing.liveRead.serviceMs + (this.now() - timing.liveRead.localMs) : this.now();
    // A check started while the EHR was booking is as stale as one started before.
    this.deps.abandonSelection();
    this.removeHeld([held.id, ...others.map((other) => other.id)]);
    this.update({
      booking: withoutMember(this.activity.booking, held.id),
      outcomes: withOutcome(this.activity.outcomes, { kind: "booked", held, appointment, releasedOthers: others, seenGoneAtMs }, others),
    });
    await Promise.all([held, ...others].map((done) => this.releaseQuietly(done.id)));
    this.deps.holdsChanged();
    this.deps.slotsChanged();
  }

  /** "Release": gives the slot back. A failed release keeps the hold listed and says so. */
  async release(held: HeldSlot): Promise<void> {
    await this.releaseAll([held]);
  }

  /**
   * Releases each hold (the user confirmed it when switching patient), then reads the holds again once. Not the
   * slots: the list still has the released slot (a hold does not read it again, slot-selection-flow.ts), a read
   * again would mostly be the BFF's cached answer unchanged, and for a large group it parsed 24,000 slots on the
   * main thread just as the user clicked the next one (bench/RESULTS.md, "click to held").
   */
  async releaseAll(holds: readonly HeldSlot[]): Promise<void> {
    const releasing = holds.filter((held) => !this.activity.booking.has(held.id));
    if (releasing.length === 0) return;
    for (const held of releasing) {
      this.removeHeld([held.id]);
      this.update({ notices: without(this.activity.notices, held.id), outcomes: withOutcome(this.activity.outcomes, { kind: "released", held }) });
      try {
        await this.sendRelease(held.id);
        this.timings.delete(held.id);
      } catch (error) {
        // Still held (the list is read again): if it leaves the list later, that is news.
        this.endedHere.delete(held.id);
        this.update({ notices: new Map(this.activity.notices).set(held.id, { kind: "releaseFailed", error }), outcomes: withoutOutcomesOf(this.activity.outcomes, [held.id]) });
      }
    }
    this.deps.holdsChanged();
  }

  /** The countdown reached zero: say so and give the slot back (our count errs early, so "expired" is true for everyone). */
  expire(held: HeldSlot, options: { force?: boolean } = {}): void {
    if (!options.force && (this.activity.booking.has(held.id) || this.now() < this.deadlineOf(held))) return;
    this.removeHeld([held.id]);
    this.update({ notices: without(this.activity.notices, held.id), outcomes: withOutcome(this.activity.outcomes, { kind: "expired", held }) });
    void this.releaseQuietly(held.id).then(() => {
      this.deps.holdsChanged();
      this.deps.slotsChanged();
    });
  }

  /**
   * Holds that left the user's list without this page ending them (another
   * tab booked or released them, or expired them a little earlier): each is
   * told too, so no hold vanishes unannounced (issue 36 item 3).
   */
  leftTheList(holds: readonly HeldSlot[]): void {
    const unannounced = holds.filter((held) => !this.endedHere.has(held.id) && !this.activity.booking.has(held.id));
    if (unannounced.length === 0) return;
    let outcomes = this.activity.outcomes;
    for (const held of unannounced) {
      this.timings.delete(held.id);
      outcomes = withOutcome(outcomes, this.now() >= Date.parse(held.expiresAt) - EXPIRY_MARGIN_MS ? { kind: "expired", held } : { kind: "endedElsewhere", held });
    }
    this.update({ outcomes });
  }

  /** Puts away the outcomes of these holds (one notice may tell several). */
  dismissOutcomes(holdIds: readonly string[]): void {
    const outcomes = withoutOutcomesOf(this.activity.outcomes, holdIds);
    if (outcomes.length !== this.activity.outcomes.length) this.update({ outcomes });
  }

  dismissNotices(): void {
    if (this.activity.notices.size > 0) this.update({ notices: new Map() });
  }

  dismissNotice(holdId: string): void {
    if (this.activity.notices.has(holdId)) this.update({ notices: without(this.activity.notices, holdId) });
  }

  /**
   * Gives back a hold no one is waiting on (booked, or expired here), trying
   * again after a failure: a hold left behind blocks its slot for everyone
   * until it expires. The release is idempotent at the BFF.
   */
  private async releaseQuietly(holdId: string): Promise<void> {
    this.timings.delete(holdId);
    const waits = [0, ...(this.deps.releaseRetryDelaysMs ?? RELEASE_RETRY_DELAYS_MS)];
    const sleep = this.deps.sleep ?? sleepFor;
    for (const wait of waits) {
      if (wait > 0) await sleep(wait);
      try {
        await this.sendRelease(holdId);
        return;
      } catch {
        // Tried again after the next wait; after the last, the hold runs out on its own, in the service and in the store.
      }
    }
  }

  private sendRelease(holdId: string): Promise<unknown> {
    const sent = this.deps.release(holdId);
    this.releasing.add(sent);
    const done = () => this.releasing.delete(sent);
    sent.then(done, done);
    return sent;
  }

  private removeHeld(holdIds: readonly string[]): void {
    for (const id of holdIds) this.endedHere.add(id);
    this.deps.removeHeld(holdIds);
  }

  private update(changes: Partial<Omit<HoldsActivity, "outcome">>): void {
    const next = { ...this.activity, ...changes };
    this.activity = { ...next, outcome: next.outcomes.at(-1) ?? null };
    for (const listener of [...this.listeners]) listener();
  }
}

/** The outcomes with `outcome` last; an older outcome of the same hold, or of a hold it also settles, is replaced. */
function withOutcome(outcomes: readonly HoldOutcome[], outcome: HoldOutcome, alsoSettled: readonly HeldSlot[] = []): readonly HoldOutcome[] {
  return [...withoutOutcomesOf(outcomes, [outcome.held.id, ...alsoSettled.map((held) => held.id)]), outcome];
}

function withoutOutcomesOf(outcomes: readonly HoldOutcome[], holdIds: readonly string[]): readonly HoldOutcome[] {
  return outcomes.filter((outcome) => !holdIds.includes(outcome.held.id));
}

function without<V>(map: ReadonlyMap<string, V>, key: string): ReadonlyMap<string, V> {
  if (!map.has(key)) return map;
  const next = new Map(map);
  next.delete(key);
  return next;
}

function withoutMember(set: ReadonlySet<string>, key: string): ReadonlySet<string> {
  const next = new Set(set);
  next.delete(key);
  return next;
}
