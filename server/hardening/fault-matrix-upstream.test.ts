import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { noteDraftResponse, noteResponse, noteTasksResponse, taskResponse } from "#contract/app-api/note.ts";
import { heldSlotsResponse, holdResponse, slotSearchResponse, type SlotSelection } from "#contract/app-api/slots.ts";
import type { Slot } from "#contract/clinic-api/schedule.ts";
import { personKeyOf } from "../auth/person-key.ts";
import { ORG_A_ID } from "../../emulator/world/identities.ts";
import type { EhrNote } from "../../emulator/world/types.ts";
import { DEFAULT_RETRY } from "../clinic/upstream-send.ts";
import { createStore } from "../store/create-store.ts";
import type { Store } from "../store/store.ts";
import { createBffHarness, createMovableClock, type BffHarness } from "../testing/bff-harness.ts";
import { isHoldOfSlot } from "../schedule/held-slots.ts";
import { createVirtualTimeouts } from "../testing/virtual-timeouts.ts";
import { dateWindow, errorOf, seededSearchTarget } from "./testing/fault-matrix-support.ts";

// The fault matrix (docs/fault-matrix.md), upstream half: faults of the Clinic Data
// Service injected through `/_sandbox/faults` into the emulator, the real
// BFF in front of it, and the BFF's answer the SPA turns into what the user
// sees (docs/fault-matrix.md). Every row also checks that nothing is lost or
// corrupted: the upstream calls the fault caused, the EHR's state, the store.

let store: Store;
let h: BffHarness;
let typeId: string;
let facilityId: string;

beforeAll(async () => {
  store = await createStore();
  h = await createBffHarness(store);
  ({ typeId, facilityId } = await seededSearchTarget(h));
}, 60_000);

afterAll(async () => {
  await h.close();
  await store.close();
});

beforeEach(async () => {
  await h.reset();
});

const DATA_KEY = "svc_dev_ak_";

function slotPath(days = 7): string {
  return `/api/slots?${new URLSearchParams({ appointmentTypeId: typeId, facilityIds: facilityId, ...dateWindow(days) }).toString()}`;
}

async function searchSlots(harness: BffHarness, path = slotPath()): Promise<Response> {
  return harness.api(path, { token: await harness.hostToken() });
}

/**
 * The first slot of the window the user has no hold of in Tandem's store: the
 * emulator is reset before each test but the store is not, and a slot the
 * user holds is refused as `already_held` before the service is asked.
 */
async function firstSlot(harness: BffHarness): Promise<Slot> {
  const response = await searchSlots(harness);
  expect(response.status).toBe(200);
  const stored = await harness.store.holds.listActive(ORG_A_ID, physicianKey(harness), 0);
  const slot = z.parse(slotSearchResponse, await response.json()).slots.find((candidate) => !stored.some((held) => isHoldOfSlot(held, candidate)));
  if (!slot) throw new Error("no free slot in the window");
  return slot;
}

const selectionOf = (slot: Slot): SlotSelection => ({ providerId: slot.providerId, facilityId: slot.facilityId, startsAt: slot.startsAt, endsAt: slot.endsAt, appointmentTypeId: typeId });

function orgState(harness: BffHarness) {
  const org = harness.emulator.emulator.state.org(ORG_A_ID);
  if (!org) throw new Error("no org A");
  return org;
}

function activeHoldsOn(harness: BffHarness, slot: Slot): number {
  const state = harness.emulator.emulator.state;
  return state.activeHolds(orgState(harness)).filter((hold) => Date.parse(hold.startsAt) === Date.parse(slot.startsAt) && hold.providerId.replace(/-/g, "") === slot.providerId.replace(/^prv_/, "")).length;
}

/** Every hold record the store keeps of the default user's (`hostToken()`'s physician), expired ones too. */
async function storedHolds(harness: BffHarness): Promise<number> {
  return (await harness.store.holds.listActive(ORG_A_ID, physicianKey(harness), 0)).length;
}

