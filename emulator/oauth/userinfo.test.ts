import { beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { errorBody } from "#contract/clinic-api/envelope.ts";
import { oauthErrorBody, oauthTokenResponse, oauthUserInfo, type OAuthTokenResponse } from "#contract/clinic-api/oauth.ts";
import { toPrefixedId } from "#contract/ids.ts";
import { createTestEmulator, FULL_KEY } from "../testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID } from "../world/identities.ts";
import { findMultiOrgAccount, findSingleOrgAccount } from "./accounts.ts";
import { obtainAuthorizationCode, pkcePair } from "./testing/oauth-flow.ts";
import { TestBrowser } from "./testing/test-browser.ts";

// OIDC Core 5.3: the access token of a code exchange opens userinfo, whose
// claims are read from the world at the moment of the call (roles changed or
// providers made inactive in the EHR show at once), and nothing else.

const REDIRECT_URI = "http://localhost:8787/auth/callback";
const INVALID_TOKEN = 'Bearer realm="Clinic Data Service", error="invalid_token"';

describe("GET and POST /v3/oauth/userinfo", () => {
  const { emulator, sandbox } = createTestEmulator();
  const request = (path: string, init?: RequestInit) => emulator.app.request(path, init);

  beforeEach(async () => {
    await sandbox("POST", "/reset");
  });

  async function signIn(accountId: string, organizationIds?: string[]): Promise<OAuthTokenResponse> {
    const pkce = pkcePair();
    const { code } = await obtainAuthorizationCode(new TestBrowser(request), { redirectUri: REDIRECT_URI, state: "s", codeChallenge: pkce.challenge, accountId, organizationIds });
    const response = await request("/v3/oauth/token", {
      method: "POST",
      headers: { authorization: `Bearer ${FULL_KEY}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: pkce.verifier }).toString(),
    });
    expect(response.status).toBe(200);
    return z.parse(oauthTokenResponse, await response.json());
  }

  const userinfo = (authorization: string | null, method: "GET" | "POST" = "GET") => request("/v3/oauth/userinfo", { method, headers: authorization === null ? {} : { authorization } });

  async function claims(accessToken: string, method: "GET" | "POST" = "GET") {
    const response = await userinfo(`Bearer ${accessToken}`, method);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    return z.parse(oauthUserInfo, await response.json());
  }

  async function expectRefused(response: Response, challenge: string) {
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(challenge);
    expect(z.parse(oauthErrorBody, await response.json()).error).toBe("invalid_token");
  }

  it("answers the standard claims and, by GET or POST, the providers and organizations the token was issued for", async () => {
    const account = findMultiOrgAccount(emulator.state);
    const tokens = await signIn(account.id);
    const info = await claims(tokens.access_token);
    expect(info).toEqual({
      sub: account.id,
      email: account.email,
      email_verified: true,
      name: "Jacob Brooks",
      given_name: "Jacob",
      family_name: "Brooks",
      providers: tokens.user.providers,
      authorizedOrganizations: tokens.authorizedOrganizations,
    });
    expect(info.providers.map((provider) => provider.organizationId)).toEqual([ORG_A_ID, ORG_B_ID]);
    expect(await claims(tokens.access_token, "POST")).toEqual(info);
  });

  it("names only the organizations the token was issued for", async () => {
    const account = findMultiOrgAccount(emulator.state);
    const tokens = await signIn(account.id, [ORG_B_ID]);
    const info = await claims(tokens.access_token);
    expect(info.providers.map((provider) => provider.organizationId)).toEqual([ORG_B_ID]);
    expect(info.authorizedOrganizations.map((organization) => organization.organizationId)).toEqual([ORG_B_ID]);
  });

  it("shows roles changed in the EHR at once, and drops a provider made inactive", async () => {
    const account = findMultiOrgAccount(emulator.state);
    const tokens = await signIn(account.id);
    const [inA, inB] = account.memberships;
    if (!inA || !inB) throw new Error("the multi-organization account lacks a membership");

    expect((await sandbox("PATCH", `/ehr/${ORG_A_ID}/providers/${inA.providerId}`, { roles: ["Nurse Practitioner", "Scheduler"] })).status).toBe(200);
    const changed = await claims(tokens.access_token);
    expect(changed.sub).toBe(account.id);
    expect(changed.providers).toEqual([
      { organizationId: ORG_A_ID, providerId: toPrefixedId("prv", inA.providerId), roles: ["Nurse Practitioner", "Scheduler"] },
      { organizationId: ORG_B_ID, providerId: toPrefixedId("prv", inB.providerId), roles: ["Physician"] },
    ]);

    expect((await sandbox("PATCH", `/ehr/${ORG_B_ID}/providers/${toPrefixedId("prv", inB.providerId)}`, { active: false })).status).toBe(200);
    const inactive = await claims(tokens.access_token);
    expect(inactive.providers.map((provider) => provider.organizationId)).toEqual([ORG_A_ID]);
    // The organization is still authorized: only the user's provider there is gone.
    expect(inactive.authorizedOrganizations.map((organization) => organization.organizationId)).toEqual([ORG_A_ID, ORG_B_ID]);
  });

  it("refuses the token with invalid_token once its account can sign in nowhere", async () => {
    const frontDesk = findSingleOrgAccount(emulator.state, ORG_A_ID, "Front Desk");
    const tokens = await signIn(frontDesk.id);
    await sandbox("PATCH", `/ehr/${ORG_A_ID}/providers/${frontDesk.memberships[0]?.providerId ?? ""}`, { active: false });
    await expectRefused(await userinfo(`Bearer ${tokens.access_token}`), INVALID_TOKEN);
  });

  it("leaves out an organization whose installation is no longer active, with the user's provider there", async () => {
    const tokens = await signIn(findMultiOrgAccount(emulator.state).id);
    await sandbox("POST", `/installations/${ORG_B_ID}`, { status: "suspended" });
    const info = await claims(tokens.access_token);
    expect(info.authorizedOrganizations.map((organization) => organization.organizationId)).toEqual([ORG_A_ID]);
    expect(info.providers.map((provider) => provider.organizationId)).toEqual([ORG_A_ID]);
  });

  it("refuses a missing, unknown or expired token, and a data key, with a Bearer challenge", async () => {
    const tokens = await signIn(findMultiOrgAccount(emulator.state).id);
    await expectRefused(await userinfo(null), 'Bearer realm="Clinic Data Service"');
    await expectRefused(await userinfo("Bearer made-up"), INVALID_TOKEN);
    await expectRefused(await userinfo(`Bearer ${FULL_KEY}`), INVALID_TOKEN);
    await sandbox("POST", "/clock", { advanceSeconds: 8 * 60 * 60 - 1 });
    await claims(tokens.access_token);
    await sandbox("POST", "/clock", { advanceSeconds: 1 });
    await expectRefused(await userinfo(`Bearer ${tokens.access_token}`), INVALID_TOKEN);
  });

  it("forgets access tokens on reset", async () => {
    const tokens = await signIn(findMultiOrgAccount(emulator.state).id);
    await sandbox("POST", "/reset");
    await expectRefused(await userinfo(`Bearer ${tokens.access_token}`), INVALID_TOKEN);
  });

  it("goes through fault injection like every call to the service", async () => {
    const tokens = await signIn(findMultiOrgAccount(emulator.state).id);
    await sandbox("POST", "/faults", { method: "GET", path: "/v3/oauth/userinfo", code: "server_unresponsive", count: 1 });
    const faulted = await userinfo(`Bearer ${tokens.access_token}`);
    expect(faulted.status).toBe(503);
    expect(z.parse(errorBody, await faulted.json()).code).toBe("server_unresponsive");
    await claims(tokens.access_token);
  });
});
