// Where the processes of one deployment keep the sends of a limiter scope
// (ADR 0026): a sliding log, one entry per request sent to the service, each
// counted until a window after it was sent. A process that dies leaves only
// sends it really made, and they leave the window like any other.

export interface Send {
  organization: string;
  /** When it was sent (ms, the process's clock). */
  at: number;
  /** Which process sent it: its share in a fallback is counted by how many sent lately. */
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
  /** Which engine, for the one log line of a fallback. */
  readonly engine: "postgres" | "redis";
  close(): Promise<void>;
}

/** One limiter's place in the log. */
export interface SharedBudget {
  log: SharedSendLog;
  /** The budget's name in the log: the key's, or one organization's. */
  scope: string;
  /** This process's name in the log. */
  process: string;
  /** How long a round may take before the process falls back to a local share, and how long that lasts; default 1 s. */
  timeoutMs?: number;
  /** Told when this process falls back to its local share (once per outage) and when it is back. */
  onFallback?: (error: unknown, localLimit: number) => void;
  onRecovered?: () => void;
}
