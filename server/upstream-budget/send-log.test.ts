import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStore } from "../store/create-store.ts";
import { dropSchema } from "../store/testing/drop-schema.ts";
import { createPostgresSendLog } from "./postgres-send-log.ts";
import { createRedisSendLog } from "./redis-send-log.ts";
import type { Send, SharedSendLog } from "./send-log.ts";

// ADR 0026: the logs the processes share, on the real engines (skipped
// without DATABASE_URL or REDIS_URL). Two logs on one engine stand for two
// processes: each has its own connections.

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const WINDOW_MS = 60_000;

/** Adds one send of `organization` at `now` when the scope has fewer than `limit` in the window; whether it did. */
async function takeOne(log: SharedSendLog, scope: string, organization: string, now: number, limit: number): Promise<boolean> {
  let took = false;
  await log.exchange(scope, now, WINDOW_MS, (logged) => {
    took = logged.length < limit;
    return took ? [{ organization, at: now, process: "test" }] : [];
  });
  return took;
}

async function windowOf(log: SharedSendLog, scope: string, now: number): Promise<readonly Send[]> {
  let window: readonly Send[] = [];
  await log.exchange(scope, now, WINDOW_MS, (logged) => {
    window = logged;
    return [];
  });
  return window;
}

function contract(open: () => SharedSendLog) {
  let first: SharedSendLog;
  let second: SharedSendLog;
  beforeAll(() => {
    first = open();
    second = open();
  });
  afterAll(async () => {
    await Promise.all([first.close(), second.close()]);
  });

  it("hands a round the scope's sends in the window, oldest first, and forgets those a window old", async () => {
    const scope = `key-${randomUUID()}`;
    await first.exchange(scope, 1_000, WINDOW_MS, () => [
      { organization: "org-b", at: 900, process: "p1" },
      { organization: "org-a", at: 500, process: "p1" },
    ]);
    await second.exchange(scope, 2_000, WINDOW_MS, () => [{ organization: "org-a", at: 2_000, process: "p2" }]);
    expect(await windowOf(first, scope, 3_000)).toEqual([
      { organization: "org-a", at: 500, process: "p1" },
      { organization: "org-b", at: 900, process: "p1" },
      { organization: "org-a", at: 2_000, process: "p2" },
    ]);
    expect(await windowOf(second, scope, 60_900)).toEqual([{ organization: "org-a", at: 2_000, process: "p2" }]);
    expect(await windowOf(second, `other-${scope}`, 3_000)).toEqual([]);
  });

  it("keeps every send, even two logs' sends under one process name, organization and instant (none merged into one)", async () => {
    // Fresh logs: each counts its own sends from the start, as two processes do.
    const [one, other] = [open(), open()];
    try {
      const scope = `key-${randomUUID()}`;
      const send = { organization: "org-a", at: 1_000, process: "same-name" };
      await one.exchange(scope, 1_000, WINDOW_MS, () => [send]);
      await other.exchange(scope, 1_000, WINDOW_MS, () => [send]);
      expect(await windowOf(one, scope, 1_001)).toEqual([send, send]);
    } finally {
      await Promise.all([one.close(), other.close()]);
    }
  });

  it("two processes taking at once never record more than the rule allows: a round is one atomic step", async () => {
    const scope = `key-${randomUUID()}`;
    const attempts = Array.from({ length: 30 }, (_, index) => takeOne(index % 2 === 0 ? first : second, scope, `org-${index % 3}`, 10_000, 10));
    const took = await Promise.all(attempts);
    expect(took.filter(Boolean)).toHaveLength(10);
    expect(await windowOf(first, scope, 10_001)).toHaveLength(10);
  });
}

describe.skipIf(databaseUrl === undefined)("the PostgreSQL send log (DATABASE_URL)", () => {
  const schema = `budget_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  beforeAll(async () => {
    // The store's migrations make the table in the schema.
    const store = await createStore({ databaseUrl, schema });
    await store.close();
  }, 60_000);
  afterAll(async () => {
    if (databaseUrl !== undefined) await dropSchema(databaseUrl, schema);
  });
  contract(() => createPostgresSendLog({ databaseUrl: databaseUrl ?? "", schema }));
});

describe.skipIf(redisUrl === undefined)("the Redis send log (REDIS_URL)", () => {
  const prefix = `tandem-test:${randomUUID()}`;
  contract(() => createRedisSendLog({ url: redisUrl ?? "", prefix }));
});
