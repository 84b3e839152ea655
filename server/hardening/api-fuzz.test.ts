import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { count } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { appErrorBody } from "#contract/app-api/errors.ts";
import { personKeyOf } from "../auth/person-key.ts";
import { ORG_A_ID, ORG_B_ID, ORG_C_ID } from "../../emulator/world/identities.ts";
import type { EhrNote } from "../../emulator/world/types.ts";
import { storeOnDatabase } from "../store/create-store.ts";
import { openDatabase, type DatabaseHandle } from "../store/database.ts";
import { webhookInbox } from "../store/schema.ts";
import type { Store } from "../store/store.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";
import {
  applyTamper,
  authorizationAround,
  dateLike,
  dateTimeLike,
  forgedJwt,
  fuzzText,
  headerText,
  hugeString,
  idLike,
  pathSegment,
  queryString,
  queryValue,
  rawBody,
  shapedObject,
  tokenTamper,
  type RawBody,
} from "./testing/fuzz-arbitraries.ts";

// Fuzz: generated requests against every /api route (query
// strings, bodies, headers, path ids, huge and unicode values). Whatever
// comes in: never a 5xx (the emulator is not faulted, so one is a BFF bug),
// a 4xx is the BFF's error body with a message, nothing leaks the data key or
// a stack trace, and a refused request leaves the store and the emulator's
// written state as they were. fast-check picks the seed and prints it on
// failure. The route sweep (testing/route-sweep.ts, run by bad-input.test.ts
// and bench/api-fuzz-bench.ts) sends the same kinds of input to every /api
// and /auth route and method, standalone session cookie included, on both
// store engines.

const DATA_KEY = "svc_dev_ak_5a0d1e2f3a4b5c6d7e8f90a1b2c3d4e5";
const STACK_FRAME = /\bat [^\s()]+ \([^)]*:\d+:\d+\)|\bat (?:file:\/\/|node:|\/)[^\s]*:\d+:\d+/;
const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const WRITABLE_FIELDS = ["additionalHpiComments", "impressionsPlansComments", "otherExamComments", "stickyNoteDescription"] as const;

let handle: DatabaseHandle;
let store: Store;
let harness: BffHarness;
let note: EhrNote;
let physicianId: string;
let readToken: string;
/** Ids from the seed, so that near-valid inputs get past validation to the service. */
let seedIds: { providers: string[]; facilities: string[]; appointmentTypes: string[] };

beforeAll(async () => {
  handle = await openDatabase({});
  store = storeOnDatabase(handle);
  // A built SPA of its own: the fuzz must not depend on whether `npm run build` ran before the unit tests (a fresh clone has no dist/).
  const distDir = mkdtempSync(join(tmpdir(), "tandem-fuzz-dist-"));
  writeFileSync(join(distDir, "index.html"), "<!doctype html><title>Tandem</title>");
  harness = await createBffHarness(store, { configOverrides: { distDir } });
  // No webhook target: nothing but the fuzzed requests changes the store.
  harness.emulator.emulator.dispatcher.configure(null);
  const org = orgA();
  const found = org.ehr.notes.find((candidate) => candidate.status === "awaiting_sign" && candidate.images.length > 0);
  if (!found) throw new Error("no awaiting_sign note with images in the seed");
  note = found;
  physicianId = harness.userWithRole("Physician");
  seedIds = {
    providers: org.ehr.providers.slice(0, 4).map((provider) => provider.id),
    facilities: org.ehr.facilities.map((facility) => facility.id),
    appointmentTypes: org.ehr.appointmentTypes.map((type) => type.id),
  };
}, 60_000);

// A host token lives 5 minutes: each test reads with a fresh one.
beforeEach(async () => {
  readToken = await token();
});

afterAll(async () => {
  await harness.close();
  await store.close();
});

function orgA() {
  const org = harness.emulator.emulator.state.org(ORG_A_ID);
  if (!org) throw new Error("no org A");
  return org;
}

/** A physician's token with the note and its patient in context; writes need a fresh one each. */
const token = () => harness.hostToken({ noteId: note.id, patientId: note.patient.id, userId: physicianId });

