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

/** Rejects with a clear error when `promise` takes longer than `ms`; the work itself may still finish later. */
export function withinMs<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
