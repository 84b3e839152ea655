import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { appErrorBody } from "#contract/app-api/errors.ts";
import { standaloneSessionList } from "#contract/app-api/standalone.ts";
import { findSingleOrgAccount } from "../../emulator/oauth/accounts.ts";
import { ORG_A_ID } from "../../emulator/world/identities.ts";
import type { EhrNote } from "../../emulator/world/types.ts";
import { createBffHarness, type BffHarness } from "../testing/bff-harness.ts";
import { signInStandalone, type StandaloneUser } from "../testing/standalone-sign-in.ts";
import { openEngineStore, storeEngines, type EngineStore } from "./testing/engine-store.ts";
import { routeKeys, runRouteSweep, sweepHarnessOptions, sweepWorld, sweptRoutes } from "./testing/route-sweep.ts";

// Issue 34 item 5, "Bad input", on every store engine (PGlite, and
// PostgreSQL when DATABASE_URL is set): an id in a path is checked at the
// edge against the contract's form for it (contract/app-api), and a bad one
// answers 400 `bad_request` naming the parameter before the store or the
// service sees it. PostgreSQL refuses a NUL byte in text, so before this
// `DELETE /auth/sessions/%00` answered 500. Then a bounded sample of the
// route sweep (server/hardening/testing/route-sweep.ts): generated requests
// over every /api and /auth route and method, none answered with a 5xx. The
// full 10,000 run in `npm run bench` (bench/api-fuzz-bench.ts).

/** Requests of the sweep on every run (a few seconds per engine); the bench sends 10,000. */
const SWEEP_SAMPLE = 300;
const APP_ORIGIN = "http://localhost:8787";
const SESSION_COOKIE = "__Host-tandem-session";

/** Path segments no id route may take: NUL, text, overlong, bidi and emoji, encoded slashes and dots, invalid UTF-8, ids of another kind. */
const BAD_SEGMENTS = [
  "%00",
  "a%00b",
  `${"0".repeat(8)}-0000-4000-8000-00000000000%00`,
  "not-an-id",
  "%2500",
  "x".repeat(5_000),
  "%E2%80%AE",
  "%F0%9F%98%80",
  "..%2F..%2Fsession",
  "%2e%2e%2f",
  "a%5Cb",
  "%C0%AE",
  "null",
  `atp_${"a".repeat(32)}`,
] as const;

const expectNamedBadRequest = async (response: Response, parameter: string, request: string) => {
  const text = await response.text();
  expect(response.status, `${request} → ${response.status} ${text.slice(0, 300)}`).toBe(400);
  const body = z.parse(appErrorBody, JSON.parse(text));
  expect(body.code).toBe("bad_request");
  expect(body.message, request).toMatch(new RegExp(`^${parameter}: `));
};

