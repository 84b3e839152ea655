import type { LiveEvent } from "#contract/app-api/live-events.ts";

// Effects of webhooks, fanned out to the open `GET /api/events` streams of
// one organization. In-process: one BFF instance serves its own streams.

export type LiveEventListener = (event: LiveEvent) => void;

export class LiveEventHub {
  private listeners = new Map<string, Set<LiveEventListener>>();

  subscribe(organizationId: string, listener: LiveEventListener): () => void {
    const set = this.listeners.get(organizationId) ?? new Set();
    set.add(listener);
    this.listeners.set(organizationId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(organizationId);
    };
  }

  publish(organizationId: string, event: LiveEvent): void {
    for (const listener of this.listeners.get(organizationId) ?? []) listener(event);
  }

  subscriberCount(organizationId: string): number {
    return this.listeners.get(organizationId)?.size ?? 0;
  }

  /** Every organization's: the `GET /api/events` streams open on this process. */
  totalSubscribers(): number {
    let total = 0;
    for (const set of this.listeners.values()) total += set.size;
    return total;
  }
}
