import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { errorBody } from "#contract/clinic-api/envelope.ts";
import { oauthErrorBody, oauthTokenResponse } from "#contract/clinic-api/oauth.ts";
import { isPrefixedId, isRawUuid, toRawUuid } from "#contract/ids.ts";
import { createTestEmulator, ERAS_ONLY_KEY, FULL_KEY, REVOKED_KEY, TEST_NOW } from "../testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID } from "../world/identities.ts";
import { findMultiOrgAccount } from "./accounts.ts";
import { obtainAuthorizationCode, pkcePair } from "./testing/oauth-flow.ts";
import { TestBrowser } from "./testing/test-browser.ts";

// Seed 001 "Sign-in for standalone apps" 5 and "Limits": POST /v3/oauth/token
// with the app's data key and no X-Organization-Id; a code works once and
// for 10 minutes; PKCE S256; the redirect URI of the authorization. The
// answer is RFC 6749 5.1's top-level JSON; errors are RFC 6749 5.2's.

const REDIRECT_URI = "http://localhost:8787/auth/callback";

describe("POST /v3/oauth/token", () => {
  const { emulator, sandbox, call } = createTestEmulator();

  interface Exchange {
    body?: Record<string, string>;
    /** Sent as `Authorization: Bearer <key>`; null sends no header. */
    key?: string | null;
    /** A whole `Authorization` header instead of the key. */
    authorization?: string;
    json?: boolean;
    headers?: Record<string, string>;
  }

  async function exchange({ body = {}, key = FULL_KEY, authorization, json = false, headers = {} }: Exchange) {
    const response = await emulator.app.request("/v3/oauth/token", {
      method: "POST",
      headers: {
        ...(authorization !== undefined ? { authorization } : key === null ? {} : { authorization: `Bearer ${key}` }),
        "content-type": json ? "application/json" : "application/x-www-form-urlencoded",
        ...headers,
      },
      body: json ? JSON.stringify(body) : new URLSearchParams(body).toString(),
    });
    return { status: response.status, headers: response.headers, json: await response.json() };
  }

  /** A fresh code from the multi-organization account (consent given on first use, then remembered). */
  async function freshCode(options: { organizationIds?: string[]; prompt?: string } = {}) {
    const pkce = pkcePair();
    const browser = new TestBrowser((path, init) => emulator.app.request(path, init));
    const { code } = await obtainAuthorizationCode(browser, {
      redirectUri: REDIRECT_URI,
      state: "s",
      codeChallenge: pkce.challenge,
      nonce: "abc",
      accountId: findMultiOrgAccount(emulator.state).id,
      ...options,
    });
    const body = { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: pkce.verifier };
    return { code, verifier: pkce.verifier, body };
  }

  function expectOAuthError(result: { status: number; headers: Headers; json: unknown }, error: string, description: RegExp) {
    expect(result.status).toBe(400);
    expect(Object.keys(result.json as object).sort()).toEqual(["error", "error_description"]);
    const body = z.parse(oauthErrorBody, result.json);
    expect(body.error).toBe(error);
    expect(body.error_description).toMatch(description);
    expect(result.headers.get("cache-control")).toBe("no-store");
  }

  it("exchanges a code sent as a form, with no X-Organization-Id, answering RFC 6749's top-level JSON, no-store", async () => {
    const { body } = await freshCode();
    const result = await exchange({ body });
    expect(result.status).toBe(200);
    expect(result.headers.get("cache-control")).toBe("no-store");
    expect(result.headers.get("pragma")).toBe("no-cache");
    expect(result.headers.get("content-type")).toMatch(/^application\/json/);
    expect(result.headers.get("x-ratelimit-limit")).toBe("1000");
    expect(Object.keys(result.json as object).sort()).toEqual(["access_token", "authorizedOrganizations", "expires_in", "id_token", "scope", "token_type", "user"]);
    const data = z.parse(oauthTokenResponse, result.json);
    expect(data.token_type).toBe("Bearer");
    expect(data.expires_in).toBe(8 * 60 * 60);
    expect(data.scope).toBe("openid");
    expect(data.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(data.id_token.split(".")).toHaveLength(3);
    expect(data.authorizedOrganizations.map((organization) => organization.organizationId).sort()).toEqual([ORG_A_ID, ORG_B_ID].sort());
  });

  it("gives facilities and providers v3's prefixed ids; organizations and the user keep raw UUIDs", async () => {
    const { body } = await freshCode();
    const data = z.parse(oauthTokenResponse, (await exchange({ body })).json);
    expect(isRawUuid(data.user.id)).toBe(true);
    for (const provider of data.user.providers) {
      expect(isPrefixedId(provider.providerId, "prv")).toBe(true);
      expect(isRawUuid(provider.organizationId)).toBe(true);
      expect(emulator.state.org(provider.organizationId)?.ehr.providers.some((candidate) => candidate.id === toRawUuid(provider.providerId))).toBe(true);
    }
    for (const organization of data.authorizedOrganizations) {
      expect(isRawUuid(organization.organizationId)).toBe(true);
      expect(organization.facilities.length).toBeGreaterThan(0);
      for (const facility of organization.facilities) expect(isPrefixedId(facility.id, "fac")).toBe(true);
    }
  });

  it("takes a JSON body too", async () => {
    const { body } = await freshCode();
    const result = await exchange({ body, json: true });
    expect(result.status).toBe(200);
    expect(z.parse(oauthTokenResponse, result.json).user.id).toBe(findMultiOrgAccount(emulator.state).id);
  });

  it("issues an access token that opens no data call", async () => {
    const { body } = await freshCode();
    const { access_token: accessToken } = z.parse(oauthTokenResponse, (await exchange({ body })).json);
    const refused = await call("GET /v1/providers", { authorization: `Bearer ${accessToken}` });
    expect(refused.status).toBe(401);
    expect(refused.error?.code).toBe("unauthorized");
  });

  it("lets the ERA-only data key exchange codes: it is a data key of the app, and the exchange gives identity, not data", async () => {
    const { body } = await freshCode();
    expect((await exchange({ body, key: ERAS_ONLY_KEY })).status).toBe(200);
  });

  const CHALLENGE = 'Bearer realm="Clinic Data Service", error="invalid_client"';
  it.each([
    ["missing", { key: null }, /Authorization header is required/, 'Bearer realm="Clinic Data Service"'],
    ["malformed", { authorization: "Basic dGFuZGVtOnNlY3JldA==" }, /must start with 'Bearer '/, CHALLENGE],
    ["revoked", { key: REVOKED_KEY }, /revoked/, CHALLENGE],
    ["unknown", { key: "svc_dev_ak_ffffffffffffffffffffffffffffffff" }, /invalid/, CHALLENGE],
  ])("answers 401 invalid_client with a Bearer challenge for a %s key, and the code stays usable", async (_case, credentials: Pick<Exchange, "key" | "authorization">, description, challenge) => {
    const { body } = await freshCode();
    const refused = await exchange({ body, ...credentials });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe(challenge);
    expect(refused.headers.get("cache-control")).toBe("no-store");
    const error = z.parse(oauthErrorBody, refused.json);
    expect(error.error).toBe("invalid_client");
    expect(error.error_description).toMatch(description);
    expect((await exchange({ body })).status).toBe(200);
  });

  it("refuses a reused code with invalid_grant, and the code stays spent", async () => {
    const { body } = await freshCode();
    expect((await exchange({ body })).status).toBe(200);
    expectOAuthError(await exchange({ body }), "invalid_grant", /code has already been used/);
    expectOAuthError(await exchange({ body, json: true }), "invalid_grant", /code has already been used/);
  });

  it("refuses a code after 10 minutes on the emulator's clock", async () => {
    const fresh = await freshCode();
    const late = await freshCode();
    try {
      await sandbox("POST", "/clock", { advanceSeconds: 599 });
      expect((await exchange({ body: fresh.body })).status).toBe(200);
      await sandbox("POST", "/clock", { advanceSeconds: 2 });
      expectOAuthError(await exchange({ body: late.body }), "invalid_grant", /code has expired/);
    } finally {
      await sandbox("POST", "/clock", { now: TEST_NOW, frozen: true });
    }
  });

  it("refuses a wrong PKCE verifier with invalid_grant, and the code is spent by the attempt", async () => {
    const { body } = await freshCode();
    expectOAuthError(await exchange({ body: { ...body, code_verifier: pkcePair().verifier } }), "invalid_grant", /code_verifier does not match/);
    expectOAuthError(await exchange({ body }), "invalid_grant", /already been used/);
  });

  it("refuses a redirect_uri other than the authorization's", async () => {
    const { body } = await freshCode();
    expectOAuthError(await exchange({ body: { ...body, redirect_uri: `${REDIRECT_URI}/` } }), "invalid_grant", /redirect_uri does not match/);
  });

  it("refuses a client_id other than the code's", async () => {
    const { body } = await freshCode();
    expectOAuthError(await exchange({ body: { ...body, client_id: "other-app" } }), "invalid_grant", /issued to another app/);
  });

  it("refuses an unknown code", async () => {
    const { body } = await freshCode();
    expectOAuthError(await exchange({ body: { ...body, code: "made-up" } }), "invalid_grant", /code is invalid/);
  });

  it("refuses another grant type with unsupported_grant_type", async () => {
    const { body } = await freshCode();
    expectOAuthError(await exchange({ body: { ...body, grant_type: "refresh_token" } }), "unsupported_grant_type", /grant_type "refresh_token" is not supported/);
  });

  it.each([
    ["grant_type", /grant_type is required/],
    ["code", /code is required/],
    ["redirect_uri", /redirect_uri is required/],
    ["code_verifier", /code_verifier is required/],
  ])("answers invalid_request without %s, and a malformed request does not spend the code", async (name, description) => {
    const { body } = await freshCode();
    const rest: Record<string, string> = Object.fromEntries(Object.entries(body).filter(([key]) => key !== name));
    expectOAuthError(await exchange({ body: rest }), "invalid_request", description);
    expect((await exchange({ body })).status).toBe(200);
  });

  it("answers invalid_request for a malformed verifier, a repeated parameter or another content type", async () => {
    const { body } = await freshCode();
    expectOAuthError(await exchange({ body: { ...body, code_verifier: "short" } }), "invalid_request", /code_verifier must be 43 to 128/);
    const repeated = await emulator.app.request("/v3/oauth/token", {
      method: "POST",
      headers: { authorization: `Bearer ${FULL_KEY}`, "content-type": "application/x-www-form-urlencoded" },
      body: `${new URLSearchParams(body).toString()}&code=other`,
    });
    expectOAuthError({ status: repeated.status, headers: repeated.headers, json: await repeated.json() }, "invalid_request", /code must be given once/);
    expectOAuthError(await exchange({ body, headers: { "content-type": "text/plain" } }), "invalid_request", /Content-Type must be/);
  });

  it("leaves out an organization whose installation left the active state since the consent; none left is invalid_grant", async () => {
    const one = await freshCode();
    const two = await freshCode();
    try {
      await sandbox("POST", `/installations/${ORG_B_ID}`, { status: "suspended" });
      const result = await exchange({ body: one.body });
      const data = z.parse(oauthTokenResponse, result.json);
      expect(data.authorizedOrganizations.map((organization) => organization.organizationId)).toEqual([ORG_A_ID]);
      expect(data.user.providers.map((provider) => provider.organizationId)).toEqual([ORG_A_ID]);
      await sandbox("POST", `/installations/${ORG_A_ID}`, { status: "suspended" });
      expectOAuthError(await exchange({ body: two.body }), "invalid_grant", /none of the authorized organizations/);
    } finally {
      await sandbox("POST", "/reset");
    }
  });

  it("goes through fault injection like every data call", async () => {
    const { body } = await freshCode();
    await sandbox("POST", "/faults", { method: "POST", path: "/v3/oauth/token", code: "server_unresponsive", count: 1 });
    const faulted = await exchange({ body });
    expect(faulted.status).toBe(503);
    expect((await exchange({ body })).status).toBe(200);
  });
});

describe("POST /v3/oauth/token past the rate limit", () => {
  const { emulator } = createTestEmulator({ settings: { rateLimit: 2 } });

  it("answers the service's 429 with Retry-After, counted per key for calls without an organization, and spends no code", async () => {
    const send = () =>
      emulator.app.request("/v3/oauth/token", {
        method: "POST",
        headers: { authorization: `Bearer ${FULL_KEY}`, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "authorization_code", code: "made-up", redirect_uri: REDIRECT_URI, code_verifier: pkcePair().verifier }).toString(),
      });
    expect((await send()).status).toBe(400);
    expect((await send()).status).toBe(400);
    const limited = await send();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    const body = z.parse(errorBody, await limited.json());
    expect(body.code).toBe("rate_limit_exceeded");
    expect(body.message).toBe("Rate limit exceeded: 2 requests per 60 seconds for this key's calls without an organization (the code exchange, the installations list)");
    // Another organization's data calls have budgets of their own.
    const data = await emulator.app.request("/v1/providers", { headers: { authorization: `Bearer ${FULL_KEY}`, "x-organization-id": ORG_A_ID } });
    expect(data.status).toBe(200);
  });
});
