import { randomBytes } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { APP_ERROR_CODES } from "#contract/app-api/errors.ts";
import { noteResponse } from "#contract/app-api/note.ts";
import { ORG_A_ID } from "../../emulator/world/identities.ts";
import { LifecycleGate } from "../lifecycle/lifecycle-gate.ts";
import { createStore, storeOnDatabase } from "../store/create-store.ts";
import { openDatabase, type DatabaseHandle } from "../store/database.ts";
import type { Store } from "../store/store.ts";
import { StoreUnavailableError } from "../store/store-unavailable.ts";
import { dropSchema } from "../store/testing/drop-schema.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";
import { errorOf } from "./testing/fault-matrix-support.ts";

// The fault matrix (docs/fault-matrix.md), the BFF's own store: a store
// that is stuck, locked or gone. The BFF answers 503 `store_unavailable` with
// `Retry-After` (never a hang, never a 500), `/healthz` answers from memory
// whatever the store does, `/readyz` fails while the store cannot answer
// and recovers by itself. PGlite always; PostgreSQL when DATABASE_URL is set.
// No test waits on a clock: the answers come while the store is still
// stuck, locked or gone, so without the bounds they would never come.

const databaseUrl = process.env.DATABASE_URL;

const DRAFT = { fields: { otherExamComments: "Typed while the store was down" }, baseline: { otherExamComments: "" }, noteVersion: null };

function editableNoteId(h: BffHarness): string {
  const note = h.emulator.emulator.state.org(ORG_A_ID)?.ehr.notes.find((candidate) => candidate.status === "awaiting_sign");
  if (!note) throw new Error("no unsigned note in the seed");
  return note.id;
}

/** A draft save with a fresh token (a write spends its token). */
async function saveDraft(h: BffHarness, noteId: string): Promise<Response> {
  return h.api(`/api/notes/${noteId}/draft`, { token: await h.hostToken({ noteId }), method: "PUT", body: DRAFT });
}

