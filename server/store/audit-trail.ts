import type { AuditTrailRepository } from "./audit-trail-repository.ts";
import type { AuditEntry, AuditTrail } from "./store.ts";
import { StoreUnavailableError } from "./store-unavailable.ts";

export interface AuditTrailOptions {
  repository: AuditTrailRepository;
  /** Rows per insert statement. */
  maxBatch?: number;
  /**
   * Records waiting for an insert; one more is refused (StoreUnavailableError) rather than kept:
   * each waiting record is a request held open, so this only binds when the store has stopped answering.
   */
  maxWaiting?: number;
}

export interface GroupCommitAuditTrail extends AuditTrail {
  /** Records waiting for, or in, an insert. */
  pending(): number;
  /** Refuses new records and waits for those already taken. */
  close(): Promise<void>;
}

// PostgreSQL takes at most 65,535 parameters a statement; 7 columns × 1,000 rows stays well under.
const DEFAULT_MAX_BATCH = 1000;
const DEFAULT_MAX_WAITING = 5000;

interface Waiting {
  entry: AuditEntry;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * DESIGN.md: "The audit record of a PHI read is durable before the PHI is answered".
 * `record` resolves once the row is committed. Group commit: the records
 * taken while one insert runs go together in the next, started as soon as it
 * ends (no timer), so concurrent readers share one statement.
 */
export function createGroupCommitAuditTrail(options: AuditTrailOptions): GroupCommitAuditTrail {
  const { repository } = options;
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  const maxWaiting = options.maxWaiting ?? DEFAULT_MAX_WAITING;

  let waiting: Waiting[] = [];
  let inFlight = 0;
  // Set and cleared in the same synchronous step as the check for waiting records, so none is left behind.
  let writing: Promise<void> | null = null;
  let closed = false;

  async function writeAll(): Promise<void> {
    // Records of the same tick (a list's rows, concurrent requests) join the first insert.
    await Promise.resolve();
    for (;;) {
      const batch = waiting.slice(0, maxBatch);
      if (batch.length === 0) {
        writing = null;
        return;
      }
      waiting = waiting.slice(batch.length);
      inFlight = batch.length;
      try {
        await repository.insertMany(batch.map((item) => item.entry));
        for (const item of batch) item.resolve();
      } catch (error) {
        for (const item of batch) item.reject(error);
      } finally {
        inFlight = 0;
      }
    }
  }

  function startWriting(): void {
    writing ??= writeAll();
  }

  return {
    record(entry) {
      if (!Number.isFinite(entry.at)) return Promise.reject(new TypeError("audit entry: `at` must be epoch milliseconds"));
      if (closed) return Promise.reject(new StoreUnavailableError("closed"));
      if (waiting.length >= maxWaiting) return Promise.reject(new StoreUnavailableError("audit_backlog"));
      return new Promise<void>((resolve, reject) => {
        waiting.push({ entry: { ...entry }, resolve, reject });
        startWriting();
      });
    },

    async flush() {
      while (writing) await writing;
    },

    list: (organizationId) => repository.list(organizationId),

    purgeBefore: (at, limit) => repository.purgeBefore(at, limit),

    recentResources: (organizationId, user, resourceTypes, limit) => repository.recentResources(organizationId, user, resourceTypes, limit),

    writesSince: (organizationId, resourceType, resourceIds, after) => repository.writesSince(organizationId, resourceType, resourceIds, after),

    pending: () => waiting.length + inFlight,

    async close() {
      closed = true;
      while (writing) await writing;
    },
  };
}
