import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import * as z from "zod/mini";
import { appErrorBody } from "#contract/app-api/errors.ts";
import { standaloneSessionList } from "#contract/app-api/standalone.ts";
import { NOTE_SECTION_KEYS } from "#contract/note/section-digests.ts";
import { findSingleOrgAccount } from "../../../emulator/oauth/accounts.ts";
import { ORG_A_ID, ORG_B_ID, ORG_C_ID } from "../../../emulator/world/identities.ts";
import type { BffHarness, BffHarnessOptions } from "../../testing/bff-harness.ts";
import { signInStandalone, type StandaloneUser } from "../../testing/standalone-sign-in.ts";
import {
  dateLike,
  dateTimeLike,
  forgedJwt,
  fuzzText,
  headerText,
  hugeString,
  idLike,
  junkJson,
  pathSegment,
  queryString,
  queryValue,
  rawBody,
  shapedObject,
  wellFormed,
  type RawBody,
} from "./fuzz-arbitraries.ts";

// The route sweep of the hardening fuzz (issue 34 item 5): generated
// requests over every /api and /auth route and method of the BFF, in-process
// against the emulator, each with a valid host token, a live standalone
// session cookie (from its own page or another site), a forged token or
// nothing; path ids valid or hostile (NUL, overlong, unicode, `..`, encoded
// slashes); near-valid and junk queries and bodies. Whatever comes in, never
// a 5xx, and every refusal under /api (and a JSON one under /auth) is the
// error body with a message. `api-fuzz.test.ts` and `bad-input.test.ts` run
// a bounded sample on every CI run; `bench/api-fuzz-bench.ts` the full count.

const STACK_FRAME = /\bat [^\s()]+ \([^)]*:\d+:\d+\)|\bat (?:file:\/\/|node:|\/)[^\s]*:\d+:\d+/;
const APP_ORIGIN = "http://localhost:8787";
const SESSION_COOKIE = "__Host-tandem-session";
const LOGIN_COOKIE = "__Host-tandem-login";
const WRITABLE_FIELDS = ["additionalHpiComments", "impressionsPlansComments", "otherExamComments", "stickyNoteDescription"] as const;
const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Methods a request may carry instead of its route's: other verbs, lower case, unknown ones. */
const OTHER_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "PROPFIND", "PURGE", "LINK", "get", "delete"] as const;
/** How many requests a host token for reads serves before a fresh one (it lives 5 minutes of the harness's running clock). */
const READ_TOKEN_USES = 100;

/** What the sweep knows of the seeded world: the note in the host token's context and ids the pickers list. */
export interface SweepWorld {
  /** The host token's note (awaiting signature, with images) and its patient. */
  noteId: string;
  patientId: string;
  imageIds: string[];
  /** Other notes of the organization: a path may name them. */
  otherNoteIds: string[];
  /** The host token's user (a Physician). */
  physicianId: string;
  frontDeskId: string;
  providers: string[];
  facilities: string[];
  appointmentTypes: string[];
  /** The standalone user's account (a Physician of org A only) and a note assigned to them. */
  standaloneAccountId: string;
  standaloneNoteId: string;
}

export function sweepWorld(harness: BffHarness): SweepWorld {
  const state = harness.emulator.emulator.state;
  const org = state.org(ORG_A_ID);
  if (!org) throw new Error("no org A");
  const note = org.ehr.notes.find((candidate) => candidate.status === "awaiting_sign" && candidate.images.length > 0);
  if (!note) throw new Error("no awaiting_sign note with images in the seed");
  const account = findSingleOrgAccount(state, ORG_A_ID, "Physician");
  const providerId = account.memberships[0]?.providerId;
  const standaloneNote = org.ehr.notes.find((candidate) => candidate.status !== "signed" && candidate.assignedProviders.some((provider) => provider.id === providerId));
  if (!standaloneNote) throw new Error("no unsigned note assigned to the standalone physician");
  return {
    noteId: note.id,
    patientId: note.patient.id,
    imageIds: note.images.map((image) => image.id),
    otherNoteIds: org.ehr.notes.filter((candidate) => candidate.id !== note.id).slice(0, 4).map((candidate) => candidate.id),
    physicianId: harness.userWithRole("Physician"),
    frontDeskId: harness.userWithRole("Front Desk"),
    providers: org.ehr.providers.slice(0, 4).map((provider) => provider.id),
    facilities: org.ehr.facilities.map((facility) => facility.id),
    appointmentTypes: org.ehr.appointmentTypes.map((type) => type.id),
    standaloneAccountId: account.id,
    standaloneNoteId: standaloneNote.id,
  };
}

