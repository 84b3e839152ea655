import { sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { StoreDatabase } from "./database.ts";

/** Rows one purge statement deletes when the caller names no limit. */
export const DEFAULT_PURGE_LIMIT = 500;

/**
 * Deletes at most `limit` rows of `table` that match `where`, in one
 * statement, and answers how many. Bounded so one purge never holds its row
 * locks, or PGlite's single session, for long; rows another process is
 * deleting (or writing) at that moment are skipped, not waited for (SKIP
 * LOCKED), so several BFF processes purging one database never queue behind
 * each other. `ctid = ANY(ARRAY(…))` is PostgreSQL's batched delete: a TID
 * scan of exactly the rows the subquery locked.
 */
export async function purgeBatch(db: StoreDatabase, table: PgTable, where: SQL | undefined, limit: number = DEFAULT_PURGE_LIMIT): Promise<number> {
  const size = Math.floor(limit);
  if (!(size > 0)) return 0;
  const doomed = db.select({ ctid: sql`ctid` }).from(table).where(where).limit(size).for("update", { skipLocked: true });
  const deleted = await db
    .delete(table)
    .where(sql`ctid = any(array(${doomed}))`)
    .returning({ one: sql<number>`1` });
  return deleted.length;
}
