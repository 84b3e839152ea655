// Tandem's server answering again after it could not be reached (a restart, a
// lost connection): work that waited for it (the note's draft, a save asked
// for meanwhile) goes on at once instead of at its next timed try. Any call
// that the BFF answered successfully counts, whichever part of the app made it.

type Listener = () => void;

/** Work that met Tandem's server down is tried again after 1 s, then 2, 4, 8, then every 10 s (and at once when it answers). */
export const TANDEM_RETRY_FIRST_MS = 1_000;
export const TANDEM_RETRY_MAX_MS = 10_000;

/** The wait before the next try after `failures` failed ones. */
export function tandemRetryDelayMs(failures: number): number {
  return Math.min(TANDEM_RETRY_FIRST_MS * 2 ** Math.max(0, failures - 1), TANDEM_RETRY_MAX_MS);
}

/** Listeners told of one kind of answer: `report` tells them, `on` adds one and returns its removal. */
function answerSignal(): { report: () => void; on: (listener: Listener) => () => void } {
  const listeners = new Set<Listener>();
  return {
    report: () => {
      for (const listener of [...listeners]) listener();
    },
    on: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

const answered = answerSignal();
const refusedAsInactive = answerSignal();

/** Called for every successful answer of the BFF (bff-client.ts, live-events.ts). */
export const reportBffAnswered = answered.report;

/** Calls `listener` after each successful answer of the BFF; returns the unsubscribe. */
export const onBffAnswered = answered.on;

/**
 * Called when the BFF answers a call by refusing it because Tandem is not active for the organization
 * (bff-client.ts): its server is back, though it takes no work. Work that waits for it to be reachable learns
 * so at once instead of at its next timed try; only a successful answer means Tandem is active again.
 */
export const reportTandemInactive = refusedAsInactive.report;

/** Calls `listener` after each refusal of the BFF because Tandem is not active; returns the unsubscribe. */
export const onTandemInactive = refusedAsInactive.on;