/** How a request authenticates. */
type Auth = "host" | "host-front-desk" | "standalone" | "standalone-cross-site" | "none" | "forged";

/** A path parameter: one of the runtime's valid values for it (with a NUL inside: past a check that only looks at the start), or a generated segment. */
type ParamChoice = { kind: "valid"; pick: number } | { kind: "valid-nul"; pick: number; at: number } | { kind: "segment"; text: string };

/** Which valid values a path parameter takes. */
type ParamKind = "noteId" | "imageId" | "holdId" | "sessionId" | "waitlistEntryId";

interface SweptRoute {
  method: string;
  /** The route's Hono template, e.g. `/api/notes/:id/images/:imageId`. */
  path: string;
  params?: Record<string, ParamKind>;
  /** Near-valid query fields (each may still be junk, left out or repeated). */
  query?: Record<string, fc.Arbitrary<string>>;
  body?: fc.Arbitrary<unknown>;
}

interface SweepPlan {
  route: number;
  method: string;
  params: Record<string, ParamChoice>;
  /** After the route's path: mostly nothing; a trailing slash, `..`, an encoded slash, another segment. */
  suffix: string;
  query: string;
  body: RawBody | undefined;
  auth: Auth;
  forged: string;
  headers: Record<string, string>;
  /** For /auth/callback: start a real sign-in first, and send its `state` back (or the generated one). */
  withLogin: boolean;
  keepState: boolean;
}

const localDateIn = (now: number, days: number) => new Date(now + days * 86_400_000).toISOString().slice(0, 10);

/** A query that is valid but for a few generated changes: a field junk, left out, repeated, or an unknown one added. */
export function shapedQuery(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const entries = Object.entries(fields).map(([name, valid]) =>
    fc
      .oneof(
        { arbitrary: valid.map((value) => [value]), weight: 6 },
        { arbitrary: queryValue().map((value) => [value]), weight: 1 },
        { arbitrary: fc.constant<string[]>([]), weight: 1 },
        { arbitrary: fc.tuple(valid, queryValue()).map((values) => [...values]), weight: 1 },
      )
      .map((values) => values.map((value) => `${encodeURIComponent(name)}=${encodeURIComponent(wellFormed(value))}`)),
  );
  return fc.tuple(fc.tuple(...entries), queryString([])).map(([parts, extra]) => {
    const joined = parts.flat().join("&");
    return `?${joined}${extra ? `&${extra.slice(1)}` : ""}`;
  });
}