/** What a write could touch: the store's rows of this note and user (the user's holds too), the inbox, and the emulator's note, holds and tasks. */
async function snapshot() {
  const org = orgA();
  const current = org.ehr.notes.find((candidate) => candidate.id === note.id);
  const [draft, createdTasks, storedHolds, appointmentStates, inbox] = await Promise.all([
    store.noteDrafts.get(ORG_A_ID, personKeyOf({ providerId: physicianId, accountId: physicianId }), note.id),
    store.tasks.listByNote(ORG_A_ID, note.id),
    // Every record of the user's holds, expired ones too (active at the epoch).
    store.holds.listActive(ORG_A_ID, personKeyOf({ providerId: physicianId, accountId: physicianId }), 0),
    store.appointmentStates.list(ORG_A_ID),
    handle.db.select({ rows: count() }).from(webhookInbox),
  ]);
  return structuredClone({
    draft,
    createdTasks,
    storedHolds,
    appointmentStates,
    inboxRows: inbox[0]?.rows,
    note: current && { version: current.version, status: current.status, soapNote: current.soapNote, images: current.images },
    holds: [...org.holds.values()],
    emulatorTasks: org.tasks,
  });
}

interface FuzzRequest {
  method: string;
  path: string;
  headers?: Record<string, string | undefined>;
  body?: RawBody;
}

const clip = (text: string, length = 300) => (text.length > length ? `${text.slice(0, length)}… (${text.length} chars)` : text);

function describeRequest(request: FuzzRequest, status?: number, answer?: string): string {
  const headers = Object.entries(request.headers ?? {}).map(([name, value]) => `${name}: ${clip(String(value), 80)}`);
  const body = request.body ? `\n[${String(request.body.contentType)}] ${clip(String(request.body.text))}` : "";
  return `${request.method} ${clip(request.path)}\n${headers.join("\n")}${body}${status === undefined ? "" : `\n→ ${status} ${clip(answer ?? "", 600)}`}`;
}

/** The request as a client would build it; null when `Request` itself refuses it (it never reaches the BFF). */
function buildRequest(request: FuzzRequest): Request | null {
  const withBody = !["GET", "HEAD"].includes(request.method.toUpperCase()) && request.body?.text !== undefined;
  try {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers ?? {})) if (value !== undefined) headers.set(name, value);
    if (request.body?.contentType !== undefined) headers.set("content-type", request.body.contentType);
    return new Request(`http://localhost${request.path}`, { method: request.method, headers, ...(withBody && { body: request.body?.text }) });
  } catch {
    return null;
  }
}

interface Answer {
  status: number;
  text: string;
  error: z.infer<typeof appErrorBody> | null;
}

/**
 * Sends one request and checks what must hold for every answer; a refused
 * (4xx) request must leave {@link snapshot} as it was.
 */
async function send(request: FuzzRequest, options: { errorBody?: boolean } = {}): Promise<Answer | null> {
  const built = buildRequest(request);
  if (!built) return null;
  const before = await snapshot();
  const response = await harness.bff.app.fetch(built);
  const text = await response.text();
  const context = describeRequest(request, response.status, text);
  expect(response.status, context).toBeLessThan(500);
  const headerBlock = JSON.stringify([...response.headers]);
  expect(`${headerBlock}\n${text}`.includes(DATA_KEY), context).toBe(false);
  expect(STACK_FRAME.test(text) || STACK_FRAME.test(headerBlock), context).toBe(false);
  expect(text.includes(process.cwd()), context).toBe(false);
  let error: Answer["error"] = null;
  if (response.status >= 400) {
    // `..` segments can lead out of /api, where Hono's plain 404 answers.
    const { pathname } = new URL(built.url);
    const underApi = pathname === "/api" || pathname.startsWith("/api/");
    if (options.errorBody !== false && underApi && built.method !== "HEAD") {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = text;
      }
      const parsed = z.safeParse(appErrorBody, json);
      expect(parsed.success, context).toBe(true);
      if (parsed.success) {
        error = parsed.data;
        expect(parsed.data.message.trim().length, context).toBeGreaterThan(0);
        expect(parsed.data.trace_id.length, context).toBeGreaterThan(0);
      }
    }
    expect(await snapshot(), context).toEqual(before);
  }
  return { status: response.status, text, error };
}