async function expectStoreUnavailable(response: Response): Promise<void> {
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toBe("5");
  const body = await errorOf(response);
  expect(body).toMatchObject({ code: APP_ERROR_CODES.storeUnavailable, retry_after_seconds: 5 });
  expect(body.message).toMatch(/Tandem's server/);
}

/** `/readyz` as a load balancer asks it: the gate in front of the app, as server/index.ts builds it. */
async function readiness(h: BffHarness): Promise<number> {
  const gate = new LifecycleGate();
  gate.ready(h.bff.app.fetch, h.bff.health.isReady);
  return (await gate.fetch(new Request("http://localhost/readyz"))).status;
}

async function health(h: BffHarness): Promise<{ status: number; body: unknown }> {
  const response = await h.bff.app.request("/healthz");
  return { status: response.status, body: await response.json() };
}

describe("the embedded store (PGlite)", () => {
  let handle: DatabaseHandle;
  let store: Store;
  let h: BffHarness;

  beforeAll(async () => {
    handle = await openDatabase({});
    // A short bound instead of 4.5 s: what is checked is that a caller is given up on, not when.
    store = storeOnDatabase(handle, { timeouts: { callMs: 200 }, onError: () => undefined });
    h = await createBffHarness(store);
  }, 60_000);

  afterAll(async () => {
    await h.close();
    await store.close().catch(() => undefined);
  });

  it("its one session held by a transaction that does not end: draft saves and reads answer 503 store_unavailable with Retry-After; /healthz answers from memory, /readyz fails, and both recover once it ends", async () => {
    const noteId = editableNoteId(h);
    expect((await saveDraft(h, noteId)).status).toBe(200);
    await h.bff.health.refresh();
    let end: () => void = () => undefined;
    const holding = handle.db.transaction(() => new Promise<void>((resolve) => (end = resolve)));
    try {
      await expectStoreUnavailable(await saveDraft(h, noteId));
      await expectStoreUnavailable(await h.api(`/api/notes/${noteId}/draft`, { token: await h.hostToken({ noteId }) }));
      expect(await health(h)).toEqual({ status: 200, body: { ok: true, store: "ready", webhooks: { deadLetters: 0 } } });
      await h.bff.health.refresh();
      expect(await health(h)).toMatchObject({ status: 503, body: { ok: false, store: "unavailable", webhooks: { deadLetters: 0 } } });
      expect(await readiness(h)).toBe(503);
    } finally {
      end();
      await holding;
    }
    await h.bff.health.refresh();
    expect(await readiness(h)).toBe(200);
    expect((await saveDraft(h, noteId)).status).toBe(200);
  });

  it("a note saved in the EHR is answered as saved even when the store cannot tidy its draft; a task created in the EHR that the store cannot record says so, and not to create it again", async () => {
    const unavailable = () => Promise.reject(new StoreUnavailableError("timeout"));
    const broken: Store = { ...store, noteDrafts: { ...store.noteDrafts, get: unavailable, put: unavailable, delete: unavailable, replaceIfUnchanged: unavailable }, tasks: { ...store.tasks, insert: unavailable } };
    const other = await createBffHarness(broken);
    try {
      const noteId = editableNoteId(other);
      const saved = await other.api(`/api/notes/${noteId}`, { token: await other.hostToken({ noteId }), method: "PATCH", body: { otherExamComments: "Saved in the EHR" } });
      expect(saved.status).toBe(200);
      expect(z.parse(noteResponse, await saved.json()).note.soapNote.exam.otherExamComments).toBe("Saved in the EHR");

      const created = await other.api(`/api/notes/${noteId}/tasks`, { token: await other.hostToken({ noteId }), method: "POST", body: { notes: "Call the patient", assigneeIds: [other.userWithRole("Physician")] } });
      // The EHR created it: never "not saved" nor "try again" (issue 35 item 4).
      expect(created.status).toBe(503);
      const body = await errorOf(created);
      expect(body).toMatchObject({ code: "outcome_unknown", failed_system: "tandem" });
      expect(body.message).toMatch(/EHR created the task.*Do not create it again/);
      expect(other.upstreamCount("POST", "/v2/tasks")).toBe(1);
    } finally {
      await other.close();
    }
  });

  it("closed (the store gone): 503 store_unavailable, never 500, and /readyz fails", async () => {
    const closedStore = await createStore({ onError: () => undefined });
    const closed = await createBffHarness(closedStore);
    try {
      const noteId = editableNoteId(closed);
      await closedStore.close();
      await expectStoreUnavailable(await saveDraft(closed, noteId));
      await expectStoreUnavailable(await closed.api(`/api/notes/${noteId}/draft`, { token: await closed.hostToken({ noteId }) }));
      await closed.bff.health.refresh();
      expect(await readiness(closed)).toBe(503);
    } finally {
      await closed.close();
    }
  }, 60_000);
});

describe.skipIf(!databaseUrl)("PostgreSQL", () => {
  const url = databaseUrl ?? "";
  const withDatabase = (database: string) => {
    const parsed = new URL(url);
    parsed.pathname = `/${database}`;
    return parsed.toString();
  };

  it("another session holds LOCK TABLE note_drafts: 12 concurrent draft saves each answer 503 store_unavailable with Retry-After while it still holds it; meanwhile /healthz and GET /api/notes/:id answer; all is well once it lets go", async () => {
    const schema = `t_lock_${randomBytes(4).toString("hex")}`;
    const store = await createStore({ databaseUrl: url, schema, onError: () => undefined });
    const h = await createBffHarness(store);
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    try {
      const noteId = editableNoteId(h);
      await h.bff.health.refresh();
      const tokens = await Promise.all(Array.from({ length: 12 }, () => h.hostToken({ noteId })));
      const readToken = await h.hostToken({ noteId });
      await locker.query(`BEGIN; LOCK TABLE "${schema}".note_drafts`);

      const saves = tokens.map((token) => h.api(`/api/notes/${noteId}/draft`, { token, method: "PUT", body: DRAFT }));
      let settled = 0;
      for (const save of saves) void save.finally(() => (settled += 1));
      // Until the saves are queued behind the lock (not on a clock: on what the database says).
      const waiting = async () =>
        Number((await locker.query<{ n: string }>(`SELECT count(*) AS n FROM pg_locks WHERE relation = '"${schema}".note_drafts'::regclass AND NOT granted`)).rows[0]?.n);
      while ((await waiting()) === 0) {
        if (settled === saves.length) throw new Error("the saves were answered before any waited for the lock");
        await delay(10);
      }
      const [healthz, note] = await Promise.all([health(h), h.api(`/api/notes/${noteId}`, { token: readToken })]);
      expect(healthz).toEqual({ status: 200, body: { ok: true, store: "ready", webhooks: { deadLetters: 0 } } });
      expect(note.status).toBe(200);

      for (const response of await Promise.all(saves)) await expectStoreUnavailable(response);
      // Still locked: every answer came while the lock was held.
      expect(await waiting()).toBe(0);
      expect((await locker.query<{ n: string }>(`SELECT count(*) AS n FROM pg_locks WHERE relation = '"${schema}".note_drafts'::regclass AND granted AND pid = pg_backend_pid()`)).rows[0]?.n).toBe("1");

      await locker.query("ROLLBACK");
      expect((await saveDraft(h, noteId)).status).toBe(200);
      await h.bff.health.refresh();
      expect(await readiness(h)).toBe(200);
    } finally {
      await locker.query("ROLLBACK").catch(() => undefined);
      await locker.end();
      await h.close();
      await store.close();
      await dropSchema(url, schema);
    }
  }, 60_000);

  it("the database dropped: 503 store_unavailable, not 500; /healthz and /readyz say so; once the database is back, it recovers by itself", async () => {
    const database = `tandem_gone_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    const store = await createStore({ databaseUrl: withDatabase(database), onError: () => undefined });
    const h = await createBffHarness(store);
    try {
      const noteId = editableNoteId(h);
      expect((await saveDraft(h, noteId)).status).toBe(200);

      await admin.query(`DROP DATABASE ${database} WITH (FORCE)`);
      await expectStoreUnavailable(await saveDraft(h, noteId));
      await expectStoreUnavailable(await h.api(`/api/notes/${noteId}/draft`, { token: await h.hostToken({ noteId }) }));
      await h.bff.health.refresh();
      expect(await health(h)).toMatchObject({ status: 503, body: { ok: false, store: "unavailable" } });
      expect(await readiness(h)).toBe(503);

      // The database is back (restored, migrated by another process's start-up).
      await admin.query(`CREATE DATABASE ${database}`);
      await (await createStore({ databaseUrl: withDatabase(database) })).close();
      await h.bff.health.refresh();
      expect(await readiness(h)).toBe(200);
      expect((await saveDraft(h, noteId)).status).toBe(200);
    } finally {
      await h.close();
      await store.close();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    }
  }, 60_000);
});
