import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { AppError } from "../../http/app-error.ts";
import { createLogger } from "../../logger.ts";
import { createStore } from "../../store/create-store.ts";
import type { Store } from "../../store/store.ts";
import { createSealer } from "./sealed-value.ts";
import type { CurrentProfile } from "./current-profile.ts";
import { createSessionRegistry, REVERIFY_AFTER_MS, type SessionsEnded, type SignInResult } from "./session-registry.ts";
import { SESSION_LIFETIME_MS, type StandaloneProfile } from "./standalone-session.ts";

// The server-side standalone session (ADR 0010 "sessions live on the server") on the embedded store,
// with the service's userinfo answer scripted and the clock in the test's hand.

const ORG = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
const START = Date.parse("2026-03-01T10:00:00.000Z");

const physician: StandaloneProfile = {
  displayName: "Dr. Ada Brooks",
  email: "ada@riverside.example",
  providers: [{ organizationId: ORG, providerId: "0c4e2d19-7a36-4b5f-a0e1-9d8c7b6a5f42", roles: ["Physician"] }],
  organizations: [{ organizationId: ORG, name: "Riverside", facilities: [] }],
};
// The store is shared by the tests: each signs in as a user of its own.
let user = 0;
const signIn = (overrides: Partial<SignInResult> = {}): SignInResult => ({
  sub: `user-${user}`,
  profile: physician,
  accessToken: "access-token-1",
  accessTokenExpiresAt: START + SESSION_LIFETIME_MS,
  ...overrides,
});

let store: Store;
let clock: number;
let answers: CurrentProfile[];
let asked: string[];

beforeAll(async () => {
  store = await createStore();
});
afterAll(async () => {
  await store.close();
});
beforeEach(() => {
  clock = START;
  answers = [];
  asked = [];
  user += 1;
});