/** The person key (ADR 0024) of the default user, `hostToken()`'s physician. */
function physicianKey(harness: BffHarness): string {
  const physician = harness.userWithRole("Physician");
  return personKeyOf({ providerId: physician, accountId: physician });
}

function editableNote(harness: BffHarness): EhrNote {
  const note = orgState(harness).ehr.notes.find((candidate) => candidate.status === "awaiting_sign");
  if (!note) throw new Error("no unsigned note in the seed");
  return note;
}

/** A write: each spends its own host token (DESIGN.md "The host bridge" 3). */
async function write(harness: BffHarness, path: string, method: string, body: unknown, noteId?: string): Promise<Response> {
  return harness.api(path, { token: await harness.hostToken(noteId ? { noteId } : {}), method, body });
}

/** Drafts are merged by field: a test that checks what is kept starts from none (an earlier test's fields would stay). */
async function startWithoutDraft(harness: BffHarness, noteId: string): Promise<void> {
  expect((await write(harness, `/api/notes/${noteId}/draft`, "DELETE", undefined, noteId)).status).toBe(200);
}

describe("429 burst with Retry-After on a read (slot search)", () => {
  it("a short burst is absorbed: the BFF waits Retry-After once, users searching together share that read, and everyone gets the list", async () => {
    await h.fault({ method: "GET", path: "/v2/schedule/slots", status: 429, count: 1 });
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 5 }, () => searchSlots(h)));
    const elapsed = Date.now() - started;
    for (const answer of answers) expect(answer.status).toBe(200);
    const lists = await Promise.all(answers.map(async (answer) => z.parse(slotSearchResponse, await answer.json())));
    const direct = await h.emulator.get("GET /v2/schedule/slots", { query: { appointmentTypeId: typeId, facilityIds: facilityId, ...dateWindow() } });
    for (const list of lists) expect(list.slots).toEqual(direct.slots);
    // Retry-After: 1 was waited out, once, for all five users.
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(h.upstreamCount("GET", "/v2/schedule/slots")).toBe(2);
  });

  it("a long burst ends in 503 rate_limited with retry_after_seconds, after 1 + 2 upstream tries however many users ask: no retry storm", async () => {
    await h.fault({ method: "GET", path: "/v2/schedule/slots", status: 429, count: 30 });
    const answers = await Promise.all(Array.from({ length: 5 }, () => searchSlots(h)));
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toBe("1");
      const body = await errorOf(answer);
      expect(body).toMatchObject({ code: "rate_limited", retry_after_seconds: 1, message: "The Clinic Data Service is busy; try again in 1 s" });
      expect(body.trace_id).toMatch(/^tdm_/);
      expect(body.text).not.toContain(DATA_KEY);
    }
    expect(h.upstreamCount("GET", "/v2/schedule/slots")).toBe(1 + DEFAULT_RETRY.rateLimited);
    // Once the burst is over, the user's Try again gets the list.
    await h.emulator.sandbox("DELETE", "/faults");
    expect((await searchSlots(h)).status).toBe(200);
  });
});

