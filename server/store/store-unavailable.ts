// When the store cannot answer (DESIGN.md "The BFF stays up": a store that
// cannot answer gives 503 `store_unavailable` with `Retry-After`, never a
// hang or a 500). Told from a bug by the error's class and the database's
// SQLSTATE, never by its message text.

/** The store did not answer in time, or could not be reached or used; the same call may succeed a moment later. */
export class StoreUnavailableError extends Error {
  override readonly name = "StoreUnavailableError";

  /** `reason`: the SQLSTATE, the socket's error code, `timeout`, or `connection` (the driver lost or never got one). */
  constructor(
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`store unavailable (${reason})`, options);
  }
}

/**
 * SQLSTATEs (PostgreSQL Appendix A) that say the database cannot serve the
 * call now, not that the call is wrong: by class, then single codes.
 */
const UNAVAILABLE_SQLSTATE_CLASSES = new Set([
  "08", // connection exception
  "28", // invalid authorization (a password changed under the running BFF)
  "40", // transaction rollback: deadlock, serialization failure; the same call again may succeed
  "53", // insufficient resources: 53300 too_many_connections, disk full, out of memory
  "57", // operator intervention: 57014 query_canceled (statement_timeout), 57P01 admin_shutdown, 57P04 database_dropped
  "58", // system error: I/O
]);
const UNAVAILABLE_SQLSTATES = new Set([
  "55P03", // lock_not_available: lock_timeout
  "25P03", // idle_in_transaction_session_timeout
  "3D000", // invalid_catalog_name: the database does not exist
  "3F000", // invalid_schema_name: the store's schema is gone
  "42P01", // undefined_table: the store's tables are gone (a dropped schema)
]);

/** What a socket failure says (Node's system errors), on connect or on a connection in use. */
const NETWORK_ERROR_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ECONNABORTED", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "EPIPE"]);

const SQLSTATE = /^[0-9A-Z]{5}$/;

function fieldOf(value: unknown, name: string): unknown {
  return typeof value === "object" && value !== null && name in value ? (value as Record<string, unknown>)[name] : undefined;
}

/** The SQLSTATE of an error the database answered with (pg's and PGlite's `DatabaseError`: `code` beside `severity`). */
function sqlStateOf(error: unknown): string | null {
  const code = fieldOf(error, "code");
  return typeof code === "string" && SQLSTATE.test(code) && typeof fieldOf(error, "severity") === "string" ? code : null;
}

export function isUnavailableSqlState(sqlState: string): boolean {
  return UNAVAILABLE_SQLSTATES.has(sqlState) || UNAVAILABLE_SQLSTATE_CLASSES.has(sqlState.slice(0, 2));
}

/**
 * Why a failed store call means the store cannot answer, or null when it is
 * a bug or a refusal (a constraint, bad input: a 500 or the caller's to handle).
 * Walks `cause` (Drizzle wraps the driver's error in a `DrizzleQueryError`).
 * `error` must come from a call into the store's driver: pg, pg-pool and
 * PGlite raise their connection failures (connection lost or ended, the
 * pool's wait for a connection or the client's query timeout run out,
 * PGlite closed) as plain `Error`s with no code, so a plain `Error` with no
 * SQLSTATE counts as one; a subclass (`TypeError`, `RangeError`, Drizzle's
 * own) is a bug.
 */
export function unavailableReasonOf(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current instanceof StoreUnavailableError) return current.reason;
    const sqlState = sqlStateOf(current);
    // The database answered: its code decides, whatever wraps it.
    if (sqlState !== null) return isUnavailableSqlState(sqlState) ? sqlState : null;
    const code = fieldOf(current, "code");
    if (typeof code === "string" && NETWORK_ERROR_CODES.has(code)) return code;
    if (Object.getPrototypeOf(current) === Error.prototype && code === undefined) {
      // pg-pool's connection timeout keeps the socket's error as its cause: name that when there is one.
      return unavailableReasonOf(current.cause) ?? "connection";
    }
    current = current.cause;
  }
  return null;
}

/** The error a caller of the store gets: a {@link StoreUnavailableError} when the store cannot answer, else `error` as it was. */
export function storeFailure(error: unknown): unknown {
  if (error instanceof StoreUnavailableError) return error;
  const reason = unavailableReasonOf(error);
  return reason === null ? error : new StoreUnavailableError(reason, { cause: error });
}