function registry(onEnded?: (ended: SessionsEnded) => void) {
  return createSessionRegistry({
    ...(onEnded && { onEnded }),
    repository: store.standaloneSessions,
    accessTokens: createSealer("test-secret-test-secret-test-secret", "standalone-access-token", z.string()),
    checkProfile: (accessToken) => {
      asked.push(accessToken);
      return Promise.resolve(answers.shift() ?? { kind: "ok", sub: "", profile: physician });
    },
    logger: createLogger({ level: "silent", secrets: [], name: "test" }),
    now: () => clock,
  });
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error: unknown = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe("standalone session registry", () => {
  it("finds a session by its cookie's secret until it is revoked, and never by a copy after", async () => {
    const sessions = registry();
    const { secret, session } = await sessions.open(signIn(), "Chromium");
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await sessions.find(secret))?.sessionId).toBe(session.sessionId);
    // One organization shared: chosen already.
    expect(session.selectedOrganizationId).toBe(ORG);
    expect(await sessions.revoke(session, session.sessionId)).toBe(true);
    expect(await sessions.find(secret)).toBeNull();
    expect(await sessions.find("x".repeat(43))).toBeNull();
    expect(await sessions.find(undefined)).toBeNull();
  });

  it("ends a session at 8 hours, or earlier when the access token that re-checks it ends", async () => {
    const sessions = registry();
    const long = await sessions.open(signIn(), undefined);
    const short = await sessions.open(signIn({ accessTokenExpiresAt: START + 60 * 60 * 1000 }), undefined);
    clock = START + 60 * 60 * 1000;
    expect(await sessions.find(short.secret)).toBeNull();
    expect(await sessions.find(long.secret)).not.toBeNull();
    clock = START + SESSION_LIFETIME_MS;
    expect(await sessions.find(long.secret)).toBeNull();
  });

  it("re-checks the user with the service before every write and when the last check is 5 minutes old", async () => {
    const sessions = registry();
    const { session } = await sessions.open(signIn(), undefined);
    clock = START + REVERIFY_AFTER_MS - 1;
    expect(await sessions.confirmed(session, { write: false })).toBe(session);
    expect(asked).toEqual([]);

    const frontDesk: StandaloneProfile = { ...physician, providers: [{ ...physician.providers[0]!, roles: ["Front Desk"] }] };
    answers.push({ kind: "ok", sub: "", profile: frontDesk });
    const written = await sessions.confirmed(session, { write: true });
    expect(asked).toEqual(["access-token-1"]);
    expect(written.providers[0]?.roles).toEqual(["Front Desk"]);
    expect(written.verifiedAt).toBe(clock);

    clock += REVERIFY_AFTER_MS;
    const stored = await sessions.find((await sessions.open(signIn(), undefined)).secret);
    expect(stored).not.toBeNull();
    await sessions.confirmed(written, { write: false });
    expect(asked).toHaveLength(2);
  });

  it("shares one re-check among a page's parallel reads", async () => {
    const sessions = registry();
    const { session } = await sessions.open(signIn(), undefined);
    clock = START + REVERIFY_AFTER_MS;
    await Promise.all([sessions.confirmed(session, { write: false }), sessions.confirmed(session, { write: false }), sessions.confirmed(session, { write: false })]);
    expect(asked).toHaveLength(1);
  });

  it("revokes the session when the service no longer knows the sign-in", async () => {
    const sessions = registry();
    const { secret, session } = await sessions.open(signIn(), undefined);
    answers.push({ kind: "revoked" });
    const error = await refusal(sessions.confirmed(session, { write: true }));
    expect(error.status).toBe(401);
    expect(await sessions.find(secret)).toBeNull();
  });

  it("refuses, and keeps the session, when the service cannot be asked", async () => {
    const sessions = registry();
    const { secret, session } = await sessions.open(signIn(), undefined);
    answers.push({ kind: "unavailable" });
    const error = await refusal(sessions.confirmed(session, { write: true }));
    expect(error.status).toBe(503);
    expect(error.headers["Retry-After"]).toBe("30");
    expect(await sessions.find(secret)).not.toBeNull();
  });

  it("lists the user's live sessions and ends the others", async () => {
    const sessions = registry();
    const first = await sessions.open(signIn(), "Firefox");
    clock += 1;
    const second = await sessions.open(signIn(), "Chromium");
    await sessions.open(signIn({ sub: `${user}-other` }), "Safari");
    const listed = await sessions.list(second.session);
    expect(listed.map((entry) => [entry.userAgent, entry.current])).toEqual([
      ["Chromium", true],
      ["Firefox", false],
    ]);
    expect(await sessions.revokeOthers(second.session)).toBe(1);
    expect(await sessions.find(first.secret)).toBeNull();
    expect(await sessions.find(second.secret)).not.toBeNull();
  });

  it("says which sessions ended, so their live streams end: the user's own, the user's others, the user's all when the re-check finds their access changed, and nothing for another user's id", async () => {
    const ended: SessionsEnded[] = [];
    const sessions = registry((entry) => ended.push(entry));
    const { session: laptop } = await sessions.open(signIn(), "laptop");
    const { session: phone } = await sessions.open(signIn(), "phone");
    const { session: stranger } = await sessions.open(signIn({ sub: `stranger-${user}` }), "stranger");

    expect(await sessions.revoke(stranger, laptop.sessionId)).toBe(false);
    expect(ended).toEqual([]);
    expect(await sessions.revoke(laptop, phone.sessionId)).toBe(true);
    expect(ended).toEqual([{ scope: "session", sessionId: phone.sessionId }]);
    const { session: tablet } = await sessions.open(signIn(), "tablet");
    expect(await sessions.revokeOthers(tablet)).toBe(1);
    expect(ended.at(-1)).toEqual({ scope: "user", userId: tablet.sub, exceptSessionId: tablet.sessionId });

    // The same answer again: nothing changed, nothing ends.
    clock += REVERIFY_AFTER_MS;
    await sessions.confirmed(tablet, { write: false });
    expect(ended).toHaveLength(2);
    // Made Front Desk in the EHR.
    const frontDesk = { ...physician, providers: physician.providers.map((provider) => ({ ...provider, roles: ["Front Desk"] })) };
    answers.push({ kind: "ok", sub: tablet.sub, profile: frontDesk });
    await sessions.confirmed(tablet, { write: true });
    expect(ended.at(-1)).toEqual({ scope: "user", userId: tablet.sub, exceptSessionId: null });
    // The sign-in no longer known to the service.
    answers.push({ kind: "revoked" });
    await refusal(sessions.confirmed(tablet, { write: true }));
    expect(ended.at(-1)).toEqual({ scope: "session", sessionId: tablet.sessionId });
  });
});
