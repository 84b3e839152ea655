import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { count, eq, sql } from "drizzle-orm";
import { integer, pgSchema, pgTable, text } from "drizzle-orm/pg-core";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createStore, storeOnDatabase } from "./create-store.ts";
import { openDatabase, type DatabaseHandle, type StoreDatabase } from "./database.ts";
import * as tables from "./schema.ts";
import type { AppointmentState, AuditEntry, NoteDraft, NoteView, StoredInstallation, StoredSlotHold, StoredStandaloneSession, Store } from "./store.ts";
import { dropSchema } from "./testing/drop-schema.ts";

// One suite, every engine: PGlite in memory always, PostgreSQL too when
// DATABASE_URL is set (CI). Each worker gets its own PostgreSQL schema.

const databaseUrl = process.env.DATABASE_URL;
const engines: { name: "pglite" | "postgres"; databaseUrl?: string }[] = [
  { name: "pglite" },
  ...(databaseUrl ? [{ name: "postgres" as const, databaseUrl }] : []),
];

const ORG_A = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
const ORG_B = "8c4e2d19-7a36-4b5f-a0e1-9d8c7b6a5f42";
const BASE = Date.parse("2026-03-01T10:00:00.000Z");
const iso = (ms: number) => new Date(ms).toISOString();

const journal = z.object({ entries: z.array(z.object({ tag: z.string() })) });
const migrationCount = journal.parse(JSON.parse(readFileSync(new URL("./migrations/meta/_journal.json", import.meta.url), "utf8"))).entries.length;

function testSchemaName(): string {
  return `t_${process.pid}_${randomBytes(4).toString("hex")}`;
}

function migrationsTable(schema: string) {
  const columns = { id: integer("id"), hash: text("hash") };
  return schema === "public" ? pgSchema("drizzle").table("__drizzle_migrations", columns) : pgTable("__drizzle_migrations", columns);
}

async function appliedMigrations(db: StoreDatabase, schema: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(migrationsTable(schema));
  return row?.n ?? 0;
}

function installation(overrides: Partial<StoredInstallation> = {}): StoredInstallation {
  return {
    organizationId: ORG_A,
    status: "active",
    grantedPermissions: ["read:patients"],
    settings: { reminders: { enabled: true, hoursBefore: 24 }, label: "Clinic" },
    installedAt: "2026-01-05T09:00:00.000Z",
    updatedAt: iso(BASE),
    ...overrides,
  };
}

function appointment(overrides: Partial<AppointmentState> = {}): AppointmentState {
  return {
    organizationId: ORG_A,
    appointmentId: "appt-1",
    status: "confirmed",
    updatedAt: iso(BASE),
    facilityId: "fac_00000000000000000000000000000001",
    scheduledStartDate: "2026-03-10T14:00:00.000Z",
    scheduledEndDate: "2026-03-10T14:30:00.000Z",
    ...overrides,
  };
}

function slotHold(overrides: Partial<StoredSlotHold> = {}): StoredSlotHold {
  return {
    organizationId: ORG_A,
    holdId: "0b6c1f7e-3d2a-4e59-8f10-2a3b4c5d6e7f",
    userId: "user-1",
    patientId: "5f0e3c2a-1b4d-4e6f-9a8b-7c6d5e4f3a2b",
    patientName: "Okafor, Ada",
    providerId: "prv_9c1a6f98f0fb4012a8008dcbd76bd1c9",
    facilityId: "fac_decb7415a45c4b13859361ec146879bf",
    startsAt: "2026-03-02T08:00:00-05:00",
    endsAt: "2026-03-02T08:20:00-05:00",
    appointmentTypeId: "atp_a378f9f991a9266eb094d4a92c343856",
    slotLengthMinutes: 20,
    isNewPatient: false,
    expiresAt: BASE + 600_000,
    heldAt: BASE,
    ...overrides,
  };
}

/** A person's entries: their key, and the account their entries from before person keys are under. */
const USER_1 = { userId: "user-1", accountId: "account-1" };

function auditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    at: BASE,
    organizationId: ORG_A,
    userId: "user-1",
    accountId: "account-1",
    action: "read",
    resourceType: "note",
    resourceId: "note-1",
    traceId: "trace-1",
    ...overrides,
  };
}

