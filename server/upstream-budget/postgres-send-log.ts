import pg from "pg";
import * as z from "zod/mini";
import { reportPooledConnectionErrors } from "../store/pooled-connection-errors.ts";
import type { Send, SharedSendLog } from "./send-log.ts";

// The send log in PostgreSQL (`upstream_sends`, migration 0011): a round is
// one short transaction under an advisory lock on the scope; a process killed
// mid-round rolls back and releases it with its connection. Every wait is
// bounded at 1 s (a round's bound): a slow database fails a round.

const TIMEOUT_MS = 1_000;
const rowSchema = z.object({ organization_id: z.string(), process: z.string(), sent_at: z.union([z.string(), z.number()]) });

export function createPostgresSendLog(options: { databaseUrl: string; schema: string; onError?: (error: unknown) => void }): SharedSendLog {
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    // The store's schema (DATABASE_SCHEMA), where migration 0011 made the table.
    ...(options.schema !== "public" && { options: `-c search_path=${options.schema}` }),
    // Rounds of several scopes (RATE_LIMIT_SCOPE=organization) at once; each holds its connection a few ms.
    max: 4,
    connectionTimeoutMillis: TIMEOUT_MS,
    lock_timeout: TIMEOUT_MS,
    statement_timeout: TIMEOUT_MS,
    idle_in_transaction_session_timeout: TIMEOUT_MS * 5,
    keepAlive: true,
  });
  reportPooledConnectionErrors(pool, options.onError);

  return {
    engine: "postgres",
    async exchange(scope, now, windowMs, choose) {
      const client = await pool.connect();
      let broken: unknown;
      try {
        await client.query("BEGIN");
        await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`tandem-upstream-budget:${scope}`]);
        await client.query("DELETE FROM upstream_sends WHERE scope = $1 AND sent_at <= $2", [scope, now - windowMs]);
        const result = await client.query("SELECT organization_id, process, sent_at FROM upstream_sends WHERE scope = $1 ORDER BY sent_at", [scope]);
        const logged: Send[] = result.rows.map((row: unknown) => {
          const parsed = rowSchema.parse(row);
          return { organization: parsed.organization_id, process: parsed.process, at: Number(parsed.sent_at) };
        });
        const sends = choose(logged);
        if (sends.length > 0) {
          const columns = [sends.map((send) => send.organization), sends.map((send) => send.process), sends.map((send) => send.at)];
          await client.query("INSERT INTO upstream_sends (scope, organization_id, process, sent_at) SELECT $1, * FROM unnest($2::text[], $3::text[], $4::bigint[])", [scope, ...columns]);
        }
        await client.query("COMMIT");
      } catch (error) {
        broken = error;
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        // A connection that failed mid-round is not trusted with the next one.
        client.release(broken instanceof Error ? broken : undefined);
      }
    },
    close: () => pool.end(),
  };
}
