import { sql } from "drizzle-orm";
import * as z from "zod/mini";
import type { StoreDatabase } from "./database.ts";

// PGlite runs PostgreSQL as one process with no autovacuum: rows deleted (a
// purge) or replaced (an update) stay in the table's pages as dead tuples,
// their bytes included, and their space is never reused. This does what
// autovacuum does, with its default thresholds: a table whose dead tuples
// pass 50 + 20 % of its live ones is vacuumed (plain VACUUM: no exclusive
// lock; the space becomes reusable and the dead tuples' index entries go).

const AUTOVACUUM_THRESHOLD = 50;
const AUTOVACUUM_SCALE_FACTOR = 0.2;

// Both drivers answer raw SQL with `rows`.
const dueTables = z.object({ rows: z.array(z.object({ relname: z.string() })) });

export function createEmbeddedVacuum(db: StoreDatabase): () => Promise<string[]> {
  return async () => {
    // Counts reach the statistics at most once a second; this statement's end sends this session's now.
    await db.execute(sql`SELECT pg_stat_force_next_flush()`);
    const result = await db.execute(
      sql`SELECT relname FROM pg_stat_user_tables WHERE schemaname = current_schema() AND n_dead_tup > ${AUTOVACUUM_THRESHOLD}::float8 + ${AUTOVACUUM_SCALE_FACTOR}::float8 * n_live_tup ORDER BY relname`,
    );
    const due = z.parse(dueTables, result).rows.map((row) => row.relname);
    // One table at a time: PGlite is one session, and each VACUUM holds it while it runs.
    for (const table of due) await db.execute(sql`VACUUM ${sql.identifier(table)}`);
    return due;
  };
}