describe("the service's limit used up for longer than the BFF waits (an hour in the test)", () => {
  let limited: BffHarness;
  const clock = createMovableClock();

  beforeAll(async () => {
    // The emulator's own limiter, 4 requests an hour; both clocks start just after the hour, so its Retry-After and reset are about 3,600 s away.
    // The hour is taken from the pinned clocks (ADR 0011), not the wall clock.
    limited = await createBffHarness(store, { now: clock.now, emulatorSettings: { rateLimit: 4, rateLimitWindowSeconds: 3600 } });
    const hourStart = Math.ceil(limited.emulator.emulator.clock.now() / 3_600_000) * 3_600_000 + 1_000;
    clock.advance(hourStart - clock.now());
    await limited.emulator.sandbox("POST", "/clock", { now: new Date(hourStart).toISOString() });
  });

  afterAll(async () => {
    await limited.close();
  });

  it("the answers said what remained, so the next search fails at once with 503 rate_limited without reaching the service; the wait is held to one window (60 s), and a search after it meets the service's 429 once", async () => {
    // Four different searches use the hour's budget (each its own read: nothing comes from the cache); the fourth answer says 0 remain.
    for (let days = 1; days <= 4; days++) expect((await searchSlots(limited, slotPath(days))).status).toBe(200);
    const before = limited.upstreamCount("GET", "/v2/schedule/slots");
    const answer = await searchSlots(limited, slotPath(5));
    expect(answer.status).toBe(503);
    const body = await errorOf(answer);
    expect(body.code).toBe("rate_limited");
    // X-RateLimit-Reset an hour away is trusted for one window at most (server/upstream-budget/service-limit-report.ts).
    expect(body.retry_after_seconds).toBeGreaterThanOrEqual(59);
    expect(body.retry_after_seconds).toBeLessThanOrEqual(60);
    expect(Number(answer.headers.get("retry-after"))).toBe(body.retry_after_seconds);
    expect(limited.upstreamCount("GET", "/v2/schedule/slots") - before).toBe(0);

    // A window later (the BFF's clock only: the service is still in its hour), the BFF asks again: one 429, not retried, the wait again held to 60 s.
    clock.advance(60_000);
    const later = await searchSlots(limited, slotPath(6));
    expect(later.status).toBe(503);
    expect(await errorOf(later)).toMatchObject({ code: "rate_limited", retry_after_seconds: 60 });
    expect(limited.upstreamCount("GET", "/v2/schedule/slots") - before).toBe(1);
    expect(limited.upstream.at(-1)?.status).toBe(429);
  });
});

describe("429 on a write (hold)", () => {
  it("is retried once after Retry-After, because a 429 was not processed (ADR 0005): exactly one hold", async () => {
    const slot = await firstSlot(h);
    await h.fault({ method: "POST", path: "/v4/schedule/holds", status: 429, count: 1 });
    const response = await write(h, "/api/holds", "POST", selectionOf(slot));
    expect(response.status).toBe(200);
    const { held } = z.parse(holdResponse, await response.json());
    expect(h.upstreamCount("POST", "/v4/schedule/holds")).toBe(2);
    expect(activeHoldsOn(h, slot)).toBe(1);
    expect(await h.store.holds.get(ORG_A_ID, held.id)).not.toBeNull();
  });

  it("a 5xx on the hold is not retried blindly: one upstream POST, 503 server_unresponsive, the outcome unknown (not 'nothing held'); Try again holds it", async () => {
    const slot = await firstSlot(h);
    const recorded = await storedHolds(h);
    await h.fault({ method: "POST", path: "/v4/schedule/holds", code: "server_unresponsive", count: 1 });
    const response = await write(h, "/api/holds", "POST", selectionOf(slot));
    expect(response.status).toBe(503);
    const body = await errorOf(response);
    expect(body.code).toBe("outcome_unknown");
    expect(body.message).toMatch(/^The EHR reported a failure after the request reached it\. The EHR may have held this slot for you\./);
    expect(h.upstreamCount("POST", "/v4/schedule/holds")).toBe(1);
    expect(activeHoldsOn(h, slot)).toBe(0);
    expect(await storedHolds(h)).toBe(recorded);
    expect((await write(h, "/api/holds", "POST", selectionOf(slot))).status).toBe(200);
    expect(activeHoldsOn(h, slot)).toBe(1);
    expect(await storedHolds(h)).toBe(recorded + 1);
    // Try again was that attempt sent again under its key: it is the hold now, no longer one the EHR may have made.
    expect(await store.writeIntents.listUnsettled(ORG_A_ID, "hold", { userId: physicianKey(h) })).toEqual([]);
  });
});

