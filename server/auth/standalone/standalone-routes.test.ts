import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { appErrorBody } from "#contract/app-api/errors.ts";
import { session as sessionSchema } from "#contract/app-api/session.ts";
import { standaloneSessionList, standaloneSignInState } from "#contract/app-api/standalone.ts";
import { findMultiOrgAccount, findSingleOrgAccount } from "../../../emulator/oauth/accounts.ts";
import { decide, isConsentPage, isSignInPage, signIn } from "../../../emulator/oauth/testing/oauth-flow.ts";
import { TestBrowser, type BrowserPage } from "../../../emulator/oauth/testing/test-browser.ts";
import { ORG_A_ID, ORG_B_ID } from "../../../emulator/world/identities.ts";
import { readBffConfig } from "../../env.ts";
import { createStore } from "../../store/create-store.ts";
import type { Store } from "../../store/store.ts";
import { createBffHarness, type BffHarness } from "../../testing/bff-harness.ts";
import { standaloneProfile } from "./standalone-session.ts";

// Standalone sign-in end to end, in-process: the BFF sends the browser to the
// emulator's authorize page, the account signs in and allows, the callback
// exchanges the code, verifies the id_token and sets the session cookie; the
// organization is picked; /api answers from the cookie. And every way it can
// fail ends on /signin with a code.

const APP = "http://localhost:8787";
const SESSION_COOKIE = "__Host-tandem-session";
const LOGIN_COOKIE = "__Host-tandem-login";

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

beforeEach(async () => {
  await harness.emulator.sandbox("POST", "/reset", {});
});

/** One browser profile: cookies of the app's origin and of the service's sign-in pages. */
function newBrowser() {
  const app = new TestBrowser((path, init) => harness.bff.app.request(path.replace(APP, ""), init));
  const idp = new TestBrowser((path, init) => harness.emulator.emulator.app.request(path.replace(/^https?:\/\/[^/]+/, ""), init));
  return { app, idp, session: undefined as string | undefined };
}

function locationPath(page: BrowserPage): string {
  if (page.location === null) throw new Error(`expected a redirect, got ${page.status}: ${page.html.slice(0, 200)}`);
  return page.location;
}

/** /auth/login → the authorize page → sign in → allow; answers the callback URL the service sent the browser to. */
async function throughConsent(browser: ReturnType<typeof newBrowser>, accountId: string, options: { decision?: "allow" | "deny"; login?: string } = {}): Promise<string> {
  const login = await browser.app.get(options.login ?? "/auth/login?returnTo=/slots");
  expect(login.status).toBe(302);
  const authorize = new URL(locationPath(login));
  expect(authorize.pathname).toBe("/oauth/authorize");
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorize.searchParams.get("state")?.length).toBeGreaterThanOrEqual(40);
  expect(authorize.searchParams.get("nonce")?.length).toBeGreaterThanOrEqual(40);
  let page = await browser.idp.get(`${authorize.pathname}${authorize.search}`);
  if (isSignInPage(page)) page = await signIn(browser.idp, page, accountId);
  if (isConsentPage(page)) page = await decide(browser.idp, page, options.decision ?? "allow");
  return locationPath(page);
}

async function callback(browser: ReturnType<typeof newBrowser>, url: string): Promise<string> {
  const page = await browser.app.get(url);
  expect(page.status).toBe(302);
  return locationPath(page);
}

