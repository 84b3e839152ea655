import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AuditTrailRepository } from "./audit-trail-repository.ts";
import { createGroupCommitAuditTrail } from "./audit-trail.ts";
import { createStoreGuard, guardRepository } from "./store-guard.ts";
import { StoreUnavailableError } from "./store-unavailable.ts";
import type { AuditEntry } from "./store.ts";

// The bound on every call into the store, on fake time: a store that does
// not answer is a StoreUnavailableError after `callMs`, never a hang, for a
// request and for the audit trail's inserts alike.

const CALL_MS = 1_000;
const never = () => new Promise<never>(() => undefined);

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

/** Settles `promise` while fake time moves `ms` ahead; what it settled with. */
async function settledAfter<T>(promise: Promise<T>, ms: number): Promise<{ value?: T; error?: unknown }> {
  const outcome = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  await vi.advanceTimersByTimeAsync(ms);
  return outcome;
}

describe("the store guard", () => {
  it("gives up on a call that does not answer after callMs, as store unavailable (timeout); not before", async () => {
    const guard = createStoreGuard({ callMs: CALL_MS });
    const call = guard.run(never);
    let settled = false;
    void call.catch(() => (settled = true));
    await vi.advanceTimersByTimeAsync(CALL_MS - 1);
    expect(settled).toBe(false);
    const { error } = await settledAfter(call, 1);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).reason).toBe("timeout");
  });

  it("says the store is unavailable for a driver's connection failure, and passes a bug through as it is", async () => {
    const guard = createStoreGuard({ callMs: CALL_MS });
    const lost = await settledAfter(
      guard.run(() => Promise.reject(new Error("Connection terminated unexpectedly"))),
      0,
    );
    expect(lost.error).toBeInstanceOf(StoreUnavailableError);
    const bug = new TypeError("x is undefined");
    expect((await settledAfter(guard.run(() => Promise.reject(bug)), 0)).error).toBe(bug);
    expect((await settledAfter(guard.run(() => Promise.resolve(7)), 0)).value).toBe(7);
  });

  it("one session (PGlite): a call whose turn does not come within callMs fails and never runs, even once the session is free", async () => {
    const guard = createStoreGuard({ callMs: CALL_MS, oneSession: true });
    let free: () => void = () => undefined;
    const holding = guard.run(() => new Promise<void>((resolve) => (free = resolve))).then(
      () => "answered",
      (error: unknown) => error,
    );
    const queued = vi.fn(() => Promise.resolve("ran"));
    const { error } = await settledAfter(guard.run(queued), CALL_MS);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    // The holder's own caller gave up too; the session stays its until it ends.
    expect(await holding).toBeInstanceOf(StoreUnavailableError);
    free();
    await vi.advanceTimersByTimeAsync(0);
    expect(queued).not.toHaveBeenCalled();
    // The next call gets its turn.
    expect((await settledAfter(guard.run(() => Promise.resolve("next")), 0)).value).toBe("next");
  });

  it("wraps every method of a repository, with its arguments", async () => {
    const guard = createStoreGuard({ callMs: CALL_MS });
    const repository = guardRepository({ get: (id: string) => Promise.resolve(`got ${id}`), hang: never }, guard);
    expect((await settledAfter(repository.get("a"), 0)).value).toBe("got a");
    expect((await settledAfter(repository.hang(), CALL_MS)).error).toBeInstanceOf(StoreUnavailableError);
  });
});

describe("the audit trail over a store that does not answer", () => {
  const entry = (n: number): AuditEntry => ({ at: 1_700_000_000_000 + n, organizationId: "org", userId: "user", accountId: "account", action: "read", resourceType: "note", resourceId: `note-${n}`, traceId: `trace-${n}` });

  it("a PHI read's record is refused within callMs as the store unavailable, kept nowhere; once the store answers, the next is written", async () => {
    const written: AuditEntry[] = [];
    let answering = false;
    const raw: AuditTrailRepository = {
      insertMany: (entries) => {
        if (!answering) return never();
        written.push(...entries);
        return Promise.resolve();
      },
      list: () => Promise.resolve(written),
      recentResources: () => Promise.resolve([]),
      writesSince: () => Promise.resolve([]),
      purgeBefore: () => Promise.resolve(0),
    };
    const audit = createGroupCommitAuditTrail({ repository: guardRepository(raw, createStoreGuard({ callMs: CALL_MS })) });
    expect((await settledAfter(audit.record(entry(1)), CALL_MS)).error).toBeInstanceOf(StoreUnavailableError);
    expect(audit.pending()).toBe(0);

    answering = true;
    expect((await settledAfter(audit.record(entry(2)), 0)).error).toBeUndefined();
    expect(written.map((row) => row.resourceId)).toEqual(["note-2"]);
    await audit.close();
  });
});
