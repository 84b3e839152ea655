import type { ChildProcess } from "node:child_process";
import { types, type PGlite, type Results } from "@electric-sql/pglite";

// The "PGlite in a child process the BFF owns" option, built only to be
// measured: the child runs PGlite, the app process keeps Drizzle and the
// store and sends each query over Node's IPC channel. Transactions hold the
// channel, as PGlite's own lock does in one process, so no other query
// lands inside one. Not production code: no restarts, no back-pressure.

interface QueryRequest {
  id: number;
  sql: string;
  params: unknown[];
  rowMode: "array" | "object";
}

type QueryReply = { id: number; result: Results } | { id: number; error: { message: string; code: string | undefined } };

interface QueryOptions {
  rowMode?: "array" | "object";
}

/** The part of PGlite's client that drizzle-orm/pglite calls. */
interface ProxyClient {
  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results>;
  transaction<T>(callback: (tx: ProxyClient) => Promise<T>): Promise<T>;
}

/** Answers the app process's queries on `db`, in order, until the channel closes. */
export function serveQueries(db: PGlite): void {
  const keepAsText = (value: string) => value;
  // drizzle-orm/pglite leaves these as text on every query; the app side cannot send its parsers.
  const parsers = Object.fromEntries([types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map((oid) => [oid, keepAsText]));
  let queue = Promise.resolve();
  process.on("message", (message: QueryRequest) => {
    queue = queue.then(async () => {
      let reply: QueryReply;
      try {
        reply = { id: message.id, result: await db.query(message.sql, message.params, { rowMode: message.rowMode, parsers }) };
      } catch (error) {
        const code = typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined;
        reply = { id: message.id, error: { message: error instanceof Error ? error.message : String(error), code } };
      }
      process.send?.(reply);
    });
  });
}

/** A client for drizzle-orm/pglite whose queries run in `child` (spawned with an IPC channel, serialization "advanced"). */
export function childProcessClient(child: ChildProcess): PGlite {
  const pending = new Map<number, { resolve: (result: Results) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  child.on("message", (reply: QueryReply) => {
    const waiter = pending.get(reply.id);
    pending.delete(reply.id);
    if (waiter === undefined) return;
    if ("error" in reply) waiter.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
    else waiter.resolve(reply.result);
  });

  const send = (sql: string, params: unknown[] = [], options: QueryOptions = {}) =>
    new Promise<Results>((resolve, reject) => {
      const id = (nextId += 1);
      pending.set(id, { resolve, reject });
      const request: QueryRequest = { id, sql, params, rowMode: options.rowMode ?? "object" };
      child.send(request);
    });

  let held = Promise.resolve();
  const exclusive = <T>(task: () => Promise<T>): Promise<T> => {
    const run = held.then(task);
    held = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  };

  const inTransaction: ProxyClient = {
    query: send,
    transaction: () => Promise.reject(new Error("nested transactions go through savepoints")),
  };
  const client: ProxyClient = {
    query: (sql, params, options) => exclusive(() => send(sql, params, options)),
    transaction: (callback) =>
      exclusive(async () => {
        await send("BEGIN");
        try {
          const result = await callback(inTransaction);
          await send("COMMIT");
          return result;
        } catch (error) {
          await send("ROLLBACK");
          throw error;
        }
      }),
  };
  // drizzle-orm/pglite calls only query() and transaction() on its client.
  return client as unknown as PGlite;
}
