import type { LiveEvent } from "#contract/app-api/live-events.ts";
import type { Invalidation } from "../clinic/answer-cache.ts";
import type { Logger } from "../logger.ts";
import type { StoreNotifications } from "../store/store.ts";
import type { LiveEventHub } from "./live-event-hub.ts";
import type { StreamRevocation } from "./stream-revocation.ts";
import { NotifyLiveEventBus } from "./notify-live-event-bus.ts";

// The live-event bus (ADR 0009): how one BFF process's effects reach every
// process sharing its store. Live events reach the `GET /api/events` streams
// of all processes; cache invalidations and installation changes reach the
// other processes' memories; a revocation ends the streams it names on every
// process. On PGlite (one process owns the database) it is
// in-process: straight to the local hub. On PostgreSQL it goes over
// LISTEN/NOTIFY, and every process, the sender included, delivers a live
// event to its local hub on receipt, so nothing reaches a stream twice.

export interface LiveEventPublisher {
  /** Delivers the event to the organization's open streams, on every process. */
  publish(organizationId: string, event: LiveEvent): void;
}

export interface LiveEventBus extends LiveEventPublisher {
  /** Drops the organization's cached reads the change touches (all without one) here at once, then on every other process. */
  invalidate(organizationId: string, change?: Invalidation): void;
  /** The organization's stored installation changed: the other processes forget what they remember of it. */
  installationChanged(organizationId: string): void;
  /** Ends the streams the revocation names here at once, then on every other process. */
  revokeStreams(revocation: StreamRevocation): void;
  start(): Promise<void>;
  /** Resolves when every message sent so far has been handed to the database. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface LiveEventBusDeps {
  /** The local fan-out to this process's streams. */
  hub: LiveEventHub;
  /** `learntFrom`: "another process" when a bus message brought the change (its sender dropped what processes share). */
  invalidateCache: (organizationId: string, change: Invalidation, learntFrom: "the service" | "another process") => void;
  /** Forgets the remembered installation of one organization, or of all. */
  forgetInstallation: (organizationId?: string) => void;
  /** Ends this process's streams that the revocation names. */
  revokeStreams: (revocation: StreamRevocation) => void;
  /** Ends every stream of this process with a reconnection hint: each is authorised again as it reconnects. */
  reopenStreams: () => void;
  logger: Logger;
  /** The store's LISTEN/NOTIFY; null (PGlite) gives the in-process bus. */
  notifications: StoreNotifications | null;
}

export function createLiveEventBus(deps: LiveEventBusDeps): LiveEventBus {
  return deps.notifications === null ? new InProcessLiveEventBus(deps) : new NotifyLiveEventBus({ ...deps, notifications: deps.notifications });
}

class InProcessLiveEventBus implements LiveEventBus {
  constructor(private readonly deps: Pick<LiveEventBusDeps, "hub" | "invalidateCache" | "revokeStreams">) {}

  publish(organizationId: string, event: LiveEvent): void {
    this.deps.hub.publish(organizationId, event);
  }

  invalidate(organizationId: string, change: Invalidation = {}): void {
    this.deps.invalidateCache(organizationId, change, "the service");
  }

  installationChanged(): void {
    // No other process: the registry that wrote the record already remembers it.
  }

  revokeStreams(revocation: StreamRevocation): void {
    this.deps.revokeStreams(revocation);
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
