import { sql } from "drizzle-orm";
import { createAppointmentStateRepository } from "./appointment-state-repository.ts";
import { createAuditTrailRepository } from "./audit-trail-repository.ts";
import { createBatchedAuditTrail } from "./audit-trail.ts";
import { createCreatedTaskRepository } from "./created-task-repository.ts";
import { openDatabase, type DatabaseHandle } from "./database.ts";
import { createEmbeddedVacuum } from "./embedded-vacuum.ts";
import { createInstallationRepository } from "./installation-repository.ts";
import { createNoteDraftRepository } from "./note-draft-repository.ts";
import { createNoteStateRepository } from "./note-state-repository.ts";
import { createNoteViewRepository } from "./note-view-repository.ts";
import { createSlotHoldRepository } from "./slot-hold-repository.ts";
import { createStandaloneSessionRepository } from "./standalone-session-repository.ts";
import type { Store } from "./store.ts";
import { createUsedTokenIdRepository } from "./used-token-id-repository.ts";
import { createWebhookInboxRepository } from "./webhook-inbox-repository.ts";

export interface CreateStoreOptions {
  /** PostgreSQL connection string (DATABASE_URL); without it the embedded PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory (the BFF passes `.data/pglite`); undefined keeps the database in memory. */
  dataDir?: string;
  /** Schema for the tables and the migrations' bookkeeping, e.g. one per test worker; default "public". */
  schema?: string;
  /** How long an audit entry may wait in memory before it is written; default 1000 ms. */
  auditFlushMs?: number;
  /**
   * Errors no caller can be given: a background audit flush that failed (its entries are kept
   * for the next one), audit entries dropped, an idle PostgreSQL connection lost.
   * Default: a process warning.
   */
  onError?: (error: unknown) => void;
}

function warn(error: unknown): void {
  process.emitWarning(error instanceof Error ? error.message : String(error), "TandemStoreWarning");
}

/** Opens the database, applies pending migrations, and returns the store. */
export async function createStore(options: CreateStoreOptions = {}): Promise<Store> {
  const onError = options.onError ?? warn;
  const handle = await openDatabase({ ...options, onError });
  return storeOnDatabase(handle, { ...options, onError });
}

/** The store over an open database; exported so tests can reach the same database directly. */
export function storeOnDatabase(handle: DatabaseHandle, options: Pick<CreateStoreOptions, "auditFlushMs" | "onError"> = {}): Store {
  const { db } = handle;
  const onError = options.onError ?? warn;
  const audit = createBatchedAuditTrail({
    repository: createAuditTrailRepository(db),
    ...(options.auditFlushMs === undefined ? {} : { flushMs: options.auditFlushMs }),
    onError: (error, stats) =>
      onError(new Error(`store: audit trail (queued ${stats.queued}, dropped ${stats.dropped})`, { cause: error })),
  });

  let closing: Promise<void> | undefined;
  async function close(): Promise<void> {
    try {
      await audit.close();
    } finally {
      await handle.close();
    }
  }

  return {
    notifications: handle.notifications,
    installations: createInstallationRepository(db),
    inbox: createWebhookInboxRepository(db),
    appointmentStates: createAppointmentStateRepository(db),
    usedTokenIds: createUsedTokenIdRepository(db),
    noteDrafts: createNoteDraftRepository(db),
    tasks: createCreatedTaskRepository(db),
    holds: createSlotHoldRepository(db),
    noteStates: createNoteStateRepository(db),
    noteViews: createNoteViewRepository(db),
    standaloneSessions: createStandaloneSessionRepository(db),
    audit: {
      record: (entry) => audit.record(entry),
      flush: () => audit.flush(),
      list: (organizationId) => audit.list(organizationId),
      recentResources: (organizationId, userId, resourceTypes, limit) => audit.recentResources(organizationId, userId, resourceTypes, limit),
      writesSince: (organizationId, resourceType, resourceIds, after) => audit.writesSince(organizationId, resourceType, resourceIds, after),
      purgeBefore: (at, limit) => audit.purgeBefore(at, limit),
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    poolUse: () => handle.poolUse(),
    reclaimSpace: handle.engine === "pglite" ? createEmbeddedVacuum(db) : null,
    close() {
      closing ??= close();
      return closing;
    },
  };
}
