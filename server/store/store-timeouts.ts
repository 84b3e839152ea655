// How long the store may take (DESIGN.md "The BFF stays up": connect,
// statement, lock and idle-transaction timeouts; a request gets its answer
// within 5 s whatever the store does). Constants, not settings: they bound
// Tandem's own short queries (milliseconds when the store is well), so
// there is nothing an operator would tune them for; tests pass shorter ones
// through `createStore`.

export interface StoreTimeouts {
  /** PostgreSQL: the longest a query waits for a pooled connection, or for a new one to open (pg-pool `connectionTimeoutMillis`). */
  connectMs: number;
  /** PostgreSQL `lock_timeout`: a statement waiting for a lock another session holds gives up (55P03). */
  lockMs: number;
  /** PostgreSQL `statement_timeout`: the server cancels a statement running longer (57014). */
  statementMs: number;
  /** PostgreSQL `idle_in_transaction_session_timeout`: a session of ours stuck inside a transaction is ended, its locks freed (25P03). */
  idleInTransactionMs: number;
  /**
   * Both engines: the longest a caller waits for one call of the store (a
   * repository method, a transaction included). On PGlite, one in-process
   * session with no pool and no other session to hold a lock, this is the
   * bound: a caller queued behind a long transaction gives up.
   */
  callMs: number;
}

export const STORE_TIMEOUTS: StoreTimeouts = {
  // Longer than lockMs: while other queries wait out a lock, a query on another table still gets a connection.
  connectMs: 2_000,
  // Tandem's transactions last milliseconds: a second of waiting is a lock someone else holds.
  lockMs: 1_000,
  // Waiting for a connection and then the longest statement (2 + 2.5 s) stays within callMs, so on
  // PostgreSQL the server's own timeouts end the work (it is cancelled, not left running), and callMs
  // bounds a transaction of several statements and a lost network. No client-side query timeout
  // (pg's query_timeout): a stall of the event loop (a collection) would fail queries the server
  // answered in time, and it hands the connection back with the query still on it.
  statementMs: 2_500,
  idleInTransactionMs: 5_000,
  callMs: 4_500,
};

/** What a 503 `store_unavailable` asks the client to wait (`Retry-After`, seconds): about two readiness checks. */
export const STORE_RETRY_AFTER_SECONDS = 5;
