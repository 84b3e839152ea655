import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SlidingWindowLimiter } from "./rate-limiter.ts";
import { UpstreamError } from "./upstream-error.ts";

// DESIGN.md "Upstream" (limiter scope) and seed 001 "Limits": never more than
// `limit` sends in any `windowMs` interval; FIFO queue up to `maxQueueMs`,
// fail fast beyond.

/** The most sends inside any half-open interval [t, t + windowMs). */
function maxPerWindow(times: readonly number[], windowMs: number): number {
  return Math.max(0, ...times.map((start) => times.filter((t) => t >= start && t < start + windowMs).length));
}

describe("SlidingWindowLimiter", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const limiter = (maxQueueMs = 2_000) => new SlidingWindowLimiter({ limit: 5, windowMs: 1_000, maxQueueMs, now: Date.now });

  it("20 requests at once, limit 5 per second: 15 go within the queue bound, in order, never 6 in a window; 5 fail fast", async () => {
    const subject = limiter();
    const sentAt: number[] = [];
    const order: number[] = [];
    const failures: UpstreamError[] = [];
    const all = Array.from({ length: 20 }, (_, index) =>
      subject.acquire("key").then(
        () => {
          sentAt.push(Date.now());
          order.push(index);
        },
        (error: unknown) => {
          if (error instanceof UpstreamError) failures.push(error);
        },
      ),
    );
    await vi.advanceTimersByTimeAsync(5_000);
    await Promise.all(all);
    expect(sentAt).toEqual([0, 0, 0, 0, 0, 1000, 1000, 1000, 1000, 1000, 2000, 2000, 2000, 2000, 2000]);
    expect(order).toEqual(Array.from({ length: 15 }, (_, index) => index));
    expect(maxPerWindow(sentAt, 1_000)).toBe(5);
    expect(failures).toHaveLength(5);
    expect(failures[0]).toMatchObject({ status: 503, code: "rate_limited", retryAfterSeconds: 3 });
    expect(subject.stats()).toEqual({ queued: 10, rejected: 5 });
  });

  it("slides: sends late in one second still count against the start of the next", async () => {
    const subject = limiter();
    const sentAt: number[] = [];
    const send = async () => {
      await subject.acquire("key");
      sentAt.push(Date.now());
    };
    await vi.advanceTimersByTimeAsync(900);
    const first = Array.from({ length: 5 }, send);
    await vi.advanceTimersByTimeAsync(100); // t = 1000: a fixed window would open here
    const second = Array.from({ length: 5 }, send);
    await vi.advanceTimersByTimeAsync(2_000);
    await Promise.all([...first, ...second]);
    expect(sentAt).toEqual([900, 900, 900, 900, 900, 1900, 1900, 1900, 1900, 1900]);
  });

  it("a queue that cannot drain within maxQueueMs fails at once with retryAfterSeconds", async () => {
    const subject = limiter(500);
    await Promise.all(Array.from({ length: 5 }, () => subject.acquire("key")));
    await vi.advanceTimersByTimeAsync(100);
    // The next turn is at t = 1000, 900 ms away: beyond 500.
    await expect(subject.acquire("key")).rejects.toMatchObject({ code: "rate_limited", retryAfterSeconds: 1 });
    await vi.advanceTimersByTimeAsync(500);
    const queued = subject.acquire("key");
    await vi.advanceTimersByTimeAsync(400);
    await expect(queued).resolves.toBeUndefined();
    expect(Date.now()).toBe(1000);
  });

  it("buckets are separate", async () => {
    const subject = limiter(0);
    await Promise.all(Array.from({ length: 5 }, () => subject.acquire("org-1")));
    await expect(subject.acquire("org-2")).resolves.toBeUndefined();
    await expect(subject.acquire("org-1")).rejects.toBeInstanceOf(UpstreamError);
  });

  it("reports each bucket's sends in the window against the whole limit", async () => {
    const subject = limiter(0);
    await Promise.all([...Array.from({ length: 3 }, () => subject.acquire("org-1")), subject.acquire("org-2")]);
    expect(subject.budget()).toEqual({
      limit: 5,
      organizations: [
        { organization: "org-1", sent: 3, allowance: 5 },
        { organization: "org-2", sent: 1, allowance: 5 },
      ],
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(subject.budget()).toEqual({ limit: 5, organizations: [] });
  });

  it("use by others that an answer reports counts against that bucket until the service's window ends; other buckets keep theirs", async () => {
    const subject = limiter();
    const sentAt: number[] = [];
    await subject.acquire("org-1");
    // The service says 1 remains where the limiter believed 4.
    subject.learn("org-1", { remaining: { count: 1, until: 600 } });
    const sends = Array.from({ length: 3 }, () => subject.acquire("org-1").then(() => sentAt.push(Date.now())));
    await expect(subject.acquire("org-2")).resolves.toBeUndefined();
    await vi.advanceTimersByTimeAsync(2_000);
    await Promise.all(sends);
    expect(sentAt).toEqual([0, 600, 600]);
  });

  it("a 429 holds its bucket until Retry-After, whoever asks; a waiter whose deadline comes before the pause ends fails at once", async () => {
    const subject = limiter(500);
    await subject.acquire("org-1");
    subject.learn("org-1", { retryAt: 400 });
    const held = subject.acquire("org-1").then(() => Date.now());
    await expect(subject.acquire("org-2")).resolves.toBeUndefined();
    await vi.advanceTimersByTimeAsync(400);
    await expect(held).resolves.toBe(400);

    // Asked at 400 during a pause until 800 (deadline 900); a later 429 says to wait until 3000.
    subject.learn("org-1", { retryAt: 800 });
    const waiting = subject.acquire("org-1");
    subject.learn("org-1", { retryAt: 3_000 });
    await expect(waiting).rejects.toMatchObject({ code: "rate_limited", retryAfterSeconds: 3 });
  });

  it("close rejects waiters", async () => {
    const subject = limiter();
    await Promise.all(Array.from({ length: 5 }, () => subject.acquire("key")));
    const waiting = subject.acquire("key");
    subject.close();
    await expect(waiting).rejects.toMatchObject({ code: "upstream_unavailable", message: "The clinic client is closed" });
  });
});