/** The GET routes (the README's table); `{id}` is where the note's id goes. */
const GET_ROUTES = [
  "/api/session",
  "/api/providers",
  "/api/facilities",
  "/api/appointment-types",
  "/api/context/patient",
  "/api/context/patient/appointments",
  "/api/slots",
  "/api/holds",
  "/api/availability",
  "/api/availability/load",
  "/api/notes/{id}",
  "/api/notes/{id}/draft",
  "/api/notes/{id}/tasks",
  "/api/notes/{id}/images",
  "/api/notes/{id}/changes",
] as const;

/** Every route and its method, for telling an unknown method or path from a real one. */
const ROUTES_WITH_WRITES: readonly { method: string; path: string }[] = [
  ...GET_ROUTES.map((path) => ({ method: "GET", path })),
  { method: "PATCH", path: "/api/notes/{id}" },
  { method: "PUT", path: "/api/notes/{id}/draft" },
  { method: "DELETE", path: "/api/notes/{id}/draft" },
  { method: "POST", path: "/api/notes/{id}/tasks" },
  { method: "PUT", path: "/api/notes/{id}/view" },
  { method: "POST", path: "/api/slots/check" },
  { method: "POST", path: "/api/holds" },
];

const QUERY_KEYS = ["search", "appointmentTypeId", "facilityIds", "providerIds", "facilityId", "providerId", "startDate", "endDate", "slotLengthMinutes", "isNewPatient", "consistency", "page", "pageSize"];

const withNote = (route: string) => route.replace("{id}", note.id);

/** A valid token's Authorization header for a read, or a fresh token for a write (a write spends its token). */
async function authorization(method: string): Promise<string> {
  return `Bearer ${READ_METHODS.has(method) ? readToken : await token()}`;
}

const seedId = (kind: keyof typeof seedIds) => fc.constantFrom(...seedIds[kind]);
const anyIdForm = (kind: keyof typeof seedIds) =>
  fc.oneof(
    { arbitrary: seedId(kind), weight: 4 },
    { arbitrary: seedId(kind).map((id) => id.toUpperCase()), weight: 1 },
    { arbitrary: fc.tuple(seedId(kind), fc.constantFrom("prv", "fac", "atp")).map(([id, prefix]) => `${prefix}_${id.replace(/-/g, "")}`), weight: 2 },
    { arbitrary: idLike, weight: 2 },
  );

/** A query that is valid but for a few generated changes: a field junk, left out, repeated, or an unknown one added. */
function shapedQuery(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const entries = Object.entries(fields).map(([name, valid]) =>
    fc
      .oneof(
        { arbitrary: valid.map((value) => [value]), weight: 6 },
        { arbitrary: queryValue().map((value) => [value]), weight: 1 },
        { arbitrary: fc.constant<string[]>([]), weight: 1 },
        { arbitrary: fc.tuple(valid, queryValue()).map((values) => [...values]), weight: 1 },
      )
      .map((values) => values.map((value) => `${encodeURIComponent(name)}=${encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, "\uFFFD"))}`)),
  );
  return fc.tuple(fc.tuple(...entries), queryString([])).map(([parts, extra]) => {
    const joined = parts.flat().join("&");
    return `?${joined}${extra ? `&${extra.slice(1)}` : ""}`;
  });
}

/** A date `days` after the harness's pinned now (ADR 0011), not the wall clock's. */
function localDateIn(days: number): string {
  return new Date(harness.now() + days * 86_400_000).toISOString().slice(0, 10);
}

