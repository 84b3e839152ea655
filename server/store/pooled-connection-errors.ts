import type pg from "pg";

// pg-pool listens for a connection's errors only while the connection is
// idle in the pool. One checked out (in a transaction, between two queries,
// or as its socket resets after the server ended its session: a restart, a
// dropped database, pg_terminate_backend) emits its error to no listener,
// and an 'error' event nobody hears ends the process. So every connection of
// a pool gets a listener of its own for as long as it lives; the query that
// was using it fails as well, and the pool drops it when it is released.

/** Reports every error of the pool's connections, checked out or idle, through `onError`, once each. */
export function reportPooledConnectionErrors(pool: pg.Pool, onError: ((error: unknown) => void) | undefined): void {
  pool.on("connect", (client) => {
    client.on("error", (error) => onError?.(error));
  });
  // The pool repeats an idle connection's error here: its own listener has reported it already.
  pool.on("error", () => undefined);
}
