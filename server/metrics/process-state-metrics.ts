import { Gauge, type Registry } from "prom-client";
import type { LiveEventHub } from "../events/live-event-hub.ts";
import type { Store } from "../store/store.ts";

// docs/operations.md "The metrics": what this process holds open, read when Prometheus scrapes.

export function registerProcessStateGauges(registry: Registry, deps: { store: Pick<Store, "poolUse">; hub: Pick<LiveEventHub, "totalSubscribers"> }): void {
  new Gauge({
    name: "tandem_live_event_streams_open",
    help: "GET /api/events streams open on this process",
    registers: [registry],
    collect() {
      this.set(deps.hub.totalSubscribers());
    },
  });
  const pool = (name: string, help: string, read: (use: ReturnType<Store["poolUse"]>) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(deps.store.poolUse()));
      },
    });
  pool("tandem_store_pool_connections", "Connections the store's PostgreSQL pool holds (PGlite: 1, its one session)", (use) => use.total);
  pool("tandem_store_pool_idle_connections", "Of those, connections not running a query (PGlite: 0)", (use) => use.idle);
  pool("tandem_store_pool_waiting_requests", "Queries waiting for a free connection of the pool (PGlite: 0; it queues inside its one session)", (use) => use.waiting);
}