describe("query strings", () => {
  it("never fails on random query strings on any GET route", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...GET_ROUTES), queryString(QUERY_KEYS), async (route, query) => {
        await send({ method: "GET", path: `${withNote(route)}${query}`, headers: { authorization: `Bearer ${readToken}` } });
      }),
      { numRuns: 60 },
    );
  });

  it("never fails on near-valid slot, availability and picker queries", async () => {
    const window = fc.integer({ min: -30, max: 400 }).map(localDateIn);
    const slots = shapedQuery({
      appointmentTypeId: anyIdForm("appointmentTypes"),
      facilityIds: fc.array(anyIdForm("facilities"), { minLength: 1, maxLength: 3 }).map((ids) => ids.join(",")),
      providerIds: fc.array(anyIdForm("providers"), { minLength: 1, maxLength: 3 }).map((ids) => ids.join(",")),
      startDate: fc.oneof(window, dateLike),
      endDate: fc.oneof(window, dateLike),
      slotLengthMinutes: fc.oneof(fc.integer({ min: 0, max: 600 }).map(String), fc.constantFrom("15", "30", "1e2", "15.5", "-0", "0x1e")),
      isNewPatient: fc.constantFrom("true", "false", "1", "TRUE", ""),
    }).map((query) => `/api/slots${query}`);
    const availability = fc
      .tuple(
        fc.constantFrom("/api/availability", "/api/availability/load"),
        shapedQuery({
          facilityId: anyIdForm("facilities"),
          providerId: anyIdForm("providers"),
          startDate: fc.oneof(window, dateLike),
          endDate: fc.oneof(window, dateLike),
        }),
      )
      .map(([route, query]) => `${route}${query}`);
    const pickers = fc.tuple(fc.constantFrom("/api/providers", "/api/facilities"), shapedQuery({ search: fc.oneof(fuzzText, hugeString) })).map(([route, query]) => `${route}${query}`);
    await fc.assert(
      fc.asyncProperty(fc.oneof(slots, availability, pickers), async (path) => {
        await send({ method: "GET", path, headers: { authorization: `Bearer ${readToken}` } });
      }),
      { numRuns: 60 },
    );
  });
});

describe("path ids", () => {
  const NOTE_ROUTES: readonly { method: string; route: string; body?: unknown }[] = [
    { method: "GET", route: "/api/notes/{id}" },
    { method: "PATCH", route: "/api/notes/{id}", body: { stickyNoteDescription: "fuzz" } },
    { method: "GET", route: "/api/notes/{id}/draft" },
    { method: "PUT", route: "/api/notes/{id}/draft", body: { fields: { otherExamComments: "fuzz" }, baseline: {}, noteVersion: null } },
    { method: "DELETE", route: "/api/notes/{id}/draft" },
    { method: "GET", route: "/api/notes/{id}/tasks" },
    { method: "POST", route: "/api/notes/{id}/tasks", body: { notes: "fuzz", assigneeIds: ["00000000-0000-4000-8000-000000000000"] } },
    { method: "GET", route: "/api/notes/{id}/images" },
    { method: "DELETE", route: "/api/notes/{id}/images/img_00000000000000000000000000000000" },
    { method: "GET", route: "/api/notes/{id}/changes" },
    { method: "PUT", route: "/api/notes/{id}/view", body: { noteUpdatedAt: "2026-11-17 14:00:00.000000+00", fields: { additionalHpiComments: "", impressionsPlansComments: "", otherExamComments: "", stickyNoteDescription: "" }, sectionDigests: {} } },
  ];

  const decoded = (segment: string) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  };

  it("serves a note route only for the note in the token, whatever id is in the path", async () => {
    const otherNote = fc.constantFrom(...orgA().ehr.notes.filter((candidate) => candidate.id !== note.id).slice(0, 5).map((candidate) => candidate.id));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...NOTE_ROUTES), pathSegment(fc.oneof(idLike, otherNote, fc.constant(note.id.toUpperCase()))), async ({ method, route, body }, segment) => {
        const path = route.replace("{id}", segment);
        const answer = await send({
          method,
          path,
          headers: { authorization: await authorization(method) },
          ...(body !== undefined && { body: { contentType: "application/json", text: JSON.stringify(body) } }),
        });
        // Only the token's note, in either case, may be answered with 2xx (DESIGN.md "The host bridge" 4).
        if (answer && answer.status < 300 && route.startsWith("/api/notes/{id}")) expect(decoded(segment).toLowerCase(), describeRequest({ method, path })).toBe(note.id);
      }),
      { numRuns: 60 },
    );
  });

  it("never fails on random image and hold ids", async () => {
    const target = fc.oneof(
      pathSegment().map((segment) => ({ method: "DELETE", path: `/api/notes/${note.id}/images/${segment}` })),
      pathSegment(fc.oneof(idLike, fc.constantFrom("------------------------------------", "ffffffff-ffff-ffff-ffff-ffffffffffff", "0".repeat(36)))).map((segment) => ({ method: "DELETE", path: `/api/holds/${segment}` })),
    );
    await fc.assert(
      fc.asyncProperty(target, async ({ method, path }) => {
        await send({ method, path, headers: { authorization: await authorization(method) } });
      }),
      { numRuns: 50 },
    );
  });
});