describe("500s", () => {
  it("a transient 500 on a read is retried and the user gets the list", async () => {
    await h.fault({ method: "GET", path: "/v2/schedule/slots", status: 500, count: 1 });
    const response = await searchSlots(h);
    expect(response.status).toBe(200);
    expect(z.parse(slotSearchResponse, await response.json()).slots.length).toBeGreaterThan(0);
    expect(h.upstreamCount("GET", "/v2/schedule/slots")).toBe(2);
  });

  it("a read the cache still holds (within maxStalenessSeconds) does not meet the fault at all", async () => {
    expect((await searchSlots(h)).status).toBe(200);
    await h.fault({ method: "GET", path: "/v2/schedule/slots", status: 500, count: 10 });
    expect((await searchSlots(h)).status).toBe(200);
    expect(h.upstreamCount("GET", "/v2/schedule/slots")).toBe(1);
  });

  it("a persistent 500 on a read answers 502 with the service's trace id, after 1 + 2 tries; no data key in the body or the log", async () => {
    await h.fault({ method: "GET", path: "/v2/schedule/slots", status: 500, count: 10 });
    const response = await searchSlots(h);
    expect(response.status).toBe(502);
    const body = await errorOf(response);
    const calls = h.upstream.filter((call) => call.path === "/v2/schedule/slots");
    expect(calls).toHaveLength(1 + DEFAULT_RETRY.reads);
    expect(body.code).toBe("internal_error");
    expect(body.trace_id).toMatch(/^tdm_/);
    expect(body.upstream_trace_id).toMatch(/^trc_/);
    expect(body.upstream_trace_id).toBe(calls.at(-1)?.traceId);
    expect(body.text).not.toContain(DATA_KEY);
    expect(body.text).not.toMatch(/bearer/i);
    expect(h.logLines.join("\n")).not.toContain(DATA_KEY);
  });

  it("a 500 on a write (note PATCH) is not retried: 502 outcome_unknown (never \"not saved\"), the draft stays, the note is unchanged", async () => {
    const note = editableNote(h);
    const before = note.soapNote.exam.otherExamComments;
    const draft = { fields: { otherExamComments: "Gait steady after the 500." }, baseline: { otherExamComments: before }, noteVersion: null };
    expect((await write(h, `/api/notes/${note.id}/draft`, "PUT", draft, note.id)).status).toBe(200);
    await h.fault({ method: "PATCH", path: "/v1/notes/{noteId}", status: 500, count: 1 });
    const response = await write(h, `/api/notes/${note.id}`, "PATCH", { otherExamComments: "Gait steady after the 500.", baseline: { otherExamComments: before } }, note.id);
    expect(response.status).toBe(502);
    expect(await errorOf(response)).toMatchObject({ code: "outcome_unknown", failed_system: "service" });
    expect(h.upstreamCount("PATCH", `/v1/notes/${note.id}`)).toBe(1);
    expect(editableNote(h).soapNote.exam.otherExamComments).toBe(before);
    const kept = await h.api(`/api/notes/${note.id}/draft`, { token: await h.hostToken({ noteId: note.id }) });
    expect(z.parse(noteDraftResponse, await kept.json()).draft?.fields).toEqual(draft.fields);
  });
});

