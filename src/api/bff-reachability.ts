// Tandem's server answering again after it could not be reached (a restart, a
// lost connection): work that waited for it (the note's draft, a save asked
// for meanwhile) goes on at once instead of at its next timed try. Any call
// that the BFF answered successfully counts, whichever part of the app made it.

type Listener = () => void;

const listeners = new Set<Listener>();

/** Called for every successful answer of the BFF (bff-client.ts, live-events.ts). */
export function reportBffAnswered(): void {
  for (const listener of [...listeners]) listener();
}

/** Calls `listener` after each successful answer of the BFF; returns the unsubscribe. */
export function onBffAnswered(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