describe("JSON bodies", () => {
  const fieldText = fc.oneof(
    { arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }), weight: 4 },
    { arbitrary: fuzzText, weight: 3 },
    { arbitrary: hugeString, weight: 1 },
    { arbitrary: fc.constant("x".repeat(100_001)), weight: 1 },
  );
  const writableFields = shapedObject(Object.fromEntries(WRITABLE_FIELDS.map((field) => [field, fieldText])));
  const slot = () =>
    shapedObject({
      providerId: anyIdForm("providers"),
      facilityId: anyIdForm("facilities"),
      startsAt: dateTimeLike,
      endsAt: dateTimeLike,
      appointmentTypeId: anyIdForm("appointmentTypes"),
      slotLengthMinutes: fc.oneof(fc.integer({ min: -10, max: 1000 }), fc.constantFrom(15, 30, 2 ** 31, 1.5)),
      isNewPatient: fc.oneof(fc.boolean(), fc.constantFrom("true", 1, null)),
    });

  const ROUTES: Record<string, { method: string; path: () => string; body: () => fc.Arbitrary<unknown> }> = {
    "POST /api/slots/check": { method: "POST", path: () => "/api/slots/check", body: slot },
    "POST /api/holds": { method: "POST", path: () => "/api/holds", body: slot },
    "PATCH /api/notes/:id": {
      method: "PATCH",
      path: () => `/api/notes/${note.id}`,
      body: () =>
        fc.tuple(writableFields, fc.option(writableFields, { nil: undefined })).map(([fields, baseline]) => (baseline === undefined ? fields : { ...fields, baseline })),
    },
    "PUT /api/notes/:id/draft": {
      method: "PUT",
      path: () => `/api/notes/${note.id}/draft`,
      body: () =>
        shapedObject({
          fields: writableFields,
          baseline: writableFields,
          noteVersion: fc.oneof(fc.constant(null), fc.integer({ min: -1, max: 100 }), fc.constantFrom(2 ** 31, 2 ** 31 - 1, 2 ** 53 - 1, 1.5, -0)),
        }),
    },
    "POST /api/notes/:id/tasks": {
      method: "POST",
      path: () => `/api/notes/${note.id}/tasks`,
      body: () =>
        shapedObject({
          notes: fieldText,
          assigneeIds: fc.array(anyIdForm("providers"), { maxLength: 25 }),
          providerId: anyIdForm("providers"),
        }),
    },
  };

  it.each(Object.keys(ROUTES))("%s never fails and a refused body changes nothing", async (name) => {
    const route = ROUTES[name];
    if (!route) throw new Error(name);
    await fc.assert(
      fc.asyncProperty(rawBody(route.body()), async (body) => {
        await send({ method: route.method, path: route.path(), headers: { authorization: `Bearer ${await token()}` }, body });
      }),
      { numRuns: 40 },
    );
  });

  it("refuses a body over the limit with 413 and changes nothing", async () => {
    const answer = await send({
      method: "PATCH",
      path: `/api/notes/${note.id}`,
      headers: { authorization: `Bearer ${await token()}` },
      body: { contentType: "application/json", text: JSON.stringify({ otherExamComments: "x".repeat(5 * 1024 * 1024) }) },
    });
    expect(answer?.status).toBe(413);
  });
});