describe("502 on tasks", () => {
  it("answers 502 outcome_unknown and stores no task; a retry needs the user's confirmation, then creates and stores exactly one", async () => {
    const note = editableNote(h);
    const listed = async () => z.parse(noteTasksResponse, await (await h.api(`/api/notes/${note.id}/tasks`, { token: await h.hostToken({ noteId: note.id }) })).json()).tasks;
    const storedBefore = (await listed()).length;
    const request = { notes: "Call the patient with the lab results", assigneeIds: [h.userWithRole("Medical Assistant")] };
    await h.fault({ method: "POST", path: "/v2/tasks", status: 502, count: 1 });

    const token = await h.hostToken({ noteId: note.id });
    const failed = await h.api(`/api/notes/${note.id}/tasks`, { token, method: "POST", body: request });
    expect(failed.status).toBe(502);
    const body = await errorOf(failed);
    expect(body.code).toBe("outcome_unknown");
    expect(body.message).toBe(
      "The EHR reported a failure after the request reached it. The EHR may have created the task. Check the note's tasks in the EHR before sending it again: Tandem lists it as unconfirmed. Your text is kept.",
    );
    expect(body.upstream_trace_id).toMatch(/^trc_/);
    expect(await listed()).toHaveLength(storedBefore);
    expect(orgState(h).tasks.filter((task) => task.noteId === note.id)).toHaveLength(0);

    // The failed write spent its token: the SPA asks the host for a fresh one.
    const replayed = await h.api(`/api/notes/${note.id}/tasks`, { token, method: "POST", body: request });
    expect(replayed.status).toBe(401);
    expect((await errorOf(replayed)).code).toBe("token_replayed");

    const unconfirmed = await write(h, `/api/notes/${note.id}/tasks`, "POST", request, note.id);
    expect(unconfirmed.status).toBe(409);
    expect((await errorOf(unconfirmed)).code).toBe("possible_duplicate");
    const retried = await write(h, `/api/notes/${note.id}/tasks`, "POST", { ...request, confirmPossibleDuplicate: true }, note.id);
    expect(retried.status).toBe(200);
    const { task } = z.parse(taskResponse, await retried.json());
    expect((await listed()).filter((listedTask) => listedTask.id === task.id)).toHaveLength(1);
    expect(await listed()).toHaveLength(storedBefore + 1);
    expect(orgState(h).tasks.filter((created) => created.noteId === note.id)).toHaveLength(1);
    expect(h.upstreamCount("POST", "/v2/tasks")).toBe(2);
  });
});

describe("server_unresponsive", () => {
  it("on the note PATCH: 503 outcome_unknown, the draft kept in the store, the note unchanged upstream, one PATCH sent; Try again saves and clears the draft", async () => {
    const note = editableNote(h);
    const before = structuredClone(note.soapNote);
    const text = "Plan: start lisinopril 10 mg daily; recheck BP in two weeks.";
    const draft = { fields: { impressionsPlansComments: text }, baseline: { impressionsPlansComments: before.impressionsPlansComments }, noteVersion: note.version };
    await startWithoutDraft(h, note.id);
    expect((await write(h, `/api/notes/${note.id}/draft`, "PUT", draft, note.id)).status).toBe(200);
    await h.fault({ method: "PATCH", path: "/v1/notes/{noteId}", code: "server_unresponsive", count: 1 });

    const change = { impressionsPlansComments: text, baseline: { impressionsPlansComments: before.impressionsPlansComments } };
    const failed = await write(h, `/api/notes/${note.id}`, "PATCH", change, note.id);
    expect(failed.status).toBe(503);
    const body = await errorOf(failed);
    expect(body.code).toBe("outcome_unknown");
    expect(body.message).toBe("The EHR reported a failure after the request reached it. The EHR may have saved the change. Your text is kept; the note's next read shows whether it was saved.");
    expect(h.upstreamCount("PATCH", `/v1/notes/${note.id}`)).toBe(1);
    expect(editableNote(h).soapNote).toEqual(before);
    const kept = await h.api(`/api/notes/${note.id}/draft`, { token: await h.hostToken({ noteId: note.id }) });
    expect(z.parse(noteDraftResponse, await kept.json()).draft?.fields).toEqual({ impressionsPlansComments: text });

    const saved = await write(h, `/api/notes/${note.id}`, "PATCH", change, note.id);
    expect(saved.status).toBe(200);
    expect(z.parse(noteResponse, await saved.json()).note.soapNote.impressionsPlansComments).toBe(text);
    const after = await h.api(`/api/notes/${note.id}/draft`, { token: await h.hostToken({ noteId: note.id }) });
    expect(z.parse(noteDraftResponse, await after.json()).draft).toBeNull();
  });

  it("on a read: one 503 is retried and the note opens; a lasting one answers 503 server_unresponsive after 1 + 2 tries", async () => {
    const note = editableNote(h);
    const read = async () => h.api(`/api/notes/${note.id}`, { token: await h.hostToken({ noteId: note.id }) });
    await h.fault({ method: "GET", path: "/v1/notes/{noteId}", code: "server_unresponsive", count: 1 });
    const opened = await read();
    expect(opened.status).toBe(200);
    expect(z.parse(noteResponse, await opened.json()).note.id).toBe(note.id);
    expect(h.upstreamCount("GET", `/v1/notes/${note.id}`)).toBe(2);

    await h.fault({ method: "GET", path: "/v1/notes/{noteId}", code: "server_unresponsive", count: 10 });
    const failed = await read();
    expect(failed.status).toBe(503);
    expect((await errorOf(failed)).code).toBe("server_unresponsive");
    expect(h.upstreamCount("GET", `/v1/notes/${note.id}`)).toBe(2 + 1 + DEFAULT_RETRY.reads);
  });
});

