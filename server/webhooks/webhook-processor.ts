import * as z from "zod/mini";
import { appInstalledEventData, appointmentEventData, lifecycleEventData, webhookEnvelope, type AppointmentEventData } from "#contract/clinic-api/events.ts";
import { compareTimestamps, readTimestamp } from "#contract/time/timestamp.ts";
import type { Invalidation } from "../clinic/answer-cache.ts";
import type { LiveEventPublisher } from "../events/live-event-bus.ts";
import type { InstallationRegistry, LifecycleEventType } from "../installations/installation-registry.ts";
import type { Logger } from "../logger.ts";
import type { InboxEntry, Store } from "../store/store.ts";
import type { WaitlistEvents } from "../waitlist/waitlist-event-handler.ts";

// Processing of stored webhooks (DESIGN.md "Webhooks"; seed 001 "Delivery
// guarantees" 2-3): each hook-id once; appointment events applied by their
// payload's updatedAt, never by arrival, so a stale status never re-opens a
// cancelled appointment; schedules invalidated by facility and date (the
// kept slot searches, availability weeks and appointment pages whose request
// covers the appointment's facility and day, before and after the change;
// those of other facilities or dates stay: server/clinic/answer-cache.ts);
// installations updated; events Tandem does not act on are stored and
// ignored. Unprocessed rows (a crash between storing and processing) are
// picked up at start-up and on a timer. Several BFF processes may drain one
// inbox (ADR 0009): each batch is claimed under a lease, so a row is taken by
// one process; a crashed process's lease runs out and another takes over.
// Nothing verified vanishes: a payload the processor cannot read becomes a
// dead letter at once, and one it keeps failing on after MAX_ATTEMPTS, each
// with its reason, counted in /healthz and tandem_webhook_dead_letters.
// Appointment events also go to the waitlist (server/waitlist/, ADR 0030):
// a freed slot is recorded here and matched beside the inbox, never in it.

const LIFECYCLE_TYPES = new Set<string>(["app.installed", "app.uninstalled", "app.suspended", "app.reactivated", "installation.permissions_updated"]);
const BATCH_SIZE = 100;
/** The kept reads an appointment's change can make stale. */
const SCHEDULE_ROUTES = ["GET /v2/schedule/slots", "GET /v3/schedule/availability-templates", "GET /v1/appointments"] as const;
/** A row that keeps failing becomes a dead letter at this many attempts. */
export const MAX_ATTEMPTS = 5;
/** Far longer than a batch takes: processing is store writes and, rarely, one installations list. */
const DEFAULT_LEASE_MS = 60_000;

export interface WebhookProcessorDeps {
  store: Pick<Store, "inbox" | "appointmentStates">;
  installations: InstallationRegistry;
  /** The live-event bus: every process's streams. */
  live: LiveEventPublisher;
  /** Drops the organization's cached reads the change touches (on every process). */
  invalidate: (organizationId: string, change: Invalidation) => void;
  logger: Logger;
  now?: () => number;
  /** How long a claimed batch stays this process's; default 60 s. */
  leaseMs?: number;
  /** The waitlist's part of an appointment event (issue 38): a freed slot recorded to match, entries ended as booked. */
  waitlist?: WaitlistEvents;
}

/** A stored payload the processor cannot read: retrying cannot help, so it is a dead letter at once. */
class UnreadablePayload extends Error {}

