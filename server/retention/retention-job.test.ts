import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { readBffConfig, type RetentionConfig } from "../env.ts";
import { createLogger } from "../logger.ts";
import { createStore, storeOnDatabase } from "../store/create-store.ts";
import { openDatabase, type DatabaseHandle } from "../store/database.ts";
import * as tables from "../store/schema.ts";
import type { Store, StoredSlotHold, StoredStandaloneSession } from "../store/store.ts";
import { dropSchema } from "../store/testing/drop-schema.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";
import { createRetentionJob, type RetentionJobOptions } from "./retention-job.ts";
import { retentionRules } from "./retention-rules.ts";

// The retention policy of docs/security.md, enforced: for each kind of row,
// one just inside its period stays and one just past it goes, on a clock
// moved by hand (nothing waits). PGlite always; PostgreSQL too when
// DATABASE_URL is set, in a schema of its own.

const databaseUrl = process.env.DATABASE_URL;
const engines: { name: "pglite" | "postgres"; databaseUrl?: string }[] = [{ name: "pglite" }, ...(databaseUrl ? [{ name: "postgres" as const, databaseUrl }] : [])];

const NOW = Date.parse("2026-11-17T14:00:00.000Z");
const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;
const ORG_A = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
const ORG_B = "8c4e2d19-7a36-4b5f-a0e1-9d8c7b6a5f42";
const iso = (ms: number) => new Date(ms).toISOString();
const DEFAULTS: RetentionConfig = readBffConfig({}).retention;

const slotHold = (holdId: string, expiresAt: number): StoredSlotHold => ({
  organizationId: ORG_A,
  holdId,
  userId: "user-1",
  patientId: "5f0e3c2a-1b4d-4e6f-9a8b-7c6d5e4f3a2b",
  patientName: null,
  providerId: "prv_9c1a6f98f0fb4012a8008dcbd76bd1c9",
  facilityId: "fac_decb7415a45c4b13859361ec146879bf",
  startsAt: "2026-11-17T08:00:00-05:00",
  endsAt: "2026-11-17T08:20:00-05:00",
  appointmentTypeId: "atp_a378f9f991a9266eb094d4a92c343856",
  slotLengthMinutes: 20,
  isNewPatient: false,
  expiresAt,
  heldAt: expiresAt - 600 * SECOND,
});

const session = (sessionId: string, overrides: Partial<StoredStandaloneSession>): StoredStandaloneSession => ({
  secretHash: `hash-${sessionId}`,
  sessionId,
  userId: "user-1",
  profile: { displayName: "Dr. Ada Brooks", organizations: [] },
  selectedOrganizationId: null,
  sealedAccessToken: "sealed",
  userAgent: null,
  createdAt: NOW - 30 * DAY,
  expiresAt: NOW + HOUR,
  verifiedAt: NOW - 30 * DAY,
  revokedAt: null,
  ...overrides,
});

const draftOf = (noteId: string, updatedAt: number, organizationId = ORG_A) => ({
  organizationId,
  userId: "user-1",
  noteId,
  fields: { assessment: "Patient reports chest pain since Tuesday" },
  baseline: { assessment: "" },
  noteVersion: 3,
  updatedAt,
});

function logged() {
  const lines: string[] = [];
  const logger = createLogger({ level: "debug", secrets: [], destination: { write: (line: string) => void lines.push(line) } });
  return { lines, logger };
}

