import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { noteImagesResponse, noteResponse, noteTasksResponse, taskResponse } from "#contract/app-api/note.ts";
import { ORG_A_ID } from "../../emulator/world/identities.ts";
import type { EhrNote } from "../../emulator/world/types.ts";
import { WRITE_IN_FLIGHT_MS } from "../clinic/write-outcome.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { StoreUnavailableError } from "../store/store-unavailable.ts";
import { dropSchema } from "../store/testing/drop-schema.ts";
import { createBffHarness, type BffHarness, type UpstreamInterceptor } from "../testing/bff-harness.ts";
import { startFaultProxy, type FaultProxy } from "../testing/fault-proxy.ts";
import { errorOf } from "./testing/fault-matrix-support.ts";

// Issue 35 item 4: writes the service carried out are never reported as not
// done. A real HTTP proxy between the BFF (its production transport,
// node:http) and the emulator (served on a port) lets the service act and
// then resets the BFF's connection; the store is made to fail after the
// upstream call; a `pending` intent stands for a process killed mid-call.
// Each write: no duplicate, no false "nothing was created" / "not saved",
// and the next read settles what it can. On PGlite, and on PostgreSQL when
// DATABASE_URL is set.

const databaseUrl = process.env.DATABASE_URL;
const engines = [{ name: "pglite", databaseUrl: undefined }, ...(databaseUrl ? [{ name: "postgres", databaseUrl }] : [])];
const FALSE_NEGATIVES = /nothing was (created|saved)|not saved|not deleted|was not created|try again\./i;

/** The store, whose task records and intent settlements can be made to fail as a store that cannot answer does. */
function withFailures(store: Store) {
  const failing = { taskInsert: false, settle: false };
  const unavailable = () => Promise.reject(new StoreUnavailableError("timeout"));
  const wrapped: Store = {
    ...store,
    tasks: { ...store.tasks, insert: (task) => (failing.taskInsert ? unavailable() : store.tasks.insert(task)) },
    writeIntents: { ...store.writeIntents, settle: (...args) => (failing.settle ? unavailable() : store.writeIntents.settle(...args)) },
  };
  return { store: wrapped, failing };
}

