import { describe, expect, it, vi } from "vitest";
import type { AuditTrailRepository } from "./audit-trail-repository.ts";
import { createGroupCommitAuditTrail } from "./audit-trail.ts";
import { StoreUnavailableError } from "./store-unavailable.ts";
import type { AuditEntry } from "./store.ts";

// The group commit alone, over an in-memory repository that can be made to fail or to hang.

function entry(n: number): AuditEntry {
  return { at: 1_700_000_000_000 + n, organizationId: "org", userId: "user", accountId: "account", action: "read", resourceType: "note", resourceId: `note-${n}`, traceId: `trace-${n}` };
}

function fakeRepository() {
  const written: AuditEntry[] = [];
  const batches: number[] = [];
  let failuresLeft = 0;
  let held: Promise<void> | null = null;
  let inserts = 0;
  const repository: AuditTrailRepository = {
    insertMany: async (entries: readonly AuditEntry[]) => {
      inserts += 1;
      if (held) await held;
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        throw new Error("database unavailable");
      }
      batches.push(entries.length);
      written.push(...entries);
    },
    list: (organizationId) => Promise.resolve(written.filter((row) => row.organizationId === organizationId)),
    recentResources: () => Promise.resolve(written.map((row) => ({ resourceId: row.resourceId, lastAt: row.at, changed: row.action !== "read" }))),
    writesSince: (organizationId, resourceType, resourceIds, after) =>
      Promise.resolve(written.filter((row) => row.organizationId === organizationId && row.resourceType === resourceType && resourceIds.includes(row.resourceId) && row.at > after && row.action !== "read")),

    purgeBefore: () => Promise.resolve(0),
  };
  return {
    repository,
    written,
    batches,
    /** Inserts begun so far. */
    inserts: () => inserts,
    failNext(times: number) {
      failuresLeft = times;
    },
    /** Inserts wait until the returned function is called. */
    hold(): () => void {
      let release = () => {};
      held = new Promise((resolve) => {
        release = () => {
          held = null;
          resolve();
        };
      });
      return release;
    },
  };
}

describe("group-commit audit trail", () => {
  it("a record resolves once its row is written, not before", async () => {
    const fake = fakeRepository();
    const trail = createGroupCommitAuditTrail({ repository: fake.repository });
    const release = fake.hold();
    let done = false;
    const recorded = trail.record(entry(0)).then(() => {
      done = true;
    });
    await vi.waitFor(() => expect(fake.inserts()).toBe(1));
    expect(done).toBe(false);
    expect(fake.written).toEqual([]);
    release();
    await recorded;
    expect(fake.written).toEqual([entry(0)]);
  });

  it("records taken while an insert runs share the next one, in the order they were recorded", async () => {
    const fake = fakeRepository();
    const trail = createGroupCommitAuditTrail({ repository: fake.repository });
    const release = fake.hold();
    const first = trail.record(entry(0));
    await vi.waitFor(() => expect(fake.inserts()).toBe(1));
    const rest = [1, 2, 3, 4].map((n) => trail.record(entry(n)));
    expect(trail.pending()).toBe(5);
    release();
    await Promise.all([first, ...rest]);
    expect(fake.batches).toEqual([1, 4]);
    expect(fake.written).toEqual([0, 1, 2, 3, 4].map(entry));
    expect(trail.pending()).toBe(0);
  });

  it("a record made the moment the one before it resolved is written too", async () => {
    const fake = fakeRepository();
    const trail = createGroupCommitAuditTrail({ repository: fake.repository });
    for (const n of [0, 1, 2]) await trail.record(entry(n));
    expect(fake.written).toEqual([0, 1, 2].map(entry));
  });

  it("records of one tick go in one insert, at most maxBatch rows each", async () => {
    const fake = fakeRepository();
    const trail = createGroupCommitAuditTrail({ repository: fake.repository, maxBatch: 2 });
    await Promise.all([0, 1, 2, 3, 4].map((n) => trail.record(entry(n))));
    expect(fake.batches).toEqual([2, 2, 1]);
  });

  it("a failed insert rejects its own records, keeps nothing, and the next records are written", async () => {
    const fake = fakeRepository();
    const trail = createGroupCommitAuditTrail({ repository: fake.repository });
    fake.failNext(1);
    const failed = [0, 1].map((n) => trail.record(entry(n)));
    for (const each of failed) await expect(each).rejects.toThrow("database unavailable");
    expect(trail.pending()).toBe(0);
    await trail.record(entry(2));
    expect(fake.written).toEqual([entry(2)]);
  });

  it("while the store hangs, records beyond maxWaiting are refused at once as the store unavailable, not kept", async () => {
    const fake = fakeRepository();
    const trail = createGroupCommitAuditTrail({ repository: fake.repository, maxWaiting: 3 });
    const release = fake.hold();
    const inInsert = trail.record(entry(0));
    await vi.waitFor(() => expect(fake.inserts()).toBe(1));
    const waiting = [1, 2, 3].map((n) => trail.record(entry(n)));
    await expect(trail.record(entry(4))).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(trail.pending()).toBe(4);
    release();
    await Promise.all([inInsert, ...waiting]);
    expect(fake.written.map((row) => row.resourceId)).toEqual(["note-0", "note-1", "note-2", "note-3"]);
  });

  it("after close, a record is refused as the store unavailable; close waits for those already taken", async () => {
    const fake = fakeRepository();
    const trail = createGroupCommitAuditTrail({ repository: fake.repository });
    const taken = trail.record(entry(0));
    await trail.close();
    await taken;
    expect(fake.written).toEqual([entry(0)]);
    await expect(trail.record(entry(1))).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it("refuses an entry whose time is not epoch milliseconds", async () => {
    const trail = createGroupCommitAuditTrail({ repository: fakeRepository().repository });
    await expect(trail.record({ ...entry(0), at: Number.NaN })).rejects.toThrow(TypeError);
  });
});
