import type { AuditTrailRepository } from "./audit-trail-repository.ts";
import type { AuditEntry, AuditTrail } from "./store.ts";

export interface AuditTrailStats {
  /** Entries waiting for the next flush. */
  queued: number;
  /** Entries lost since start: the queue was full, or the store was closed. */
  dropped: number;
}

export interface AuditTrailOptions {
  repository: AuditTrailRepository;
  /** How long an entry may wait before a flush; default 1000 ms. */
  flushMs?: number;
  /** Rows per insert statement; a queue this long is flushed without waiting for the timer. */
  maxBatch?: number;
  /** Entries kept while the database is failing; beyond it the oldest are dropped and counted. */
  maxQueued?: number;
  /** A background flush failed, or entries were dropped. Default: a process warning. */
  onError?: (error: unknown, stats: AuditTrailStats) => void;
}

export interface BatchedAuditTrail extends AuditTrail {
  stats(): AuditTrailStats;
  /** Stops the timer and writes what is queued; a failure rejects and counts the unwritten entries as dropped. */
  close(): Promise<void>;
}

// PostgreSQL takes at most 65,535 parameters a statement; 7 columns × 1,000 rows stays well under.
const DEFAULT_MAX_BATCH = 1000;
const DEFAULT_MAX_QUEUED = 50_000;

function warn(error: unknown, stats: AuditTrailStats): void {
  const reason = error instanceof Error ? error.message : String(error);
  process.emitWarning(`audit trail: ${reason} (queued ${stats.queued}, dropped ${stats.dropped})`, "TandemAuditWarning");
}

export function createBatchedAuditTrail(options: AuditTrailOptions): BatchedAuditTrail {
  const { repository } = options;
  const flushMs = options.flushMs ?? 1000;
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  const maxQueued = options.maxQueued ?? DEFAULT_MAX_QUEUED;
  const onError = options.onError ?? warn;

  let queue: AuditEntry[] = [];
  let dropped = 0;
  let reportedDropped = 0;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let flushesInFlight = 0;
  // Flushes run one after another, so entries are written in the order they were recorded.
  let tail: Promise<void> = Promise.resolve();

  const stats = (): AuditTrailStats => ({ queued: queue.length, dropped });

  function dropOldestBeyondCap(): void {
    const excess = queue.length - maxQueued;
    if (excess > 0) {
      queue.splice(0, excess);
      dropped += excess;
    }
  }

  function reportNewDrops(): void {
    if (dropped > reportedDropped) {
      const count = dropped - reportedDropped;
      reportedDropped = dropped;
      onError(new Error(`${count} entries dropped (queue full or store closed)`), stats());
    }
  }

  function schedule(): void {
    if (timer !== undefined || closed || queue.length === 0) return;
    timer = setTimeout(() => {
      timer = undefined;
      flushInBackground();
    }, flushMs);
    // The audit timer alone must not keep the process alive; close() writes what is left.
    timer.unref();
  }

  function flushInBackground(): void {
    flush().catch((error: unknown) => onError(error, stats()));
  }

  async function writeQueued(): Promise<void> {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    // Only what is queued when the flush starts: a steady stream of records cannot keep one flush going.
    let remaining = queue.length;
    try {
      while (remaining > 0) {
        const batch = queue.splice(0, Math.min(remaining, maxBatch));
        remaining -= batch.length;
        try {
          await repository.insertMany(batch);
        } catch (error) {
          // Back to the front, in order, for the next flush.
          queue = [...batch, ...queue];
          dropOldestBeyondCap();
          throw error;
        }
      }
    } finally {
      schedule();
    }
    reportNewDrops();
  }

  function flush(): Promise<void> {
    flushesInFlight += 1;
    const run = tail.then(writeQueued).finally(() => {
      flushesInFlight -= 1;
    });
    tail = run.catch(() => undefined);
    return run;
  }

  return {
    record(entry) {
      if (!Number.isFinite(entry.at)) throw new TypeError("audit entry: `at` must be epoch milliseconds");
      if (closed) {
        dropped += 1;
        reportNewDrops();
        return;
      }
      queue.push({ ...entry });
      dropOldestBeyondCap();
      if (queue.length >= maxBatch && flushesInFlight === 0) flushInBackground();
      else schedule();
    },

    flush,

    list: (organizationId) => repository.list(organizationId),

    purgeBefore: (at, limit) => repository.purgeBefore(at, limit),

    async recentResources(organizationId, userId, resourceTypes, limit) {
      // What the user did a moment ago is still queued: written first, so it is in the answer.
      await flush();
      return repository.recentResources(organizationId, userId, resourceTypes, limit);
    },

    async writesSince(organizationId, resourceType, resourceIds, after) {
      await flush();
      return repository.writesSince(organizationId, resourceType, resourceIds, after);
    },

    stats,

    async close() {
      closed = true;
      try {
        await flush();
      } catch (error) {
        dropped += queue.length;
        queue = [];
        reportedDropped = dropped;
        throw error;
      } finally {
        if (timer !== undefined) clearTimeout(timer);
        timer = undefined;
      }
    },
  };
}