describe("5 s latency (scaled: the BFF's 10 s timeout becomes 300 ms, the service's delay 600 ms)", () => {
  // Both durations run on virtual time (ADR 0011, `virtual-timeouts.ts`): the
  // client's timeout fires when the service's delay reaches it, so a loaded
  // machine can neither time out a prompt answer nor answer a slow one in time.
  const TIMEOUT_MS = 300;
  const timeouts = createVirtualTimeouts();
  const realTimeout = AbortSignal.timeout.bind(AbortSignal);
  let slow: BffHarness;

  beforeAll(async () => {
    vi.spyOn(AbortSignal, "timeout").mockImplementation((ms) => (ms === TIMEOUT_MS ? timeouts.signal(ms) : realTimeout(ms)));
    slow = await createBffHarness(store, { virtualTimeouts: timeouts, clinicOptions: { timeoutMs: TIMEOUT_MS, retry: { baseDelayMs: 10 } } });
  });

  afterAll(async () => {
    await slow.close();
    vi.restoreAllMocks();
  });

  beforeEach(async () => {
    await slow.reset();
  });

  it("a delay below the timeout only delays the answer", async () => {
    await slow.fault({ method: "GET", path: "/v2/schedule/slots", latencyMs: 100, count: 1 });
    const timedOut = timeouts.timedOut;
    const response = await searchSlots(slow);
    expect(response.status).toBe(200);
    expect(slow.upstreamCount("GET", "/v2/schedule/slots")).toBe(1);
    expect(timeouts.timedOut).toBe(timedOut);
  });

  it("one slow answer: the read times out and its retry answers", async () => {
    await slow.fault({ method: "GET", path: "/v2/schedule/slots", latencyMs: 600, count: 1 });
    const timedOut = timeouts.timedOut;
    const response = await searchSlots(slow);
    expect(response.status).toBe(200);
    expect(z.parse(slotSearchResponse, await response.json()).slots.length).toBeGreaterThan(0);
    expect(slow.upstreamCount("GET", "/v2/schedule/slots")).toBe(2);
    expect(timeouts.timedOut - timedOut).toBe(1);
  });

  it("a service that stays slow: 504 upstream_timeout after 1 + 2 tries of the timeout each", async () => {
    await slow.fault({ method: "GET", path: "/v2/schedule/slots", latencyMs: 600, count: 10 });
    const response = await searchSlots(slow);
    expect(response.status).toBe(504);
    const body = await errorOf(response);
    expect(body.code).toBe("upstream_timeout");
    expect(body.message).toBe("The Clinic Data Service did not answer in time");
    expect(slow.upstreamCount("GET", "/v2/schedule/slots")).toBe(1 + DEFAULT_RETRY.reads);
  });

  it("a slow hold is not retried, and the answer says the EHR may have held it: the user's until it frees itself, never 'not held' (issue 35 item 4)", async () => {
    const slot = await firstSlot(slow);
    const recorded = await storedHolds(slow);
    await slow.fault({ method: "POST", path: "/v4/schedule/holds", latencyMs: 600, count: 1 });
    const response = await write(slow, "/api/holds", "POST", selectionOf(slot));
    expect(response.status).toBe(504);
    const body = await errorOf(response);
    expect(body.code).toBe("outcome_unknown");
    expect(body.message).toMatch(
      /^The EHR did not answer in time\. The EHR may have held this slot for you\. Tandem lists it with your holds as not confirmed, and it frees itself by \d{1,2}:\d{2} [AP]M at the latest\.$/,
    );
    expect(slow.upstreamCount("POST", "/v4/schedule/holds")).toBe(1);
    await slow.upstreamSettled();
    // The service carried the hold out after the BFF gave up: one hold (not two), which expires by itself.
    expect(activeHoldsOn(slow, slot)).toBe(1);
    // Tandem never learnt its id: no record of a hold, but the attempt is listed as the user's, not confirmed.
    expect(await storedHolds(slow)).toBe(recorded);
    const listed = z.parse(heldSlotsResponse, await (await slow.api("/api/holds", { token: await slow.hostToken() })).json());
    expect(listed.maybeHeld.map((maybe) => maybe.slot.startsAt)).toContain(slot.startsAt);
  });

  it("a slow task create is not retried, and the user is not told it was not created: the EHR may have taken it", async () => {
    const note = editableNote(slow);
    await slow.fault({ method: "POST", path: "/v2/tasks", latencyMs: 600, count: 1 });
    const response = await write(slow, `/api/notes/${note.id}/tasks`, "POST", { notes: "Fax the referral", assigneeIds: [slow.userWithRole("Medical Assistant")] }, note.id);
    expect(response.status).toBe(504);
    const body = await errorOf(response);
    expect(body.code).toBe("outcome_unknown");
    expect(body.message).toBe(
      "The EHR did not answer in time. The EHR may have created the task. Check the note's tasks in the EHR before sending it again: Tandem lists it as unconfirmed. Your text is kept.",
    );
    expect(slow.upstreamCount("POST", "/v2/tasks")).toBe(1);
    // The service finishes the request after the BFF gave up: the task exists in the EHR.
    await slow.upstreamSettled();
    expect(orgState(slow).tasks.filter((task) => task.noteId === note.id)).toHaveLength(1);
  });

  it("a slow note PATCH is not retried: the draft stays, and the answer says the outcome is unknown", async () => {
    const note = editableNote(slow);
    const before = note.soapNote.stickyNote.description;
    const text = "Interpreter booked for the next visit";
    await startWithoutDraft(slow, note.id);
    expect((await write(slow, `/api/notes/${note.id}/draft`, "PUT", { fields: { stickyNoteDescription: text }, baseline: { stickyNoteDescription: before }, noteVersion: null }, note.id)).status).toBe(200);
    await slow.fault({ method: "PATCH", path: "/v1/notes/{noteId}", latencyMs: 600, count: 1 });
    const response = await write(slow, `/api/notes/${note.id}`, "PATCH", { stickyNoteDescription: text }, note.id);
    expect(response.status).toBe(504);
    const body = await errorOf(response);
    expect(body.code).toBe("outcome_unknown");
    expect(body.message).toMatch(/The EHR may have saved the change/);
    expect(slow.upstreamCount("PATCH", `/v1/notes/${note.id}`)).toBe(1);
    const kept = await slow.api(`/api/notes/${note.id}/draft`, { token: await slow.hostToken({ noteId: note.id }) });
    expect(z.parse(noteDraftResponse, await kept.json()).draft?.fields).toEqual({ stickyNoteDescription: text });
    // The service's late PATCH is carried out before the next test resets it.
    await slow.upstreamSettled();
  });
});
