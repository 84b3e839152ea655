import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AuditTrailRepository } from "./audit-trail-repository.ts";
import { createBatchedAuditTrail, type AuditTrailStats } from "./audit-trail.ts";
import type { AuditEntry } from "./store.ts";

// The batching alone, over an in-memory repository that can be made to fail.

function entry(n: number): AuditEntry {
  return { at: 1_700_000_000_000 + n, organizationId: "org", userId: "user", action: "read", resourceType: "note", resourceId: `note-${n}`, traceId: `trace-${n}` };
}

function fakeRepository() {
  const written: AuditEntry[] = [];
  const batches: number[] = [];
  let failuresLeft = 0;
  const repository: AuditTrailRepository = {
    insertMany: vi.fn((entries: readonly AuditEntry[]) => {
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        return Promise.reject(new Error("database unavailable"));
      }
      batches.push(entries.length);
      written.push(...entries);
      return Promise.resolve();
    }),
    list: (organizationId) => Promise.resolve(written.filter((row) => row.organizationId === organizationId)),
    // Reports how many entries were written when asked: enough to see the queue flushed first.
    recentResources: () => Promise.resolve(written.map((row) => ({ resourceId: row.resourceId, lastAt: row.at, changed: row.action !== "read" }))),
    writesSince: (organizationId, resourceType, resourceIds, after) =>
      Promise.resolve(written.filter((row) => row.organizationId === organizationId && row.resourceType === resourceType && resourceIds.includes(row.resourceId) && row.at > after && row.action !== "read")),

    purgeBefore: () => Promise.resolve(0),
  };
  return {
    repository,
    written,
    batches,
    failNext(times: number) {
      failuresLeft = times;
    },
  };
}

describe("batched audit trail", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("writes on the timer, in one insert, and not before", async () => {
    const fake = fakeRepository();
    const trail = createBatchedAuditTrail({ repository: fake.repository, flushMs: 1000 });
    for (let n = 0; n < 5; n += 1) trail.record(entry(n));
    await vi.advanceTimersByTimeAsync(999);
    expect(fake.written).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.written).toEqual([0, 1, 2, 3, 4].map(entry));
    expect(fake.batches).toEqual([5]);
    await trail.close();
  });

  it("keeps the entries of a failed flush, reports it, and writes them in order on the next one", async () => {
    const fake = fakeRepository();
    const errors: { error: unknown; stats: AuditTrailStats }[] = [];
    const trail = createBatchedAuditTrail({ repository: fake.repository, flushMs: 100, onError: (error, stats) => errors.push({ error, stats }) });
    fake.failNext(1);
    trail.record(entry(0));
    trail.record(entry(1));
    await vi.advanceTimersByTimeAsync(100);
    expect(fake.written).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.stats).toEqual({ queued: 2, dropped: 0 });

    trail.record(entry(2));
    await vi.advanceTimersByTimeAsync(100);
    expect(fake.written).toEqual([entry(0), entry(1), entry(2)]);
    expect(trail.stats()).toEqual({ queued: 0, dropped: 0 });
    await trail.close();
  });

  it("rejects an explicit flush that fails, keeping the entries", async () => {
    const fake = fakeRepository();
    const trail = createBatchedAuditTrail({ repository: fake.repository, flushMs: 60_000, onError: () => undefined });
    trail.record(entry(0));
    fake.failNext(1);
    await expect(trail.flush()).rejects.toThrow("database unavailable");
    expect(trail.stats()).toEqual({ queued: 1, dropped: 0 });
    await trail.flush();
    expect(fake.written).toEqual([entry(0)]);
    await trail.close();
  });

  it("caps the queue while failing: drops the oldest, counts and reports them", async () => {
    const fake = fakeRepository();
    const errors: AuditTrailStats[] = [];
    const trail = createBatchedAuditTrail({ repository: fake.repository, flushMs: 60_000, maxQueued: 3, onError: (_error, stats) => errors.push(stats) });
    trail.record(entry(0));
    trail.record(entry(1));
    fake.failNext(1);
    await expect(trail.flush()).rejects.toThrow("database unavailable");
    for (let n = 2; n < 5; n += 1) trail.record(entry(n));
    expect(trail.stats()).toEqual({ queued: 3, dropped: 2 });
    await trail.flush();
    expect(fake.written).toEqual([entry(2), entry(3), entry(4)]);
    expect(errors).toEqual([{ queued: 0, dropped: 2 }]);
    await trail.close();
  });

  it("splits a long queue into batches and flushes early once a batch is full", async () => {
    const fake = fakeRepository();
    const trail = createBatchedAuditTrail({ repository: fake.repository, flushMs: 60_000, maxBatch: 4 });
    for (let n = 0; n < 3; n += 1) trail.record(entry(n));
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.written).toHaveLength(0);
    trail.record(entry(3));
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.batches).toEqual([4]);
    for (let n = 4; n < 7; n += 1) trail.record(entry(n));
    await trail.flush();
    expect(fake.batches).toEqual([4, 3]);
    expect(fake.written).toEqual([0, 1, 2, 3, 4, 5, 6].map(entry));
    await trail.close();
  });

  it("writes what is left on close, and counts entries recorded after it", async () => {
    const fake = fakeRepository();
    const errors: AuditTrailStats[] = [];
    const trail = createBatchedAuditTrail({ repository: fake.repository, flushMs: 60_000, onError: (_error, stats) => errors.push(stats) });
    trail.record(entry(0));
    await trail.close();
    expect(fake.written).toEqual([entry(0)]);
    trail.record(entry(1));
    expect(trail.stats()).toEqual({ queued: 0, dropped: 1 });
    expect(errors).toEqual([{ queued: 0, dropped: 1 }]);
  });

  it("rejects close when the last flush fails, counting what could not be written", async () => {
    const fake = fakeRepository();
    const trail = createBatchedAuditTrail({ repository: fake.repository, flushMs: 60_000 });
    trail.record(entry(0));
    trail.record(entry(1));
    fake.failNext(1);
    await expect(trail.close()).rejects.toThrow("database unavailable");
    expect(trail.stats()).toEqual({ queued: 0, dropped: 2 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("refuses an entry whose time is not a number of milliseconds", () => {
    const trail = createBatchedAuditTrail({ repository: fakeRepository().repository });
    expect(() => trail.record({ ...entry(0), at: Number.NaN })).toThrow(TypeError);
  });
});
