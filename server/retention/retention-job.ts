import { setImmediate as nextTurn } from "node:timers/promises";
import type { Logger } from "../logger.ts";
import type { RetentionRule, RetentionTable } from "./retention-rules.ts";

// The retention job (docs/security.md "What Tandem keeps, and for how long"):
// every BFF process runs it, on either engine, from `start()`. A run applies
// every rule in batches: each batch one bounded DELETE that skips rows
// another process holds, the event loop given back between batches, and at
// most `maxBatches` batches per rule in a run, so a backlog (the first run
// after an upgrade) is worked off over several runs and no run holds a lock,
// or PGlite's one session, for long. Deletes are idempotent: processes
// sharing a database split the rows between them and never wait on each
// other. A run with nothing to purge is one index probe per rule.

/** Rows per DELETE. */
export const DEFAULT_PURGE_BATCH_SIZE = 500;
/** Batches per rule in one run: 10,000 rows per rule a run. */
export const DEFAULT_PURGE_MAX_BATCHES = 20;
/** A used token id is spent for at most its token's five minutes: a minute between runs keeps that table small. */
export const DEFAULT_PURGE_INTERVAL_MS = 60_000;

export type PurgeCounts = Partial<Record<RetentionTable, number>>;

export interface RetentionJobOptions {
  rules: readonly RetentionRule[];
  logger: Logger;
  now: () => number;
  batchSize?: number;
  maxBatches?: number;
  intervalMs?: number;
  /** Called once per rule and run with what it purged (metrics). */
  onPurged?: (table: RetentionTable, rows: number) => void;
  /** A rule's purge failed (the run goes on with the next rule). */
  onFailed?: (table: RetentionTable) => void;
  /** After each run: the embedded store's vacuum (`Store.reclaimSpace`), so purged rows leave its pages; null on PostgreSQL. */
  reclaimSpace?: (() => Promise<string[]>) | null;
}

export interface RetentionJob {
  /** One bounded pass over every rule; a call while a run is under way joins it. Answers the rows purged, per table (none: empty). */
  run(): Promise<PurgeCounts>;
  /** Runs now, then every `intervalMs`; answers a stop function, which also ends a run under way after its current batch. */
  start(): () => void;
  /** Resolves once the run under way, if any, has finished. */
  idle(): Promise<void>;
}

export function createRetentionJob(options: RetentionJobOptions): RetentionJob {
  const batchSize = options.batchSize ?? DEFAULT_PURGE_BATCH_SIZE;
  const maxBatches = options.maxBatches ?? DEFAULT_PURGE_MAX_BATCHES;
  const intervalMs = options.intervalMs ?? DEFAULT_PURGE_INTERVAL_MS;
  const { logger } = options;
  let running: Promise<PurgeCounts> | null = null;
  // Set by start()'s stop: a shutdown does not wait for a whole run.
  let stopped = false;

  async function purgeRule(rule: RetentionRule, now: number): Promise<number> {
    let purged = 0;
    for (let batch = 0; batch < maxBatches && !stopped; batch += 1) {
      const rows = await rule.purge(now, batchSize);
      purged += rows;
      if (rows < batchSize) break;
      await nextTurn();
    }
    return purged;
  }

  async function runOnce(): Promise<PurgeCounts> {
    // One instant for the whole run: every rule's cutoff is measured from it.
    const now = options.now();
    const started = performance.now();
    const counts: PurgeCounts = {};
    const failed: RetentionTable[] = [];
    for (const rule of options.rules) {
      if (stopped) break;
      try {
        const rows = await purgeRule(rule, now);
        if (rows > 0) counts[rule.table] = rows;
        options.onPurged?.(rule.table, rows);
      } catch (error) {
        failed.push(rule.table);
        options.onFailed?.(rule.table);
        logger.warn({ err: error, table: rule.table }, "retention purge failed; the next run tries again");
      }
    }
    let vacuumed: string[] = [];
    if (options.reclaimSpace && !stopped) {
      try {
        vacuumed = await options.reclaimSpace();
      } catch (error) {
        logger.warn({ err: error }, "vacuuming the embedded store failed; the next run tries again");
      }
    }
    const ms = Math.round(performance.now() - started);
    // Counts and table names only, never content.
    if (Object.keys(counts).length > 0 || vacuumed.length > 0) logger.info({ purged: counts, ...(vacuumed.length > 0 && { vacuumed }), ms }, "retention purge");
    else if (failed.length === 0) logger.debug({ ms }, "retention purge: nothing past its period");
    return counts;
  }

  const job: RetentionJob = {
    run() {
      running ??= runOnce().finally(() => {
        running = null;
      });
      return running;
    },
    start() {
      const tick = () => {
        // runOnce catches each rule's failure; this is for anything else.
        job.run().catch((error: unknown) => logger.error({ err: error }, "retention purge failed"));
      };
      stopped = false;
      tick();
      const timer = setInterval(tick, intervalMs);
      timer.unref();
      return () => {
        stopped = true;
        clearInterval(timer);
      };
    },
    async idle() {
      await running?.catch(() => undefined);
    },
  };
  return job;
}