/** Every /api and /auth route of the BFF, with what its near-valid input looks like. */
export function sweptRoutes(world: SweepWorld, now: number): SweptRoute[] {
  const seeded = (ids: string[]) =>
    fc.oneof(
      { arbitrary: fc.constantFrom(...ids), weight: 4 },
      { arbitrary: fc.constantFrom(...ids).map((id) => id.toUpperCase()), weight: 1 },
      { arbitrary: fc.tuple(fc.constantFrom(...ids), fc.constantFrom("prv", "fac", "atp")).map(([id, prefix]) => `${prefix}_${id.replace(/-/g, "")}`), weight: 2 },
      { arbitrary: idLike, weight: 2 },
    );
  const window = fc.oneof(fc.integer({ min: -30, max: 120 }).map((days) => localDateIn(now, days)), dateLike);
  const fieldText = fc.oneof(
    { arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }), weight: 4 },
    { arbitrary: fuzzText, weight: 3 },
    { arbitrary: fc.constantFrom("a\u0000b", "\u0000", "\uD800", "x\uDC00", "😀 ok"), weight: 1 },
    { arbitrary: hugeString, weight: 1 },
  );
  const writableFields = shapedObject(Object.fromEntries(WRITABLE_FIELDS.map((field) => [field, fieldText])));
  const slot = shapedObject({
    providerId: seeded(world.providers),
    facilityId: seeded(world.facilities),
    startsAt: dateTimeLike,
    endsAt: dateTimeLike,
    appointmentTypeId: seeded(world.appointmentTypes),
    slotLengthMinutes: fc.oneof(fc.integer({ min: -10, max: 1000 }), fc.constantFrom(15, 30, 2 ** 31, 1.5)),
    isNewPatient: fc.oneof(fc.boolean(), fc.constantFrom("true", 1, null)),
    searchedFacilityIds: fc.array(seeded(world.facilities), { maxLength: 3 }),
    patientId: fc.oneof(fc.constant(world.patientId), idLike),
  });
  const timeOfDay = fc.constantFrom("08:00", "16:30", "24:00", "8am", "", null);
  const waitlistPreferences = shapedObject({
    appointmentTypeId: seeded(world.appointmentTypes),
    slotLengthMinutes: fc.oneof(fc.integer({ min: -10, max: 1000 }), fc.constantFrom(15, 30, 2 ** 31, 1.5)),
    isNewPatient: fc.oneof(fc.boolean(), fc.constantFrom("true", 1, null)),
    facilityIds: fc.array(seeded(world.facilities), { maxLength: 3 }),
    providerIds: fc.oneof(fc.constant(null), fc.array(seeded(world.providers), { maxLength: 3 })),
    startDate: window,
    endDate: window,
    startsFrom: timeOfDay,
    startsBefore: timeOfDay,
    days: fc.oneof(fc.constant(null), fc.constantFrom(["tue", "wed"], ["funday"], [])),
    note: fieldText,
  });
  const availability = {
    facilityId: seeded(world.facilities),
    providerId: seeded(world.providers),
    startDate: window,
    endDate: window,
  };
  const picker = { search: fc.oneof(fuzzText, fc.constantFrom("a\u0000b", "%00", "\uD800")) };
  return [
    { method: "GET", path: "/api/session" },
    { method: "GET", path: "/api/providers", query: picker },
    { method: "GET", path: "/api/facilities", query: picker },
    { method: "GET", path: "/api/appointment-types" },
    { method: "GET", path: "/api/events", query: { lastEventId: fuzzText, since: dateTimeLike } },
    { method: "GET", path: "/api/context/patient" },
    { method: "GET", path: "/api/context/patient/appointments", query: { patientId: fc.oneof(fc.constant(world.patientId), idLike) } },
    {
      method: "GET",
      path: "/api/slots",
      query: {
        appointmentTypeId: seeded(world.appointmentTypes),
        facilityIds: fc.array(seeded(world.facilities), { minLength: 1, maxLength: 3 }).map((ids) => ids.join(",")),
        providerIds: fc.array(seeded(world.providers), { minLength: 1, maxLength: 3 }).map((ids) => ids.join(",")),
        startDate: window,
        endDate: window,
        slotLengthMinutes: fc.oneof(fc.integer({ min: 0, max: 600 }).map(String), fc.constantFrom("15", "30", "1e2", "15.5", "-0", "0x1e", "\u0000")),
        isNewPatient: fc.constantFrom("true", "false", "1", "TRUE", ""),
      },
    },
    { method: "POST", path: "/api/slots/check", body: slot },
    { method: "GET", path: "/api/slots/last-search" },
    {
      method: "PUT",
      path: "/api/slots/last-search",
      body: shapedObject({
        search: shapedObject({
          appointmentTypeId: seeded(world.appointmentTypes),
          facilityIds: fc.array(seeded(world.facilities), { maxLength: 3 }).map((ids) => ids.join(",")),
          startDate: window,
          endDate: window,
          slotLengthMinutes: fc.oneof(fc.integer({ min: -10, max: 1000 }), fc.constantFrom(20, 1.5, 2 ** 31)),
          isNewPatient: fc.oneof(fc.boolean(), fc.constantFrom("true", 1, null)),
          order: fc.constantFrom("provider", "time", "random", ""),
          startsFrom: fc.constantFrom("08:00", "24:00", "8am", ""),
          days: fc.constantFrom("tue,wed", "funday", ""),
        }),
      }),
    },
    { method: "DELETE", path: "/api/slots/last-search" },
    { method: "GET", path: "/api/holds" },
    { method: "POST", path: "/api/holds", body: slot },
    { method: "DELETE", path: "/api/holds/:id", params: { id: "holdId" } },
    { method: "GET", path: "/api/waitlist" },
    { method: "POST", path: "/api/waitlist", body: shapedObject({ preferences: waitlistPreferences }) },
    { method: "PATCH", path: "/api/waitlist/:id", params: { id: "waitlistEntryId" }, body: shapedObject({ preferences: waitlistPreferences }) },
    { method: "DELETE", path: "/api/waitlist/:id", params: { id: "waitlistEntryId" } },
    { method: "GET", path: "/api/availability", query: availability },
    { method: "GET", path: "/api/availability/load", query: availability },
    { method: "GET", path: "/api/notes/recent" },
    { method: "GET", path: "/api/notes/:id", params: { id: "noteId" } },
    {
      method: "PATCH",
      path: "/api/notes/:id",
      params: { id: "noteId" },
      body: fc.tuple(writableFields, fc.option(writableFields, { nil: undefined })).map(([fields, baseline]) => (baseline === undefined ? fields : { ...fields, baseline })),
    },
    { method: "GET", path: "/api/notes/:id/draft", params: { id: "noteId" } },
    {
      method: "PUT",
      path: "/api/notes/:id/draft",
      params: { id: "noteId" },
      body: shapedObject({
        fields: writableFields,
        baseline: writableFields,
        noteVersion: fc.oneof(fc.constant(null), fc.integer({ min: -1, max: 100 }), fc.constantFrom(2 ** 31, 2 ** 31 - 1, 1.5)),
      }),
    },
    { method: "DELETE", path: "/api/notes/:id/draft", params: { id: "noteId" } },
    { method: "GET", path: "/api/notes/:id/tasks", params: { id: "noteId" } },
    {
      method: "POST",
      path: "/api/notes/:id/tasks",
      params: { id: "noteId" },
      body: shapedObject({ notes: fieldText, assigneeIds: fc.array(seeded(world.providers), { maxLength: 25 }), providerId: seeded(world.providers) }),
    },
    { method: "GET", path: "/api/notes/:id/images", params: { id: "noteId" } },
    { method: "DELETE", path: "/api/notes/:id/images/:imageId", params: { id: "noteId", imageId: "imageId" } },
    { method: "GET", path: "/api/notes/:id/changes", params: { id: "noteId" } },
    {
      method: "PUT",
      path: "/api/notes/:id/view",
      params: { id: "noteId" },
      body: shapedObject({
        noteUpdatedAt: fc.oneof(fc.constant("2026-11-17 14:00:00.000000+00"), dateTimeLike, fuzzText),
        fields: writableFields,
        sectionDigests: fc.dictionary(fc.oneof(fc.constantFrom(...NOTE_SECTION_KEYS), fuzzText), fc.oneof(fc.stringMatching(/^sha256:[0-9a-f]{64}$/), fuzzText), { maxKeys: 4 }),
      }),
    },
    { method: "GET", path: "/auth/login", query: { returnTo: fc.oneof(fc.constantFrom("/slots", "/note?noteId=x", "//evil.example", "/%00", "https://evil.example"), fuzzText), prompt: fc.constantFrom("consent", "none", "") } },
    {
      method: "GET",
      path: "/auth/callback",
      query: {
        code: fc.oneof(fuzzText, idLike),
        state: fuzzText,
        iss: fc.oneof(fc.constant("http://127.0.0.1:4010"), fuzzText),
        error: fc.oneof(fc.constantFrom("access_denied", "invalid_request", "login_required"), fuzzText),
        error_description: fuzzText,
      },
    },
    { method: "GET", path: "/auth/session" },
    {
      method: "POST",
      path: "/auth/organization",
      body: shapedObject({ organizationId: fc.oneof(fc.constantFrom(ORG_A_ID, ORG_A_ID.toUpperCase(), ORG_B_ID, ORG_C_ID, `${ORG_A_ID}\u0000`), idLike) }),
    },
    { method: "POST", path: "/auth/logout" },
    { method: "GET", path: "/auth/sessions" },
    { method: "DELETE", path: "/auth/sessions/:sessionId", params: { sessionId: "sessionId" } },
    { method: "DELETE", path: "/auth/sessions" },
  ];
}

