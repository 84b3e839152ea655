import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { StoreUnavailableError } from "../store/store-unavailable.ts";
import { createStoreHealth, STORE_CHECK_INTERVAL_MS, STORE_CHECK_TIMEOUT_MS } from "./store-health.ts";

// What /healthz and /readyz know of the store, on fake time: a store that
// does not answer within the check's second is "unavailable" (not ready),
// one that answers again is "ready" by itself; a check never hangs.

const logger = pino({ level: "silent" });
const never = () => new Promise<never>(() => undefined);

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

function fakeStore() {
  const store = {
    answer: "yes" as "yes" | "never" | "fail",
    deadLetters: 2,
    ping: () => (store.answer === "yes" ? Promise.resolve() : store.answer === "never" ? never() : Promise.reject(new StoreUnavailableError("3D000"))),
    inbox: { countDeadLetters: () => (store.answer === "yes" ? Promise.resolve(store.deadLetters) : never()) },
  };
  return store;
}

describe("store health", () => {
  it("is unknown until checked, then ready with the dead letters counted", async () => {
    const store = fakeStore();
    const health = createStoreHealth({ store, logger });
    expect(health.current()).toEqual({ store: "unknown", deadLetters: null });
    expect(health.isReady()).toBe(false);
    await health.refresh();
    expect(health.current()).toEqual({ store: "ready", deadLetters: 2 });
    expect(health.isReady()).toBe(true);
  });

  it("a store that does not answer within the check's timeout is unavailable, the refresh settles, and the last dead-letter count stands", async () => {
    const store = fakeStore();
    const health = createStoreHealth({ store, logger });
    await health.refresh();
    store.answer = "never";
    const refresh = health.refresh();
    let settled = false;
    void refresh.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(STORE_CHECK_TIMEOUT_MS - 1);
    expect(settled).toBe(false);
    expect(health.isReady()).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    await refresh;
    expect(health.current()).toEqual({ store: "unavailable", deadLetters: 2 });
    expect(health.isReady()).toBe(false);
  });

  it("on its timer: not ready while the store fails, ready again by itself once it answers", async () => {
    const store = fakeStore();
    const health = createStoreHealth({ store, logger });
    const stop = health.start();
    store.answer = "fail";
    await vi.advanceTimersByTimeAsync(STORE_CHECK_INTERVAL_MS);
    expect(health.current().store).toBe("unavailable");
    store.answer = "yes";
    await vi.advanceTimersByTimeAsync(STORE_CHECK_INTERVAL_MS);
    expect(health.current().store).toBe("ready");
    stop();
  });
});
