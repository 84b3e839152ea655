import { Gauge, type Registry } from "prom-client";
import type { Logger } from "../logger.ts";
import type { InboxBacklog, WebhookInboxRepository } from "../store/store.ts";

// docs/operations.md "The metrics": how far webhook processing is behind, read from the store
// when Prometheus scrapes (never per request). When the store cannot be read
// these gauges have no sample in that scrape and the failure is logged;
// `/healthz` says the same to the load balancer.

export function registerWebhookInboxGauges(registry: Registry, deps: { inbox: Pick<WebhookInboxRepository, "backlog" | "countDeadLetters">; now: () => number; logger: Logger }): void {
  // Two gauges read one backlog: one query per scrape, shared while it runs.
  let reading: Promise<InboxBacklog> | null = null;
  const readBacklog = () => {
    reading ??= deps.inbox.backlog().finally(() => {
      reading = null;
    });
    return reading;
  };
  const unavailable = (error: unknown) => deps.logger.warn({ err: error }, "metrics: the webhook inbox could not be read");

  new Gauge({
    name: "tandem_webhook_inbox_unprocessed",
    help: "Verified webhook deliveries stored but not yet processed (dead letters are not counted)",
    registers: [registry],
    async collect() {
      this.reset();
      try {
        this.set((await readBacklog()).unprocessed);
      } catch (error) {
        unavailable(error);
      }
    },
  });
  new Gauge({
    name: "tandem_webhook_inbox_oldest_unprocessed_age_seconds",
    help: "How long the oldest unprocessed webhook delivery has waited (0 when none waits): the processing lag",
    registers: [registry],
    async collect() {
      this.reset();
      try {
        const { oldestReceivedAt } = await readBacklog();
        this.set(oldestReceivedAt === null ? 0 : Math.max(0, deps.now() - oldestReceivedAt) / 1000);
      } catch {
        // logged once, by the gauge above
      }
    },
  });
  new Gauge({
    name: "tandem_webhook_dead_letters",
    help: "Verified webhook deliveries the BFF could not read, or could not process in 5 attempts, kept with the reason for a person to look at (as /healthz reports)",
    registers: [registry],
    async collect() {
      this.reset();
      try {
        this.set(await deps.inbox.countDeadLetters());
      } catch (error) {
        unavailable(error);
      }
    },
  });
}