const withNulAt = (text: string, at: number) => {
  const position = at % (text.length + 1);
  return `${text.slice(0, position)}\u0000${text.slice(position)}`;
};

/** Every string in a JSON value with `mark` appended (keys as they are). */
function markEveryString(value: unknown, mark: string): unknown {
  if (typeof value === "string") return `${value}${mark}`;
  if (Array.isArray(value)) return value.map((item) => markEveryString(item, mark));
  if (value !== null && typeof value === "object") {
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) Object.defineProperty(copy, key, { value: markEveryString(inner, mark), enumerable: true, writable: true, configurable: true });
    return copy;
  }
  return value;
}

/**
 * The sweep's first requests, whatever the seed: every route, as its own
 * client calls it (a host token under /api, then the standalone session
 * cookie; the cookie under /auth), with a NUL in every path id, every query
 * value and every string of a near-valid body; then every body route with a
 * lone surrogate in every string. PostgreSQL refuses NUL in text and a lone
 * surrogate's escape in jsonb: this is where a value that reaches the store
 * unchecked shows (`DELETE /auth/sessions/%00` answered 500).
 */
function storeBreakingPlans(routes: readonly SweptRoute[], seed: number): SweepPlan[] {
  const plan = (index: number, auth: Auth, mark: string): SweepPlan => {
    const route = routes[index];
    if (!route) throw new Error(`no route ${index}`);
    const params = Object.fromEntries(Object.keys(route.params ?? {}).map((name): [string, ParamChoice] => [name, mark === "\u0000" ? { kind: "valid-nul", pick: 0, at: 36 } : { kind: "valid", pick: 0 }]));
    const queryFields = route.query ? (fc.sample(fc.record(route.query), { numRuns: 1, seed: seed + index })[0] ?? {}) : {};
    // A lone surrogate cannot be percent-encoded: the query carries it as U+FFFD.
    const query = Object.entries(queryFields)
      .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(wellFormed(`${value}${mark}`))}`)
      .join("&");
    const body = route.body ? fc.sample(route.body, { numRuns: 1, seed: seed + index })[0] : undefined;
    return {
      route: index,
      method: route.method,
      params,
      suffix: "",
      query: query === "" ? "" : `?${query}`,
      body: body === undefined ? undefined : { contentType: "application/json", text: JSON.stringify(markEveryString(body, mark)) },
      auth,
      forged: "",
      headers: {},
      withLogin: true,
      keepState: true,
    };
  };
  const ownClient = (route: SweptRoute): Auth => (route.path.startsWith("/auth/") ? "standalone" : "host");
  return [
    ...routes.flatMap((route, index) => (route.path.startsWith("/auth/") ? [plan(index, "standalone", "\u0000")] : [plan(index, "host", "\u0000"), plan(index, "standalone", "\u0000")])),
    ...routes.flatMap((route, index) => (route.body ? [plan(index, ownClient(route), "\uD800")] : [])),
  ];
}

/** `METHOD template` of every route the sweep covers. */
export const routeKeys = (routes: readonly SweptRoute[]) => routes.map((route) => `${route.method} ${route.path}`);

function sweepPlan(routes: readonly SweptRoute[]): fc.Arbitrary<SweepPlan> {
  const param: fc.Arbitrary<ParamChoice> = fc.oneof(
    { arbitrary: fc.nat().map((pick): ParamChoice => ({ kind: "valid", pick })), weight: 3 },
    { arbitrary: fc.tuple(fc.nat(), fc.nat()).map(([pick, at]): ParamChoice => ({ kind: "valid-nul", pick, at })), weight: 1 },
    { arbitrary: pathSegment().map((text): ParamChoice => ({ kind: "segment", text })), weight: 2 },
  );
  return fc.integer({ min: 0, max: routes.length - 1 }).chain((index) => {
    const route = routes[index];
    if (!route) throw new Error(`no route ${index}`);
    const names = Object.keys(route.params ?? {});
    const query = route.query
      ? fc.oneof({ arbitrary: shapedQuery(route.query), weight: 4 }, { arbitrary: queryString(Object.keys(route.query)), weight: 1 }, { arbitrary: fc.constant(""), weight: 1 })
      : fc.oneof({ arbitrary: fc.constant(""), weight: 3 }, { arbitrary: queryString([]), weight: 1 });
    const body = route.body ? fc.option(rawBody(route.body), { nil: undefined, freq: 10 }) : fc.option(rawBody(junkJson), { nil: undefined, freq: 2 });
    return fc.record({
      route: fc.constant(index),
      method: fc.oneof({ arbitrary: fc.constant(route.method), weight: 12 }, { arbitrary: fc.constantFrom(...OTHER_METHODS), weight: 1 }),
      params: fc.tuple(...names.map((name) => param.map((choice) => [name, choice] as const))).map((entries) => Object.fromEntries(entries)),
      suffix: fc.oneof(
        { arbitrary: fc.constant(""), weight: 20 },
        { arbitrary: fc.constantFrom("/", "//", "/..", "/%2e%2e", "/.", "/%2F", "/%00", "/x", ";a=b", "/%2e%2e%2f%2e%2e%2fhealthz"), weight: 1 },
        { arbitrary: pathSegment().map((segment) => `/${segment}`), weight: 1 },
      ),
      query,
      body,
      auth: fc.oneof(
        { arbitrary: fc.constant<Auth>("host"), weight: route.path.startsWith("/auth") ? 1 : 8 },
        { arbitrary: fc.constant<Auth>("standalone"), weight: route.path.startsWith("/auth") ? 8 : 4 },
        { arbitrary: fc.constantFrom<Auth>("host-front-desk", "standalone-cross-site", "none", "forged"), weight: 2 },
      ),
      forged: forgedJwt([ORG_A_ID, ORG_B_ID]),
      headers: fc.oneof(
        { arbitrary: fc.constant<Record<string, string>>({}), weight: 4 },
        { arbitrary: fc.dictionary(fc.constantFrom("accept", "x-organization-id", "traceparent", "x-forwarded-for", "x-http-method-override", "range", "if-none-match", "user-agent"), headerText, { maxKeys: 2 }), weight: 1 },
      ),
      withLogin: fc.boolean(),
      keepState: fc.boolean(),
    });
  });
}

export interface SweepFailure {
  request: string;
  status: number;
  answer: string;
  /** The BFF's log lines with the answer's trace id (the error behind a 5xx). */
  log: string[];
}

export interface SweepFigures {
  seed: number;
  requests: number;
  /** Requests `Request` itself refused to build (a method or header value no client could send): not sent. */
  unbuildable: number;
  statuses: Record<string, number>;
  /** Answers with status 500. */
  internalErrors: number;
  /** Every 5xx (500 included): status, request and the log behind it. */
  serverErrors: SweepFailure[];
  /** A refusal without the error body, a data key, a stack trace or a local path in an answer. */
  violations: SweepFailure[];
  routesSwept: number;
  seconds: number;
  /** Where the time went: the routes with the most time in total (preparing a request, its answer), in ms. */
  slowestRoutes: { route: string; requests: number; ms: number }[];
}

const heldAnswer = z.object({ hold: z.object({ id: z.string() }) });

const clip = (text: string, length = 300) => (text.length > length ? `${text.slice(0, length)}… (${text.length} chars)` : text);

/** The state the sweep keeps between requests: tokens, the standalone sign-in, ids the runtime made. */
class SweepSession {
  private readToken: { token: string; uses: number } | null = null;
  private frontDeskToken: { token: string; uses: number } | null = null;
  private user: StandaloneUser | null = null;
  sessionIds: string[] = [];
  holdIds: string[] = [];

  constructor(
    private readonly harness: BffHarness,
    private readonly world: SweepWorld,
  ) {}

  private mint(userId: string, withNote: boolean): Promise<string> {
    return this.harness.hostToken(withNote ? { noteId: this.world.noteId, patientId: this.world.patientId, userId } : { userId });
  }

  /** A write spends its token (replays are refused): a fresh one each; reads share one for a while. */
  async hostToken(frontDesk: boolean, write: boolean): Promise<string> {
    const userId = frontDesk ? this.world.frontDeskId : this.world.physicianId;
    if (write) return this.mint(userId, !frontDesk);
    const held = frontDesk ? this.frontDeskToken : this.readToken;
    if (held && held.uses < READ_TOKEN_USES) {
      held.uses += 1;
      return held.token;
    }
    const fresh = { token: await this.mint(userId, !frontDesk), uses: 1 };
    if (frontDesk) this.frontDeskToken = fresh;
    else this.readToken = fresh;
    return fresh.token;
  }

  forgetReadTokens(): void {
    this.readToken = null;
    this.frontDeskToken = null;
  }

  /** The standalone session's cookie; signs in again after a sign-out, a revocation or an expiry. */
  async standaloneCookie(): Promise<string> {
    if (!this.user) {
      // The first time, a second browser of the same user too: a session to list and end.
      if (this.sessionIds.length === 0) await signInStandalone(this.harness, this.world.standaloneAccountId, ORG_A_ID);
      this.user = await signInStandalone(this.harness, this.world.standaloneAccountId, ORG_A_ID);
      const listed = z.safeParse(standaloneSessionList, await (await this.user.api("/auth/sessions")).json());
      this.sessionIds = listed.success ? listed.data.sessions.map((entry) => entry.id) : [];
    }
    return this.user.cookie();
  }

  signedOut(): void {
    this.user = null;
  }
}

function validValue(kind: ParamKind, pick: number, world: SweepWorld, session: SweepSession, auth: Auth): string {
  const choose = (values: readonly string[]) => values[pick % values.length] ?? "";
  switch (kind) {
    case "noteId":
      return choose(auth.startsWith("standalone") ? [world.standaloneNoteId, world.standaloneNoteId.toUpperCase(), ...world.otherNoteIds] : [world.noteId, world.noteId.toUpperCase(), ...world.otherNoteIds]);
    case "imageId":
      return choose([...world.imageIds, ...world.imageIds.map((id) => `img_${id.replace(/-/g, "")}`), "00000000-0000-4000-8000-000000000000"]);
    case "holdId":
      return choose([...session.holdIds, "00000000-0000-4000-8000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff"]);
    case "sessionId":
      return choose([...session.sessionIds, "00000000-0000-4000-8000-000000000000"]);
    case "waitlistEntryId":
      return choose(["00000000-0000-4000-8000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff"]);
  }
}

interface BuiltRequest {
  request: Request;
  description: string;
  auth: Auth;
}

function buildRequest(method: string, path: string, headers: Record<string, string>, body: RawBody | undefined): Request | null {
  const withBody = !["GET", "HEAD"].includes(method.toUpperCase()) && body?.text !== undefined;
  try {
    const all = new Headers();
    for (const [name, value] of Object.entries(headers)) all.set(name, value);
    if (body?.contentType !== undefined) all.set("content-type", body.contentType);
    return new Request(`${APP_ORIGIN}${path}`, { method, headers: all, ...(withBody && { body: body?.text }) });
  } catch {
    return null;
  }
}

function describeRequest(method: string, path: string, auth: Auth, body: RawBody | undefined): string {
  return `${method} ${clip(path)} [${auth}]${body ? `\n[${String(body.contentType)}] ${clip(String(body.text))}` : ""}`;
}

async function materialize(plan: SweepPlan, routes: readonly SweptRoute[], world: SweepWorld, session: SweepSession): Promise<BuiltRequest | null> {
  const route = routes[plan.route];
  if (!route) throw new Error(`no route ${plan.route}`);
  let path = route.path;
  for (const [name, kind] of Object.entries(route.params ?? {})) {
    const choice = plan.params[name] ?? { kind: "valid", pick: 0 };
    const value = choice.kind === "segment" ? choice.text : encodeURIComponent(choice.kind === "valid" ? validValue(kind, choice.pick, world, session, plan.auth) : withNulAt(validValue(kind, choice.pick, world, session, plan.auth), choice.at));
    path = path.replace(`:${name}`, value);
  }
  path = `${path}${plan.suffix}${plan.query}`;
  const write = !READ_METHODS.has(plan.method.toUpperCase());
  const headers: Record<string, string> = { ...plan.headers };
  switch (plan.auth) {
    case "host":
    case "host-front-desk":
      headers.authorization = `Bearer ${await session.hostToken(plan.auth === "host-front-desk", write)}`;
      break;
    case "standalone":
    case "standalone-cross-site":
      headers.cookie = `${SESSION_COOKIE}=${await session.standaloneCookie()}`;
      headers.origin = plan.auth === "standalone" ? APP_ORIGIN : "https://evil.example";
      break;
    case "forged":
      headers.authorization = `Bearer ${plan.forged}`;
      break;
    case "none":
      break;
  }
  const request = buildRequest(plan.method, path, headers, plan.body);
  return request ? { request, description: describeRequest(plan.method, path, plan.auth, plan.body), auth: plan.auth } : null;
}

/** For /auth/callback: a real /auth/login first, so the callback gets past the login cookie (and, with its state, to the code exchange). */
async function withLoginCookie(harness: BffHarness, built: BuiltRequest, keepState: boolean, onAnswer: (status: number) => void): Promise<BuiltRequest> {
  const login = await harness.bff.app.fetch(new Request(`${APP_ORIGIN}/auth/login`));
  onAnswer(login.status);
  await login.body?.cancel();
  const cookie = login.headers.getSetCookie().find((line) => line.startsWith(`${LOGIN_COOKIE}=`))?.split(";")[0];
  const state = new URL(login.headers.get("location") ?? APP_ORIGIN).searchParams.get("state");
  if (!cookie || state === null) return built;
  const url = new URL(built.request.url);
  if (keepState) url.searchParams.set("state", state);
  const headers = new Headers(built.request.headers);
  headers.set("cookie", [headers.get("cookie"), cookie].filter(Boolean).join("; "));
  return { ...built, request: new Request(url, { method: built.request.method, headers }) };
}

/** What must hold of every answer; a description of what did not, or null. */
function violation(dataKey: string, request: Request, response: Response, text: string): string | null {
  const headerBlock = JSON.stringify([...response.headers]);
  if (`${headerBlock}\n${text}`.includes(dataKey)) return "the data key in the answer";
  if (STACK_FRAME.test(text) || STACK_FRAME.test(headerBlock)) return "a stack trace in the answer";
  if (text.includes(process.cwd())) return "a local path in the answer";
  if (response.status < 400 || request.method === "HEAD") return null;
  const { pathname } = new URL(request.url);
  const json = (response.headers.get("content-type") ?? "").includes("json");
  // `..` can lead out of /api, where Hono's plain 404 answers; under /auth only the routes' own refusals are JSON.
  if (!(pathname === "/api" || pathname.startsWith("/api/") || (pathname.startsWith("/auth/") && json))) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return "a refusal that is not JSON";
  }
  const parsed = z.safeParse(appErrorBody, body);
  if (!parsed.success) return "a refusal without the error body";
  if (parsed.data.message.trim() === "" || parsed.data.trace_id === "") return "an error body without a message or trace id";
  return null;
}

export interface SweepOptions {
  requests: number;
  seed: number;
}

/**
 * Sends `requests` generated requests (fast-check, from `seed`) to the
 * harness's BFF and counts what came back. Does not throw on a 5xx: it is
 * counted with its request and log lines.
 */
export async function runRouteSweep(harness: BffHarness, options: SweepOptions): Promise<SweepFigures> {
  const started = performance.now();
  const world = sweepWorld(harness);
  const routes = sweptRoutes(world, harness.now());
  const plans = sweepPlan(routes);
  const session = new SweepSession(harness, world);
  const statuses: Record<string, number> = {};
  const serverErrors: SweepFailure[] = [];
  const violations: SweepFailure[] = [];
  const count = (status: number) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
  };
  const timeByRoute = new Map<string, { requests: number; ms: number }>();
  let sent = 0;
  let unbuildable = 0;
  const BATCH = 50;
  for (let batch = 0; sent + unbuildable < options.requests; batch += 1) {
    const generated = batch === 0 ? storeBreakingPlans(routes, options.seed) : fc.sample(plans, { numRuns: BATCH, seed: options.seed + batch });
    for (const plan of generated) {
      if (sent + unbuildable >= options.requests) break;
      const planStarted = performance.now();
      const routeKey = routeKeys(routes)[plan.route] ?? "";
      let built = await materialize(plan, routes, world, session);
      if (!built) {
        unbuildable += 1;
        continue;
      }
      if (routes[plan.route]?.path === "/auth/callback" && plan.withLogin) {
        built = await withLoginCookie(harness, built, plan.keepState, (status) => {
          sent += 1;
          count(status);
        });
      }
      const logFrom = harness.logLines.length;
      const response = await harness.bff.app.fetch(built.request);
      // An open event stream does not end: its status is the answer.
      const streaming = (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
      const text = streaming ? "" : await response.text();
      if (streaming) await response.body?.cancel();
      sent += 1;
      count(response.status);
      const traceId = /"trace_id":"([^"]+)"/.exec(text)?.[1];
      const failure = () => ({
        request: built.description,
        status: response.status,
        answer: clip(text, 600),
        log: harness.logLines.slice(logFrom).filter((line) => traceId === undefined || line.includes(traceId)).slice(0, 3).map((line) => clip(line, 1_500)),
      });
      if (response.status >= 500) serverErrors.push(failure());
      const wrong = violation(harness.config.clinicApiKey, built.request, response, text);
      if (wrong) violations.push({ ...failure(), answer: `${wrong}: ${clip(text, 600)}` });

      const key = `${built.request.method} ${new URL(built.request.url).pathname}`;
      if (built.auth.startsWith("standalone") && (response.status === 401 || (response.status < 300 && (key === "POST /auth/logout" || key.startsWith("DELETE /auth/sessions"))))) session.signedOut();
      if (built.auth.startsWith("host") && response.status === 401) session.forgetReadTokens();
      const spent = timeByRoute.get(routeKey) ?? { requests: 0, ms: 0 };
      timeByRoute.set(routeKey, { requests: spent.requests + 1, ms: spent.ms + performance.now() - planStarted });
      if (key === "POST /api/holds" && response.status === 200) {
        const held = z.safeParse(heldAnswer, JSON.parse(text));
        if (held.success) session.holdIds.push(held.data.hold.id);
      }
    }
    // The harness keeps every upstream call and log line: a long sweep forgets the old ones.
    if (harness.upstream.length > 5_000) harness.upstream.length = 0;
    if (harness.logLines.length > 20_000) harness.logLines.length = 0;
  }
  return {
    seed: options.seed,
    requests: sent,
    unbuildable,
    statuses,
    internalErrors: statuses["500"] ?? 0,
    serverErrors,
    violations,
    routesSwept: routes.length,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    slowestRoutes: [...timeByRoute]
      .map(([route, spent]) => ({ route, requests: spent.requests, ms: Math.round(spent.ms) }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5),
  };
}

/**
 * The harness options a sweep needs: rate limits far above what it sends, so
 * the BFF's own handling is what is swept, not a limit; and a built SPA of its
 * own, so a path that leads out of /api and /auth gets the SPA's page, not
 * "not built" (a fresh clone has no dist/).
 */
export function sweepHarnessOptions(): BffHarnessOptions {
  const distDir = mkdtempSync(join(tmpdir(), "tandem-sweep-dist-"));
  writeFileSync(join(distDir, "index.html"), "<!doctype html><title>Tandem</title>");
  return { configOverrides: { upstreamUserLimit: 1_000_000, distDir }, emulatorSettings: { rateLimit: 1_000_000 } };
}