/** A fetch from the app's page: the session cookie (as last set) goes along, and a new one is kept. */
async function json(browser: ReturnType<typeof newBrowser>, path: string, init: { method?: string; body?: unknown; origin?: string | null } = {}) {
  const cookie = browser.session ?? browser.app.cookie(SESSION_COOKIE) ?? "";
  const headers: Record<string, string> = { accept: "application/json", cookie: `${SESSION_COOKIE}=${cookie}` };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (init.origin !== null) headers.origin = init.origin ?? APP;
  const response = await harness.bff.app.request(path, { method: init.method ?? "GET", headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const renewed = response.headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`));
  if (renewed) browser.session = renewed.slice(SESSION_COOKIE.length + 1).split(";")[0];
  return response;
}

describe("standalone sign-in", () => {
  it("signs in through consent, picks an organization, and uses the app from the session cookie", async () => {
    const browser = newBrowser();
    const account = findMultiOrgAccount(harness.emulator.emulator.state);
    const back = await throughConsent(browser, account.id);
    expect(back.startsWith(`${APP}/auth/callback?`)).toBe(true);
    expect(await callback(browser, back)).toBe("/slots");
    expect(browser.app.cookie(SESSION_COOKIE)).toBeDefined();
    expect(browser.app.cookie(LOGIN_COOKIE)).toBeUndefined();

    const state = z.parse(standaloneSignInState, await (await json(browser, "/auth/session")).json());
    if (!state.signedIn) throw new Error("not signed in");
    expect(state.organizations.map((organization) => organization.id).sort()).toEqual([ORG_A_ID, ORG_B_ID].sort());
    expect(state.selectedOrganizationId).toBeNull();
    expect((await json(browser, "/api/session")).status).toBe(403);

    expect((await json(browser, "/auth/organization", { method: "POST", body: { organizationId: ORG_B_ID } })).status).toBe(200);
    const session = z.parse(sessionSchema, await (await json(browser, "/api/session")).json());
    expect(session.organization.id).toBe(ORG_B_ID);
    expect(session.user.roles).toContain("Physician");

    // A slot held from the standalone session (a write: same-origin only, no host token needed).
    const { appointmentTypes } = z.parse(z.object({ appointmentTypes: z.array(z.object({ id: z.string() })) }), await (await json(browser, "/api/appointment-types")).json());
    const typeId = appointmentTypes[0]?.id ?? "";
    // The window from the harness's pinned clock (ADR 0011), so the same slots are found on any day.
    const start = new Date(harness.now() + 86_400_000).toISOString().slice(0, 10);
    const end = new Date(harness.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const slots = z.parse(z.object({ slots: z.array(z.object({ providerId: z.string(), facilityId: z.string(), startsAt: z.string(), endsAt: z.string() })) }), await (await json(browser, `/api/slots?appointmentTypeId=${typeId}&startDate=${start}&endDate=${end}`)).json());
    const slot = slots.slots[0];
    if (!slot) throw new Error("no slot");
    const hold = await json(browser, "/api/holds", { method: "POST", body: { ...slot, appointmentTypeId: typeId } });
    expect(hold.status).toBe(200);
    const crossSite = await json(browser, "/api/holds", { method: "POST", body: { ...slot, appointmentTypeId: typeId }, origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
  });

  it.each([
    ["%2F%09%2F127.0.0.1%3A34999%2Fpwn", "/"],
    ["/%0A/evil", "/"],
    ["%2F%5C127.0.0.1", "/"],
    ["%2F%2F127.0.0.1", "/"],
    ["https%3A%2F%2Fevil.example%2Fslots", "/"],
    ["%2Fslots%2F%2Fevil", "/"],
    ["%2Fnot-a-route", "/"],
    ["%2Fnote%3FnoteId%3Dabc", "/note?noteId=abc"],
  ])("returns after sign-in to this app's own routes only: returnTo=%s lands on %s", async (returnTo, landing) => {
    const browser = newBrowser();
    const account = findMultiOrgAccount(harness.emulator.emulator.state);
    const back = await throughConsent(browser, account.id, { login: `/auth/login?returnTo=${returnTo}` });
    expect(await callback(browser, back)).toBe(landing);
  });

  it("refuses an organization the user did not share, and a request from another origin", async () => {
    const browser = newBrowser();
    const frontDesk = findSingleOrgAccount(harness.emulator.emulator.state, ORG_A_ID, "Front Desk");
    expect(await callback(browser, await throughConsent(browser, frontDesk.id))).toBe("/slots");
    // One shared organization is picked at once.
    const state = z.parse(standaloneSignInState, await (await json(browser, "/auth/session")).json());
    expect(state.signedIn && state.selectedOrganizationId).toBe(ORG_A_ID);
    expect((await json(browser, "/auth/organization", { method: "POST", body: { organizationId: ORG_B_ID } })).status).toBe(403);
    expect((await json(browser, "/auth/organization", { method: "POST", body: { organizationId: ORG_A_ID }, origin: "https://evil.example" })).status).toBe(403);
    const session = z.parse(sessionSchema, await (await json(browser, "/api/session")).json());
    expect(session.capabilities.canEditNotes).toBe(false);
  });

  it("ends a denial, a state mismatch, a replayed code and an expired code on /signin with a code", async () => {
    const account = findMultiOrgAccount(harness.emulator.emulator.state);

    const denied = newBrowser();
    expect(await callback(denied, await throughConsent(denied, account.id, { decision: "deny" }))).toBe("/signin?error=access_denied");

    const mismatch = newBrowser();
    const back = new URL(await throughConsent(mismatch, account.id));
    back.searchParams.set("state", "forged");
    expect(await callback(mismatch, `${back.pathname}${back.search}`)).toBe("/signin?error=state_mismatch");

    const replay = newBrowser();
    const first = await throughConsent(replay, account.id);
    expect(await callback(replay, first)).toBe("/slots");
    // A new sign-in in the same browser, answered with the old (spent) code and the new state.
    const second = new URL(await throughConsent(replay, account.id));
    const replayed = new URL(first);
    replayed.searchParams.set("state", second.searchParams.get("state") ?? "");
    expect(await callback(replay, `${replayed.pathname}${replayed.search}`)).toBe("/signin?error=code_rejected");

    const late = newBrowser();
    const lateBack = await throughConsent(late, account.id);
    await harness.emulator.sandbox("POST", "/clock", { advanceSeconds: 601 });
    expect(await callback(late, lateBack)).toBe("/signin?error=code_rejected");

    const noCookie = newBrowser();
    const orphan = await throughConsent(noCookie, account.id);
    noCookie.app.clearCookies();
    expect(await callback(noCookie, orphan)).toBe("/signin?error=sign_in_expired");
  });

  it("ignores a tampered session cookie, and signs out", async () => {
    const browser = newBrowser();
    const frontDesk = findSingleOrgAccount(harness.emulator.emulator.state, ORG_A_ID, "Front Desk");
    await callback(browser, await throughConsent(browser, frontDesk.id));
    const cookie = browser.app.cookie(SESSION_COOKIE) ?? "";
    const tampered = await harness.bff.app.request("/api/session", { headers: { cookie: `${SESSION_COOKIE}=${cookie.slice(0, -4)}AAAA` } });
    expect(tampered.status).toBe(401);
    expect(z.parse(appErrorBody, await tampered.json()).code).toBe("invalid_token");
    const out = await json(browser, "/auth/logout", { method: "POST" });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=;`))).toBe(true);
  });

  it("opens notes assigned to the signed-in provider, and no others", async () => {
    const browser = newBrowser();
    const account = findMultiOrgAccount(harness.emulator.emulator.state);
    await callback(browser, await throughConsent(browser, account.id));
    expect((await json(browser, "/auth/organization", { method: "POST", body: { organizationId: ORG_A_ID } })).status).toBe(200);
    const session = z.parse(sessionSchema, await (await json(browser, "/api/session")).json());
    expect(session.capabilities.canEditNotes).toBe(true);
    const providerId = session.user.id;
    const notes = harness.emulator.emulator.state.org(ORG_A_ID)?.ehr.notes ?? [];
    const mine = notes.find((note) => note.status !== "signed" && note.assignedProviders.some((provider) => provider.id === providerId));
    const theirs = notes.find((note) => !note.assignedProviders.some((provider) => provider.id === providerId));
    if (!mine || !theirs) throw new Error("the seed lacks a note of each kind");
    expect((await json(browser, `/api/notes/${mine.id}`)).status).toBe(200);
    const refused = await json(browser, `/api/notes/${theirs.id}`);
    expect(refused.status).toBe(403);
    expect(z.parse(appErrorBody, await refused.json()).message).toMatch(/not assigned to you/);
    const saved = await json(browser, `/api/notes/${mine.id}`, { method: "PATCH", body: { stickyNoteDescription: "From outside the EHR" } });
    expect(saved.status).toBe(200);
    expect(mine.soapNote.stickyNote.description).toBe("From outside the EHR");
  });

  it("signs in as an OpenID Connect client: the discovered authorize page with scope openid, the exchange at the discovered token endpoint", async () => {
    const authorize = new URL((await newBrowser().app.get("/auth/login")).location ?? "");
    expect(authorize.origin).toBe("http://127.0.0.1:4010");
    expect(authorize.searchParams.get("scope")).toBe("openid");
    expect(authorize.searchParams.get("response_type")).toBe("code");
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${APP}/auth/callback`);
    const browser = newBrowser();
    const before = harness.upstreamRequests.length;
    const back = await throughConsent(browser, findMultiOrgAccount(harness.emulator.emulator.state).id);
    expect(await callback(browser, back)).toBe("/slots");
    const sent = harness.upstreamRequests.slice(before);
    expect(sent).toContain("POST http://127.0.0.1:4010/v3/oauth/token");
    expect(sent.filter((line) => line.endsWith("/.well-known/openid-configuration")).length).toBeLessThanOrEqual(1);
    const exchange = harness.upstreamWrites.filter((write) => write.call === "POST /v3/oauth/token").at(-1);
    expect(Object.fromEntries(new URLSearchParams(exchange?.body ?? ""))).toMatchObject({ grant_type: "authorization_code", redirect_uri: `${APP}/auth/callback`, client_id: "tandem" });
  });

  it("keeps the session on the server: the cookie is a random secret, the store keeps its hash, the profile in raw UUIDs and the access token sealed", async () => {
    const browser = newBrowser();
    const account = findMultiOrgAccount(harness.emulator.emulator.state);
    expect(await callback(browser, await throughConsent(browser, account.id))).toBe("/slots");
    const secret = browser.app.cookie(SESSION_COOKIE) ?? "";
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await store.standaloneSessions.findBySecretHash(createHash("sha256").update(secret).digest("hex"));
    if (!stored) throw new Error("the session is not in the store");
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(JSON.stringify(stored.profile)).not.toMatch(/access_token|prv_|fac_/);
    const profile = z.parse(standaloneProfile, stored.profile);
    expect(profile.providers.map((provider) => provider.providerId)).toEqual(account.memberships.map((membership) => membership.providerId));
    expect(stored.sealedAccessToken).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it("ends the session at sign-out on the server: a copy of the cookie taken before no longer works", async () => {
    const browser = newBrowser();
    const frontDesk = findSingleOrgAccount(harness.emulator.emulator.state, ORG_A_ID, "Front Desk");
    await callback(browser, await throughConsent(browser, frontDesk.id));
    const copied = browser.app.cookie(SESSION_COOKIE) ?? "";
    expect((await harness.bff.app.request("/api/session", { headers: { cookie: `${SESSION_COOKIE}=${copied}` } })).status).toBe(200);
    expect((await json(browser, "/auth/logout", { method: "POST" })).status).toBe(200);
    const replayed = await harness.bff.app.request("/api/session", { headers: { cookie: `${SESSION_COOKIE}=${copied}` } });
    expect(replayed.status).toBe(401);
    expect(z.parse(appErrorBody, await replayed.json()).code).toBe("invalid_token");
  });

  it("lists the user's sessions, and ends another browser's", async () => {
    const account = findSingleOrgAccount(harness.emulator.emulator.state, ORG_A_ID, "Front Desk");
    const laptop = newBrowser();
    await callback(laptop, await throughConsent(laptop, account.id));
    const phone = newBrowser();
    await callback(phone, await throughConsent(phone, account.id));
    const phoneList = z.parse(standaloneSessionList, await (await json(phone, "/auth/sessions")).json());
    const listed = z.parse(standaloneSessionList, await (await json(laptop, "/auth/sessions")).json());
    const other = listed.sessions.find((entry) => entry.id === phoneList.sessions.find((candidate) => candidate.current)?.id);
    if (!other) throw new Error("the phone's session is not listed");
    expect(other.current).toBe(false);
    expect(listed.sessions.filter((entry) => entry.current)).toHaveLength(1);
    expect((await json(laptop, `/auth/sessions/${other.id}`, { method: "DELETE", origin: "https://evil.example" })).status).toBe(403);
    expect((await json(laptop, `/auth/sessions/${other.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await json(phone, "/api/session")).status).toBe(401);
    expect((await json(laptop, "/api/session")).status).toBe(200);
    // Another user cannot end it, nor see it.
    const stranger = newBrowser();
    await callback(stranger, await throughConsent(stranger, findMultiOrgAccount(harness.emulator.emulator.state).id));
    const mine = listed.sessions.find((entry) => entry.current)?.id ?? "";
    expect((await json(stranger, `/auth/sessions/${mine}`, { method: "DELETE" })).status).toBe(404);
    expect((await json(laptop, "/api/session")).status).toBe(200);
  });

  it("re-checks the user with the service on every write and every 5 minutes: made Front Desk, then inactive, in the EHR, they lose the note", async () => {
    const browser = newBrowser();
    const account = findMultiOrgAccount(harness.emulator.emulator.state);
    await callback(browser, await throughConsent(browser, account.id));
    expect((await json(browser, "/auth/organization", { method: "POST", body: { organizationId: ORG_A_ID } })).status).toBe(200);
    const session = z.parse(sessionSchema, await (await json(browser, "/api/session")).json());
    const providerId = session.user.id;
    const note = (harness.emulator.emulator.state.org(ORG_A_ID)?.ehr.notes ?? []).find(
      (candidate) => candidate.status !== "signed" && candidate.assignedProviders.some((provider) => provider.id === providerId),
    );
    if (!note) throw new Error("the seed has no open note of the provider");
    const draft = { fields: { stickyNoteDescription: "Recheck in two weeks" }, baseline: { stickyNoteDescription: "" }, noteVersion: null };
    expect((await json(browser, `/api/notes/${note.id}`)).status).toBe(200);
    expect((await json(browser, `/api/notes/${note.id}/draft`, { method: "PUT", body: draft })).status).toBe(200);

    // Made Front Desk in the EHR: the very next write is refused.
    await harness.emulator.sandbox("PATCH", `/ehr/${ORG_A_ID}/providers/${providerId}`, { roles: ["Front Desk"] });
    const write = await json(browser, `/api/notes/${note.id}/draft`, { method: "PUT", body: draft });
    expect(write.status).toBe(403);
    expect(z.parse(appErrorBody, await write.json()).code).toBe("role_forbidden");
    expect((await json(browser, `/api/notes/${note.id}`)).status).toBe(403);

    // Made inactive: within 5 minutes even reading stops.
    await harness.emulator.sandbox("PATCH", `/ehr/${ORG_A_ID}/providers/${providerId}`, { roles: ["Physician"], active: false });
    harness.advanceClocks(5 * 60);
    const read = await json(browser, "/api/session");
    expect(read.status).toBe(403);
    expect(z.parse(appErrorBody, await read.json()).code).toBe("account_inactive");
  });

  it("sets its cookies as __Host- cookies: Secure, HttpOnly, SameSite=Lax, Path=/", async () => {
    const browser = newBrowser();
    const response = await harness.bff.app.request("/auth/login");
    const line = response.headers.getSetCookie().find((candidate) => candidate.startsWith(`${LOGIN_COOKIE}=`)) ?? "";
    expect(line).toMatch(/; Path=\//);
    expect(line).toMatch(/; Secure/);
    expect(line).toMatch(/; HttpOnly/);
    expect(line).toMatch(/; SameSite=Lax/);
    expect(line).not.toMatch(/Domain=/i);
    expect(browser).toBeDefined();
  });
});

describe("standalone sign-in without the service's discovery document", () => {
  let otherStore: Store;
  let misconfigured: BffHarness;

  beforeAll(async () => {
    otherStore = await createStore();
    const base = readBffConfig({});
    if (!base.standalone) throw new Error("the sandbox has standalone sign-in");
    misconfigured = await createBffHarness(otherStore, { configOverrides: { standalone: { ...base.standalone, issuer: "http://127.0.0.1:4010/elsewhere" } } });
  });

  afterAll(async () => {
    await misconfigured.close();
    await otherStore.close();
  });

  it("ends on /signin?error=sign_in_refused, setting no cookie, and says why in the log", async () => {
    const login = await misconfigured.bff.app.request("/auth/login");
    expect(login.status).toBe(302);
    expect(login.headers.get("location")).toBe("/signin?error=sign_in_refused");
    expect(login.headers.getSetCookie().some((line) => line.startsWith(`${LOGIN_COOKIE}=`) && !line.startsWith(`${LOGIN_COOKIE}=;`))).toBe(false);
    expect(misconfigured.logLines.join("\n")).toMatch(/discovery document could not be read/);
  });
});
