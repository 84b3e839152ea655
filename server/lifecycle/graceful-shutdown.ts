import type { OpenStreams } from "../events/open-streams.ts";
import type { Logger } from "../logger.ts";
import type { LifecycleGate } from "./lifecycle-gate.ts";

// What SIGTERM does (ADR 0018; docs/deploy.md): report not ready and
// refuse new requests (the gate), end the live-event streams at once with a
// reconnection hint (their connections close with them, so a browser or a
// proxy keeping them alive does not hold the drain for its grace period),
// stop accepting connections, wait for the requests in flight (writes reach
// the EHR and are answered), stop the background work, close the store. The waiting is bounded: when the grace period runs out,
// the connections left are cut and the outcome says how many requests were.

/** The HTTP server, as the drain uses it. */
export interface Listener {
  /** Stops accepting connections; resolves once every open one has closed. */
  stopAccepting(): Promise<void>;
  /** Closes the connections with no request under way. */
  closeIdle(): void;
  /** Cuts every connection left. */
  closeAll(): void;
}

export interface ShutdownDeps {
  gate: LifecycleGate;
  listener: Listener;
  streams: Pick<OpenStreams, "closeAll" | "size">;
  /** The background work: timers, the webhook processing under way, the bus. */
  closeBackground(): Promise<void>;
  closeStore(): Promise<void>;
  graceMs: number;
  /** Resolves after `ms`, or rejects once `signal` aborts (tests pass one they resolve themselves). */
  wait(ms: number, signal: AbortSignal): Promise<void>;
  logger: Logger;
}

export interface ShutdownOutcome {
  /** Every request was answered and the background work stopped within the grace period. */
  clean: boolean;
  /** Requests still unanswered when the grace period ran out. */
  cutOff: number;
}

/** How long the drain lets connections with nothing in flight close by themselves before it cuts them. */
const UNUSED_CONNECTION_WAIT_MS = 500;

/** The base of the SSE `retry:` hint: clients reconnect, through the proxy, to another process within 1 to 2 s. */
export const LIVE_EVENT_RETRY_MS = 1_000;

export async function drainAndClose(deps: ShutdownDeps): Promise<ShutdownOutcome> {
  const { gate, listener, logger } = deps;
  const graceSeconds = deps.graceMs / 1000;
  gate.drain();
  const liveEventStreams = deps.streams.size;
  const streamsClosed = deps.streams.closeAll(LIVE_EVENT_RETRY_MS);
  const connectionsClosed = listener.stopAccepting();
  logger.info({ requestsInFlight: gate.requestsInFlight, liveEventStreams, graceSeconds }, "draining: not ready, no new connections, live-event streams ended, finishing the requests in flight");

  const giveUp = new AbortController();
  const graceOver = deps.wait(deps.graceMs, giveUp.signal).then(
    () => "grace period over" as const,
    () => "aborted" as const,
  );
  const settled = (async () => {
    await Promise.all([streamsClosed, gate.whenIdle()]);
    // The live-event streams' connections are idle now, kept alive by answers that began before the drain.
    listener.closeIdle();
    // A connection a browser opened ahead of need (Chromium preconnects) has never carried a request, and Node does
    // not count it idle: it would hold the drain for its whole grace period. Once nothing is in flight, cut what is left.
    const closedInTime = await Promise.race([connectionsClosed.then(() => true), deps.wait(UNUSED_CONNECTION_WAIT_MS, giveUp.signal).then(() => false, () => false)]);
    if (!closedInTime && gate.requestsInFlight === 0) listener.closeAll();
    await connectionsClosed;
    await deps.closeBackground();
    return "settled" as const;
  })();
  const outcome = await Promise.race([settled, graceOver]).catch((error: unknown) => {
    logger.error({ err: error }, "drain: stopping the background work failed");
    return "failed" as const;
  });
  giveUp.abort();
  // Still running after the grace period: whatever it throws later is moot.
  settled.catch(() => undefined);

  const clean = outcome === "settled";
  const cutOff = clean ? 0 : gate.requestsInFlight;
  if (!clean) {
    logger.warn({ cutOff, graceSeconds, outcome }, "drain: not clean; cutting the connections left");
    listener.closeAll();
  }
  await deps.closeStore();
  logger.info({ clean, cutOff }, "drained; store closed");
  return { clean, cutOff };
}
