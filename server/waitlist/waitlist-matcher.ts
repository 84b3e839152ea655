import { isSameId } from "#contract/ids.ts";
import { localDateOf } from "#contract/time/zoned-time.ts";
import type { ClinicClient } from "../clinic/clinic-client.ts";
import type { LiveEventPublisher } from "../events/live-event-bus.ts";
import type { Logger } from "../logger.ts";
import type { OfferedSlot, Store, StoredWaitlistEntry, StoredWaitlistOffer } from "../store/store.ts";
import { acceptsProvider, fitsSlot, freedSlotOf, groupByKind, onePerPatient, passedRangeEndBefore } from "./waitlist-fit.ts";
import { waitlistOfferOf } from "./waitlist-views.ts";

// Matching a freed slot to the waitlist (issue 38; ADR 0028). The webhook
// processor records each freed slot (waitlist-event-handler.ts) and kicks this
// matcher, which runs beside the inbox, never inside its batch: a slow or
// failing strong read delays no other event. A freed slot is claimed under a
// lease (so one process matches it, and a crashed one's row is taken over),
// matched, and settled once: `offered` (then, and only for the process whose
// settle won, `waitlist.offer` is published), `unmatched`, or `abandoned`. A
// failed read is retried on a growing delay until the slot starts; the inbox
// row was done with long before.
//
// Bounded per freed slot: at most MAX_ENTRIES_PER_FREED_SLOT entries looked
// at, and at most one appointment read (the event names the provider only by
// EHR id: the service's appointment names it) and MAX_STRONG_READS_PER_FREED_SLOT
// strong slots reads, one per kind of slot (type, length, new-patient flag)
// that someone waits for, longest-waiting kind first, stopping at the first
// kind the slot is free for. Nobody waiting who fits: no read at all.

/** Entries looked at for one freed slot, longest waiting first. */
export const MAX_ENTRIES_PER_FREED_SLOT = 500;
/** Strong slots reads for one freed slot (one per kind of slot waited for). */
export const MAX_STRONG_READS_PER_FREED_SLOT = 3;
/** Patients named in one offer (longest waiting first): what a front desk can call through, and under a bus message's size. */
export const MAX_OFFER_MATCHES = 10;
/** A freed slot is given up after this many failed attempts (or once it starts). */
export const MAX_MATCH_ATTEMPTS = 6;
const CLAIM_BATCH = 10;
const LEASE_MS = 60_000;
const FIRST_RETRY_MS = 2_000;
const LONGEST_RETRY_MS = 60_000;
/** How often the timer ends the entries whose range has passed. */
const RANGE_SWEEP_EVERY_MS = 60_000;

export interface WaitlistMatcherDeps {
  store: Pick<Store, "waitlist">;
  clinic: Pick<ClinicClient, "read" | "listAll">;
  live: LiveEventPublisher;
  logger: Logger;
  now?: () => number;
}

/** What one match did, for the benchmark's parts. */
export interface MatchOutcome {
  status: "offered" | "unmatched" | "retry" | "abandoned" | "lost";
  upstreamReads: number;
}

export class WaitlistMatcher {
  private running: Promise<void> | null = null;
  private again = false;
  private lastSweep = 0;

  constructor(private readonly deps: WaitlistMatcherDeps) {}

  /** Starts matching at once (a freed slot was just recorded); the caller does not wait. */
  kick(): void {
    this.run().catch((error: unknown) => this.deps.logger.error({ err: error }, "waitlist matching failed; the freed slots stay to match"));
  }

