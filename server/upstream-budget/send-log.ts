// The sliding log every process of a deployment counts its sends in (ADR
// 0026): a process that dies leaves only sends it made, which leave the
// window like any other.

export interface Send {
  organization: string;
  /** ms, the sending process's clock. */
  at: number;
  /** A fallback's local share counts how many processes sent lately. */
  process: string;
}

export interface SharedSendLog {
  /**
   * In one atomic step for `scope`: forgets the sends at or before
   * `now − windowMs`, hands the others (oldest first) to `choose` and records
   * the sends it returns. `choose` must not change anything itself: it may be
   * called again when another process got there first.
   */
  exchange(scope: string, now: number, windowMs: number, choose: (sends: readonly Send[]) => readonly Send[]): Promise<void>;
  readonly engine: "postgres" | "redis";
  close(): Promise<void>;
}

/** One limiter's place in the log. */
export interface SharedBudget {
  log: SharedSendLog;
  /** The key's, or one organization's. */
  scope: string;
  process: string;
  /** A round's bound, and how long a fallback lasts; default 1 s. */
  timeoutMs?: number;
  /** Once per outage, and when the store is back. */
  onFallback?: (error: unknown, localLimit: number) => void;
  onRecovered?: () => void;
}