describe.each(engines)("retention on $name", (engine) => {
  const schema = engine.name === "postgres" ? `t_${process.pid}_${randomBytes(4).toString("hex")}` : "public";
  let handle: DatabaseHandle;
  let store: Store;

  const job = (overrides: Partial<RetentionJobOptions> & { retention?: Partial<RetentionConfig>; at?: number } = {}) => {
    const { retention, at, ...options } = overrides;
    return createRetentionJob({ rules: retentionRules(store, { ...DEFAULTS, ...retention }), logger: logged().logger, now: () => at ?? NOW, ...options });
  };

  beforeAll(async () => {
    handle = await openDatabase({ ...(engine.databaseUrl ? { databaseUrl: engine.databaseUrl } : {}), schema });
    store = storeOnDatabase(handle);
  });

  afterAll(async () => {
    await store.close();
    if (engine.databaseUrl) await dropSchema(engine.databaseUrl, schema);
  });

  beforeEach(async () => {
    await handle.db.execute(
      sql`TRUNCATE ${tables.installations}, ${tables.webhookInbox}, ${tables.appointmentStates}, ${tables.usedTokenIds}, ${tables.noteDrafts}, ${tables.createdTasks}, ${tables.slotHolds}, ${tables.noteStates}, ${tables.noteViews}, ${tables.lastSlotSearches}, ${tables.standaloneSessions}, ${tables.waitlistEntries}, ${tables.waitlistOffers}, ${tables.auditTrail}`,
    );
  });

  const processedEntry = async (hookId: string, processedAt: number) => {
    await store.inbox.insert({ hookId, eventType: "appointment.updated", payload: { type: "appointment.updated", data: { patientId: "pat-1" } }, receivedAt: processedAt - SECOND });
    await store.inbox.markProcessed(hookId, processedAt);
  };
  const deadLetter = (hookId: string, receivedAt: number) =>
    store.inbox.insertDeadLetter({ hookId, eventType: "document.created", payload: { rawBody: '{"title":"Biopsy results, Jane Doe"' }, receivedAt, reason: "the body is not JSON" });
  const exists = async (hookId: string) => (await store.inbox.get(hookId)) !== null;

  it("purges processed webhook entries 72 hours after processing, past the sender's retries, and keeps what is still to do", async () => {
    await processedEntry("processed-past", NOW - 72 * HOUR - SECOND);
    await processedEntry("processed-inside", NOW - 72 * HOUR + SECOND);
    await store.inbox.insert({ hookId: "unprocessed-old", eventType: "appointment.updated", payload: {}, receivedAt: NOW - 60 * DAY });
    await deadLetter("dead-letter-recent", NOW - 10 * DAY);

    expect(await job().run()).toEqual({ webhook_inbox: 1 });
    expect(await exists("processed-past")).toBe(false);
    expect(await exists("processed-inside")).toBe(true);
    expect(await exists("unprocessed-old")).toBe(true);
    expect(await exists("dead-letter-recent")).toBe(true);
  });

  it("purges dead letters, and deliveries given up after five failures, 30 days on (WEBHOOK_DEAD_LETTER_RETENTION_DAYS)", async () => {
    await deadLetter("dead-past", NOW - 30 * DAY - SECOND);
    await deadLetter("dead-inside", NOW - 30 * DAY + SECOND);
    for (const [hookId, failures] of [
      ["given-up-past", 5],
      ["still-retried-past", 4],
    ] as const) {
      await store.inbox.insert({ hookId, eventType: "appointment.updated", payload: {}, receivedAt: NOW - 30 * DAY - SECOND });
      for (let attempt = 0; attempt < failures; attempt += 1) await store.inbox.markFailed(hookId, "unreadable", { maxAttempts: 5, at: NOW - 30 * DAY - SECOND });
    }

    expect(await job().run()).toEqual({ webhook_dead_letters: 2 });
    expect(await exists("dead-past")).toBe(false);
    expect(await exists("given-up-past")).toBe(false);
    expect(await exists("dead-inside")).toBe(true);
    expect(await exists("still-retried-past")).toBe(true);
    expect(await store.inbox.countDeadLetters()).toBe(1);

    expect(await job({ retention: { deadLetterDays: 10 } }).run()).toEqual({ webhook_dead_letters: 1 });
    expect(await exists("dead-inside")).toBe(false);
  });

  it("purges an appointment's state once its day is a week gone and no stale event can still arrive", async () => {
    const state = (appointmentId: string, endsAt: number, updatedAt: number) =>
      store.appointmentStates.applyIfNewer({
        organizationId: ORG_A,
        appointmentId,
        status: "cancelled",
        updatedAt: iso(updatedAt),
        facilityId: "fac_decb7415a45c4b13859361ec146879bf",
        scheduledStartDate: iso(endsAt - HOUR),
        scheduledEndDate: iso(endsAt),
      });
    // 2026-11-10 is the day seven days before NOW: an appointment ending late on the 9th is past, one early on the 10th inside.
    await state("ended-past", Date.parse("2026-11-09T23:30:00.000Z"), NOW - 8 * DAY);
    await state("ended-inside", Date.parse("2026-11-10T00:30:00.000Z"), NOW - 8 * DAY);
    await state("ended-but-updated-recently", Date.parse("2026-11-01T10:00:00.000Z"), NOW - 7 * DAY + SECOND);
    await state("booked-far-ahead", Date.parse("2027-02-01T10:00:00.000Z"), NOW - 200 * DAY);

    expect(await job().run()).toEqual({ appointment_states: 1 });
    expect((await store.appointmentStates.list(ORG_A)).map((kept) => kept.appointmentId).sort()).toEqual(["booked-far-ahead", "ended-but-updated-recently", "ended-inside"]);
  });

  it("purges spent token ids and slot holds once expired, not before", async () => {
    await store.usedTokenIds.remember("jti-expired", NOW);
    await store.usedTokenIds.remember("jti-live", NOW + SECOND);
    await store.holds.insert(slotHold("0b6c1f7e-3d2a-4e59-8f10-2a3b4c5d6e01", NOW));
    await store.holds.insert(slotHold("0b6c1f7e-3d2a-4e59-8f10-2a3b4c5d6e02", NOW + SECOND));

    expect(await job().run()).toEqual({ used_token_ids: 1, slot_holds: 1 });
    // A spent id still remembered is refused again; a purged one could be remembered anew.
    expect(await store.usedTokenIds.remember("jti-live", NOW + SECOND)).toBe(false);
    expect(await store.usedTokenIds.remember("jti-expired", NOW)).toBe(true);
    expect(await store.holds.get(ORG_A, "0b6c1f7e-3d2a-4e59-8f10-2a3b4c5d6e01")).toBeNull();
    expect(await store.holds.get(ORG_A, "0b6c1f7e-3d2a-4e59-8f10-2a3b4c5d6e02")).not.toBeNull();
  });

  it("purges standalone sessions a day after they ended (expired or revoked), and keeps live ones", async () => {
    await store.standaloneSessions.insert(session("expired-past", { expiresAt: NOW - DAY - SECOND }));
    await store.standaloneSessions.insert(session("expired-inside", { expiresAt: NOW - DAY + SECOND }));
    await store.standaloneSessions.insert(session("revoked-past", { revokedAt: NOW - DAY - SECOND, expiresAt: NOW + HOUR }));
    await store.standaloneSessions.insert(session("live", {}));

    expect(await job().run()).toEqual({ standalone_sessions: 2 });
    for (const [sessionId, kept] of [
      ["expired-past", false],
      ["expired-inside", true],
      ["revoked-past", false],
      ["live", true],
    ] as const) {
      expect(await store.standaloneSessions.findBySecretHash(`hash-${sessionId}`) !== null, sessionId).toBe(kept);
    }
  });

  it("purges a user's last view of a note 30 days after it was seen", async () => {
    const view = (noteId: string, seenAt: number) => store.noteViews.put({ organizationId: ORG_A, userId: "user-1", noteId, fields: { plan: "Follow up" }, sectionDigests: {}, noteUpdatedAt: null, seenAt });
    await view("note-past", NOW - 30 * DAY - SECOND);
    await view("note-inside", NOW - 30 * DAY + SECOND);

    expect(await job().run()).toEqual({ note_views: 1 });
    expect(await store.noteViews.get(ORG_A, "user-1", "note-past")).toBeNull();
    expect(await store.noteViews.get(ORG_A, "user-1", "note-inside")).not.toBeNull();
  });

  it("purges an ended waitlist entry 30 days after it ended, never a waiting one, and an offer a week after its slot", async () => {
    const preferences = { appointmentTypeId: "atp_0f6b3a8e2d4c4a599d1e5b7c8a9e0f12", slotLengthMinutes: 30, isNewPatient: false, facilityIds: ["fac_1b566c2cb5f14bbfbeb323271408baaa"], providerIds: null, startDate: "2026-09-01", endDate: "2026-09-30", startsFrom: null, startsBefore: null, days: null, note: "prefers a call after 4 pm" };
    const entry = async (id: string, createdAt: number, endedAt: number | null) => {
      await store.waitlist.add({ id, organizationId: ORG_A, patientId: "pat-1", patientName: "Ruiz, Ana", preferences, createdBy: "user-1", createdAt, updatedAt: createdAt, endedAt: null, endReason: null }, 100);
      if (endedAt !== null) await store.waitlist.end(ORG_A, [id], "removed", endedAt);
    };
    await entry("00000000-0000-4000-8000-000000000001", NOW - 90 * DAY, NOW - 30 * DAY - SECOND);
    await entry("00000000-0000-4000-8000-000000000002", NOW - 90 * DAY, NOW - 30 * DAY + SECOND);
    // Waiting (its range is the sweep's to end, not the purge's).
    await entry("00000000-0000-4000-8000-000000000003", NOW - 90 * DAY, null);
    const freed = (id: string, slotStartsAt: number) => store.waitlist.recordFreedSlot({ id, organizationId: ORG_A, freedKey: id, appointmentId: id, facilityId: "fac-1", slotStartsAt, freedAt: slotStartsAt - DAY });
    await freed("00000000-0000-4000-8000-00000000000a", NOW - 7 * DAY - SECOND);
    await freed("00000000-0000-4000-8000-00000000000b", NOW - 7 * DAY + SECOND);

    expect(await job().run()).toEqual({ waitlist_entries: 1, waitlist_offers: 1 });
    expect(await store.waitlist.get(ORG_A, "00000000-0000-4000-8000-000000000001")).toBeNull();
    expect(await store.waitlist.get(ORG_A, "00000000-0000-4000-8000-000000000002")).not.toBeNull();
    expect(await store.waitlist.get(ORG_A, "00000000-0000-4000-8000-000000000003")).not.toBeNull();
    expect(await store.waitlist.getOffer(ORG_A, "00000000-0000-4000-8000-00000000000a")).toBeNull();
    expect(await store.waitlist.getOffer(ORG_A, "00000000-0000-4000-8000-00000000000b")).not.toBeNull();
  });

  it("purges a user's last slot search 30 days after it was saved", async () => {
    const search = (userId: string, savedAt: number) => store.lastSlotSearches.put({ organizationId: ORG_A, userId, search: { order: "time" }, savedAt });
    await search("user-past", NOW - 30 * DAY - SECOND);
    await search("user-inside", NOW - 30 * DAY + SECOND);

    expect(await job().run()).toEqual({ last_slot_searches: 1 });
    expect(await store.lastSlotSearches.get(ORG_A, "user-past")).toBeNull();
    expect(await store.lastSlotSearches.get(ORG_A, "user-inside")).not.toBeNull();
  });

  it("purges a draft untouched for 30 days (NOTE_DRAFT_RETENTION_DAYS), and a draft of a note known signed after 7", async () => {
    await store.noteDrafts.put(draftOf("untouched-past", NOW - 30 * DAY - SECOND));
    await store.noteDrafts.put(draftOf("untouched-inside", NOW - 30 * DAY + SECOND));
    await store.noteDrafts.put(draftOf("signed-past", NOW - 7 * DAY - SECOND));
    await store.noteDrafts.put(draftOf("signed-inside", NOW - 7 * DAY + SECOND));
    // Signed in another organization only: this organization's draft of a note with that id is not the signed note's.
    await store.noteDrafts.put(draftOf("signed-elsewhere", NOW - 7 * DAY - SECOND));
    for (const noteId of ["signed-past", "signed-inside"]) await store.noteStates.recordSigned(ORG_A, noteId, "read", NOW - 8 * DAY);
    await store.noteStates.recordSigned(ORG_B, "signed-elsewhere", "read", NOW - 8 * DAY);

    expect(await job().run()).toEqual({ note_drafts: 2 });
    const kept = async (noteId: string) => (await store.noteDrafts.get(ORG_A, "user-1", noteId)) !== null;
    expect(await kept("untouched-past")).toBe(false);
    expect(await kept("signed-past")).toBe(false);
    expect(await kept("untouched-inside")).toBe(true);
    expect(await kept("signed-inside")).toBe(true);
    expect(await kept("signed-elsewhere")).toBe(true);

    // A setting shorter than a week bounds the signed note's drafts too.
    expect(await job({ retention: { noteDraftDays: 5 } }).run()).toEqual({ note_drafts: 3 });
  });

  it("purges the record of a write (its text) two weeks after it was sent, whatever its outcome", async () => {
    const intent = (id: string, createdAt: number) => store.writeIntents.record({ id, organizationId: ORG_A, userId: "user-1", kind: "task", subjectId: "note-1", request: { notes: "Call the patient" }, createdAt });
    await intent("0d4a1e5e-0000-4000-8000-000000000001", NOW - 14 * DAY - SECOND);
    await intent("0d4a1e5e-0000-4000-8000-000000000002", NOW - 14 * DAY + SECOND);
    expect(await job().run()).toEqual({ write_intents: 1 });
    expect(await store.writeIntents.get(ORG_A, "0d4a1e5e-0000-4000-8000-000000000001")).toBeNull();
    expect(await store.writeIntents.get(ORG_A, "0d4a1e5e-0000-4000-8000-000000000002")).not.toBeNull();
  });

  it("purges what Tandem learned of a signed note after 90 days, and the tasks it created after a year", async () => {
    await store.noteStates.recordSigned(ORG_A, "note-past", "write_conflict", NOW - 90 * DAY - SECOND);
    await store.noteStates.recordSigned(ORG_A, "note-inside", "read", NOW - 90 * DAY + SECOND);
    const task = (taskId: string, createdAt: number) => store.tasks.insert({ organizationId: ORG_A, noteId: "note-1", taskId, createdBy: "user-1", task: { id: taskId, notes: "Call the patient" }, createdAt });
    await task("task-past", NOW - 365 * DAY - SECOND);
    await task("task-inside", NOW - 365 * DAY + SECOND);

    expect(await job().run()).toEqual({ note_states: 1, created_tasks: 1 });
    expect(await store.noteStates.get(ORG_A, "note-past")).toBeNull();
    expect(await store.noteStates.get(ORG_A, "note-inside")).not.toBeNull();
    expect((await store.tasks.listByNote(ORG_A, "note-1")).map((kept) => kept.taskId)).toEqual(["task-inside"]);
  });

  it("keeps the audit trail six years by default, and as long as AUDIT_RETENTION_DAYS says", async () => {
    const entry = (traceId: string, at: number) => store.audit.record({ at, organizationId: ORG_A, userId: "user-1", accountId: "account-1", action: "read", resourceType: "note", resourceId: "note-1", traceId });
    await entry("past-six-years", NOW - 2192 * DAY - SECOND);
    await entry("inside-six-years", NOW - 2192 * DAY + SECOND);
    await entry("past-400-days", NOW - 400 * DAY - SECOND);
    await entry("inside-400-days", NOW - 400 * DAY + SECOND);
    const trail = async () => (await store.audit.list(ORG_A)).map((kept) => kept.traceId);

    expect(await job({ retention: { auditTrailDays: 3000 } }).run()).toEqual({});
    expect(await job().run()).toEqual({ audit_trail: 1 });
    expect(await trail()).toEqual(["inside-six-years", "past-400-days", "inside-400-days"]);
    expect(await job({ retention: { auditTrailDays: 400 } }).run()).toEqual({ audit_trail: 2 });
    expect(await trail()).toEqual(["inside-400-days"]);
  });

  it("purges at most its batches in one run, the rest at the next, and nothing once nothing is past", async () => {
    for (let n = 0; n < 10; n += 1) {
      await store.usedTokenIds.remember(`jti-${n}`, NOW - n * SECOND);
      await deadLetter(`dead-${n}`, NOW - 31 * DAY);
    }
    const bounded = job({ batchSize: 3, maxBatches: 2 });

    expect(await bounded.run()).toEqual({ used_token_ids: 6, webhook_dead_letters: 6 });
    expect(await bounded.run()).toEqual({ used_token_ids: 4, webhook_dead_letters: 4 });
    expect(await bounded.run()).toEqual({});
    expect(await store.inbox.countDeadLetters()).toBe(0);
  });

  it("lets two purges run at once without fighting: every row purged once, none twice, no error", async () => {
    for (let n = 0; n < 60; n += 1) await store.usedTokenIds.remember(`jti-${n}`, NOW - SECOND);
    // On PostgreSQL a second store is a second process's pool on the same schema; PGlite has one process.
    const other = engine.databaseUrl ? await createStore({ databaseUrl: engine.databaseUrl, schema }) : store;
    try {
      const failures: string[] = [];
      const options = { batchSize: 7, onFailed: (table: string) => void failures.push(table) };
      const secondJob = createRetentionJob({ rules: retentionRules(other, DEFAULTS), logger: logged().logger, now: () => NOW, ...options });
      const [first, second] = await Promise.all([job(options).run(), secondJob.run()]);
      expect((first.used_token_ids ?? 0) + (second.used_token_ids ?? 0)).toBe(60);
      expect(failures).toEqual([]);
      expect(await job().run()).toEqual({});
    } finally {
      if (other !== store) await other.close();
    }
  });

  if (engine.databaseUrl) {
    it("never waits on a row another session holds: it purges the rest and takes that one at a later run", async () => {
      for (let n = 0; n < 5; n += 1) await store.usedTokenIds.remember(`jti-${n}`, NOW - SECOND);
      const holder = new pg.Client({ connectionString: engine.databaseUrl, options: `-c search_path=${schema}` });
      await holder.connect();
      try {
        await holder.query("BEGIN");
        await holder.query("SELECT jti FROM used_token_ids WHERE jti = 'jti-0' FOR UPDATE");
        expect(await job().run()).toEqual({ used_token_ids: 4 });
        await holder.query("ROLLBACK");
        expect(await job().run()).toEqual({ used_token_ids: 1 });
      } finally {
        await holder.end();
      }
    });
  }

  if (engine.name === "pglite") {
    it("vacuums what it purged from the embedded store, which has no autovacuum: no dead row is left in its tables", async () => {
      for (let n = 0; n < 300; n += 1) await deadLetter(`dead-${n}`, NOW - 31 * DAY);
      await store.inbox.insert({ hookId: "kept", eventType: "appointment.updated", payload: {}, receivedAt: NOW });
      const deadTuples = async () => {
        await handle.db.execute(sql`SELECT pg_stat_force_next_flush()`);
        const result = await handle.db.execute(sql`SELECT n_dead_tup FROM pg_stat_user_tables WHERE relname = 'webhook_inbox' AND schemaname = current_schema()`);
        return Number(z.parse(z.object({ rows: z.tuple([z.object({ n_dead_tup: z.unknown() })]) }), result).rows[0].n_dead_tup);
      };
      const { lines, logger } = logged();

      expect(await createRetentionJob({ rules: retentionRules(store, DEFAULTS), reclaimSpace: store.reclaimSpace, logger, now: () => NOW }).run()).toEqual({ webhook_dead_letters: 300 });
      expect(await deadTuples()).toBe(0);
      const line = z.parse(z.object({ vacuumed: z.array(z.string()) }), JSON.parse(lines.find((text) => text.includes('"retention purge"')) ?? "{}"));
      expect(line.vacuumed).toContain("webhook_inbox");
      expect(await exists("kept")).toBe(true);
    });
  } else {
    it("leaves vacuuming to PostgreSQL's autovacuum", () => {
      expect(store.reclaimSpace).toBeNull();
    });
  }

  it("logs and counts what a run purged, never what it held", async () => {
    await deadLetter("dead-with-phi", NOW - 31 * DAY);
    const { lines, logger } = logged();
    const purged: [string, number][] = [];
    await createRetentionJob({ rules: retentionRules(store, DEFAULTS), logger, now: () => NOW, onPurged: (table, rows) => void purged.push([table, rows]) }).run();

    const line = lines.find((text) => text.includes('"retention purge"'));
    expect(JSON.parse(line ?? "{}")).toMatchObject({ purged: { webhook_dead_letters: 1 } });
    expect(lines.join("\n")).not.toMatch(/Jane Doe|dead-with-phi/);
    expect(purged).toContainEqual(["webhook_dead_letters", 1]);
    // Every rule reports, so each table's counter exists from the first run.
    expect(purged).toHaveLength(15);
  });
});

