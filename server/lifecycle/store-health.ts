import type { Logger } from "../logger.ts";
import type { Store } from "../store/store.ts";
import { StoreUnavailableError, unavailableReasonOf } from "../store/store-unavailable.ts";

// What `/healthz` and `/readyz` say of the store, kept in memory and
// refreshed in the background (DESIGN.md "The BFF's API": liveness never
// waits on the store or a lock; readiness is false while the store cannot
// answer within 1 s, so a load balancer stops routing to the process, and
// true again by itself once it answers).

/** The longest a check waits for the store: longer counts as not answering (DESIGN.md: within 1 s). */
export const STORE_CHECK_TIMEOUT_MS = 1_000;
/** How often the store is checked: a process out of rotation comes back within about this long of the store. */
export const STORE_CHECK_INTERVAL_MS = 2_000;
/** How often the dead letters are counted (a count over the inbox: cheap, but not every 2 s). */
export const DEAD_LETTER_COUNT_INTERVAL_MS = 10_000;

export interface StoreHealthState {
  /** `unknown` until the first check has finished. */
  store: "unknown" | "ready" | "unavailable";
  /** Verified deliveries the BFF could not read, as last counted; null until counted once. */
  deadLetters: number | null;
}

export interface StoreHealth {
  current(): StoreHealthState;
  /** The last check found the store answering within {@link STORE_CHECK_TIMEOUT_MS}; a property, to be handed on as it is. */
  readonly isReady: () => boolean;
  /** Checks the store and counts the dead letters now (start-up, tests); never rejects, settles within the timeout. */
  refresh(): Promise<void>;
  /** Checks on a timer; returns a stop function. */
  start(): () => void;
}

export interface StoreHealthDeps {
  store: Pick<Store, "ping"> & { inbox: Pick<Store["inbox"], "countDeadLetters"> };
  logger: Logger;
  /** Default {@link STORE_CHECK_TIMEOUT_MS}. */
  timeoutMs?: number;
}

/** `work`'s value, or a rejection once `ms` have passed; `work` itself goes on (nothing can take a query back). */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreUnavailableError("timeout")), ms);
  });
  work.catch(() => undefined);
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Runs `task` unless a run of it is still going (a slow store never piles up checks). */
function singleFlight(task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  return () =>
    (running ??= task().finally(() => {
      running = null;
    }));
}

export function createStoreHealth(deps: StoreHealthDeps): StoreHealth {
  const timeoutMs = deps.timeoutMs ?? STORE_CHECK_TIMEOUT_MS;
  const state: StoreHealthState = { store: "unknown", deadLetters: null };

  const check = singleFlight(async () => {
    try {
      await within(deps.store.ping(), timeoutMs);
      if (state.store !== "ready") deps.logger.info("store: answering; ready");
      state.store = "ready";
    } catch (error) {
      if (state.store !== "unavailable") deps.logger.warn({ storeReason: unavailableReasonOf(error) ?? "error", timeoutMs }, "store: not answering in time; not ready");
      state.store = "unavailable";
    }
  });
  const countDeadLetters = singleFlight(async () => {
    try {
      state.deadLetters = await within(deps.store.inbox.countDeadLetters(), timeoutMs);
    } catch {
      // The last count stands; the store check says whether the store answers.
    }
  });

  return {
    current: () => ({ ...state }),
    isReady: () => state.store === "ready",
    async refresh() {
      await Promise.all([check(), countDeadLetters()]);
    },
    start() {
      const timers = [setInterval(() => void check(), STORE_CHECK_INTERVAL_MS), setInterval(() => void countDeadLetters(), DEAD_LETTER_COUNT_INTERVAL_MS)];
      for (const timer of timers) timer.unref();
      return () => {
        for (const timer of timers) clearInterval(timer);
      };
    },
  };
}
