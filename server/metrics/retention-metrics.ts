import { Counter, type Registry } from "prom-client";
import type { RetentionJobOptions } from "../retention/retention-job.ts";

// docs/operations.md "The metrics": what the retention job purged
// (docs/security.md "What Tandem keeps, and for how long"). Labelled by table
// (eleven values), never by organization.

/** The retention job's observers (`onPurged`, `onFailed`). */
export function recordRetention(registry: Registry): Required<Pick<RetentionJobOptions, "onPurged" | "onFailed">> {
  const purged = new Counter({
    name: "tandem_retention_purged_rows_total",
    help: "Rows the retention job deleted because they were past their retention period, by table (`webhook_dead_letters`: the inbox's dead letters)",
    labelNames: ["table"] as const,
    registers: [registry],
  });
  const failures = new Counter({
    name: "tandem_retention_failures_total",
    help: "Retention purges that failed, by table (retried at the next run, a minute later)",
    labelNames: ["table"] as const,
    registers: [registry],
  });
  return {
    // Every table gets a sample from the first run on, so a rate over it reads 0 rather than nothing.
    onPurged: (table, rows) => purged.inc({ table }, rows),
    onFailed: (table) => failures.inc({ table }),
  };
}
