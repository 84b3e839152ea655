import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FairShareLimiter } from "./fair-share-limiter.ts";
import type { Send, SharedBudget, SharedSendLog } from "./send-log.ts";

// ADR 0026: several processes' limiters counting in one log. The log here is
// an in-memory stand-in with the same contract (one atomic step per round;
// send-log.test.ts checks PostgreSQL's and Redis's), so the clock can be
// faked: "at once" means let through at the instant asked.

const WINDOW_MS = 1_000;

class MemoryLog implements SharedSendLog {
  readonly engine = "postgres";
  sends: Send[] = [];
  state: "up" | "down" | "hanging" = "up";
  rounds = 0;

  async exchange(_scope: string, now: number, windowMs: number, choose: (sends: readonly Send[]) => readonly Send[]): Promise<void> {
    this.rounds += 1;
    if (this.state === "down") throw new Error("connection refused");
    if (this.state === "hanging") return new Promise<void>(() => undefined);
    await Promise.resolve();
    this.sends = this.sends.filter((send) => send.at > now - windowMs);
    this.sends.push(...choose(this.sends));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

interface Outcome {
  organization: string;
  sentAt: number | null;
  error?: unknown;
}

function ask(limiter: FairShareLimiter, organization: string, count: number, outcomes: Outcome[]): Promise<void>[] {
  return Array.from({ length: count }, () => {
    const outcome: Outcome = { organization, sentAt: null };
    outcomes.push(outcome);
    return limiter.acquire(organization).then(
      () => {
        outcome.sentAt = Date.now();
      },
      (error: unknown) => {
        outcome.error = error;
      },
    );
  });
}

const sent = (outcomes: readonly Outcome[], organization?: string) => outcomes.filter((outcome) => outcome.sentAt !== null && (organization === undefined || outcome.organization === organization));

/** The most sends inside any half-open interval [t, t + WINDOW_MS). */
function maxPerWindow(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end += 1) {
    while ((sorted[end] ?? 0) - (sorted[start] ?? 0) >= WINDOW_MS) start += 1;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

describe("FairShareLimiter sharing one log between processes", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const processOn = (log: SharedSendLog, process: string, extra: Partial<SharedBudget> = {}, limit = 20) =>
    new FairShareLimiter({ limit, windowMs: WINDOW_MS, maxQueueMs: 2_000, reserve: 2, now: Date.now, shared: { log, scope: "key", process, timeoutMs: 100, ...extra } });

  it("two processes together never send more than the limit in any window, and pool it: one process alone may use all of it", async () => {
    const log = new MemoryLog();
    const [first, second] = [processOn(log, "p1"), processOn(log, "p2")];
    const outcomes: Outcome[] = [];
    const pending = [...ask(first, "org-a", 30, outcomes), ...ask(second, "org-a", 30, outcomes)];
    await vi.advanceTimersByTimeAsync(3_000);
    await Promise.all(pending);
    const times = sent(outcomes).map((outcome) => outcome.sentAt ?? 0);
    expect(maxPerWindow(times)).toBe(18);
    // Alone, the busy process takes everything but the reserve: no static half.
    const alone: Outcome[] = [];
    await Promise.all(ask(first, "org-a", 18, alone));
    expect(sent(alone)).toHaveLength(18);
    expect(alone.every((outcome) => outcome.sentAt === 3_000)).toBe(true);
  });

  it("fairness holds across processes: org B, on another process than org A's hammering, still sends at once", async () => {
    const log = new MemoryLog();
    const [first, second] = [processOn(log, "p1"), processOn(log, "p2")];
    const hammer: Outcome[] = [];
    const pending = ask(first, "org-a", 40, hammer);
    await vi.advanceTimersByTimeAsync(0);
    const quiet: Outcome[] = [];
    await Promise.all(ask(second, "org-b", 2, quiet));
    expect(quiet.map((outcome) => outcome.sentAt)).toEqual([0, 0]);
    // The second process's budget shows the first's sends: the log is the count.
    expect(second.budget().organizations.find((entry) => entry.organization === "org-a")?.sent).toBe(sent(hammer).length);
    await vi.advanceTimersByTimeAsync(3_000);
    await Promise.all(pending);
    expect(maxPerWindow(sent([...hammer, ...quiet]).map((outcome) => outcome.sentAt ?? 0))).toBeLessThanOrEqual(20);
  });

  it("a process that dies holding the window gives it back a window later", async () => {
    const log = new MemoryLog();
    const dying = processOn(log, "p1");
    await Promise.all(ask(dying, "org-a", 18, []));
    dying.close();
    await vi.advanceTimersByTimeAsync(100);
    const survivor = processOn(log, "p2");
    const outcomes: Outcome[] = [];
    const pending = ask(survivor, "org-a", 18, outcomes);
    await vi.advanceTimersByTimeAsync(2 * WINDOW_MS);
    await Promise.all(pending);
    // The dead process's sends (counted from the latest its round could end, 100 ms) leave a window later; then all of the budget is the survivor's.
    expect(sent(outcomes).map((outcome) => outcome.sentAt)).toEqual(Array.from({ length: 18 }, () => WINDOW_MS + 100));
  });

  it("a log that is down never holds a request: the process keeps to a local share (the limit over the processes it saw, at least two), says so once, and records what it sent when the log is back", async () => {
    const log = new MemoryLog();
    const onFallback = vi.fn();
    const onRecovered = vi.fn();
    const limiter = processOn(log, "p1", { onFallback, onRecovered });
    log.state = "down";
    const outcomes: Outcome[] = [];
    const pending = ask(limiter, "org-a", 15, outcomes);
    await vi.advanceTimersByTimeAsync(0);
    // 20 / 2 = 10, less its reserve of 1.
    expect(sent(outcomes)).toHaveLength(9);
    expect(onFallback).toHaveBeenCalledTimes(1);
    expect(onFallback.mock.calls[0]?.[1]).toBe(10);
    await vi.advanceTimersByTimeAsync(300);
    expect(log.rounds).toBeGreaterThan(1);
    expect(onFallback).toHaveBeenCalledTimes(1);
    log.state = "up";
    await vi.advanceTimersByTimeAsync(300);
    await Promise.all(pending);
    expect(onRecovered).toHaveBeenCalledTimes(1);
    expect(sent(outcomes)).toHaveLength(15);
    // The sends made meanwhile are in the log, for the other processes to count.
    expect(log.sends.filter((send) => send.process === "p1")).toHaveLength(15);
  });

  it("a log that hangs holds a request no longer than the round's timeout", async () => {
    const log = new MemoryLog();
    const limiter = processOn(log, "p1", { timeoutMs: 250 });
    log.state = "hanging";
    const outcomes: Outcome[] = [];
    const pending = ask(limiter, "org-a", 1, outcomes);
    await vi.advanceTimersByTimeAsync(249);
    expect(outcomes[0]?.sentAt).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all(pending);
    expect(outcomes[0]?.sentAt).toBe(250);
  });

  it("a round that answers after its bound (a stalled event loop) lets nobody through on it and falls back, rather than trying again and again", async () => {
    const log = new MemoryLog();
    let clock = 0;
    const onFallback = vi.fn();
    const limiter = new FairShareLimiter({ limit: 20, windowMs: WINDOW_MS, maxQueueMs: 2_000, reserve: 2, now: () => clock, shared: { log, scope: "key", process: "p1", timeoutMs: 100, onFallback } });
    const stalling = log.exchange.bind(log);
    log.exchange = async (...args) => {
      await stalling(...args);
      clock += 500;
    };
    await limiter.acquire("org-a");
    expect(log.rounds).toBe(1);
    expect(onFallback).toHaveBeenCalledTimes(1);
    expect(String(onFallback.mock.calls[0]?.[0])).toMatch(/answered after 500 ms, past its bound of 100 ms/);
  });

  it("a limiter closed during a round says nothing of a fallback when the round then fails", async () => {
    const log = new MemoryLog();
    const onFallback = vi.fn();
    const limiter = processOn(log, "p1", { onFallback });
    log.state = "hanging";
    const waiting = limiter.acquire("org-a");
    limiter.close();
    await expect(waiting).rejects.toMatchObject({ code: "closed" });
    await vi.advanceTimersByTimeAsync(500);
    expect(onFallback).not.toHaveBeenCalled();
  });

  it("requests asked together go in one round", async () => {
    const log = new MemoryLog();
    const limiter = processOn(log, "p1");
    await Promise.all(ask(limiter, "org-a", 10, []));
    expect(log.rounds).toBe(1);
  });
});