describe.each(engines)("writes with an unknown outcome on $name", ({ databaseUrl: url }) => {
  const schema = `write_outcome_${randomBytes(4).toString("hex")}`;
  let store: Store;
  let failing: ReturnType<typeof withFailures>["failing"];
  let h: BffHarness;
  let service: ServerType;
  let proxy: FaultProxy;

  // Every upstream call goes over real HTTP through the proxy to the emulator.
  const viaProxy: UpstreamInterceptor = async (request) => {
    const url = new URL(request.url);
    const body = request.method === "GET" ? undefined : await request.text();
    return fetch(`${proxy.url}${url.pathname}${url.search}`, { method: request.method, headers: request.headers, body, signal: request.signal });
  };

  beforeAll(async () => {
    store = await createStore(url ? { databaseUrl: url, schema } : {});
    const wrapped = withFailures(store);
    failing = wrapped.failing;
    h = await createBffHarness(wrapped.store, { interceptUpstream: viaProxy, bootstrap: false });
    service = serve({ fetch: h.emulator.emulator.app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise<void>((resolve) => service.once("listening", resolve));
    proxy = await startFaultProxy(`http://127.0.0.1:${(service.address() as AddressInfo).port}`);
    await h.bff.installations.refresh();
    // On PostgreSQL live events come back through LISTEN/NOTIFY: listening, as a started BFF is.
    await h.bff.bus.start();
  }, 60_000);

  afterAll(async () => {
    await proxy.close();
    await new Promise<void>((resolve) => service.close(() => resolve()));
    await h.close();
    await store.close();
    if (url) await dropSchema(url, schema);
  });

  beforeEach(() => {
    proxy.clear();
    failing.taskInsert = false;
    failing.settle = false;
  });

  const org = () => {
    const found = h.emulator.emulator.state.org(ORG_A_ID);
    if (!found) throw new Error("no org A");
    return found;
  };
  const note = (): EhrNote => {
    const found = org().ehr.notes.find((candidate) => candidate.status === "awaiting_sign" && candidate.images.length > 0);
    if (!found) throw new Error("no unsigned note with images in the seed");
    return found;
  };
  const write = async (path: string, method: string, body?: unknown) => h.api(path, { token: await h.hostToken({ noteId: note().id }), method, body });
  const read = async (path: string) => h.api(path, { token: await h.hostToken({ noteId: note().id }) });
  const tasksPath = () => `/api/notes/${note().id}/tasks`;
  const tasksInEhr = (text: string) => org().tasks.filter((task) => task.notes === text);
  const listed = async () => z.parse(noteTasksResponse, await (await read(tasksPath())).json());
  const intent = async (id: string | undefined) => (id === undefined ? null : store.writeIntents.get(ORG_A_ID, id));
  const resetAfterActing = (method: string, path: RegExp) => proxy.add({ method, path, mode: "reset", count: 1 });

  describe("a task", () => {
    it("reset after the service created it: outcome_unknown naming the EHR may have created it, listed as unconfirmed, not re-sent without the user's choice", async () => {
      const request = { notes: "Reset after create: call the patient", assigneeIds: [h.userWithRole("Medical Assistant")] };
      resetAfterActing("POST", /^\/v2\/tasks$/);
      const lost = await write(tasksPath(), "POST", request);
      expect(proxy.cutOff).toContain("POST /v2/tasks 200");
      expect(lost.status).toBe(503);
      const body = await errorOf(lost);
      expect(body).toMatchObject({ code: "outcome_unknown", failed_system: "service" });
      expect(body.message).toMatch(/EHR may have created the task/);
      expect(body.message).not.toMatch(FALSE_NEGATIVES);
      expect((await intent(body.intent_id))?.outcome).toBe("unknown");
      expect(tasksInEhr(request.notes)).toHaveLength(1);

      const list = await listed();
      expect(list.unconfirmed).toEqual([expect.objectContaining({ intentId: body.intent_id, notes: request.notes, assigneeIds: request.assigneeIds, isOwn: true })]);

      // The same task again, without the user's choice: refused before anything is sent.
      const sent = h.upstreamCount("POST", "/v2/tasks");
      const again = await write(tasksPath(), "POST", { ...request, assigneeIds: [...request.assigneeIds].reverse() });
      expect(again.status).toBe(409);
      expect(await errorOf(again)).toMatchObject({ code: "possible_duplicate", intent_id: body.intent_id });
      expect(h.upstreamCount("POST", "/v2/tasks")).toBe(sent);

      // Chosen: sent under the first write's key, which this service honours: the first task, no second one.
      const confirmed = await write(tasksPath(), "POST", { ...request, confirmPossibleDuplicate: true });
      expect(confirmed.status).toBe(200);
      const { task } = z.parse(taskResponse, await confirmed.json());
      expect(tasksInEhr(request.notes)).toHaveLength(1);
      expect(task.id).toBe(tasksInEhr(request.notes)[0]?.id);
      expect((await intent(body.intent_id))?.outcome).toBe("done");
      const after = await listed();
      expect(after.unconfirmed).toEqual([]);
      expect(after.tasks.filter((listedTask) => listedTask.notes === request.notes)).toHaveLength(1);
    });

    it("the store failing after the service created it: 503 outcome_unknown from Tandem's server, 'do not create it again', one POST, listed as unconfirmed", async () => {
      const request = { notes: "Store fails after create", assigneeIds: [h.userWithRole("Physician")] };
      failing.taskInsert = true;
      const sent = h.upstreamCount("POST", "/v2/tasks");
      const answered = await write(tasksPath(), "POST", request);
      expect(answered.status).toBe(503);
      const body = await errorOf(answered);
      expect(body).toMatchObject({ code: "outcome_unknown", failed_system: "tandem" });
      expect(body.message).toMatch(/EHR created the task.*Do not create it again/);
      expect(body.message).not.toMatch(FALSE_NEGATIVES);
      expect(h.upstreamCount("POST", "/v2/tasks")).toBe(sent + 1);
      expect(tasksInEhr(request.notes)).toHaveLength(1);
      failing.taskInsert = false;
      expect((await listed()).unconfirmed.map((task) => task.notes)).toContain(request.notes);
    });

    it("a kill-like gap (an intent left pending): listed as unconfirmed once past its time in flight, and a like task needs the user's choice", async () => {
      const request = { notes: "Left pending by a killed process", assigneeIds: [h.userWithRole("Physician")] };
      const id = "0b7e1f0c-2f39-4d1a-9d7e-5a1c2b3d4e5f";
      await store.writeIntents.record({ id, organizationId: ORG_A_ID, userId: "someone-else", kind: "task", subjectId: note().id.toLowerCase(), request: { ...request, providerId: request.assigneeIds[0] }, createdAt: h.now() - WRITE_IN_FLIGHT_MS - 1 });
      expect((await listed()).unconfirmed).toContainEqual(expect.objectContaining({ intentId: id, notes: request.notes, isOwn: false }));
      const sent = h.upstreamCount("POST", "/v2/tasks");
      const again = await write(tasksPath(), "POST", request);
      expect(again.status).toBe(409);
      expect((await errorOf(again)).code).toBe("possible_duplicate");
      expect(h.upstreamCount("POST", "/v2/tasks")).toBe(sent);
    });

    it("a task its process left pending is announced to the note's tabs when it comes to read as unknown, so they list it", async () => {
      const id = "0b7e1f0c-2f39-4d1a-9d7e-5a1c2b3d4e60";
      const request = { notes: "Left pending, announced later", assigneeIds: [h.userWithRole("Physician")] };
      await store.writeIntents.record({ id, organizationId: ORG_A_ID, userId: "someone-else", kind: "task", subjectId: note().id.toLowerCase(), request: { ...request, providerId: request.assigneeIds[0] }, createdAt: h.now() - WRITE_IN_FLIGHT_MS + 2_000 });
      expect((await listed()).unconfirmed.map((task) => task.intentId)).not.toContain(id);
      const events: unknown[] = [];
      const stopListening = h.bff.hub.subscribe(ORG_A_ID, (event) => events.push(event));
      h.advanceClocks(3);
      await h.bff.strandedWrites.announceDue();
      await vi.waitFor(() => expect(events).toContainEqual({ type: "note.changed", noteId: note().id.toLowerCase() }));
      stopListening();
      expect((await listed()).unconfirmed.map((task) => task.intentId)).toContain(id);
    });

    it("a definite refusal before acting (403) is refused, not listed, and the like task may be sent again without a confirmation", async () => {
      const request = { notes: "Refused by the service", assigneeIds: [h.userWithRole("Physician")] };
      await h.fault({ method: "POST", path: "/v2/tasks", status: 403, count: 1 });
      const refused = await write(tasksPath(), "POST", request);
      expect(refused.status).toBe(403);
      expect((await listed()).unconfirmed.map((task) => task.notes)).not.toContain(request.notes);
      expect((await write(tasksPath(), "POST", request)).status).toBe(200);
      expect(tasksInEhr(request.notes)).toHaveLength(1);
    });
  });

  describe("a note PATCH", () => {
    it("reset after the service saved it: outcome_unknown (never 'not saved'), and the note's next read settles it as done", async () => {
      const text = `Saved, answer lost ${randomBytes(3).toString("hex")}`;
      resetAfterActing("PATCH", /^\/v1\/notes\/[^/]+$/);
      const lost = await write(`/api/notes/${note().id}`, "PATCH", { otherExamComments: text });
      expect(lost.status).toBe(503);
      const body = await errorOf(lost);
      expect(body).toMatchObject({ code: "outcome_unknown", failed_system: "service" });
      expect(body.message).toMatch(/EHR may have saved the change/);
      expect(body.message).not.toMatch(FALSE_NEGATIVES);
      expect(note().soapNote.exam.otherExamComments).toBe(text);
      expect((await intent(body.intent_id))?.outcome).toBe("unknown");

      const reread = z.parse(noteResponse, await (await read(`/api/notes/${note().id}`)).json());
      expect(reread.note.soapNote.exam.otherExamComments).toBe(text);
      expect((await intent(body.intent_id))?.outcome).toBe("done");
    });

    it("the store failing to settle after the service saved it: still answered saved; the row left pending is settled by a later read", async () => {
      const text = `Saved, settle failed ${randomBytes(3).toString("hex")}`;
      failing.settle = true;
      const saved = await write(`/api/notes/${note().id}`, "PATCH", { otherExamComments: text });
      expect(saved.status).toBe(200);
      failing.settle = false;
      const [left] = (await store.writeIntents.listUnsettled(ORG_A_ID, "note_patch", { subjectId: note().id.toLowerCase() })).filter((row) => z.safeParse(z.object({ otherExamComments: z.literal(text) }), row.request).success);
      expect(left?.outcome).toBe("pending");
      h.advanceClocks(WRITE_IN_FLIGHT_MS / 1000 + 1);
      await read(`/api/notes/${note().id}`);
      expect((await intent(left?.id))?.outcome).toBe("done");
    });

    it("a kill-like gap whose change never reached the note: the note's read settles it as not carried out", async () => {
      const id = "6f0d8f0e-8a55-4d7b-b1b0-3c2d1e0f9a8b";
      await store.writeIntents.record({ id, organizationId: ORG_A_ID, userId: "someone", kind: "note_patch", subjectId: note().id.toLowerCase(), request: { stickyNoteDescription: "Never arrived" }, createdAt: h.now() - WRITE_IN_FLIGHT_MS - 1 });
      await read(`/api/notes/${note().id}`);
      expect((await intent(id))?.outcome).toBe("refused");
    });
  });

  describe("an image delete", () => {
    it("reset after the service deleted it: outcome_unknown (never 'not deleted'), and the images' next read settles it as done", async () => {
      const image = note().images[0];
      if (!image) throw new Error("no image");
      proxy.add({ method: "DELETE", path: /^\/v3\/notes\/[^/]+\/images\/[^/]+$/, mode: "reset", count: 1 });
      const events: unknown[] = [];
      const stopListening = h.bff.hub.subscribe(ORG_A_ID, (event) => events.push(event));
      const lost = await write(`/api/notes/${note().id}/images/${image.id}`, "DELETE");
      expect(lost.status).toBe(503);
      // The note's other tabs read its images again (on PostgreSQL the event comes back through LISTEN/NOTIFY).
      await vi.waitFor(() => expect(events).toContainEqual({ type: "note.changed", noteId: note().id.toLowerCase() }));
      stopListening();
      const body = await errorOf(lost);
      expect(body).toMatchObject({ code: "outcome_unknown", failed_system: "service" });
      expect(body.message).toMatch(/EHR may have deleted the image/);
      expect(body.message).not.toMatch(FALSE_NEGATIVES);
      expect((await intent(body.intent_id))?.outcome).toBe("unknown");

      const { images } = z.parse(noteImagesResponse, await (await read(`/api/notes/${note().id}/images`)).json());
      expect(images.map((listedImage) => listedImage.id)).not.toContain(image.id);
      expect((await intent(body.intent_id))?.outcome).toBe("done");
    });
  });
});

describe("against a service that ignores Idempotency-Key", () => {
  let store: Store;
  let h: BffHarness;
  const resetOnce = { armed: false };

  beforeAll(async () => {
    store = await createStore();
    // In-process: the service acts, then the connection is reset (bff-harness.ts's interceptor).
    h = await createBffHarness(store, {
      emulatorSettings: { honourIdempotencyKey: false },
      interceptUpstream: async (request, forward) => {
        const answer = await forward(request);
        if (!resetOnce.armed || request.method !== "POST") return answer;
        resetOnce.armed = false;
        throw new TypeError("fetch failed", { cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }) });
      },
    });
  }, 60_000);

  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it("nothing is sent twice by itself; the resend the user confirmed creates a second task, as they were warned", async () => {
    const org = h.emulator.emulator.state.org(ORG_A_ID);
    const note = org?.ehr.notes.find((candidate) => candidate.status === "awaiting_sign");
    if (!org || !note) throw new Error("no unsigned note");
    const request = { notes: "Ignored key: call the pharmacy", assigneeIds: [h.userWithRole("Physician")] };
    const post = async (body: unknown) => h.api(`/api/notes/${note.id}/tasks`, { token: await h.hostToken({ noteId: note.id }), method: "POST", body });
    resetOnce.armed = true;
    const lost = await post(request);
    expect((await errorOf(lost)).code).toBe("outcome_unknown");
    expect((await post(request)).status).toBe(409);
    expect(org.tasks.filter((task) => task.notes === request.notes)).toHaveLength(1);
    expect((await post({ ...request, confirmPossibleDuplicate: true })).status).toBe(200);
    expect(org.tasks.filter((task) => task.notes === request.notes)).toHaveLength(2);
    expect(h.upstreamCount("POST", "/v2/tasks")).toBe(2);
  });
});