describe.each(storeEngines(process.env.DATABASE_URL))("bad ids on $name", (engine) => {
  let opened: EngineStore;
  let harness: BffHarness;
  let user: StandaloneUser;
  let note: EhrNote;
  let physicianId: string;

  beforeAll(async () => {
    opened = await openEngineStore(engine);
    harness = await createBffHarness(opened.store, sweepHarnessOptions());
    const org = harness.emulator.emulator.state.org(ORG_A_ID);
    const found = org?.ehr.notes.find((candidate) => candidate.status === "awaiting_sign" && candidate.images.length > 0);
    if (!found) throw new Error("no awaiting_sign note with images in the seed");
    note = found;
    physicianId = harness.userWithRole("Physician");
    user = await signInStandalone(harness, findSingleOrgAccount(harness.emulator.emulator.state, ORG_A_ID, "Physician").id, ORG_A_ID);
  }, 60_000);

  afterAll(async () => {
    await harness.close();
    await opened.close();
  });

  /** Calls of the service's resources (not its sign-in endpoints, which a standalone write's re-check asks). */
  const resourceCalls = () => harness.upstream.filter((call) => /^\/v\d+\//.test(call.path)).length;

  const hostRequest = async (method: string, path: string, body?: unknown) => {
    const token = await harness.hostToken({ noteId: note.id, patientId: note.patient.id, userId: physicianId });
    return harness.bff.app.request(path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  };

  const standaloneRequest = (method: string, path: string) =>
    harness.bff.app.request(path, { method, headers: { cookie: `${SESSION_COOKIE}=${user.cookie()}`, origin: APP_ORIGIN } });

  it("answers 400 naming sessionId to DELETE /auth/sessions/%00 and any other id that is not a session's (a UUID), and ends nothing", async () => {
    for (const segment of BAD_SEGMENTS) {
      await expectNamedBadRequest(await standaloneRequest("DELETE", `/auth/sessions/${segment}`), "sessionId", `DELETE /auth/sessions/${segment.slice(0, 60)}`);
    }
    // Still signed in, and a well-formed id of no session of the user's is still a 404.
    const listed = z.parse(standaloneSessionList, await (await standaloneRequest("GET", "/auth/sessions")).json());
    expect(listed.sessions.filter((entry) => entry.current)).toHaveLength(1);
    expect((await standaloneRequest("DELETE", "/auth/sessions/00000000-0000-4000-8000-000000000000")).status).toBe(404);
  });

  it("answers 400 naming noteId to every note route with a malformed note id, before the service is asked", async () => {
    const routes = [
      ["GET", ""],
      ["PATCH", "", { stickyNoteDescription: "x" }],
      ["GET", "/draft"],
      ["PUT", "/draft", { fields: { otherExamComments: "x" }, baseline: {}, noteVersion: null }],
      ["DELETE", "/draft"],
      ["GET", "/tasks"],
      ["POST", "/tasks", { notes: "call back", assigneeIds: [physicianId] }],
      ["GET", "/images"],
      ["DELETE", `/images/img_${"0".repeat(32)}`],
      ["GET", "/changes"],
    ] as const;
    await hostRequest("GET", "/api/session");
    const before = resourceCalls();
    for (const [method, suffix, body] of routes) {
      for (const segment of ["%00", "a%00b", "x".repeat(5_000), "%E2%80%AE", "..%2Fsession", `img_${"0".repeat(32)}`]) {
        const path = `/api/notes/${segment}${suffix}`;
        await expectNamedBadRequest(await hostRequest(method, path, body), "noteId", `${method} ${path.slice(0, 80)}`);
      }
    }
    // Outside the EHR, the note is read to check it is the user's: a bad id never gets that far.
    await expectNamedBadRequest(await standaloneRequest("GET", "/api/notes/%00"), "noteId", "standalone GET /api/notes/%00");
    expect(resourceCalls()).toBe(before);
  });

  it("answers 400 naming imageId and holdId to a malformed image or hold id, before the service is asked", async () => {
    await hostRequest("GET", "/api/session");
    const before = resourceCalls();
    for (const segment of BAD_SEGMENTS) {
      await expectNamedBadRequest(await hostRequest("DELETE", `/api/notes/${note.id}/images/${segment}`), "imageId", `DELETE …/images/${segment.slice(0, 60)}`);
      await expectNamedBadRequest(await hostRequest("DELETE", `/api/holds/${segment}`), "holdId", `DELETE /api/holds/${segment.slice(0, 60)}`);
    }
    await expectNamedBadRequest(await hostRequest("DELETE", `/api/notes/${note.id}/images/prv_${"0".repeat(32)}`), "imageId", "an image id of another kind");
    expect(resourceCalls()).toBe(before);
  });

  it("sweeps every /api and /auth route the BFF has", () => {
    const served = harness.bff.app.routes
      .filter((route) => route.method !== "ALL" && /^\/(api|auth)\//.test(route.path))
      .map((route) => `${route.method} ${route.path}`);
    expect(routeKeys(sweptRoutes(sweepWorld(harness), harness.now())).sort()).toEqual([...new Set(served)].sort());
  });

  it(`answers none of ${SWEEP_SAMPLE} generated requests over every route and method with a 5xx, and every refusal with the error body`, async () => {
    const seed = Math.floor(Math.random() * 2 ** 31);
    const figures = await runRouteSweep(harness, { requests: SWEEP_SAMPLE, seed });
    const replay = `seed ${seed} (replay: npx tsx bench/api-fuzz-bench.ts --requests ${SWEEP_SAMPLE} --seed ${seed})`;
    expect(figures.serverErrors, replay).toEqual([]);
    expect(figures.violations, replay).toEqual([]);
    expect(figures.requests).toBeGreaterThanOrEqual(SWEEP_SAMPLE - figures.unbuildable);
  }, 120_000);
});
