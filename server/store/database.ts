import { fileURLToPath } from "node:url";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import { EMBEDDED_TUNING, startPglite, type EmbeddedTuning } from "./embedded-engine.ts";
import { createPostgresNotifications, notificationChannel } from "./postgres-notifications.ts";
import { reportPooledConnectionErrors } from "./pooled-connection-errors.ts";
import type { PoolUse, StoreNotifications } from "./store.ts";
import { STORE_TIMEOUTS, type StoreTimeouts } from "./store-timeouts.ts";

/** The Drizzle database both engines give; repositories take this and nothing engine-specific. */
export type StoreDatabase = PgDatabase<PgQueryResultHKT>;

export interface DatabaseOptions {
  /** PostgreSQL connection string; without it the embedded PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory; undefined keeps the database in memory. */
  dataDir?: string;
  /** PostgreSQL schema for every table and the migrations' bookkeeping; default "public". */
  schema?: string;
  /** How PGlite is started; default ADR 0019's choice. The memory bench passes others. */
  embedded?: Partial<EmbeddedTuning>;
  /** Errors that have no caller to reject (an idle pooled connection failing). */
  onError?: (error: unknown) => void;
  /** PostgreSQL's connect, lock, statement and idle-transaction bounds; default {@link STORE_TIMEOUTS}. */
  timeouts?: Partial<StoreTimeouts>;
}

export interface DatabaseHandle {
  engine: "pglite" | "postgres";
  schema: string;
  db: StoreDatabase;
  /** LISTEN/NOTIFY between processes on PostgreSQL; null on PGlite. */
  notifications: StoreNotifications | null;
  poolUse(): PoolUse;
  close(): Promise<void>;
}

// Resolved from this module, not the working directory, so any entry point finds them.
const MIGRATIONS_FOLDER = fileURLToPath(new URL("./migrations", import.meta.url));

// Names are spliced into SQL and into the connection's startup options, so only plain identifiers pass.
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const schema = options.schema ?? "public";
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error(`store: schema name "${schema}" must be lower-case letters, digits and underscores (at most 63)`);
  }
  return options.databaseUrl === undefined
    ? openPglite(options.dataDir, schema, { ...EMBEDDED_TUNING, ...options.embedded })
    : openPostgres(options.databaseUrl, schema, { ...STORE_TIMEOUTS, ...options.timeouts }, options.onError);
}

function migrationConfig(schema: string) {
  // Outside "public" (tests) the bookkeeping moves into the same schema, so dropping it leaves nothing behind.
  return { migrationsFolder: MIGRATIONS_FOLDER, migrationsSchema: schema === "public" ? "drizzle" : schema };
}

async function openPglite(dataDir: string | undefined, schema: string, tuning: EmbeddedTuning): Promise<DatabaseHandle> {
  const [{ drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([import("drizzle-orm/pglite"), import("drizzle-orm/pglite/migrator")]);
  const client = await startPglite(dataDir, tuning);
  try {
    if (schema !== "public") {
      // PGlite is one session, so a SET here holds for every later query.
      await client.exec(`CREATE SCHEMA IF NOT EXISTS "${schema}"; SET search_path TO "${schema}"`);
    }
    const db = drizzlePglite({ client });
    await migratePglite(db, migrationConfig(schema));
    return { engine: "pglite", schema, db, notifications: null, poolUse: () => ({ total: 1, idle: 0, waiting: 0 }), close: () => client.close() };
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
}

async function openPostgres(databaseUrl: string, schema: string, timeouts: StoreTimeouts, onError: ((error: unknown) => void) | undefined): Promise<DatabaseHandle> {
  // A startup parameter rather than a SET after connect: no query can run on a connection before it applies.
  const searchPath = schema === "public" ? {} : { options: `-c search_path=${schema}` };
  await migrate(new pg.Client({ connectionString: databaseUrl, ...searchPath, connectionTimeoutMillis: timeouts.connectMs }), schema);
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    ...searchPath,
    // lock_timeout, statement_timeout and idle_in_transaction_session_timeout go as startup parameters as well;
    // connectionTimeoutMillis is pg-pool's own (store-timeouts.ts says why each).
    connectionTimeoutMillis: timeouts.connectMs,
    lock_timeout: timeouts.lockMs,
    statement_timeout: timeouts.statementMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
    // A peer gone without a word (a lost network) is noticed on idle connections.
    keepAlive: true,
  });
  reportPooledConnectionErrors(pool, onError);
  return {
    engine: "postgres",
    schema,
    db: drizzleNodePg({ client: pool }),
    notifications: createPostgresNotifications({ connectionString: databaseUrl, channel: notificationChannel(schema), pool, connectMs: timeouts.connectMs }),
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}

/**
 * Applies pending migrations on a connection of its own, without the pool's
 * bounds: it waits while another process migrates, and a migration may take long.
 */
async function migrate(client: pg.Client, schema: string): Promise<void> {
  const lockKey = `tandem-store-migrate:${schema}`;
  try {
    await client.connect();
    // Several BFF processes (or test workers sharing a schema) may start at once: one migrates, the others wait.
    await client.query("SELECT pg_advisory_lock(hashtext($1))", [lockKey]);
    // Not for "public": it exists, and the statement would still need CREATE on the database.
    if (schema !== "public") await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await migrateNodePg(drizzleNodePg({ client }), migrationConfig(schema));
  } finally {
    // Ending the session releases the lock, on a failure too.
    await client.end().catch(() => undefined);
  }
}
