// Latency on virtual time (ADR 0011), for the BFF harness's `virtualTimeouts`
// option (the fault matrix's latency rows): the clinic client's per-attempt
// timeout and the emulator's injected latency are placed on one timeline the
// test owns, so which comes first follows from their durations, never from
// how busy the machine is. Nothing here waits in real time: a latency at
// least as long as an attempt's timeout aborts that attempt (as its timer
// would have) before the service carries on with the request; a shorter one
// lets the service answer first.

export interface VirtualTimeouts {
  /** Stands in for `AbortSignal.timeout(ms)`: a signal that aborts with a `TimeoutError` when the timeline says so. */
  signal: (ms: number) => AbortSignal;
  /** The emulator's fault delay (`EmulatorOptions.faultDelay`): every attempt in flight whose timeout is not longer than `ms` times out first. */
  delay: (ms: number) => Promise<void>;
  /** The attempt sent with `signal` has its answer (or gave up): its timeout no longer runs. */
  finished: (signal: AbortSignal | null | undefined) => void;
  /** Attempts that timed out so far. */
  readonly timedOut: number;
}

export function createVirtualTimeouts(): VirtualTimeouts {
  const running = new Map<AbortSignal, { controller: AbortController; ms: number }>();
  let timedOut = 0;
  return {
    signal(ms) {
      const controller = new AbortController();
      running.set(controller.signal, { controller, ms });
      return controller.signal;
    },
    async delay(ms) {
      for (const [signal, timer] of running) {
        if (timer.ms > ms) continue;
        running.delete(signal);
        timedOut += 1;
        timer.controller.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError"));
      }
      // The service carries on only after the client has seen its timeout (a macrotask later).
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
    finished(signal) {
      if (signal) running.delete(signal);
    },
    get timedOut() {
      return timedOut;
    },
  };
}
