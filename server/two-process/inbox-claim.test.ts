import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../store/database.ts";
import { webhookInbox } from "../store/schema.ts";
import type { Store } from "../store/store.ts";
import { createStore, storeOnDatabase } from "../store/create-store.ts";
import { testSchemaName } from "./testing/two-bff-cluster.ts";
import { dropSchema } from "../store/testing/drop-schema.ts";

// ADR 0009: claiming inbox rows under a lease, on both engines (PGlite
// always, PostgreSQL with DATABASE_URL). On PostgreSQL two stores (two pools:
// two processes) claim one backlog at once and never take the same row.

const databaseUrl = process.env.DATABASE_URL;
const engines: { name: "pglite" | "postgres"; databaseUrl?: string }[] = [{ name: "pglite" }, ...(databaseUrl ? [{ name: "postgres" as const, databaseUrl }] : [])];

const BASE = Date.parse("2026-03-01T10:00:00.000Z");
const LEASE_MS = 60_000;
const delivery = (hookId: string, receivedAt: number) => ({ hookId, eventType: "test.event", payload: { type: "test.event", data: {}, timestamp: new Date(receivedAt).toISOString() }, receivedAt });
const claim = (store: Store, now: number, limit = 10) => store.inbox.claimUnprocessed({ limit, leaseMs: LEASE_MS, now, maxAttempts: 3 }).then((entries) => entries.map((entry) => entry.hookId));

describe.each(engines)("claiming inbox rows on $name", (engine) => {
  const schema = engine.name === "postgres" ? testSchemaName() : "public";
  let handle: DatabaseHandle;
  let store: Store;

  beforeAll(async () => {
    handle = await openDatabase({ ...(engine.databaseUrl ? { databaseUrl: engine.databaseUrl } : {}), schema });
    store = storeOnDatabase(handle);
  }, 60_000);

  afterAll(async () => {
    await store.close();
    if (engine.databaseUrl) await dropSchema(engine.databaseUrl, schema);
  });

  beforeEach(async () => {
    await handle.db.execute(sql`TRUNCATE ${webhookInbox}`);
  });

  it("claims the oldest unclaimed rows up to the limit; a leased row is skipped until its lease ends", async () => {
    for (const [hookId, second] of [["msg_c", 2], ["msg_a", 0], ["msg_d", 3], ["msg_b", 1]] as const) await store.inbox.insert(delivery(hookId, BASE + second * 1000));
    expect(await claim(store, BASE, 2)).toEqual(["msg_a", "msg_b"]);
    expect(await claim(store, BASE + 1)).toEqual(["msg_c", "msg_d"]);
    expect(await claim(store, BASE + LEASE_MS - 1)).toEqual([]);
    // msg_a and msg_b's lease ended first.
    expect(await claim(store, BASE + LEASE_MS + 1)).toEqual(["msg_a", "msg_b"]);
    expect(await claim(store, BASE + LEASE_MS + 2)).toEqual(["msg_c", "msg_d"]);
  });

  it("a processed row is done; a failed one is released at once, and is a dead letter at its last allowed attempt", async () => {
    await store.inbox.insert(delivery("msg_ok", BASE));
    await store.inbox.insert(delivery("msg_bad", BASE + 1));
    expect(await claim(store, BASE)).toEqual(["msg_ok", "msg_bad"]);
    await store.inbox.markProcessed("msg_ok", BASE + 5);
    await store.inbox.markFailed("msg_bad", "upstream 503", { maxAttempts: 3, at: BASE + 6 });
    expect(await claim(store, BASE + 10)).toEqual(["msg_bad"]);
    await store.inbox.markFailed("msg_bad", "upstream 503", { maxAttempts: 3, at: BASE + 16 });
    expect(await claim(store, BASE + 20)).toEqual(["msg_bad"]);
    await store.inbox.markFailed("msg_bad", "upstream 503", { maxAttempts: 3, at: BASE + 26 });
    expect(await claim(store, BASE + LEASE_MS * 10)).toEqual([]);
    expect(await store.inbox.get("msg_bad")).toMatchObject({ attempts: 3, processedAt: BASE + 26, deadLetterReason: "gave up after 3 attempts: upstream 503" });
    expect(await store.inbox.get("msg_ok")).toMatchObject({ attempts: 1, processedAt: BASE + 5 });
  });

  it.runIf(engine.name === "postgres")("two stores claiming one backlog at once never take the same row", async () => {
    const other = await createStore({ databaseUrl: engine.databaseUrl ?? "", schema });
    try {
      const hookIds = Array.from({ length: 200 }, (_, index) => `msg_${String(index).padStart(3, "0")}`);
      for (const [index, hookId] of hookIds.entries()) await store.inbox.insert(delivery(hookId, BASE + index));
      const drain = async (claimer: Store) => {
        const taken: string[] = [];
        for (;;) {
          const batch = await claim(claimer, BASE, 7);
          if (batch.length === 0) return taken;
          taken.push(...batch);
        }
      };
      // Both claim at once from the start: a new store's first query opens its pool, and the other store alone
      // could drain the whole backlog meanwhile (a slow CI machine did). Each first claim gets rows of its own.
      const firstBatches = await Promise.all([claim(store, BASE, 7), claim(other, BASE, 7)]);
      expect(firstBatches.map((batch) => batch.length)).toEqual([7, 7]);
      const [first, second] = await Promise.all([drain(store), drain(other)]);
      expect([...firstBatches.flat(), ...first, ...second].sort()).toEqual(hookIds);
    } finally {
      await other.close();
    }
  });
});
