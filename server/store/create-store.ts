import { sql } from "drizzle-orm";
import { createAccountRowsRepository } from "./account-rows-repository.ts";
import { createAppointmentStateRepository } from "./appointment-state-repository.ts";
import { createAuditTrailRepository } from "./audit-trail-repository.ts";
import { createGroupCommitAuditTrail } from "./audit-trail.ts";
import { createCreatedTaskRepository } from "./created-task-repository.ts";
import { createWriteIntentRepository } from "./write-intent-repository.ts";
import { openDatabase, type DatabaseHandle } from "./database.ts";
import { createEmbeddedVacuum } from "./embedded-vacuum.ts";
import { createInstallationRepository } from "./installation-repository.ts";
import { createNoteDraftRepository } from "./note-draft-repository.ts";
import { createNoteStateRepository } from "./note-state-repository.ts";
import { createNoteViewRepository } from "./note-view-repository.ts";
import { createLastSlotSearchRepository } from "./last-slot-search-repository.ts";
import { installations } from "./schema.ts";
import { createSlotHoldRepository } from "./slot-hold-repository.ts";
import { createStandaloneSessionRepository } from "./standalone-session-repository.ts";
import type { Store } from "./store.ts";
import { createStoreGuard, guardRepository, type AsyncMethods } from "./store-guard.ts";
import { STORE_TIMEOUTS, type StoreTimeouts } from "./store-timeouts.ts";
import { createUsedTokenIdRepository } from "./used-token-id-repository.ts";
import { createWaitlistRepository } from "./waitlist-repository.ts";
import { createWebhookInboxRepository } from "./webhook-inbox-repository.ts";

export interface CreateStoreOptions {
  /** PostgreSQL connection string (DATABASE_URL); without it the embedded PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory (the BFF passes `.data/pglite`); undefined keeps the database in memory. */
  dataDir?: string;
  /** Schema for the tables and the migrations' bookkeeping, e.g. one per test worker; default "public". */
  schema?: string;
  /**
   * Errors no caller can be given: an idle PostgreSQL connection lost.
   * Default: a process warning.
   */
  onError?: (error: unknown) => void;
  /** How long the store may take (store-timeouts.ts); default {@link STORE_TIMEOUTS}. Tests pass shorter ones. */
  timeouts?: Partial<StoreTimeouts>;
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
export function storeOnDatabase(handle: DatabaseHandle, options: Pick<CreateStoreOptions, "onError" | "timeouts"> = {}): Store {
  const { db } = handle;
  // Every call below, the audit trail's inserts included, is bounded and says when the store cannot answer.
  const guard = createStoreGuard({ callMs: options.timeouts?.callMs ?? STORE_TIMEOUTS.callMs, oneSession: handle.engine === "pglite" });
  const guarded = <T extends AsyncMethods<T>>(repository: T): T => guardRepository(repository, guard);
  const audit = createGroupCommitAuditTrail({ repository: guarded(createAuditTrailRepository(db)) });

  let closing: Promise<void> | undefined;
  async function close(): Promise<void> {
    try {
      await audit.close();
    } finally {
      await handle.close();
    }
  }

  const notifications = handle.notifications;
  return {
    notifications: notifications && { notify: (payload) => guard.run(() => notifications.notify(payload)), listen: (handlers) => notifications.listen(handlers) },
    installations: guarded(createInstallationRepository(db)),
    inbox: guarded(createWebhookInboxRepository(db)),
    appointmentStates: guarded(createAppointmentStateRepository(db)),
    usedTokenIds: guarded(createUsedTokenIdRepository(db)),
    noteDrafts: guarded(createNoteDraftRepository(db)),
    tasks: guarded(createCreatedTaskRepository(db)),
    holds: guarded(createSlotHoldRepository(db)),
    writeIntents: guarded(createWriteIntentRepository(db)),
    noteStates: guarded(createNoteStateRepository(db)),
    noteViews: guarded(createNoteViewRepository(db)),
    lastSlotSearches: guarded(createLastSlotSearchRepository(db)),
    standaloneSessions: guarded(createStandaloneSessionRepository(db)),
    accountRows: guarded(createAccountRowsRepository(db)),
    waitlist: guarded(createWaitlistRepository(db)),
    audit: {
      record: (entry) => audit.record(entry),
      flush: () => audit.flush(),
      list: (organizationId) => audit.list(organizationId),
      recentResources: (organizationId, user, resourceTypes, limit) => audit.recentResources(organizationId, user, resourceTypes, limit),
      writesSince: (organizationId, resourceType, resourceIds, after) => audit.writesSince(organizationId, resourceType, resourceIds, after),
      purgeBefore: (at, limit) => audit.purgeBefore(at, limit),
    },
    ping: () =>
      guard.run(async () => {
        // A table of the store's, not `select 1`: a database whose schema is gone cannot answer either.
        await db.execute(sql`select 1 from ${installations} limit 1`);
      }),
    poolUse: () => handle.poolUse(),
    reclaimSpace: handle.engine === "pglite" ? createEmbeddedVacuum(db) : null,
    close() {
      closing ??= close();
      return closing;
    },
  };
}