  /** Matches every claimable freed slot; concurrent calls share one run (and trigger one more pass). */
  run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          for (;;) {
            const claimed = await this.deps.store.waitlist.claimFreedSlots({ limit: CLAIM_BATCH, leaseMs: LEASE_MS, now: this.now() });
            if (claimed.length === 0) break;
            // Side by side: one slow read holds up no other freed slot.
            await Promise.all(claimed.map((slot) => this.matchOne(slot)));
            if (claimed.length < CLAIM_BATCH) break;
          }
        } while (this.again);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  async idle(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  /** Retries and ranges on a timer; returns a stop function. */
  start(intervalMs = 5_000): () => void {
    const tick = () => {
      this.kick();
      if (this.now() - this.lastSweep >= RANGE_SWEEP_EVERY_MS) {
        this.lastSweep = this.now();
        this.endPassedRanges().catch((error: unknown) => this.deps.logger.warn({ err: error }, "ending passed waitlist ranges failed; will retry"));
      }
    };
    tick();
    const timer = setInterval(tick, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Ends (range_passed) every waiting entry whose range has passed on every clock; tells each organization's waitlist users. */
  async endPassedRanges(): Promise<number> {
    const at = this.now();
    const ended = await this.deps.store.waitlist.endRangesBefore(passedRangeEndBefore(at), at);
    for (const organizationId of new Set(ended.map((entry) => entry.organizationId))) this.deps.live.publish(organizationId, { type: "waitlist.changed" });
    return ended.length;
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** Matches one claimed freed slot and settles it; a failure is retried later, never thrown. */
  async matchOne(slot: StoredWaitlistOffer): Promise<MatchOutcome> {
    const { waitlist } = this.deps.store;
    const reads = { count: 0 };
    try {
      if (slot.slotStartsAt <= this.now()) {
        await waitlist.settleUnoffered(slot.organizationId, slot.id, slot.attempts > 0 ? "abandoned" : "unmatched", slot.lastError ?? "the slot started before it was matched");
        return { status: slot.attempts > 0 ? "abandoned" : "unmatched", upstreamReads: 0 };
      }
      const offered = await this.findOffer(slot, reads);
      if (offered === null) {
        await waitlist.settleUnoffered(slot.organizationId, slot.id, "unmatched", null);
        return { status: "unmatched", upstreamReads: reads.count };
      }
      if (!(await waitlist.settleOffered(slot.organizationId, slot.id, offered))) return { status: "lost", upstreamReads: reads.count };
      const offer = waitlistOfferOf({ ...slot, status: "offered", offered, taken: null });
      if (offer !== null) this.deps.live.publish(slot.organizationId, { type: "waitlist.offer", offer });
      return { status: "offered", upstreamReads: reads.count };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const attempts = slot.attempts + 1;
      if (attempts >= MAX_MATCH_ATTEMPTS) {
        this.deps.logger.error({ offerId: slot.id, attempts, reason }, "matching a freed slot to the waitlist failed on every attempt; given up");
        await waitlist.settleUnoffered(slot.organizationId, slot.id, "abandoned", reason).catch(() => undefined);
        return { status: "abandoned", upstreamReads: reads.count };
      }
      const retryAt = this.now() + Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** slot.attempts);
      this.deps.logger.warn({ offerId: slot.id, attempts, reason }, "matching a freed slot to the waitlist failed; will retry");
      await waitlist.retryFreedSlot(slot.organizationId, slot.id, reason, retryAt).catch(() => undefined);
      return { status: "retry", upstreamReads: reads.count };
    }
  }

  private async findOffer(slot: StoredWaitlistOffer, reads: { count: number }): Promise<OfferedSlot | null> {
    const { organizationId } = slot;
    const facilities = await this.deps.clinic.listAll("GET /v1/facilities", "facilities", { organizationId });
    const zone = facilities.find((facility) => isSameId(facility.id, slot.facilityId, "fac"))?.timezone;
    if (zone === undefined) return null;
    const date = localDateOf(slot.slotStartsAt, zone);
    const waiting = await this.deps.store.waitlist.listWaitingOverlapping(organizationId, date, date, MAX_ENTRIES_PER_FREED_SLOT);
    const where = { facilityId: slot.facilityId, providerId: null, startMs: slot.slotStartsAt, zone };
    let candidates = waiting.filter((entry) => fitsSlot(entry.preferences, where));
    if (candidates.length === 0) return null;

    const providerId = await this.providerOf(slot, reads);
    if (providerId !== null) candidates = candidates.filter((entry) => acceptsProvider(entry.preferences, providerId));
    for (const group of groupByKind(candidates).slice(0, MAX_STRONG_READS_PER_FREED_SLOT)) {
      const named = group.entries.flatMap((entry) => entry.preferences.providerIds ?? [null]);
      const providerIds = providerId !== null ? [providerId] : named.includes(null) ? null : [...new Set(named.filter((id) => id !== null))];
      reads.count += 1;
      const { slots } = (
        await this.deps.clinic.read("GET /v2/schedule/slots", {
          organizationId,
          consistency: "strong",
          query: { ...group.kind, facilityIds: [slot.facilityId], ...(providerIds ? { providerIds } : {}), startDate: date, endDate: date },
        })
      ).data();
      const accepts = (id: string) => group.entries.some((entry) => acceptsProvider(entry.preferences, id));
      const free = freedSlotOf(slots, { facilityId: slot.facilityId, startMs: slot.slotStartsAt, providerId }, accepts);
      if (free === null) continue;
      const fitting = onePerPatient(group.entries.filter((entry) => acceptsProvider(entry.preferences, free.providerId))).slice(0, MAX_OFFER_MATCHES);
      return {
        providerId: free.providerId,
        facilityId: free.facilityId,
        startsAt: free.startsAt,
        endsAt: free.endsAt,
        ...group.kind,
        matches: fitting.map(matchOf),
      };
    }
    return null;
  }

  /** The cancelled appointment's provider, from the service's appointment (the event has only the EHR's id); null when it cannot be read: the slot is then matched by place and time alone. */
  private async providerOf(slot: StoredWaitlistOffer, reads: { count: number }): Promise<string | null> {
    try {
      reads.count += 1;
      return (await this.deps.clinic.read("GET /v1/appointments/{id}", { organizationId: slot.organizationId, params: { id: slot.appointmentId } })).data().providerId;
    } catch (error) {
      this.deps.logger.warn({ err: error, offerId: slot.id }, "reading the cancelled appointment failed; its slot is matched by place and time");
      return null;
    }
  }
}

const matchOf = (entry: StoredWaitlistEntry) => ({ entryId: entry.id, patientId: entry.patientId, patientName: entry.patientName, waitingSince: entry.createdAt });
