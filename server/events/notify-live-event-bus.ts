import { randomUUID } from "node:crypto";
import type { LiveEvent } from "#contract/app-api/live-events.ts";
import type { Invalidation } from "../clinic/answer-cache.ts";
import type { NotificationListener, StoreNotifications } from "../store/store.ts";
import { decodeBusMessage, encodeBusMessage, type BusMessage } from "./bus-message.ts";
import type { LiveEventBus, LiveEventBusDeps } from "./live-event-bus.ts";
import type { StreamRevocation } from "./stream-revocation.ts";

// The live-event bus over PostgreSQL LISTEN/NOTIFY (ADR 0009). Sends are
// chained, one NOTIFY after the other, so every process receives one
// process's messages in the order it sent them: an invalidation arrives
// before the live event that makes a client refetch. A message lost while
// the listening connection is down is not replayed: the installations
// remembered are dropped on reconnection, cached reads still expire at the
// service's own staleness bound, and every open stream is ended with a
// reconnection hint, so that one whose revocation was missed is refused as it
// reconnects.

export class NotifyLiveEventBus implements LiveEventBus {
  private readonly origin = randomUUID();
  private tail: Promise<void> = Promise.resolve();
  private listener: NotificationListener | null = null;
  private closed = false;

  constructor(private readonly deps: LiveEventBusDeps & { notifications: StoreNotifications }) {}

  publish(organizationId: string, event: LiveEvent): void {
    // Should the NOTIFY fail, this process's own streams still get the event.
    this.send({ kind: "live-event", origin: this.origin, organizationId, event }, () => this.deps.hub.publish(organizationId, event));
  }

  invalidate(organizationId: string, change: Invalidation = {}): void {
    this.deps.invalidateCache(organizationId, change, "the service");
    const { routePrefix, facilityId, date } = change;
    this.send({ kind: "cache-invalidated", origin: this.origin, organizationId, prefix: routePrefix ?? null, ...(facilityId !== undefined && { facilityId }), ...(date !== undefined && { date }) });
  }

  installationChanged(organizationId: string): void {
    this.send({ kind: "installation-changed", origin: this.origin, organizationId });
  }

  revokeStreams(revocation: StreamRevocation): void {
    // Here at once, whatever becomes of the NOTIFY; the other processes on receipt.
    this.deps.revokeStreams(revocation);
    this.send({ kind: "streams-revoked", origin: this.origin, revocation });
  }

  async start(): Promise<void> {
    if (this.listener !== null || this.closed) return;
    const { logger } = this.deps;
    this.listener = this.deps.notifications.listen({
      onPayload: (payload) => this.receive(payload),
      onReconnected: () => {
        logger.warn("live-event bus: listening again after a lost connection; messages sent meanwhile were missed");
        this.deps.forgetInstallation();
        this.deps.reopenStreams();
      },
      onError: (error) => logger.warn({ err: error }, "live-event bus: the listening connection failed; reconnecting"),
    });
    try {
      await this.listener.ready;
    } catch (error) {
      logger.warn({ err: error }, "live-event bus: not listening yet; retrying in the background");
    }
  }

  flush(): Promise<void> {
    return this.tail;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.flush();
    this.closed = true;
    await this.listener?.close();
    this.listener = null;
  }

  private send(message: BusMessage, onFailure?: () => void): void {
    if (this.closed) return;
    const payload = encodeBusMessage(message);
    this.tail = this.tail
      .then(() => this.deps.notifications.notify(payload))
      .catch((error: unknown) => {
        this.deps.logger.error({ err: error, kind: message.kind, ...("organizationId" in message ? { organizationId: message.organizationId } : { revocation: message.revocation }) }, "live-event bus: sending failed");
        onFailure?.();
      });
  }

  private receive(payload: string): void {
    const message = decodeBusMessage(payload);
    if (message === null) {
      this.deps.logger.debug({ bytes: payload.length }, "live-event bus: ignored a message it does not know");
      return;
    }
    try {
      switch (message.kind) {
        case "live-event":
          this.deps.hub.publish(message.organizationId, message.event);
          break;
        case "cache-invalidated":
          if (message.origin !== this.origin) {
            const { prefix, facilityId, date } = message;
            this.deps.invalidateCache(message.organizationId, { ...(prefix !== null && { routePrefix: prefix }), ...(facilityId !== undefined && { facilityId }), ...(date !== undefined && { date }) }, "another process");
          }
          break;
        case "installation-changed":
          if (message.origin !== this.origin) this.deps.forgetInstallation(message.organizationId);
          break;
        case "streams-revoked":
          if (message.origin !== this.origin) this.deps.revokeStreams(message.revocation);
          break;
      }
    } catch (error) {
      this.deps.logger.error({ err: error, kind: message.kind }, "live-event bus: handling a message failed");
    }
  }
}