describe("headers", () => {
  const organizationHeader = fc.oneof(
    fc.constantFrom(ORG_A_ID, ORG_A_ID.toUpperCase(), ORG_B_ID, ORG_C_ID, ` ${ORG_A_ID}`, `${ORG_A_ID},${ORG_B_ID}`),
    fc.uuid(),
    headerText,
  );
  const otherHeaders = fc.dictionary(
    fc.constantFrom("accept", "accept-encoding", "accept-language", "cookie", "origin", "referer", "x-forwarded-for", "x-forwarded-host", "x-http-method-override", "x-trace-id", "if-none-match", "range", "x-requested-with"),
    headerText,
    { maxKeys: 4 },
  );

  it("refuses another organization in X-Organization-Id with 403, and survives any other header", async () => {
    const routes = fc.oneof(
      fc.constantFrom(...GET_ROUTES).map((route) => ({ method: "GET", path: withNote(route) })),
      fc.constantFrom(
        { method: "PUT", path: "/api/notes/{id}/draft" },
        { method: "POST", path: "/api/slots/check" },
        { method: "DELETE", path: "/api/notes/{id}/draft" },
        { method: "PATCH", path: "/api/notes/{id}" },
      ).map(({ method, path }) => ({ method, path: withNote(path) })),
    );
    await fc.assert(
      fc.asyncProperty(routes, fc.option(organizationHeader, { nil: undefined }), otherHeaders, fc.oneof(fc.constant("application/json"), headerText), async ({ method, path }, organization, extra, contentType) => {
        const answer = await send({
          method,
          path,
          headers: { ...extra, authorization: await authorization(method), "x-organization-id": organization },
          body: { contentType, text: "{}" },
        });
        if (!answer || organization === undefined) return;
        // Headers trims what it is given; the BFF compares case-insensitively.
        if (organization.trim().toLowerCase() !== ORG_A_ID) expect(answer.status, describeRequest({ method, path, headers: { "x-organization-id": organization } })).toBe(403);
      }),
      { numRuns: 50 },
    );
  });
});

describe("authorization", () => {
  const ALL_ROUTES = [
    ...GET_ROUTES.map((route) => ({ method: "GET", route })),
    { method: "POST", route: "/api/slots/check" },
    { method: "POST", route: "/api/holds" },
    { method: "DELETE", route: "/api/holds/00000000-0000-4000-8000-000000000000" },
    { method: "PATCH", route: "/api/notes/{id}" },
    { method: "PUT", route: "/api/notes/{id}/draft" },
    { method: "DELETE", route: "/api/notes/{id}/draft" },
    { method: "POST", route: "/api/notes/{id}/tasks" },
    { method: "DELETE", route: "/api/notes/{id}/images/img_00000000000000000000000000000000" },
    { method: "GET", route: "/api/events" },
    { method: "POST", route: "/api/unknown" },
  ];

  it("answers 401 to every route for a missing, malformed, forged or tampered token, and changes nothing", async () => {
    const valid = await token();
    const tokens = fc.oneof(
      { arbitrary: forgedJwt([ORG_A_ID, ORG_B_ID, ORG_C_ID]), weight: 3 },
      { arbitrary: tokenTamper([ORG_A_ID, ORG_B_ID]).map((tamper) => applyTamper(valid, tamper)), weight: 3 },
      { arbitrary: headerText, weight: 2 },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ALL_ROUTES), authorizationAround(tokens), async ({ method, route }, header) => {
        const path = withNote(route);
        const answer = await send({ method, path, headers: { authorization: header }, body: { contentType: "application/json", text: JSON.stringify({ otherExamComments: "x" }) } });
        if (!answer) return;
        const presented = header?.startsWith("Bearer ") ? header.slice("Bearer ".length).trim() : null;
        // `Bearer  <token>` with extra spaces still carries the real token; anything else is refused.
        if (presented !== valid) {
          expect(answer.status, describeRequest({ method, path, headers: { authorization: header } }, answer.status, answer.text)).toBe(401);
          expect(answer.error?.code).toBe("invalid_token");
        }
      }),
      { numRuns: 60 },
    );
  });

  it("refuses an expired token, an uninstalled organization's token and a replayed write token", async () => {
    await harness.emulator.sandbox("POST", "/clock", { advanceSeconds: -3_600 });
    const expired = await token();
    await harness.emulator.sandbox("POST", "/clock", { advanceSeconds: 3_600 });
    const expiredAnswer = await send({ method: "GET", path: "/api/session", headers: { authorization: `Bearer ${expired}` } });
    expect(expiredAnswer?.status).toBe(401);
    expect(expiredAnswer?.error?.message).toMatch(/expired/);

    const orgC = await harness.hostToken({ organizationId: ORG_C_ID, userId: harness.userWithRole("Physician", ORG_C_ID) });
    expect((await send({ method: "GET", path: "/api/session", headers: { authorization: `Bearer ${orgC}` } }))?.status).toBe(403);

    const write = await token();
    const draft = { contentType: "application/json", text: JSON.stringify({ fields: { otherExamComments: "first" }, baseline: {}, noteVersion: null }) };
    expect((await send({ method: "PUT", path: `/api/notes/${note.id}/draft`, headers: { authorization: `Bearer ${write}` }, body: draft }))?.status).toBe(200);
    const replay = { contentType: "application/json", text: JSON.stringify({ fields: { otherExamComments: "replayed" }, baseline: {}, noteVersion: null }) };
    const replayed = await send({ method: "PUT", path: `/api/notes/${note.id}/draft`, headers: { authorization: `Bearer ${write}` }, body: replay });
    expect(replayed?.status).toBe(401);
    expect(replayed?.error?.code).toBe("token_replayed");
  });
});

