import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { reportPooledConnectionErrors } from "./pooled-connection-errors.ts";

// A connection checked out of the pool when the server ends its session
// (fault matrix: "a dropped database"; e2e store-outage.spec.ts saw the BFF
// exit with "Unhandled 'error' event" on a pg Client). PostgreSQL only: runs
// when DATABASE_URL is set.

const databaseUrl = process.env.DATABASE_URL;

describe.skipIf(!databaseUrl)("a pool's connections on PostgreSQL", () => {
  const opened: { end(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const closable of opened.splice(0)) await closable.end().catch(() => undefined);
  });

  /** Ends a session from another connection, as a restart or DROP DATABASE … WITH (FORCE) does. */
  async function endSession(pid: number): Promise<void> {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      await admin.query("SELECT pg_terminate_backend($1)", [pid]);
    } finally {
      await admin.end();
    }
  }

  it("reports the error of a connection checked out between two queries, once, and the pool goes on with a new one", async () => {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    opened.push(pool);
    const reported: unknown[] = [];
    reportPooledConnectionErrors(pool, (error) => reported.push(error));
    const client = await pool.connect();
    await client.query("BEGIN");
    const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    await endSession(rows[0]?.pid ?? 0);
    // Without a listener of its own the connection's error event ends the process (vitest: an unhandled error).
    await expect.poll(() => reported.length).toBeGreaterThan(0);
    await expect(client.query("SELECT 1")).rejects.toThrow();
    client.release(true);
    expect(reported.map((error) => (error as { code?: string }).code ?? (error as Error).message)).toContain("57P01");
    expect((await pool.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });

  it("reports an idle connection's error once, not again as the pool's", async () => {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    opened.push(pool);
    const reported: unknown[] = [];
    reportPooledConnectionErrors(pool, (error) => reported.push(error));
    const { rows } = await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    await endSession(rows[0]?.pid ?? 0);
    await expect.poll(() => reported.length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reported.filter((error) => (error as { code?: string }).code === "57P01")).toHaveLength(1);
    expect((await pool.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });
});