/** A deterministic shuffle, so a failing order can be reproduced from the seed. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const copy = [...items];
  let state = seed;
  for (let i = copy.length - 1; i > 0; i -= 1) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const j = state % (i + 1);
    const a = copy[i];
    const b = copy[j];
    if (a === undefined || b === undefined) throw new Error("unreachable");
    copy[i] = b;
    copy[j] = a;
  }
  return copy;
}

describe.each(engines)("store on $name", (engine) => {
  const schema = engine.name === "postgres" ? testSchemaName() : "public";
  let handle: DatabaseHandle;
  let store: Store;

  beforeAll(async () => {
    handle = await openDatabase({ ...(engine.databaseUrl ? { databaseUrl: engine.databaseUrl } : {}), schema });
    // Long enough that no test sees a timer flush unless it asks for one.
    store = storeOnDatabase(handle);
  });

  afterAll(async () => {
    await store.close();
    if (engine.databaseUrl) await dropSchema(engine.databaseUrl, schema);
  });

  beforeEach(async () => {
    await handle.db.execute(
      sql`TRUNCATE ${tables.installations}, ${tables.webhookInbox}, ${tables.appointmentStates}, ${tables.usedTokenIds}, ${tables.noteDrafts}, ${tables.createdTasks}, ${tables.slotHolds}, ${tables.writeIntents}, ${tables.noteStates}, ${tables.noteViews}, ${tables.lastSlotSearches}, ${tables.standaloneSessions}, ${tables.auditTrail}`,
    );
  });

  it("answers ping", async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });

  it("reports its connection pool's use (PGlite: one session)", () => {
    const use = store.poolUse();
    if (engine.name === "pglite") expect(use).toEqual({ total: 1, idle: 0, waiting: 0 });
    else {
      // The pool has opened at least the connection the migrations ran on; nothing is queued between tests.
      expect(use.total).toBeGreaterThanOrEqual(1);
      expect(use.idle).toBeLessThanOrEqual(use.total);
      expect(use.waiting).toBe(0);
    }
  });

  describe("installations", () => {
    it("stores a new installation and reads it back", async () => {
      expect(await store.installations.get(ORG_A)).toBeNull();
      expect(await store.installations.upsertIfNewer(installation())).toBe(true);
      expect(await store.installations.get(ORG_A)).toEqual(installation());
    });

    it("keeps a null installedAt and lists by organization", async () => {
      await store.installations.upsertIfNewer(installation({ organizationId: ORG_B, installedAt: null, status: "uninstalled", grantedPermissions: [], settings: {} }));
      await store.installations.upsertIfNewer(installation());
      const listed = await store.installations.list();
      expect(listed.map((row) => row.organizationId)).toEqual([ORG_A, ORG_B]);
      expect(listed[1]).toMatchObject({ installedAt: null, status: "uninstalled", grantedPermissions: [], settings: {} });
    });

    it("writes a newer or equally new record and refuses an older one", async () => {
      await store.installations.upsertIfNewer(installation());
      expect(await store.installations.upsertIfNewer(installation({ status: "suspended", updatedAt: iso(BASE - 1) }))).toBe(false);
      expect((await store.installations.get(ORG_A))?.status).toBe("active");
      expect(await store.installations.upsertIfNewer(installation({ status: "suspended", updatedAt: iso(BASE) }))).toBe(true);
      expect(await store.installations.upsertIfNewer(installation({ status: "uninstalled", updatedAt: iso(BASE + 1) }))).toBe(true);
      expect(await store.installations.get(ORG_A)).toMatchObject({ status: "uninstalled", updatedAt: iso(BASE + 1) });
    });

    it("ends at the latest record under concurrent upserts", async () => {
      const records = Array.from({ length: 10 }, (_, i) => installation({ updatedAt: iso(BASE + i * 1000), settings: { i } }));
      await Promise.all(shuffled(records, 7).map((record) => store.installations.upsertIfNewer(record)));
      expect((await store.installations.get(ORG_A))?.settings).toEqual({ i: 9 });
    });

    it("rejects a timestamp without a zone rather than reading it in the machine's zone", async () => {
      await expect(store.installations.upsertIfNewer(installation({ updatedAt: "2026-03-01T10:00:00" }))).rejects.toThrow(/ISO 8601/);
    });
  });

  describe("webhook inbox", () => {
    const delivery = (hookId: string, receivedAt: number) => ({ hookId, eventType: "appointment.updated", payload: { data: { id: hookId }, n: [1, 2] }, receivedAt });

    it("stores a delivery once: a duplicate hook-id is refused and leaves the first intact", async () => {
      expect(await store.inbox.insert(delivery("msg_1", BASE))).toBe(true);
      expect(await store.inbox.insert({ ...delivery("msg_1", BASE + 5), payload: { other: true } })).toBe(false);
      expect(await store.inbox.get("msg_1")).toEqual({
        hookId: "msg_1",
        eventType: "appointment.updated",
        payload: { data: { id: "msg_1" }, n: [1, 2] },
        receivedAt: BASE,
        processedAt: null,
        attempts: 0,
        lastError: null,
        deadLetterReason: null,
      });
      expect(await store.inbox.get("msg_unknown")).toBeNull();
    });

    it("keeps a dead letter with its reason, once, never claimed for processing, and counts them", async () => {
      expect(await store.inbox.countDeadLetters()).toBe(0);
      expect(await store.inbox.insertDeadLetter({ ...delivery("msg_dead", BASE), payload: { rawBody: "not json" }, reason: "the body is not JSON" })).toBe(true);
      expect(await store.inbox.insertDeadLetter({ ...delivery("msg_dead", BASE + 1), payload: { rawBody: "again" }, reason: "again" })).toBe(false);
      await store.inbox.insert(delivery("msg_live", BASE + 2));
      expect(await store.inbox.get("msg_dead")).toMatchObject({ payload: { rawBody: "not json" }, processedAt: BASE, deadLetterReason: "the body is not JSON" });
      const claimed = await store.inbox.claimUnprocessed({ limit: 10, leaseMs: 1000, now: BASE + 10, maxAttempts: 5 });
      expect(claimed.map((entry) => entry.hookId)).toEqual(["msg_live"]);
      expect(await store.inbox.countDeadLetters()).toBe(1);
    });

    it("makes an entry a dead letter, with its reason, at its last allowed failure, or at once when it cannot be read; counts it and never claims it again", async () => {
      await store.inbox.insert(delivery("msg_failing", BASE));
      await store.inbox.insert(delivery("msg_unreadable", BASE + 1));
      for (let attempt = 1; attempt < 3; attempt += 1) {
        expect(await store.inbox.markFailed("msg_failing", `upstream 503 (${attempt})`, { maxAttempts: 3, at: BASE + attempt })).toEqual({ deadLetter: false });
      }
      expect(await store.inbox.markFailed("msg_failing", "upstream 503 (3)", { maxAttempts: 3, at: BASE + 3 })).toEqual({ deadLetter: true });
      expect(await store.inbox.get("msg_failing")).toMatchObject({ attempts: 3, processedAt: BASE + 3, lastError: "upstream 503 (3)", deadLetterReason: "gave up after 3 attempts: upstream 503 (3)" });
      await store.inbox.markDeadLetter("msg_unreadable", "the appointment payload cannot be read", BASE + 4);
      expect(await store.inbox.get("msg_unreadable")).toMatchObject({ processedAt: BASE + 4, deadLetterReason: "the appointment payload cannot be read" });
      expect(await store.inbox.countDeadLetters()).toBe(2);
      expect(await store.inbox.backlog()).toEqual({ unprocessed: 0, oldestReceivedAt: null });
      expect(await store.inbox.claimUnprocessed({ limit: 10, leaseMs: 1000, now: BASE + 10_000, maxAttempts: 5 })).toEqual([]);
    });

    it("turns entries an earlier version left unprocessed after every attempt into dead letters, with their last error", async () => {
      await store.inbox.insert(delivery("msg_stuck", BASE));
      await store.inbox.insert(delivery("msg_retrying", BASE + 1));
      const { db } = handle;
      await db.update(tables.webhookInbox).set({ attempts: 5, lastError: "store: updatedAt must be an ISO 8601 timestamp" }).where(eq(tables.webhookInbox.hookId, "msg_stuck"));
      await db.update(tables.webhookInbox).set({ attempts: 2, lastError: "upstream 503" }).where(eq(tables.webhookInbox.hookId, "msg_retrying"));
      expect(await store.inbox.deadLetterExhausted({ maxAttempts: 5, at: BASE + 50 })).toBe(1);
      expect(await store.inbox.get("msg_stuck")).toMatchObject({ processedAt: BASE + 50, deadLetterReason: "gave up after 5 attempts: store: updatedAt must be an ISO 8601 timestamp" });
      expect(await store.inbox.get("msg_retrying")).toMatchObject({ processedAt: null, deadLetterReason: null });
      expect(await store.inbox.deadLetterExhausted({ maxAttempts: 5, at: BASE + 60 })).toBe(0);
    });

    it("reports the backlog: how many entries are unprocessed and when the oldest arrived, dead letters and processed ones left out", async () => {
      expect(await store.inbox.backlog()).toEqual({ unprocessed: 0, oldestReceivedAt: null });
      await store.inbox.insert(delivery("msg_new", BASE + 2000));
      await store.inbox.insert(delivery("msg_old", BASE + 1000));
      await store.inbox.insert(delivery("msg_done", BASE));
      await store.inbox.markProcessed("msg_done", BASE + 10);
      await store.inbox.insertDeadLetter({ ...delivery("msg_dead", BASE - 5000), reason: "the body is not JSON" });
      expect(await store.inbox.backlog()).toEqual({ unprocessed: 2, oldestReceivedAt: BASE + 1000 });
    });

    it("lists unprocessed entries oldest first, up to the limit", async () => {
      await store.inbox.insert(delivery("msg_c", BASE + 2000));
      await store.inbox.insert(delivery("msg_a", BASE));
      await store.inbox.insert(delivery("msg_b", BASE + 1000));
      await store.inbox.insert(delivery("msg_d", BASE + 3000));
      expect((await store.inbox.listUnprocessed(10)).map((entry) => entry.hookId)).toEqual(["msg_a", "msg_b", "msg_c", "msg_d"]);
      expect((await store.inbox.listUnprocessed(2)).map((entry) => entry.hookId)).toEqual(["msg_a", "msg_b"]);
    });

    it("takes a processed entry off the list and keeps a failed one on it", async () => {
      await store.inbox.insert(delivery("msg_a", BASE));
      await store.inbox.insert(delivery("msg_b", BASE + 1));
      expect(await store.inbox.markFailed("msg_a", "upstream 503", { maxAttempts: 5, at: BASE + 5 })).toEqual({ deadLetter: false });
      expect(await store.inbox.markFailed("msg_a", "x".repeat(5000), { maxAttempts: 5, at: BASE + 6 })).toEqual({ deadLetter: false });
      await store.inbox.markProcessed("msg_b", BASE + 10);

      const unprocessed = await store.inbox.listUnprocessed(10);
      expect(unprocessed.map((entry) => entry.hookId)).toEqual(["msg_a"]);
      expect(unprocessed[0]?.attempts).toBe(2);
      expect(unprocessed[0]?.lastError).toHaveLength(2000);
      expect(await store.inbox.get("msg_b")).toMatchObject({ processedAt: BASE + 10, attempts: 1, lastError: null });

      await store.inbox.markProcessed("msg_a", BASE + 20);
      expect(await store.inbox.listUnprocessed(10)).toEqual([]);
      expect(await store.inbox.get("msg_a")).toMatchObject({ processedAt: BASE + 20, attempts: 3 });
    });
  });

  describe("appointment states", () => {
    it("applies the first state with no previous one", async () => {
      expect(await store.appointmentStates.applyIfNewer(appointment())).toEqual({ applied: true, previous: null });
      expect(await store.appointmentStates.get(ORG_A, "appt-1")).toEqual(appointment());
      expect(await store.appointmentStates.get(ORG_B, "appt-1")).toBeNull();
    });

    it("applies a newer state and refuses an older one, reporting what was stored", async () => {
      await store.appointmentStates.applyIfNewer(appointment());
      const newer = appointment({ status: "arrived", updatedAt: iso(BASE + 1000) });
      expect(await store.appointmentStates.applyIfNewer(newer)).toEqual({ applied: true, previous: appointment() });
      expect(await store.appointmentStates.applyIfNewer(appointment({ status: "confirmed", updatedAt: iso(BASE + 500) }))).toEqual({
        applied: false,
        previous: newer,
      });
      expect(await store.appointmentStates.get(ORG_A, "appt-1")).toEqual(newer);
    });

    it("never lets a stale confirmed re-open a cancelled appointment", async () => {
      const cancelled = appointment({ status: "cancelled", updatedAt: iso(BASE + 2000) });
      await store.appointmentStates.applyIfNewer(cancelled);
      expect((await store.appointmentStates.applyIfNewer(appointment({ status: "confirmed", updatedAt: iso(BASE + 1000) }))).applied).toBe(false);
      expect((await store.appointmentStates.get(ORG_A, "appt-1"))?.status).toBe("cancelled");
    });

    it("on a tie lets a cancellation or no-show win, and nothing else", async () => {
      await store.appointmentStates.applyIfNewer(appointment({ status: "confirmed" }));
      expect((await store.appointmentStates.applyIfNewer(appointment({ status: "cancelled" }))).applied).toBe(true);
      expect((await store.appointmentStates.applyIfNewer(appointment({ status: "confirmed" }))).applied).toBe(false);
      expect((await store.appointmentStates.applyIfNewer(appointment({ status: "arrived" }))).applied).toBe(false);
      expect((await store.appointmentStates.get(ORG_A, "appt-1"))?.status).toBe("cancelled");

      await store.appointmentStates.applyIfNewer(appointment({ appointmentId: "appt-2", status: "arrived" }));
      expect((await store.appointmentStates.applyIfNewer(appointment({ appointmentId: "appt-2", status: "no_show" }))).applied).toBe(true);
    });

    it("orders states by the instant their updatedAt names, to the microsecond, however it is written", async () => {
      await store.appointmentStates.applyIfNewer(appointment({ status: "confirmed", updatedAt: "2026-03-01T10:00:00.123456Z" }));
      // The same millisecond, 56 µs earlier, in the seeds' database-style text: older.
      expect((await store.appointmentStates.applyIfNewer(appointment({ status: "arrived", updatedAt: "2026-03-01 10:00:00.1234+00" }))).applied).toBe(false);
      // 1 µs later, with an offset: newer.
      expect((await store.appointmentStates.applyIfNewer(appointment({ status: "arrived", updatedAt: "2026-03-01T05:00:00.123457-05:00" }))).applied).toBe(true);
      // No fraction at all: a second later.
      expect((await store.appointmentStates.applyIfNewer(appointment({ status: "completed", updatedAt: "2026-03-01T10:00:01Z" }))).applied).toBe(true);
      expect((await store.appointmentStates.get(ORG_A, "appt-1"))?.status).toBe("completed");
    });

    it("lists an organization's states by scheduled start", async () => {
      await store.appointmentStates.applyIfNewer(appointment({ appointmentId: "appt-late", scheduledStartDate: "2026-03-12T14:00:00.000Z" }));
      await store.appointmentStates.applyIfNewer(appointment({ appointmentId: "appt-early", scheduledStartDate: "2026-03-09T14:00:00.000Z" }));
      await store.appointmentStates.applyIfNewer(appointment({ organizationId: ORG_B, appointmentId: "appt-other" }));
      expect((await store.appointmentStates.list(ORG_A)).map((state) => state.appointmentId)).toEqual(["appt-early", "appt-late"]);
      expect((await store.appointmentStates.list(ORG_B)).map((state) => state.appointmentId)).toEqual(["appt-other"]);
    });

    it("ends at the latest state under concurrent, shuffled updates, with a consistent chain of previous states", async () => {
      const rounds = Array.from({ length: 4 }, (_, round) => {
        const appointmentId = `appt-race-${round}`;
        const updates = Array.from({ length: 10 }, (_, i) =>
          appointment({ appointmentId, status: ["confirmed", "arrived", "cancelled", "completed"][i % 4] ?? "confirmed", updatedAt: iso(BASE + i * 1000) }),
        );
        // The latest instant twice: the cancellation must win whatever the order.
        const last = iso(BASE + 10_000);
        updates.push(appointment({ appointmentId, status: "confirmed", updatedAt: last }), appointment({ appointmentId, status: "cancelled", updatedAt: last }));
        return { appointmentId, updates: shuffled(updates, round + 1) };
      });

      const results = await Promise.all(
        rounds.map(async ({ updates }) => Promise.all(updates.map(async (update) => ({ update, result: await store.appointmentStates.applyIfNewer(update) })))),
      );

      for (const [index, { appointmentId }] of rounds.entries()) {
        expect(await store.appointmentStates.get(ORG_A, appointmentId)).toMatchObject({ status: "cancelled", updatedAt: iso(BASE + 10_000) });

        // Every applied write replaced exactly the state the one before it wrote.
        const key = (state: AppointmentState) => `${state.updatedAt}/${state.status}`;
        const applied = (results[index] ?? []).filter(({ result }) => result.applied);
        expect(applied.filter(({ result }) => result.previous === null)).toHaveLength(1);
        const replaced = applied.flatMap(({ result }) => (result.previous === null ? [] : [key(result.previous)]));
        expect(new Set(replaced).size).toBe(replaced.length);
        const writtenKeys = new Set(applied.map(({ update }) => key(update)));
        for (const previous of replaced) expect(writtenKeys.has(previous)).toBe(true);
      }
    });
  });

  describe("used token ids", () => {
    it("remembers a jti once: a replay is refused", async () => {
      expect(await store.usedTokenIds.remember("jti-1", BASE + 300_000)).toBe(true);
      expect(await store.usedTokenIds.remember("jti-1", BASE + 300_000)).toBe(false);
      expect(await store.usedTokenIds.remember("jti-2", BASE + 300_000)).toBe(true);
    });

    it("purges only the expired ones", async () => {
      await store.usedTokenIds.remember("jti-old", BASE - 1);
      await store.usedTokenIds.remember("jti-now", BASE);
      await store.usedTokenIds.remember("jti-live", BASE + 1);
      expect(await store.usedTokenIds.purgeExpired(BASE)).toBe(2);
      expect(await store.usedTokenIds.purgeExpired(BASE)).toBe(0);
      expect(await store.usedTokenIds.remember("jti-live", BASE + 1)).toBe(false);
      expect(await store.usedTokenIds.remember("jti-old", BASE + 300_000)).toBe(true);
    });

    it("lets exactly one of many concurrent uses of a jti through", async () => {
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => store.usedTokenIds.remember("jti-race", BASE)));
      expect(outcomes.filter(Boolean)).toHaveLength(1);
    });
  });

  describe("note drafts", () => {
    const draft = {
      organizationId: ORG_A,
      userId: "user-1",
      noteId: "note-1",
      fields: { subjective: "Headache since Tuesday", plan: "" },
      baseline: { subjective: "Headache", plan: "" },
      noteVersion: 3,
      updatedAt: BASE,
    };

    it("puts, reads and deletes a draft", async () => {
      expect(await store.noteDrafts.get(ORG_A, "user-1", "note-1")).toBeNull();
      expect(await store.noteDrafts.put(draft)).toEqual(draft);
      expect(await store.noteDrafts.get(ORG_A, "user-1", "note-1")).toEqual(draft);
      expect(await store.noteDrafts.delete(ORG_A, "user-1", "note-1")).toBe(true);
      expect(await store.noteDrafts.delete(ORG_A, "user-1", "note-1")).toBe(false);
      expect(await store.noteDrafts.get(ORG_A, "user-1", "note-1")).toBeNull();
    });

    it("merges a put into the stored draft field by field: a field put again takes the new text, the others stay", async () => {
      await store.noteDrafts.put(draft);
      const otherTab = { ...draft, fields: { assessment: "Tension headache", plan: "Rest" }, baseline: { assessment: "", plan: "Fluids" }, noteVersion: null, updatedAt: BASE + 1 };
      const merged = { ...otherTab, fields: { subjective: "Headache since Tuesday", assessment: "Tension headache", plan: "Rest" }, baseline: { subjective: "Headache", assessment: "", plan: "Fluids" } };
      expect(await store.noteDrafts.put(otherTab)).toEqual(merged);
      expect(await store.noteDrafts.get(ORG_A, "user-1", "note-1")).toEqual(merged);
    });

    it("lets a released field go only while it still holds the text released, and drops the row once no field is left", async () => {
      await store.noteDrafts.put({ ...draft, fields: { subjective: "Headache since Tuesday", plan: "Rest" }, baseline: { subjective: "Headache", plan: "" } });
      // One tab lets go of both; the other tab has since typed on in plan.
      await store.noteDrafts.put({ ...draft, fields: { plan: "Rest, fluids" }, baseline: { plan: "" }, updatedAt: BASE + 1 });
      const kept = await store.noteDrafts.put({ ...draft, fields: {}, baseline: {}, updatedAt: BASE + 2 }, { subjective: "Headache since Tuesday", plan: "Rest" });
      expect(kept).toMatchObject({ fields: { plan: "Rest, fluids" }, baseline: { plan: "" } });
      expect(await store.noteDrafts.get(ORG_A, "user-1", "note-1")).toMatchObject({ fields: { plan: "Rest, fluids" }, baseline: { plan: "" } });
      expect(await store.noteDrafts.put({ ...draft, fields: {}, baseline: {}, updatedAt: BASE + 3 }, { plan: "Rest, fluids" })).toBeNull();
      expect(await store.noteDrafts.get(ORG_A, "user-1", "note-1")).toBeNull();
      // Releasing what is not stored stores nothing.
      expect(await store.noteDrafts.put({ ...draft, fields: {}, baseline: {}, updatedAt: BASE + 4 }, { plan: "Rest" })).toBeNull();
      expect(await store.noteDrafts.get(ORG_A, "user-1", "note-1")).toBeNull();
    });

    it("scopes drafts by organization, user and note", async () => {
      await store.noteDrafts.put(draft);
      expect(await store.noteDrafts.get(ORG_A, "user-2", "note-1")).toBeNull();
      expect(await store.noteDrafts.get(ORG_B, "user-1", "note-1")).toBeNull();
      expect(await store.noteDrafts.get(ORG_A, "user-1", "note-2")).toBeNull();
      expect(await store.noteDrafts.delete(ORG_A, "user-2", "note-1")).toBe(false);
      await store.noteDrafts.put({ ...draft, userId: "user-2", fields: { plan: "Rest" } });
      expect((await store.noteDrafts.get(ORG_A, "user-1", "note-1"))?.fields).toEqual(draft.fields);
      expect((await store.noteDrafts.get(ORG_A, "user-2", "note-1"))?.fields).toEqual({ plan: "Rest" });
    });

    it("clean-up after a save deletes or replaces the draft it read, while it is still that draft", async () => {
      await store.noteDrafts.put(draft);
      const read = await store.noteDrafts.get(ORG_A, "user-1", "note-1");
      if (!read) throw new Error("no draft read");
      const rest = { ...read, fields: { plan: "" }, baseline: { plan: "" }, updatedAt: BASE + 5 };
      expect(await store.noteDrafts.replaceIfUnchanged(read, rest)).toBe(true);
      expect(await store.noteDrafts.get(ORG_A, "user-1", "note-1")).toEqual(rest);

      expect(await store.noteDrafts.replaceIfUnchanged(rest, null)).toBe(true);
      expect(await store.noteDrafts.get(ORG_A, "user-1", "note-1")).toBeNull();
      // Nothing left to clean up: no draft appears.
      expect(await store.noteDrafts.replaceIfUnchanged(rest, rest)).toBe(false);
      expect(await store.noteDrafts.get(ORG_A, "user-1", "note-1")).toBeNull();

      const unversioned = { ...draft, noteId: "note-2", noteVersion: null };
      await store.noteDrafts.put(unversioned);
      expect(await store.noteDrafts.replaceIfUnchanged(unversioned, null)).toBe(true);
      expect(await store.noteDrafts.get(ORG_A, "user-1", "note-2")).toBeNull();
    });

    it.each([
      ["deletes", null],
      ["replaces", { fields: { plan: "" }, baseline: { plan: "" } }],
    ])("clean-up that %s the draft it read keeps an autosave written between the read and the clean-up, even within the same millisecond", async (_, left) => {
      await store.noteDrafts.put(draft);
      const read = await store.noteDrafts.get(ORG_A, "user-1", "note-1");
      if (!read) throw new Error("no draft read");
      // The autosave lands after the read: newer text, same instant.
      const autosaved = { ...draft, fields: { ...draft.fields, subjective: "Headache since Tuesday, worse at night" } };
      await store.noteDrafts.put(autosaved);
      const next = left === null ? null : { ...read, ...left, updatedAt: BASE + 5 };
      expect(await store.noteDrafts.replaceIfUnchanged(read, next)).toBe(false);
      expect(await store.noteDrafts.get(ORG_A, "user-1", "note-1")).toEqual(autosaved);
      // A new baseline or note version alone is newer too.
      const rebased = { ...autosaved, baseline: { ...autosaved.baseline, subjective: "Headache since Tuesday" } };
      await store.noteDrafts.put(rebased);
      expect(await store.noteDrafts.replaceIfUnchanged(autosaved, next)).toBe(false);
      const reversioned = { ...rebased, noteVersion: 4 };
      await store.noteDrafts.put(reversioned);
      expect(await store.noteDrafts.replaceIfUnchanged(rebased, next)).toBe(false);
      expect(await store.noteDrafts.get(ORG_A, "user-1", "note-1")).toEqual(reversioned);
    });

    it("clean-up matches the draft read whatever the order of its fields", async () => {
      await store.noteDrafts.put(draft);
      const reordered = { ...draft, fields: { plan: draft.fields.plan, subjective: draft.fields.subjective }, baseline: { plan: draft.baseline.plan, subjective: draft.baseline.subjective } };
      expect(await store.noteDrafts.replaceIfUnchanged(reordered, null)).toBe(true);
      expect(await store.noteDrafts.get(ORG_A, "user-1", "note-1")).toBeNull();
    });

    it("clean-up touches only its own organization, user and note", async () => {
      await store.noteDrafts.put(draft);
      for (const other of [{ organizationId: ORG_B }, { userId: "user-2" }, { noteId: "note-2" }]) {
        expect(await store.noteDrafts.replaceIfUnchanged({ ...draft, ...other }, null)).toBe(false);
      }
      expect(await store.noteDrafts.get(ORG_A, "user-1", "note-1")).toEqual(draft);
    });
  });

  describe("created tasks", () => {
    const task = (overrides: Partial<{ organizationId: string; noteId: string; taskId: string; createdAt: number }>) => ({
      organizationId: ORG_A,
      noteId: "note-1",
      taskId: "task-1",
      createdBy: "prv_00000000000000000000000000000001",
      task: { id: overrides.taskId ?? "task-1", description: "Call back with labs", assignees: ["a", "b"] },
      createdAt: BASE,
      ...overrides,
    });

    it("lists a note's tasks in creation order, scoped by organization", async () => {
      await store.tasks.insert(task({ taskId: "task-2", createdAt: BASE + 2 }));
      await store.tasks.insert(task({ taskId: "task-1", createdAt: BASE + 1 }));
      await store.tasks.insert(task({ taskId: "task-3", noteId: "note-2" }));
      await store.tasks.insert(task({ taskId: "task-4", organizationId: ORG_B }));

      const listed = await store.tasks.listByNote(ORG_A, "note-1");
      expect(listed.map((row) => row.taskId)).toEqual(["task-1", "task-2"]);
      expect(listed[0]).toEqual(task({ taskId: "task-1", createdAt: BASE + 1 }));
      expect(await store.tasks.listByNote(ORG_B, "note-2")).toEqual([]);
      expect((await store.tasks.listByNote(ORG_B, "note-1")).map((row) => row.taskId)).toEqual(["task-4"]);
    });

    it("keeps the first record when the same task is recorded twice", async () => {
      await store.tasks.insert(task({}));
      await store.tasks.insert({ ...task({}), createdBy: "someone-else" });
      const listed = await store.tasks.listByNote(ORG_A, "note-1");
      expect(listed).toHaveLength(1);
      expect(listed[0]?.createdBy).toBe("prv_00000000000000000000000000000001");
    });
  });

  describe("write intents", () => {
    const intent = (overrides: Partial<{ id: string; organizationId: string; userId: string; subjectId: string; createdAt: number }>) => ({
      id: "11111111-1111-4111-8111-111111111111",
      organizationId: ORG_A,
      userId: "user-1",
      kind: "task" as const,
      subjectId: "note-1",
      request: { notes: "Call back with labs", assigneeIds: ["prv_1"] },
      createdAt: BASE,
      ...overrides,
    });

    it("records a write as pending and settles it once from pending or unknown, never after done", async () => {
      await store.writeIntents.record(intent({}));
      expect(await store.writeIntents.get(ORG_A, intent({}).id)).toEqual({ ...intent({}), outcome: "pending", resultId: null, settledAt: null });
      expect(await store.writeIntents.get(ORG_B, intent({}).id)).toBeNull();

      expect(await store.writeIntents.settle(ORG_A, intent({}).id, { outcome: "unknown", at: BASE + 1 })).toBe(true);
      expect(await store.writeIntents.settle(ORG_A, intent({}).id, { outcome: "done", resultId: "task-9", at: BASE + 2 })).toBe(true);
      expect(await store.writeIntents.settle(ORG_A, intent({}).id, { outcome: "refused", at: BASE + 3 })).toBe(false);
      expect(await store.writeIntents.get(ORG_A, intent({}).id)).toMatchObject({ outcome: "done", resultId: "task-9", settledAt: BASE + 2 });
    });

    it("sends a write whose outcome is unknown again once, as dated by the caller's read, and a refused resend dates it back", async () => {
      await store.writeIntents.record(intent({}));
      await store.writeIntents.settle(ORG_A, intent({}).id, { outcome: "unknown", resultId: "task-9", at: BASE + 1 });

      const resent = await store.writeIntents.resend(ORG_A, intent({}).id, { sentAt: BASE, at: BASE + 10 });
      expect(resent).toMatchObject({ outcome: "pending", resultId: "task-9", createdAt: BASE + 10, settledAt: null });
      // Another tab read it before that resend: its resend is not made.
      expect(await store.writeIntents.resend(ORG_A, intent({}).id, { sentAt: BASE, at: BASE + 11 })).toBeNull();
      expect(await store.writeIntents.resend(ORG_B, intent({}).id, { sentAt: BASE + 10, at: BASE + 12 })).toBeNull();

      expect(await store.writeIntents.settle(ORG_A, intent({}).id, { outcome: "unknown", resultId: "task-9", at: BASE + 12, sentAt: BASE })).toBe(true);
      expect(await store.writeIntents.get(ORG_A, intent({}).id)).toMatchObject({ outcome: "unknown", resultId: "task-9", createdAt: BASE, settledAt: BASE + 12 });
      await store.writeIntents.settle(ORG_A, intent({}).id, { outcome: "done", resultId: "task-9", at: BASE + 13 });
      expect(await store.writeIntents.resend(ORG_A, intent({}).id, { sentAt: BASE, at: BASE + 14 })).toBeNull();
    });

    it("lists the unsettled writes of one kind, narrowed to a user or a subject, oldest first", async () => {
      const second = intent({ id: "22222222-2222-4222-8222-222222222222", createdAt: BASE + 5 });
      const colleagues = intent({ id: "33333333-3333-4333-8333-333333333333", userId: "user-2", subjectId: "note-2" });
      const settled = intent({ id: "44444444-4444-4444-8444-444444444444" });
      for (const row of [second, intent({}), colleagues, settled, intent({ id: "55555555-5555-4555-8555-555555555555", organizationId: ORG_B })]) await store.writeIntents.record(row);
      await store.writeIntents.settle(ORG_A, settled.id, { outcome: "refused", at: BASE });
      await store.writeIntents.settle(ORG_A, second.id, { outcome: "unknown", at: BASE + 6 });

      const ids = (rows: { id: string }[]) => rows.map((row) => row.id);
      expect(ids(await store.writeIntents.listUnsettled(ORG_A, "task"))).toEqual([intent({}).id, colleagues.id, second.id]);
      expect(ids(await store.writeIntents.listUnsettled(ORG_A, "task", { userId: "user-1" }))).toEqual([intent({}).id, second.id]);
      expect(ids(await store.writeIntents.listUnsettled(ORG_A, "task", { subjectId: "note-2" }))).toEqual([colleagues.id]);
      expect(await store.writeIntents.listUnsettled(ORG_A, "hold")).toEqual([]);
      expect(await store.writeIntents.purgeCreatedBefore(BASE + 1)).toBe(4);
      expect(ids(await store.writeIntents.listUnsettled(ORG_A, "task"))).toEqual([second.id]);
    });

    it("lists the writes still pending that were recorded in a span, in every organization, oldest first", async () => {
      const later = intent({ id: "22222222-2222-4222-8222-222222222222", createdAt: BASE + 5 });
      const otherOrganization = intent({ id: "33333333-3333-4333-8333-333333333333", organizationId: ORG_B, createdAt: BASE + 1 });
      const settled = intent({ id: "44444444-4444-4444-8444-444444444444", createdAt: BASE + 2 });
      const atTheEnd = intent({ id: "55555555-5555-4555-8555-555555555555", createdAt: BASE + 10 });
      for (const row of [later, intent({}), otherOrganization, settled, atTheEnd]) await store.writeIntents.record(row);
      await store.writeIntents.settle(ORG_A, settled.id, { outcome: "unknown", at: BASE + 3 });
      const ids = (rows: { id: string }[]) => rows.map((row) => row.id);
      expect(ids(await store.writeIntents.listPendingRecordedBetween(BASE, BASE + 10))).toEqual([intent({}).id, otherOrganization.id, later.id]);
      expect(ids(await store.writeIntents.listPendingRecordedBetween(BASE + 10, BASE + 11))).toEqual([atTheEnd.id]);
    });
  });

  describe("slot holds", () => {
    const holdIds = (holds: StoredSlotHold[]) => holds.map((hold) => hold.holdId);

    it("stores a hold and reads it back whole, a null patient included", async () => {
      await store.holds.insert(slotHold());
      await store.holds.insert(slotHold({ holdId: "hold-2", patientId: null, isNewPatient: true, slotLengthMinutes: 30 }));
      expect(await store.holds.get(ORG_A, slotHold().holdId)).toEqual(slotHold());
      expect(await store.holds.get(ORG_A, "hold-2")).toEqual(slotHold({ holdId: "hold-2", patientId: null, isNewPatient: true, slotLengthMinutes: 30 }));
      expect(await store.holds.get(ORG_A, "hold-unknown")).toBeNull();
    });

    it("lists and counts only the user's own holds in the organization", async () => {
      await store.holds.insert(slotHold({ holdId: "mine" }));
      await store.holds.insert(slotHold({ holdId: "colleague", userId: "user-2" }));
      await store.holds.insert(slotHold({ holdId: "other-org", organizationId: ORG_B }));
      expect(holdIds(await store.holds.listActive(ORG_A, "user-1", BASE))).toEqual(["mine"]);
      expect(await store.holds.countActive(ORG_A, "user-1", BASE)).toBe(1);
      expect(holdIds(await store.holds.listActive(ORG_A, "user-2", BASE))).toEqual(["colleague"]);
      expect(holdIds(await store.holds.listActive(ORG_B, "user-1", BASE))).toEqual(["other-org"]);
      expect(await store.holds.countActive(ORG_B, "user-2", BASE)).toBe(0);
      // The key is the organization and the hold: the same id in another organization is another hold.
      expect(await store.holds.get(ORG_B, "mine")).toBeNull();
    });

    it("records at most the limit of a user's active holds, however many arrive at once", async () => {
      await store.holds.insert(slotHold({ holdId: "expired", expiresAt: BASE }));
      await store.holds.insert(slotHold({ holdId: "colleague", userId: "user-2" }));
      const attempts = Array.from({ length: 8 }, (_, index) => store.holds.insertWithinLimit(slotHold({ holdId: `at-once-${index}` }), 3, BASE));
      const recorded = await Promise.all(attempts);
      expect(recorded.filter(Boolean)).toHaveLength(3);
      expect(await store.holds.countActive(ORG_A, "user-1", BASE)).toBe(3);
      // The refused were not written; the colleague's and the expired hold are not the user's active ones.
      expect((await store.holds.listActive(ORG_A, "user-1", BASE)).every((hold) => hold.holdId.startsWith("at-once-"))).toBe(true);
      expect(await store.holds.insertWithinLimit(slotHold({ holdId: "colleague-2", userId: "user-2" }), 3, BASE)).toBe(true);
    });

    it("treats a hold as expired from the instant of its expiry on", async () => {
      const expiresAt = BASE + 600_000;
      await store.holds.insert(slotHold({ expiresAt }));
      expect(await store.holds.countActive(ORG_A, "user-1", expiresAt - 1)).toBe(1);
      expect(await store.holds.listActive(ORG_A, "user-1", expiresAt - 1)).toHaveLength(1);
      expect(await store.holds.countActive(ORG_A, "user-1", expiresAt)).toBe(0);
      expect(await store.holds.listActive(ORG_A, "user-1", expiresAt)).toEqual([]);
      // Still there for the owner's release until purged.
      expect(await store.holds.get(ORG_A, slotHold().holdId)).not.toBeNull();
    });

    it("lists the soonest to expire first, then the earliest held", async () => {
      const holds = [
        slotHold({ holdId: "late", expiresAt: BASE + 900_000, heldAt: BASE + 300_000 }),
        slotHold({ holdId: "tie-held-later", expiresAt: BASE + 600_000, heldAt: BASE + 2 }),
        slotHold({ holdId: "tie-held-first", expiresAt: BASE + 600_000, heldAt: BASE + 1 }),
        slotHold({ holdId: "soon", expiresAt: BASE + 60_000, heldAt: BASE + 5 }),
      ];
      for (const hold of shuffled(holds, 7)) await store.holds.insert(hold);
      expect(holdIds(await store.holds.listActive(ORG_A, "user-1", BASE))).toEqual(["soon", "tie-held-first", "tie-held-later", "late"]);
    });

    it("deletes once: a second delete finds nothing", async () => {
      await store.holds.insert(slotHold());
      expect(await store.holds.delete(ORG_B, slotHold().holdId)).toBe(false);
      expect(await store.holds.delete(ORG_A, slotHold().holdId)).toBe(true);
      expect(await store.holds.delete(ORG_A, slotHold().holdId)).toBe(false);
      expect(await store.holds.get(ORG_A, slotHold().holdId)).toBeNull();
    });

    it("refuses a second record of the same hold in the organization", async () => {
      await store.holds.insert(slotHold());
      await expect(store.holds.insert(slotHold({ userId: "user-2" }))).rejects.toThrow();
      expect((await store.holds.get(ORG_A, slotHold().holdId))?.userId).toBe("user-1");
    });

    it("purges the expired holds of every organization, and only those", async () => {
      await store.holds.insert(slotHold({ holdId: "expired-before", expiresAt: BASE - 1 }));
      await store.holds.insert(slotHold({ holdId: "expired-now", organizationId: ORG_B, expiresAt: BASE }));
      await store.holds.insert(slotHold({ holdId: "active", expiresAt: BASE + 1 }));
      expect(await store.holds.purgeExpired(BASE)).toBe(2);
      expect(await store.holds.purgeExpired(BASE)).toBe(0);
      expect(await store.holds.get(ORG_A, "expired-before")).toBeNull();
      expect(await store.holds.get(ORG_B, "expired-now")).toBeNull();
      expect(holdIds(await store.holds.listActive(ORG_A, "user-1", BASE))).toEqual(["active"]);
    });
  });

  describe("note states", () => {
    it("records a signed note once: the first word stands, per organization", async () => {
      expect(await store.noteStates.get(ORG_A, "note-1")).toBeNull();
      expect(await store.noteStates.recordSigned(ORG_A, "note-1", "write_conflict", BASE)).toBe(true);
      expect(await store.noteStates.recordSigned(ORG_A, "note-1", "read", BASE + 1000)).toBe(false);
      expect(await store.noteStates.get(ORG_A, "note-1")).toEqual({ organizationId: ORG_A, noteId: "note-1", status: "signed", source: "write_conflict", learnedAt: BASE });
      expect(await store.noteStates.get(ORG_B, "note-1")).toBeNull();
    });
  });

  describe("note views", () => {
    const view = (overrides: Partial<NoteView> = {}): NoteView => ({
      organizationId: ORG_A,
      userId: "user-1",
      noteId: "note-1",
      fields: { subjectiveText: "Cough for 3 days", planText: "" },
      sectionDigests: { subjective: "a1", plan: "b2" },
      noteUpdatedAt: "2026-03-01T09:00:00.000Z",
      seenAt: BASE,
      ...overrides,
    });

    it("keeps each user's last view of a note, replacing the one before", async () => {
      await store.noteViews.put(view());
      await store.noteViews.put(view({ userId: "user-2", fields: {} }));
      await store.noteViews.put(view({ fields: { subjectiveText: "Cough for 4 days" }, sectionDigests: {}, noteUpdatedAt: null, seenAt: BASE + 10 }));
      expect(await store.noteViews.get(ORG_A, "user-1", "note-1")).toEqual(view({ fields: { subjectiveText: "Cough for 4 days" }, sectionDigests: {}, noteUpdatedAt: null, seenAt: BASE + 10 }));
      expect(await store.noteViews.get(ORG_A, "user-2", "note-1")).toEqual(view({ userId: "user-2", fields: {} }));
      expect(await store.noteViews.get(ORG_B, "user-1", "note-1")).toBeNull();
    });

    it("purges views last seen before a time", async () => {
      await store.noteViews.put(view({ noteId: "old", seenAt: BASE }));
      await store.noteViews.put(view({ noteId: "new", seenAt: BASE + 5 }));
      expect(await store.noteViews.purgeSeenBefore(BASE + 5)).toBe(1);
      expect(await store.noteViews.get(ORG_A, "user-1", "old")).toBeNull();
      expect(await store.noteViews.get(ORG_A, "user-1", "new")).not.toBeNull();
    });
  });

  describe("an account's rows from before person keys (ADR 0024)", () => {
    const PERSON = "provider:9c1a6f98-f0fb-4012-a800-8dcbd76bd1c9";
    const ACCOUNT = "account-sub-1";
    const draft = (userId: string, overrides: Partial<NoteDraft> = {}): NoteDraft => ({
      organizationId: ORG_A,
      userId,
      noteId: "note-1",
      fields: { subjectiveText: "Cough" },
      baseline: { subjectiveText: "" },
      noteVersion: 3,
      updatedAt: BASE,
      ...overrides,
    });
    const view = (userId: string, overrides: Partial<NoteView> = {}): NoteView => ({
      organizationId: ORG_A,
      userId,
      noteId: "note-1",
      fields: { subjectiveText: "Cough" },
      sectionDigests: { subjective: "a1" },
      noteUpdatedAt: null,
      seenAt: BASE,
      ...overrides,
    });

    it("moves the account's holds, drafts and views in the organization to the person, and nobody else's", async () => {
      await store.holds.insert(slotHold({ userId: ACCOUNT }));
      await store.holds.insert(slotHold({ holdId: "1b6c1f7e-3d2a-4e59-8f10-2a3b4c5d6e7f", userId: ACCOUNT, organizationId: ORG_B }));
      await store.holds.insert(slotHold({ holdId: "2b6c1f7e-3d2a-4e59-8f10-2a3b4c5d6e7f", userId: "account-sub-2" }));
      await store.noteDrafts.put(draft(ACCOUNT));
      await store.noteViews.put(view(ACCOUNT));

      expect(await store.accountRows.adopt(ORG_A, ACCOUNT, PERSON)).toEqual({ holds: 1, drafts: 1, views: 1 });

      expect((await store.holds.listActive(ORG_A, PERSON, BASE)).map((hold) => hold.holdId)).toEqual([slotHold().holdId]);
      expect(await store.holds.countActive(ORG_A, ACCOUNT, BASE)).toBe(0);
      expect(await store.holds.countActive(ORG_A, "account-sub-2", BASE)).toBe(1);
      // Another organization's rows wait for the account to act there: the same account may be another provider in it.
      expect(await store.holds.countActive(ORG_B, ACCOUNT, BASE)).toBe(1);
      expect(await store.noteDrafts.get(ORG_A, PERSON, "note-1")).toEqual(draft(PERSON));
      expect(await store.noteDrafts.get(ORG_A, ACCOUNT, "note-1")).toBeNull();
      expect(await store.noteViews.get(ORG_A, PERSON, "note-1")).toEqual(view(PERSON));
      expect(await store.noteViews.get(ORG_A, ACCOUNT, "note-1")).toBeNull();
      // Done once: the next time finds nothing to move.
      expect(await store.accountRows.adopt(ORG_A, ACCOUNT, PERSON)).toEqual({ holds: 0, drafts: 0, views: 0 });
    });

    it("makes two drafts of one note one, losing no field: the newer text where both typed the same field", async () => {
      await store.noteDrafts.put(draft(PERSON, { fields: { subjectiveText: "Cough, newer", planText: "Rest" }, baseline: { subjectiveText: "", planText: "" }, noteVersion: 4, updatedAt: BASE + 10 }));
      await store.noteDrafts.put(draft(ACCOUNT, { fields: { subjectiveText: "Cough, older", assessmentText: "Viral" }, baseline: { subjectiveText: "", assessmentText: "Unclear" }, noteVersion: 3, updatedAt: BASE }));
      await store.accountRows.adopt(ORG_A, ACCOUNT, PERSON);
      expect(await store.noteDrafts.get(ORG_A, PERSON, "note-1")).toEqual(
        draft(PERSON, {
          fields: { subjectiveText: "Cough, newer", planText: "Rest", assessmentText: "Viral" },
          baseline: { subjectiveText: "", planText: "", assessmentText: "Unclear" },
          noteVersion: 4,
          updatedAt: BASE + 10,
        }),
      );
      expect(await store.noteDrafts.get(ORG_A, ACCOUNT, "note-1")).toBeNull();

      // The account's draft newer: its text wins the field both have.
      await store.noteDrafts.put(draft(ACCOUNT, { fields: { subjectiveText: "Cough, newest" }, baseline: { subjectiveText: "" }, noteVersion: 5, updatedAt: BASE + 20 }));
      await store.accountRows.adopt(ORG_A, ACCOUNT, PERSON);
      expect(await store.noteDrafts.get(ORG_A, PERSON, "note-1")).toMatchObject({ fields: { subjectiveText: "Cough, newest", planText: "Rest", assessmentText: "Viral" }, noteVersion: 5, updatedAt: BASE + 20 });
    });

    it("keeps the newer of two views of one note", async () => {
      await store.noteViews.put(view(PERSON, { seenAt: BASE + 10, fields: { subjectiveText: "Seen inside" } }));
      await store.noteViews.put(view(ACCOUNT, { seenAt: BASE }));
      await store.noteViews.put(view(ACCOUNT, { noteId: "note-2", seenAt: BASE + 30, fields: { subjectiveText: "Seen outside" } }));
      await store.noteViews.put(view(PERSON, { noteId: "note-2", seenAt: BASE + 20 }));
      await store.accountRows.adopt(ORG_A, ACCOUNT, PERSON);
      expect(await store.noteViews.get(ORG_A, PERSON, "note-1")).toEqual(view(PERSON, { seenAt: BASE + 10, fields: { subjectiveText: "Seen inside" } }));
      expect(await store.noteViews.get(ORG_A, PERSON, "note-2")).toEqual(view(PERSON, { noteId: "note-2", seenAt: BASE + 30, fields: { subjectiveText: "Seen outside" } }));
      expect(await store.noteViews.get(ORG_A, ACCOUNT, "note-2")).toBeNull();
    });

    it("counts one person's holds per organization: one provider id in two organizations is two people", async () => {
      for (const [index, organizationId] of [ORG_A, ORG_A, ORG_B].entries()) {
        expect(await store.holds.insertWithinLimit(slotHold({ organizationId, userId: PERSON, holdId: `${index}b6c1f7e-3d2a-4e59-8f10-2a3b4c5d6e7f` }), 2, BASE)).toBe(true);
      }
      expect(await store.holds.insertWithinLimit(slotHold({ userId: PERSON, holdId: "9b6c1f7e-3d2a-4e59-8f10-2a3b4c5d6e7f" }), 2, BASE)).toBe(false);
      expect(await store.holds.countActive(ORG_B, PERSON, BASE)).toBe(1);
    });
  });

  describe("standalone sessions", () => {
    const session = (overrides: Partial<StoredStandaloneSession> = {}): StoredStandaloneSession => ({
      secretHash: "hash-1",
      sessionId: "session-1",
      userId: "user-1",
      profile: { displayName: "Dr. Ada Brooks", organizations: [] },
      selectedOrganizationId: null,
      sealedAccessToken: "sealed",
      userAgent: "Chromium on Linux",
      createdAt: BASE,
      expiresAt: BASE + 8 * 3600_000,
      verifiedAt: BASE,
      revokedAt: null,
      ...overrides,
    });

    it("finds a session by its secret's hash, and records what the service said and the organization picked", async () => {
      await store.standaloneSessions.insert(session());
      expect(await store.standaloneSessions.findBySecretHash("hash-1")).toEqual(session());
      expect(await store.standaloneSessions.findBySecretHash("hash-2")).toBeNull();
      expect(await store.standaloneSessions.recordVerified("session-1", { displayName: "Dr. Ada Brooks-Lee" }, BASE + 60_000)).toBe(true);
      expect(await store.standaloneSessions.selectOrganization("session-1", ORG_A)).toBe(true);
      expect(await store.standaloneSessions.findBySecretHash("hash-1")).toEqual(
        session({ profile: { displayName: "Dr. Ada Brooks-Lee" }, verifiedAt: BASE + 60_000, selectedOrganizationId: ORG_A }),
      );
    });

    it("revokes one of the user's own sessions only, and a revoked session takes no more changes", async () => {
      await store.standaloneSessions.insert(session());
      expect(await store.standaloneSessions.revoke("user-2", "session-1", BASE + 1)).toBe(false);
      expect(await store.standaloneSessions.revoke("user-1", "session-1", BASE + 1)).toBe(true);
      expect(await store.standaloneSessions.revoke("user-1", "session-1", BASE + 2)).toBe(false);
      expect((await store.standaloneSessions.findBySecretHash("hash-1"))?.revokedAt).toBe(BASE + 1);
      expect(await store.standaloneSessions.recordVerified("session-1", {}, BASE + 3)).toBe(false);
      expect(await store.standaloneSessions.selectOrganization("session-1", ORG_A)).toBe(false);
    });

    it("lists a user's live sessions newest first and revokes all of them but one", async () => {
      await store.standaloneSessions.insert(session());
      await store.standaloneSessions.insert(session({ secretHash: "hash-2", sessionId: "session-2", createdAt: BASE + 10 }));
      await store.standaloneSessions.insert(session({ secretHash: "hash-3", sessionId: "session-3", createdAt: BASE + 20, expiresAt: BASE + 30 }));
      await store.standaloneSessions.insert(session({ secretHash: "hash-4", sessionId: "session-4", userId: "user-2" }));
      expect((await store.standaloneSessions.listLive("user-1", BASE + 30)).map((live) => live.sessionId)).toEqual(["session-2", "session-1"]);
      expect(await store.standaloneSessions.revokeAllOfUser("user-1", BASE + 40, "session-2")).toBe(2);
      expect((await store.standaloneSessions.listLive("user-1", BASE + 41)).map((live) => live.sessionId)).toEqual(["session-2"]);
      expect((await store.standaloneSessions.listLive("user-2", BASE + 41)).map((live) => live.sessionId)).toEqual(["session-4"]);
    });

    it("purges sessions that ended (expired or revoked) before a time, and keeps live ones", async () => {
      await store.standaloneSessions.insert(session({ expiresAt: BASE + 10 }));
      await store.standaloneSessions.insert(session({ secretHash: "hash-2", sessionId: "session-2", revokedAt: BASE + 5 }));
      await store.standaloneSessions.insert(session({ secretHash: "hash-3", sessionId: "session-3" }));
      expect(await store.standaloneSessions.purgeEndedBefore(BASE + 20)).toBe(2);
      expect(await store.standaloneSessions.findBySecretHash("hash-3")).not.toBeNull();
      expect(await store.standaloneSessions.findBySecretHash("hash-1")).toBeNull();
    });
  });

  describe("audit trail", () => {
    it("a record is in the table once it resolves", async () => {
      await store.audit.record(auditEntry());
      await store.audit.record(auditEntry({ organizationId: ORG_B, action: "write", resourceType: "task", resourceId: "task-1" }));
      expect(await store.audit.list(ORG_A)).toEqual([auditEntry()]);
      expect(await store.audit.list(ORG_B)).toEqual([auditEntry({ organizationId: ORG_B, action: "write", resourceType: "task", resourceId: "task-1" })]);
    });

    it("writes many entries recorded at once, in the order they were recorded", async () => {
      const entries = Array.from({ length: 2500 }, (_, i) => auditEntry({ at: BASE + Math.floor(i / 10), traceId: `trace-${i}` }));
      await Promise.all(entries.map((entry) => store.audit.record(entry)));
      expect(await store.audit.list(ORG_A)).toEqual(entries);
    });

    it("lists a user's recent resources of the asked types, newest first, each once, with whether they changed it", async () => {
      const touch = (at: number, resourceId: string, overrides: Partial<AuditEntry> = {}) => store.audit.record(auditEntry({ at: BASE + at, resourceType: "note", resourceId, ...overrides }));
      await Promise.all([
        touch(1, "note-old"),
        touch(2, "note-edited"),
        touch(3, "note-edited", { action: "write", resourceType: "note_draft" }),
        touch(4, "note-new"),
        touch(5, "note-colleague", { userId: "user-2" }),
        touch(6, "note-other-org", { organizationId: ORG_B }),
        touch(7, "task-1", { resourceType: "task" }),
      ]);
      const recent = await store.audit.recentResources(ORG_A, USER_1, ["note", "note_draft"], 10);
      expect(recent).toEqual([
        { resourceId: "note-new", lastAt: BASE + 4, changed: false },
        { resourceId: "note-edited", lastAt: BASE + 3, changed: true },
        { resourceId: "note-old", lastAt: BASE + 1, changed: false },
      ]);
      expect((await store.audit.recentResources(ORG_A, USER_1, ["note"], 2)).map((entry) => entry.resourceId)).toEqual(["note-new", "note-edited"]);
      expect(await store.audit.recentResources(ORG_A, USER_1, [], 10)).toEqual([]);
    });

    it("lists as a person's recent resources their account's entries from before person keys (ADR 0024), never another account's", async () => {
      const person = { userId: "provider:p-1", accountId: "account-1" };
      const touch = (at: number, resourceId: string, overrides: Partial<AuditEntry>) =>
        store.audit.record(auditEntry({ organizationId: ORG_B, at: BASE + at, resourceType: "note", resourceId, ...overrides }));
      await Promise.all([
        // Inside the EHR and outside it, under the person key, each naming its account.
        touch(1, "note-in-ehr", { userId: person.userId, accountId: "host-sub-1" }),
        touch(2, "note-outside", { userId: person.userId, accountId: "account-1", action: "write" }),
        // Before person keys: the account signed in now, and another one.
        touch(3, "note-before", { userId: "account-1", accountId: null }),
        touch(4, "note-other-account", { userId: "account-2", accountId: null }),
        // Someone whose person key is the account's text: only an entry from before person keys is read by the account.
        touch(5, "note-not-legacy", { userId: "account-1", accountId: "account-9" }),
      ]);
      expect((await store.audit.recentResources(ORG_B, person, ["note"], 10)).map((entry) => [entry.resourceId, entry.changed])).toEqual([
        ["note-before", false],
        ["note-outside", true],
        ["note-in-ehr", false],
      ]);
      expect((await store.audit.list(ORG_B)).find((entry) => entry.resourceId === "note-before")?.accountId).toBeNull();
    });

    it("lists who wrote given resources after a time, oldest first, reads and other resources left out", async () => {
      const entry = (at: number, overrides: Partial<AuditEntry> = {}) => auditEntry({ at: BASE + at, action: "write", resourceType: "note", resourceId: "note-1", traceId: `t-${at}`, ...overrides });
      const mine = entry(2);
      const colleagues = entry(3, { userId: "user-2" });
      const deletion = entry(5, { action: "delete" });
      const notAfter = entry(1);
      const read = entry(2, { action: "read", traceId: "read" });
      const otherNote = entry(4, { resourceId: "note-2" });
      const otherType = entry(4, { resourceType: "note_draft", traceId: "draft" });
      const otherOrganization = entry(4, { organizationId: ORG_B, traceId: "org-b" });
      await Promise.all([notAfter, mine, read, colleagues, otherNote, otherType, otherOrganization, deletion].map((each) => store.audit.record(each)));
      expect(await store.audit.writesSince(ORG_A, "note", ["note-1"], BASE + 1)).toEqual([mine, colleagues, deletion]);
      expect((await store.audit.writesSince(ORG_A, "note", ["note-1", "note-2"], BASE + 3)).map((each) => each.traceId)).toEqual(["t-4", "t-5"]);
      expect(await store.audit.writesSince(ORG_A, "note", [], BASE)).toEqual([]);
      expect(await store.audit.writesSince(ORG_B, "note", ["note-1"], BASE + 10)).toEqual([]);
    });

  });

  it("applies migrations again without change and keeps data across a reopen", async () => {
    const tempDir = engine.name === "pglite" ? await mkdtemp(join(tmpdir(), "tandem-store-")) : undefined;
    const reopenSchema = engine.name === "postgres" ? testSchemaName() : "public";
    const options = engine.databaseUrl ? { databaseUrl: engine.databaseUrl, schema: reopenSchema } : { dataDir: join(tempDir ?? "", "pglite") };
    try {
      const first = await createStore(options);
      await first.installations.upsertIfNewer(installation());
      await first.audit.record(auditEntry({ traceId: "before-close" }));
      await first.close();

      // Two at once on PostgreSQL: the migration lock makes the second wait rather than collide.
      const reopened = await Promise.all(engine.databaseUrl ? [openDatabase(options), openDatabase(options)] : [openDatabase(options)]);
      try {
        for (const again of reopened) {
          expect(await appliedMigrations(again.db, reopenSchema)).toBe(migrationCount);
        }
        const [again] = reopened;
        if (again === undefined) throw new Error("unreachable");
        const second = storeOnDatabase(again);
        expect(await second.installations.get(ORG_A)).toEqual(installation());
        expect((await second.audit.list(ORG_A)).map((entry) => entry.traceId)).toEqual(["before-close"]);
      } finally {
        await Promise.all(reopened.map((again) => again.close()));
      }
    } finally {
      if (tempDir !== undefined) await rm(tempDir, { recursive: true, force: true });
      if (engine.databaseUrl) await dropSchema(engine.databaseUrl, reopenSchema);
    }
  });

  if (engine.name === "postgres") {
    it("keeps its tables and migration bookkeeping inside the test schema", async () => {
      const client = new pg.Client({ connectionString: engine.databaseUrl });
      await client.connect();
      try {
        const result = await client.query("SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name", [schema]);
        const names = z.array(z.object({ table_name: z.string() })).parse(result.rows).map((row) => row.table_name);
        expect(names).toEqual([
          "__drizzle_migrations",
          "appointment_states",
          "audit_trail",
          "created_tasks",
          "installations",
          "last_slot_searches",
          "note_drafts",
          "note_states",
          "note_views",
          "slot_holds",
          "standalone_sessions",
          "upstream_sends",
          "used_token_ids",
          "waitlist_entries",
          "waitlist_offers",
          "webhook_inbox",
          "write_intents",
        ]);
      } finally {
        await client.end();
      }
    });
  }
});

describe("store options", () => {
  it("refuses a schema name that is not a plain identifier", async () => {
    await expect(createStore({ schema: 'x"; drop table y; --' })).rejects.toThrow(/schema name/);
  });
});