describe("unknown paths and methods", () => {
  const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "PROPFIND", "PURGE", "get", "LINK"];

  it("answers 4xx with the error body to unknown /api paths and methods", async () => {
    const known = fc.constantFrom(...GET_ROUTES, "/api/slots/check", "/api/holds", "/api/holds/x", "/api/events").map(withNote);
    const random = fc.array(pathSegment(fuzzText), { minLength: 1, maxLength: 4 }).map((segments) => `/api/${segments.join("/")}`);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...METHODS), fc.oneof(known, random), async (method, path) => {
        // GET (and so HEAD) /api/events with a valid token is a stream; it has its own checks.
        if (["GET", "HEAD"].includes(method.toUpperCase()) && path.startsWith("/api/events")) return;
        const answer = await send({ method, path, headers: { authorization: await authorization(method.toUpperCase()) }, body: { contentType: "application/json", text: "{}" } });
        // A route the method does not have, or a path no route has: 404 (or 400 for a malformed id). `..` can lead out of /api or onto a route.
        const { pathname } = new URL(`http://localhost${path}`);
        const verb = method.toUpperCase();
        const routed = ROUTES_WITH_WRITES.some((route) => withNote(route.path) === pathname && (route.method === verb || (route.method === "GET" && verb === "HEAD")));
        if (answer && pathname.startsWith("/api/") && !routed) expect(answer.status, describeRequest({ method, path }, answer.status, answer.text)).toBeGreaterThanOrEqual(400);
      }),
      { numRuns: 50 },
    );
  });

  it("never fails outside /api either (SPA fallback, health, webhook paths)", async () => {
    const paths = fc.oneof(
      fc.constantFrom("/", "/healthz", "/app-config", "/webhooks/clinic", "/webhooks/clinic/x", "/assets/x.js", "/index.html", "/..%2F..%2Fpackage.json", "/%2e%2e/%2e%2e/package.json"),
      fc.array(pathSegment(fuzzText), { minLength: 1, maxLength: 3 }).map((segments) => `/${segments.join("/")}`),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("GET", "POST", "PUT", "DELETE", "HEAD"), paths, async (method, path) => {
        // Outside /api an answer may be the SPA's HTML: only the status and leaks are checked.
        await send({ method, path }, { errorBody: false });
      }),
      { numRuns: 40 },
    );
  });
});

describe("GET /api/events (a stream: bad input only)", () => {
  it("refuses bad tokens and another organization before it streams", async () => {
    const cases = fc.oneof(
      authorizationAround(fc.oneof(forgedJwt([ORG_A_ID]), headerText)).map((authorizationHeader) => ({ authorizationHeader, organization: undefined as string | undefined })),
      fc.constantFrom(ORG_B_ID, ORG_C_ID, "x").map((organization) => ({ authorizationHeader: `Bearer ${readToken}`, organization })),
    );
    await fc.assert(
      fc.asyncProperty(cases, queryString(["lastEventId", "since"]), async ({ authorizationHeader, organization }, query) => {
        const answer = await send({ method: "GET", path: `/api/events${query}`, headers: { authorization: authorizationHeader, "x-organization-id": organization } });
        if (answer && authorizationHeader !== `Bearer ${readToken}`) expect([401, 403]).toContain(answer.status);
        if (answer && organization !== undefined) expect(answer.status).toBe(403);
      }),
      { numRuns: 25 },
    );
  });
});

