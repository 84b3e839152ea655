import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { errorBody, successEnvelope } from "../../contract/clinic-api/envelope.ts";
import { oauthTokenData, oauthTokenErrorBody } from "../../contract/clinic-api/oauth.ts";
import { createTestEmulator, ERAS_ONLY_KEY, FULL_KEY, REVOKED_KEY, TEST_NOW } from "../test-support/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID } from "../world/identities.ts";
import { findMultiOrgAccount } from "./accounts.ts";
import { obtainAuthorizationCode, pkcePair } from "./testing/oauth-flow.ts";
import { TestBrowser } from "./testing/test-browser.ts";

// Seed 001 "Sign-in for standalone apps" 5 and "Limits": POST /v3/oauth/token
// with the app's data key and no X-Organization-Id; a code works once and
// for 10 minutes; PKCE S256; the redirect URI of the authorization.

const REDIRECT_URI = "http://localhost:8787/auth/callback";

describe("POST /v3/oauth/token", () => {
  const { emulator, sandbox, call } = createTestEmulator();

  interface Exchange {
    body?: Record<string, string>;
    key?: string | null;
    json?: boolean;
    headers?: Record<string, string>;
  }

  async function exchange({ body = {}, key = FULL_KEY, json = false, headers = {} }: Exchange) {
    const response = await emulator.app.request("/v3/oauth/token", {
      method: "POST",
      headers: {
        ...(key === null ? {} : { authorization: `Bearer ${key}` }),
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

  function expectOAuthError(result: { status: number; json: unknown }, error: string, description: RegExp) {
    expect(result.status).toBe(400);
    const body = z.parse(oauthTokenErrorBody, result.json);
    expect(body).toMatchObject({ code: "bad_request", error });
    expect(body.error_description).toMatch(description);
    expect(body.message).toBe(body.error_description);
    expect(body.trace_id).toMatch(/^trc_/);
  }

  it("exchanges a code sent as a form, with no X-Organization-Id, answering no-store", async () => {
    const { body } = await freshCode();
    const result = await exchange({ body });
    expect(result.status).toBe(200);
    expect(result.headers.get("cache-control")).toBe("no-store");
    expect(result.headers.get("x-ratelimit-limit")).toBe("1000");
    const data = z.parse(successEnvelope(oauthTokenData), result.json).data;
    expect(data.authorizedOrganizations.map((organization) => organization.organizationId).sort()).toEqual([ORG_A_ID, ORG_B_ID].sort());
  });

  it("takes a JSON body too, and parses with the contract's route map", async () => {
    const { body } = await freshCode();
    const result = await call("POST /v3/oauth/token", { organizationId: null, body });
    expect(result.status).toBe(200);
    expect(result.data?.user.id).toBe(findMultiOrgAccount(emulator.state).id);
  });

  it("lets the ERA-only data key exchange codes: it is a data key of the app, and the exchange gives identity, not data", async () => {
    const { body } = await freshCode();
    expect((await exchange({ body, key: ERAS_ONLY_KEY })).status).toBe(200);
  });

  it.each([
    ["missing", null, /Authorization header is required/],
    ["revoked", REVOKED_KEY, /revoked/],
    ["unknown", "svc_dev_ak_ffffffffffffffffffffffffffffffff", /invalid/],
  ])("answers 401 for a %s key, and the code stays usable", async (_case, key, message) => {
    const { body } = await freshCode();
    const refused = await exchange({ body, key });
    expect(refused.status).toBe(401);
    const error = z.parse(errorBody, refused.json);
    expect(error.code).toBe("unauthorized");
    expect(error.message).toMatch(message);
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
    expectOAuthError({ status: repeated.status, json: await repeated.json() }, "invalid_request", /code must be given once/);
    expectOAuthError(await exchange({ body, headers: { "content-type": "text/plain" } }), "invalid_request", /Content-Type must be/);
  });

  it("leaves out an organization whose installation left the active state since the consent; none left is invalid_grant", async () => {
    const one = await freshCode();
    const two = await freshCode();
    try {
      await sandbox("POST", `/installations/${ORG_B_ID}`, { status: "suspended" });
      const result = await exchange({ body: one.body });
      const data = z.parse(successEnvelope(oauthTokenData), result.json).data;
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