function readOrThrow<T extends z.ZodMiniType>(schema: T, value: unknown, what: string): z.infer<T> {
  const parsed = z.safeParse(schema, value);
  if (!parsed.success) throw new UnreadablePayload(`${what} cannot be read: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export class WebhookProcessor {
  private draining: Promise<number> | null = null;
  private again = false;

  constructor(private readonly deps: WebhookProcessorDeps) {}

  /** Processes every unprocessed row; concurrent calls share one run (and trigger one more pass). */
  drain(): Promise<number> {
    if (this.draining) {
      this.again = true;
      return this.draining;
    }
    this.draining = (async () => {
      let processed = 0;
      try {
        do {
          this.again = false;
          for (;;) {
            const leaseMs = this.deps.leaseMs ?? DEFAULT_LEASE_MS;
            const claimedAt = this.now();
            const batch = await this.deps.store.inbox.claimUnprocessed({ limit: BATCH_SIZE, leaseMs, now: claimedAt, maxAttempts: MAX_ATTEMPTS });
            if (batch.length === 0) break;
            // Nothing is started in the lease's second half, so no entry can still be running when another process may take it.
            processed += await this.processBatch(batch, claimedAt + leaseMs / 2);
            if (batch.length < BATCH_SIZE) break;
          }
        } while (this.again);
      } finally {
        this.draining = null;
      }
      return processed;
    })();
    return this.draining;
  }

  /** Resolves once the processing under way, if any, has finished (a failure is the run's own to log). */
  async idle(): Promise<void> {
    await this.draining?.catch(() => undefined);
  }

  /** Runs `drain` on a timer; returns a stop function. */
  start(intervalMs = 5_000): () => void {
    // Rows an earlier version stopped retrying without a trace become dead letters.
    this.deps.store.inbox.deadLetterExhausted({ maxAttempts: MAX_ATTEMPTS, at: this.now() }).then(
      (count) => {
        if (count > 0) this.deps.logger.warn({ count, maxAttempts: MAX_ATTEMPTS }, "webhook deliveries that had failed every attempt are now dead letters");
      },
      (error: unknown) => this.deps.logger.warn({ err: error }, "dead-lettering exhausted webhook deliveries failed; will try at the next start"),
    );
    const run = () => {
      this.drain().catch((error: unknown) => this.deps.logger.error({ err: error }, "webhook processing failed"));
    };
    run();
    const timer = setInterval(run, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  private async processBatch(batch: InboxEntry[], startBefore: number): Promise<number> {
    // Appointment events in payload order (updatedAt, as instants), the rest as received.
    const ordered = [...batch].sort((a, b) => compareTimestamps(appointmentUpdatedAt(a), appointmentUpdatedAt(b)) || a.receivedAt - b.receivedAt);
    let processed = 0;
    for (const [index, entry] of ordered.entries()) {
      if (this.now() >= startBefore) {
        this.deps.logger.warn({ left: ordered.length - index }, "webhook batch outlived half its lease; the rest is left to the next claim");
        break;
      }
      try {
        await this.process(entry);
        await this.deps.store.inbox.markProcessed(entry.hookId, this.now());
        processed += 1;
      } catch (error) {
        await this.recordFailure(entry, error);
      }
    }
    return processed;
  }

  private async recordFailure(entry: InboxEntry, error: unknown): Promise<void> {
    const reason = error instanceof Error ? error.message : String(error);
    const log = { hookId: entry.hookId, type: entry.eventType, reason };
    if (error instanceof UnreadablePayload) {
      await this.deps.store.inbox.markDeadLetter(entry.hookId, reason, this.now());
      this.deps.logger.warn(log, "verified webhook kept as a dead letter: its payload cannot be read");
      return;
    }
    const { deadLetter } = await this.deps.store.inbox.markFailed(entry.hookId, reason, { maxAttempts: MAX_ATTEMPTS, at: this.now() });
    if (deadLetter) this.deps.logger.error({ ...log, attempts: MAX_ATTEMPTS }, "verified webhook kept as a dead letter: processing failed on every attempt");
    else this.deps.logger.warn({ ...log, err: error }, "webhook processing failed; will retry");
  }

  private async process(entry: InboxEntry): Promise<void> {
    const envelope = readOrThrow(webhookEnvelope, entry.payload, "the event envelope");
    const [family] = envelope.type.split(".");
    if (family === "appointment") {
      const data = await this.processAppointment(envelope.data);
      // Whether or not the event was newer than the stored state: each waitlist step reads what it needs, and is idempotent.
      await this.deps.waitlist?.onAppointmentEvent(envelope.type, data, entry.receivedAt);
      return;
    }
    if (LIFECYCLE_TYPES.has(envelope.type)) return this.processLifecycle(envelope.type as LifecycleEventType, envelope.data, envelope.timestamp);
    if (family === "facility" || family === "provider") {
      // Without its organization the directory change cannot be applied: kept as a dead letter, not marked done.
      const { organizationId } = readOrThrow(lifecycleEventData, envelope.data, `the ${envelope.type} payload`);
      const resource = family === "facility" ? "facilities" : "providers";
      this.deps.invalidate(organizationId, { routePrefix: `GET /v1/${resource}` });
      this.deps.live.publish(organizationId, { type: "directory.changed", resource });
    }
    // Faxes, documents, sync requests, test events: stored, not acted on.
  }

  private async processAppointment(raw: Record<string, unknown>): Promise<AppointmentEventData> {
    const data = readOrThrow(appointmentEventData, raw, "the appointment payload");
    const organizationId = data.organizationId.toLowerCase();
    const { applied, previous } = await this.deps.store.appointmentStates.applyIfNewer({
      organizationId,
      appointmentId: data.id,
      status: data.status,
      updatedAt: data.updatedAt,
      facilityId: data.facilityId,
      scheduledStartDate: data.scheduledStartDate,
      scheduledEndDate: data.scheduledEndDate,
    });
    if (!applied) return data;
    const touched = new Map<string, { facilityId: string; date: string }>();
    for (const state of [previous, data]) {
      if (!state) continue;
      // The UTC day, whatever offset the payload was written with (the cache widens a request's local dates by a day for it).
      const date = (readTimestamp(state.scheduledStartDate)?.utc ?? state.scheduledStartDate).slice(0, 10);
      touched.set(`${state.facilityId}|${date}`, { facilityId: state.facilityId, date });
    }
    for (const { facilityId, date } of touched.values()) {
      // The payload names the provider only by its EHR id, so schedules are invalidated by facility and date;
      // the booked load's appointment pages (ADR 0020) with them, kept as long as the schedule read they were combined with.
      for (const routePrefix of SCHEDULE_ROUTES) this.deps.invalidate(organizationId, { routePrefix, facilityId, date });
      this.deps.live.publish(organizationId, { type: "schedule.changed", facilityId, date });
    }
    return data;
  }

  private async processLifecycle(type: LifecycleEventType, raw: Record<string, unknown>, timestamp: string): Promise<void> {
    const data = type === "app.installed" ? readOrThrow(appInstalledEventData, raw, "the app.installed payload") : readOrThrow(lifecycleEventData, raw, `the ${type} payload`);
    const grantedPermissions = z.safeParse(z.array(z.string()), raw.grantedPermissions);
    const settings = z.safeParse(z.record(z.string(), z.unknown()), raw.settings);
    const stored = await this.deps.installations.applyLifecycleEvent(
      type,
      {
        organizationId: data.organizationId,
        ...(grantedPermissions.success && { grantedPermissions: grantedPermissions.data }),
        ...(settings.success && { settings: settings.data }),
      },
      timestamp,
    );
    if (stored) {
      this.deps.live.publish(stored.organizationId, { type: "installation.changed", status: stored.status, grantedScopes: [...this.deps.installations.grantedScopes(stored)] });
    }
  }
}

/** An appointment event's `updatedAt`; "" (before every instant) for other events and unreadable payloads. */
function appointmentUpdatedAt(entry: InboxEntry): string {
  const parsed = z.safeParse(z.object({ data: z.object({ updatedAt: z.string() }) }), entry.payload);
  return entry.eventType.startsWith("appointment.") && parsed.success ? parsed.data.data.updatedAt : "";
}