describe("the retention job in the BFF (embedded store, the default)", () => {
  let store: Store;
  let harness: BffHarness;

  beforeAll(async () => {
    store = await createStore();
    harness = await createBffHarness(store);
  });

  afterAll(async () => {
    await harness.close();
    await store.close();
  });

  it("starts with start(): a run purges at once, and its rows are counted in the metrics", async () => {
    const now = harness.now();
    await store.inbox.insertDeadLetter({ hookId: "old-dead-letter", eventType: "unreadable", payload: { rawBody: "not json" }, receivedAt: now - 31 * DAY, reason: "the body is not JSON" });
    await store.usedTokenIds.remember("spent-and-expired", now - SECOND);
    expect(await store.inbox.countDeadLetters()).toBe(1);

    await harness.bff.start();
    await harness.bff.retention.idle();

    expect(await store.inbox.countDeadLetters()).toBe(0);
    expect(await store.usedTokenIds.remember("spent-and-expired", now - SECOND)).toBe(true);
    const metric = await harness.bff.metrics.getSingleMetricAsString("tandem_retention_purged_rows_total");
    expect(metric).toContain('tandem_retention_purged_rows_total{table="webhook_dead_letters"} 1');
    expect(metric).toContain('tandem_retention_purged_rows_total{table="used_token_ids"} 1');
  });
});