describe("regressions found by this fuzz", () => {
  const expectBadRequest = async (request: FuzzRequest, field: RegExp) => {
    const answer = await send(request);
    expect(answer?.status, describeRequest(request, answer?.status, answer?.text)).toBe(400);
    expect(answer?.error?.message).toMatch(field);
  };
  const json = (body: unknown): RawBody => ({ contentType: "application/json", text: JSON.stringify(body) });

  it("refuses dates that fit YYYY-MM-DD but name no day with 400, not 500 (contract/clinic-api/primitives.ts)", async () => {
    const [typeId = "", providerId = "", facilityId = ""] = [seedIds.appointmentTypes[0], seedIds.providers[0], seedIds.facilities[0]];
    const read = { authorization: `Bearer ${readToken}` };
    await expectBadRequest({ method: "GET", path: `/api/slots?appointmentTypeId=${typeId}&startDate=2026-02-31&endDate=2026-03-02`, headers: read }, /^startDate: must be a date/);
    await expectBadRequest({ method: "GET", path: `/api/availability?startDate=2026-03-01&endDate=2027-02-29`, headers: read }, /^endDate: must be a date/);
    for (const startsAt of ["2026-02-31T10:00:00-05:00", "2026-13-01T10:00:00Z", "2026-05-05T25:61:00+99:99"]) {
      const slot = { providerId, facilityId, startsAt, endsAt: "2026-05-05T10:30:00-04:00", appointmentTypeId: typeId };
      await expectBadRequest({ method: "POST", path: "/api/slots/check", headers: { authorization: `Bearer ${await token()}` }, body: json(slot) }, /^startsAt: must be an ISO 8601 date-time/);
    }
  });

  it("refuses note text the store cannot keep (NUL, unpaired surrogates) and a version beyond its integer column with 400 (contract/app-api/note.ts)", async () => {
    const draftPath = `/api/notes/${note.id}/draft`;
    for (const text of ["a\u0000b", "\uD800", "x\uDC00"]) {
      await expectBadRequest({ method: "PUT", path: draftPath, headers: { authorization: `Bearer ${await token()}` }, body: json({ fields: { otherExamComments: text }, baseline: {}, noteVersion: null }) }, /^fields\.otherExamComments: must not contain NUL/);
      await expectBadRequest({ method: "PATCH", path: `/api/notes/${note.id}`, headers: { authorization: `Bearer ${await token()}` }, body: json({ stickyNoteDescription: text }) }, /^stickyNoteDescription: must not contain NUL/);
    }
    await expectBadRequest({ method: "PUT", path: draftPath, headers: { authorization: `Bearer ${await token()}` }, body: json({ fields: { otherExamComments: "x" }, baseline: {}, noteVersion: 2 ** 31 }) }, /^noteVersion: must be at most 2147483647/);
    // Well-formed pairs (emoji) are fine.
    expect((await send({ method: "PUT", path: draftPath, headers: { authorization: `Bearer ${await token()}` }, body: json({ fields: { otherExamComments: "😀 ok" }, baseline: {}, noteVersion: 2 ** 31 - 1 }) }))?.status).toBe(200);
  });

  it("refuses a task description with NUL before the EHR creates the task (it could not be stored after)", async () => {
    const taskPosts = () => harness.upstreamWrites.filter((write) => write.call === "POST /v2/tasks").length;
    const before = taskPosts();
    await expectBadRequest({ method: "POST", path: `/api/notes/${note.id}/tasks`, headers: { authorization: `Bearer ${await token()}` }, body: json({ notes: "call\u0000back", assigneeIds: [physicianId] }) }, /^notes: must not contain NUL/);
    expect(taskPosts()).toBe(before);
  });

  it("answers 404, not 500, to a path with malformed percent-encoding outside /api (server/static/spa-assets.ts)", async () => {
    for (const path of ["/%", "/%zz", "/notes/%E0%A4%A"]) expect((await send({ method: "GET", path }, { errorBody: false }))?.status).toBe(404);
  });
});
