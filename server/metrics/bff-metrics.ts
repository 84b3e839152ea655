import { collectDefaultMetrics, Registry } from "prom-client";
import type { ClinicClient } from "../clinic/clinic-client.ts";
import type { LiveEventHub } from "../events/live-event-hub.ts";
import type { Logger } from "../logger.ts";
import type { Store } from "../store/store.ts";
import { registerProcessStateGauges } from "./process-state-metrics.ts";
import { registerUpstreamGauges } from "./upstream-metrics.ts";
import { registerWebhookInboxGauges } from "./webhook-inbox-metrics.ts";

// One registry per BFF app (tests build several in one process), so no
// metric is shared through prom-client's global registry.

export const createMetricsRegistry = () => new Registry();

/** The gauges read when Prometheus scrapes. */
export function registerBffGauges(registry: Registry, deps: { clinic: Pick<ClinicClient, "budget" | "stats">; store: Pick<Store, "inbox" | "poolUse">; hub: Pick<LiveEventHub, "totalSubscribers">; now: () => number; logger: Logger }): void {
  registerUpstreamGauges(registry, deps.clinic);
  registerWebhookInboxGauges(registry, { inbox: deps.store.inbox, now: deps.now, logger: deps.logger });
  registerProcessStateGauges(registry, deps);
}

/**
 * prom-client's process and Node.js metrics (`process_resident_memory_bytes`,
 * `nodejs_eventloop_lag_seconds`, …), standard names so common dashboards
 * apply. Only where metrics are served: they start an event-loop monitor.
 */
export function collectProcessMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry });
}
