import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BudgetRefusal } from "./budget-refusal.ts";
import { FairShareLimiter } from "./fair-share-limiter.ts";

// ADR 0017: the key's budget shared fairly by
// organizations. The clock is faked throughout: "at once" means the request
// was let through at the instant it asked.

const WINDOW_MS = 1_000;

interface Outcome {
  organization: string;
  askedAt: number;
  /** When it was let through; null if it failed. */
  sentAt: number | null;
  error?: unknown;
}

/** Asks `count` times for `organization` now, recording each outcome. */
function ask(limiter: FairShareLimiter, organization: string, count: number, outcomes: Outcome[]): Promise<void>[] {
  return Array.from({ length: count }, () => {
    const outcome: Outcome = { organization, askedAt: Date.now(), sentAt: null };
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

/** The most sends inside any half-open interval [t, t + windowMs). */
function maxPerWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end += 1) {
    while ((sorted[end] ?? 0) - (sorted[start] ?? 0) >= windowMs) start += 1;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

const sentTimes = (outcomes: readonly Outcome[], organization?: string) =>
  outcomes.filter((outcome) => organization === undefined || outcome.organization === organization).flatMap((outcome) => (outcome.sentAt === null ? [] : [outcome.sentAt]));

interface Arrival {
  at: number;
  organization: string;
  count: number;
}

/** Plays arrivals in time order on the fake clock, then lets every queue settle. */
async function play(limiter: FairShareLimiter, arrivals: readonly Arrival[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const pending: Promise<void>[] = [];
  for (const arrival of [...arrivals].sort((a, b) => a.at - b.at)) {
    await vi.advanceTimersByTimeAsync(arrival.at - Date.now());
    pending.push(...ask(limiter, arrival.organization, arrival.count, outcomes));
  }
  await vi.advanceTimersByTimeAsync(WINDOW_MS * 3);
  await Promise.all(pending);
  return outcomes;
}

describe("FairShareLimiter", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const limiter = (limit = 100, maxQueueMs = 200, reserve?: number) => new FairShareLimiter({ limit, windowMs: WINDOW_MS, maxQueueMs, reserve, now: Date.now });

  it("reports each active organization's sends in the window against its fair share, and forgets one whose sends left the window", async () => {
    const subject = limiter(100);
    expect(subject.budget()).toEqual({ limit: 100, organizations: [] });
    await Promise.all([...Array.from({ length: 30 }, () => subject.acquire("org-a")), ...Array.from({ length: 5 }, () => subject.acquire("org-b"))]);
    // (100 − 10 reserved) / 2 active.
    expect(subject.budget()).toEqual({
      limit: 100,
      organizations: [
        { organization: "org-a", sent: 30, allowance: 45 },
        { organization: "org-b", sent: 5, allowance: 45 },
      ],
    });
    await vi.advanceTimersByTimeAsync(WINDOW_MS);
    expect(subject.budget()).toEqual({ limit: 100, organizations: [] });
  });

  it("one organization alone, no reserve (limit 5): the sliding window and FIFO queue of a single bucket", async () => {
    const subject = limiter(5, 2_000);
    const outcomes: Outcome[] = [];
    const all = ask(subject, "org-a", 20, outcomes);
    await vi.advanceTimersByTimeAsync(5_000);
    await Promise.all(all);
    expect(sentTimes(outcomes)).toEqual([0, 0, 0, 0, 0, 1000, 1000, 1000, 1000, 1000, 2000, 2000, 2000, 2000, 2000]);
    const failures = outcomes.filter((outcome) => outcome.error !== undefined);
    expect(failures).toHaveLength(5);
    expect(failures[0]?.error).toMatchObject({ code: "rate_limited", retryAfterSeconds: 3 });
    expect(subject.stats()).toEqual({ queued: 10, rejected: 5 });
  });

  it("the defect: an organization that fills the window alone leaves the reserve, and another organization's reads go at once", async () => {
    const subject = limiter(100);
    const outcomes: Outcome[] = [];
    const hammering = ask(subject, "org-a", 400, outcomes);
    await vi.advanceTimersByTimeAsync(100);
    // A got its fair share alone (100 − 10 reserved); the rest failed fast.
    expect(sentTimes(outcomes, "org-a")).toHaveLength(90);
    const quiet = ask(subject, "org-b", 6, outcomes);
    await vi.advanceTimersByTimeAsync(0);
    expect(sentTimes(outcomes, "org-b")).toEqual([100, 100, 100, 100, 100, 100]);
    await vi.advanceTimersByTimeAsync(3_000);
    await Promise.all([...hammering, ...quiet]);
    const rejected = outcomes.find((outcome) => outcome.organization === "org-a" && outcome.error !== undefined)?.error;
    expect(rejected).toBeInstanceOf(BudgetRefusal);
    expect(rejected).toMatchObject({ code: "rate_limited", retryAfterSeconds: 1 });
  });

  it("borrows what a quiet organization leaves unused, never its cushion: A takes 100 − 10 − 2 × B's use", async () => {
    const subject = limiter(100);
    const outcomes: Outcome[] = [];
    const pending = ask(subject, "org-b", 5, outcomes);
    await vi.advanceTimersByTimeAsync(10);
    pending.push(...ask(subject, "org-a", 200, outcomes));
    await vi.advanceTimersByTimeAsync(0);
    // Fair share 45 each; B used 5 and keeps a cushion of 5 more; A borrows the rest.
    expect(sentTimes(outcomes, "org-a")).toHaveLength(80);
    pending.push(...ask(subject, "org-b", 10, outcomes));
    await vi.advanceTimersByTimeAsync(0);
    // B doubles its pace at once (its cushion, then the reserve).
    expect(sentTimes(outcomes, "org-b").filter((at) => at === 10)).toHaveLength(10);
    await vi.advanceTimersByTimeAsync(3_000);
    await Promise.all(pending);
    expect(maxPerWindow(sentTimes(outcomes), WINDOW_MS)).toBeLessThanOrEqual(100);
  });

  it("room that frees up goes first to the waiting organization that has sent least", async () => {
    const subject = limiter(10, 2_000, 0);
    const outcomes: Outcome[] = [];
    // A fills the window alone at t = 0.
    const pending = ask(subject, "org-a", 10, outcomes);
    await vi.advanceTimersByTimeAsync(500);
    // B (nothing sent) and more of A wait for t = 1000.
    pending.push(...ask(subject, "org-a", 10, outcomes), ...ask(subject, "org-b", 3, outcomes));
    await vi.advanceTimersByTimeAsync(500);
    expect(sentTimes(outcomes, "org-b")).toEqual([1000, 1000, 1000]);
    // A takes its fair share (5) and leaves B's cushion (2, as much again as B's use but no more than the rest of B's share) free.
    expect(sentTimes(outcomes, "org-a").filter((at) => at === 1000)).toHaveLength(5);
    await vi.advanceTimersByTimeAsync(3_000);
    await Promise.all(pending);
  });

  it("a waiter still waiting at maxQueueMs fails then, with a Retry-After", async () => {
    const subject = limiter(10, 300, 0);
    const outcomes: Outcome[] = [];
    const pending = ask(subject, "org-a", 10, outcomes);
    await vi.advanceTimersByTimeAsync(800);
    // Both turns are estimated at t = 1000, within 300 ms.
    pending.push(...ask(subject, "org-b", 10, outcomes));
    await vi.advanceTimersByTimeAsync(100);
    pending.push(...ask(subject, "org-a", 1, outcomes));
    await vi.advanceTimersByTimeAsync(3_000);
    await Promise.all(pending);
    // At t = 1000, B borrows all but A's cushion (as much again as A's one send); its last two are still waiting at 1100.
    expect(sentTimes(outcomes, "org-a")).toEqual([...Array.from({ length: 10 }, () => 0), 1000]);
    expect(sentTimes(outcomes, "org-b")).toEqual(Array.from({ length: 8 }, () => 1000));
    const late = outcomes.filter((outcome) => outcome.organization === "org-b" && outcome.sentAt === null);
    expect(late).toHaveLength(2);
    expect(late[0]?.error).toMatchObject({ code: "rate_limited" });
    expect(subject.stats()).toEqual({ queued: 11, rejected: 2 });
  });

  it("close rejects waiters", async () => {
    const subject = limiter(5, 2_000);
    await Promise.all(Array.from({ length: 5 }, () => subject.acquire("org-a")));
    const waiting = subject.acquire("org-a");
    subject.close();
    await expect(waiting).rejects.toMatchObject({ code: "closed", message: "The upstream budget is closed" });
  });

  describe("what the service says (learn, ADR 0017 addendum)", () => {
    it("use by others that an answer reports shrinks the budget, which is still shared fairly: a quiet organization's reads go at once beside one hammering", async () => {
      const subject = limiter(100, 200);
      const outcomes: Outcome[] = [];
      const pending = ask(subject, "org-a", 1, outcomes);
      // The service says 39 remain where the limiter believed 99: others spent 60 of the window.
      subject.learn("org-a", { remaining: { count: 39, until: WINDOW_MS } });
      pending.push(...ask(subject, "org-a", 100, outcomes));
      await vi.advanceTimersByTimeAsync(100);
      // A alone takes the 40 left but the reserve (4, a tenth as before).
      expect(sentTimes(outcomes, "org-a")).toHaveLength(36);
      pending.push(...ask(subject, "org-b", 3, outcomes));
      await vi.advanceTimersByTimeAsync(0);
      expect(sentTimes(outcomes, "org-b")).toEqual([100, 100, 100]);
      await vi.advanceTimersByTimeAsync(3_000);
      await Promise.all(pending);
      // A 36, B 3: within the 40 the service left in its window (one of the reserve unused).
      expect(sentTimes(outcomes).filter((at) => at < WINDOW_MS)).toHaveLength(39);
    });

    it("an answer saying more remains than the limiter believes changes nothing", async () => {
      const subject = limiter(100);
      await Promise.all(Array.from({ length: 30 }, () => subject.acquire("org-a")));
      const before = subject.budget();
      subject.learn("org-a", { remaining: { count: 95, until: WINDOW_MS } });
      expect(subject.budget()).toEqual(before);
    });

    it("a 429 holds every organization until its Retry-After; then the one that has sent least goes first, and a waiter whose deadline comes before the pause ends fails at once", async () => {
      const subject = limiter(100, 500, 0);
      const outcomes: Outcome[] = [];
      const pending = ask(subject, "org-a", 1, outcomes);
      subject.learn("org-a", { retryAt: 300 });
      pending.push(...ask(subject, "org-a", 2, outcomes), ...ask(subject, "org-b", 1, outcomes));
      await vi.advanceTimersByTimeAsync(299);
      expect(sentTimes(outcomes)).toEqual([0]);
      await vi.advanceTimersByTimeAsync(1);
      expect(sentTimes(outcomes, "org-b")).toEqual([300]);
      expect(sentTimes(outcomes, "org-a")).toEqual([0, 300, 300]);

      await vi.advanceTimersByTimeAsync(100);
      // Asked at 400 during a pause until 800 (deadline 900); a later 429 says to wait until 1400.
      subject.learn("org-a", { retryAt: 800 });
      pending.push(...ask(subject, "org-b", 1, outcomes));
      await vi.advanceTimersByTimeAsync(0);
      expect(outcomes.at(-1)?.sentAt).toBeNull();
      expect(outcomes.at(-1)?.error).toBeUndefined();
      subject.learn("org-a", { retryAt: 1_400 });
      await vi.advanceTimersByTimeAsync(0);
      expect(outcomes.at(-1)?.error).toMatchObject({ code: "rate_limited", retryAfterSeconds: 1 });
      await expect(subject.acquire("org-c")).rejects.toMatchObject({ code: "rate_limited", retryAfterSeconds: 1 });
      await vi.advanceTimersByTimeAsync(3_000);
      await Promise.all(pending);
    });
  });

  describe("properties (limit 50 per 1 s, reserve 5, queue up to 200 ms)", () => {
    const LIMIT = 50;
    const RESERVE = 5;
    const subject = () => limiter(LIMIT, 200);

    const burst = (organization: string, maxAt: number) => fc.record({ at: fc.integer({ min: 0, max: maxAt }), organization: fc.constant(organization), count: fc.integer({ min: 1, max: 60 }) });

    it("never more than the limit in any window, whoever asks, and every request settles", async () => {
      const arrivals = fc.array(fc.oneof(burst("org-a", 4_000), burst("org-b", 4_000), burst("org-c", 4_000), burst("org-d", 4_000)), { maxLength: 40 });
      await fc.assert(
        fc.asyncProperty(arrivals, async (list) => {
          vi.setSystemTime(0);
          const outcomes = await play(subject(), list);
          expect(maxPerWindow(sentTimes(outcomes), WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
          expect(outcomes.every((outcome) => outcome.sentAt !== null || outcome.error instanceof BudgetRefusal)).toBe(true);
        }),
        { numRuns: 60 },
      );
    });

    it("an organization that sends fewer than the reserve per window is let through at once, however another hammers", async () => {
      /** Quiet requests, thinned so that no window holds more than RESERVE − 1 of them. */
      const quietTimes = fc.array(fc.integer({ min: 0, max: 4_000 }), { maxLength: 40 }).map((times) => {
        const kept: number[] = [];
        for (const at of [...times].sort((a, b) => a - b)) if (kept.filter((earlier) => earlier > at - WINDOW_MS).length < RESERVE - 1) kept.push(at);
        return kept;
      });
      await fc.assert(
        fc.asyncProperty(fc.array(burst("hammer", 4_000), { maxLength: 40 }), quietTimes, async (hammering, quiet) => {
          vi.setSystemTime(0);
          const outcomes = await play(subject(), [...hammering, ...quiet.map((at) => ({ at, organization: "quiet", count: 1 }))]);
          for (const outcome of outcomes.filter((candidate) => candidate.organization === "quiet")) expect(outcome.sentAt).toBe(outcome.askedAt);
        }),
        { numRuns: 60 },
      );
    });

    it("an organization below its fair share keeps its pace, and doubles it, at once, however another hammers", async () => {
      // Two active organizations: fair share (50 − 5) / 2 = 22. The quiet one
      // keeps a pace for two windows (the hammering starts after the first),
      // then doubles it, staying below its share.
      const pace = fc.integer({ min: 3, max: 10 });
      await fc.assert(
        fc.asyncProperty(pace, fc.array(burst("hammer", 4_000), { maxLength: 40 }), async (perWindow, hammering) => {
          vi.setSystemTime(0);
          const steady = (from: number, to: number, interval: number) => Array.from({ length: Math.ceil((to - from) / interval) }, (_, index) => ({ at: from + index * interval, organization: "quiet", count: 1 }));
          const quiet = [...steady(0, 2 * WINDOW_MS, WINDOW_MS / perWindow), ...steady(2 * WINDOW_MS, 5 * WINDOW_MS, WINDOW_MS / perWindow / 2)].map((arrival) => ({ ...arrival, at: Math.round(arrival.at) }));
          const outcomes = await play(subject(), [...quiet, ...hammering.map((arrival) => ({ ...arrival, at: arrival.at + WINDOW_MS }))]);
          for (const outcome of outcomes.filter((candidate) => candidate.organization === "quiet")) expect(outcome.sentAt).toBe(outcome.askedAt);
        }),
        { numRuns: 40 },
      );
    });

    it("borrowing: alone, an organization uses everything but the reserve; beside a quiet one, more than its fair share", async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 8 }), async (quietUse) => {
          vi.setSystemTime(0);
          const alone = await play(subject(), [{ at: 0, organization: "busy", count: 100 }]);
          expect(sentTimes(alone)).toHaveLength(LIMIT - RESERVE);
          vi.setSystemTime(0);
          const beside = await play(subject(), [
            { at: 0, organization: "quiet", count: quietUse },
            { at: 1, organization: "busy", count: 100 },
          ]);
          const busy = sentTimes(beside, "busy").filter((at) => at === 1).length;
          expect(busy).toBe(LIMIT - RESERVE - 2 * quietUse);
          expect(busy).toBeGreaterThan(Math.floor((LIMIT - RESERVE) / 2));
        }),
        { numRuns: 20 },
      );
    });
  });
});
