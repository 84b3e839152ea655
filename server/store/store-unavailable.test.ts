import { randomBytes } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import { DrizzleQueryError } from "drizzle-orm/errors";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPglite } from "./embedded-engine.ts";
import { storeFailure, StoreUnavailableError, unavailableReasonOf } from "./store-unavailable.ts";

// Which failures of the store mean "it cannot answer now" (503
// store_unavailable) and which are bugs or refusals (a 500, or the caller's
// to handle): told by the error's class and SQLSTATE, read from errors the
// real engines raise. PostgreSQL's only when DATABASE_URL is set.

const databaseUrl = process.env.DATABASE_URL;

/** What the engine rejected `run` with. */
async function failureOf(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

describe("on PGlite", () => {
  let db: PGlite;

  beforeAll(async () => {
    db = await startPglite(undefined);
    await db.exec("CREATE TABLE t (id integer PRIMARY KEY)");
  }, 60_000);

  afterAll(async () => {
    if (!db.closed) await db.close();
  });

  it("a refusal of the query (a duplicate key, a NUL byte, bad SQL) is not unavailability", async () => {
    await db.query("INSERT INTO t VALUES (1)");
    expect(unavailableReasonOf(await failureOf(() => db.query("INSERT INTO t VALUES (1)")))).toBeNull();
    expect(unavailableReasonOf(await failureOf(() => db.query("SELECT $1::text", ["a\u0000b"])))).toBeNull();
    expect(unavailableReasonOf(await failureOf(() => db.query("SELEC 1")))).toBeNull();
  });

  it("a missing table (the store's schema gone) is, by its SQLSTATE, also inside Drizzle's wrapper", async () => {
    const missing = await failureOf(() => db.query("SELECT * FROM gone"));
    expect(unavailableReasonOf(missing)).toBe("42P01");
    expect(unavailableReasonOf(new DrizzleQueryError("select * from gone", [], missing as Error))).toBe("42P01");
  });

  it("a closed PGlite is", async () => {
    const closed = await startPglite(undefined);
    await closed.close();
    const failure = storeFailure(await failureOf(() => closed.query("SELECT 1")));
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect((failure as StoreUnavailableError).reason).toBe("connection");
  }, 60_000);
});

describe("bugs", () => {
  it("a TypeError, a RangeError or Drizzle's own error is never unavailability, nor is a value that is not an Error", () => {
    const bug = new TypeError("cannot read properties of undefined");
    expect(storeFailure(bug)).toBe(bug);
    expect(unavailableReasonOf(new RangeError("store: at must be a finite epoch time"))).toBeNull();
    expect(unavailableReasonOf(new DrizzleQueryError("select 1", [], new TypeError("x")))).toBeNull();
    expect(unavailableReasonOf("a string")).toBeNull();
  });
});

describe.skipIf(!databaseUrl)("on PostgreSQL", () => {
  const url = databaseUrl ?? "";
  const withDatabase = (database: string) => {
    const parsed = new URL(url);
    parsed.pathname = `/${database}`;
    return parsed.toString();
  };

  it("a lock another session holds past lock_timeout (55P03), a statement past statement_timeout (57014)", async () => {
    const table = `lock_${randomBytes(4).toString("hex")}`;
    const holder = new pg.Client({ connectionString: url });
    const waiter = new pg.Client({ connectionString: url, lock_timeout: 100, statement_timeout: 10_000 });
    await Promise.all([holder.connect(), waiter.connect()]);
    try {
      await holder.query(`CREATE TABLE ${table} (id integer)`);
      await holder.query(`BEGIN; LOCK TABLE ${table}`);
      expect(unavailableReasonOf(await failureOf(() => waiter.query(`SELECT * FROM ${table}`)))).toBe("55P03");
      await waiter.query("SET statement_timeout = 100");
      expect(unavailableReasonOf(await failureOf(() => waiter.query("SELECT pg_sleep(5)")))).toBe("57014");
    } finally {
      await holder.query("ROLLBACK").catch(() => undefined);
      await holder.query(`DROP TABLE IF EXISTS ${table}`);
      await Promise.all([holder.end(), waiter.end()]);
    }
  });

  it("a database that does not exist (3D000), a refused connection (ECONNREFUSED)", async () => {
    expect(unavailableReasonOf(await failureOf(() => new pg.Client({ connectionString: withDatabase(`missing_${randomBytes(4).toString("hex")}`) }).connect()))).toBe("3D000");
    const refused = new URL(url);
    // Port 9 (discard): nothing listens on it here.
    refused.port = "9";
    expect(unavailableReasonOf(await failureOf(() => new pg.Client({ connectionString: refused.toString() }).connect()))).toBe("ECONNREFUSED");
  });

  it("a pool with no connection free in time, and a pool that has ended: pg's plain errors, from a store call", async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 100 });
    const held = await pool.connect();
    try {
      expect(unavailableReasonOf(await failureOf(() => pool.query("SELECT 1")))).toBe("connection");
    } finally {
      held.release();
    }
    await pool.end();
    expect(unavailableReasonOf(await failureOf(() => pool.query("SELECT 1")))).toBe("connection");
  });

  it("a session the server ends (57P01, as on a restart or a dropped database), and the connection lost with it", async () => {
    const victim = new pg.Client({ connectionString: url });
    const admin = new pg.Client({ connectionString: url });
    await Promise.all([victim.connect(), admin.connect()]);
    // The session's end is also told to the client as an error event: not this test's concern.
    victim.on("error", () => undefined);
    try {
      const { rows } = await victim.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      const ended = failureOf(() => victim.query("SELECT pg_sleep(5)"));
      await admin.query("SELECT pg_terminate_backend($1)", [rows[0]?.pid]);
      expect(unavailableReasonOf(await ended)).toBe("57P01");
      // pg reports the lost connection as its own plain Error, or as the socket's error when the reset arrives first: a race of the OS.
      expect(["connection", "ECONNRESET", "EPIPE"]).toContain(unavailableReasonOf(await failureOf(() => victim.query("SELECT 1"))));
    } finally {
      await Promise.all([victim.end().catch(() => undefined), admin.end()]);
    }
  });
});
