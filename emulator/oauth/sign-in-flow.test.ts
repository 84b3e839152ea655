import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { idTokenClaims, oauthCallbackError, oauthCallbackSuccess, oauthTokenResponse } from "#contract/clinic-api/oauth.ts";
import { toPrefixedId, toRawUuid } from "#contract/ids.ts";
import { createTestEmulator, FULL_KEY } from "../testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID } from "../world/identities.ts";
import { findMultiOrgAccount, findSingleOrgAccount } from "./accounts.ts";
import { checkboxValues, checkedValues, pageTitle, selectOptions, textOf } from "./testing/html-forms.ts";
import { authorizePath, callbackOf, decide, isConsentPage, isSignInPage, pkcePair, signIn } from "./testing/oauth-flow.ts";
import { TestBrowser } from "./testing/test-browser.ts";

// Seed 001 "Sign-in for standalone apps" 3-6 and its rules, from the
// browser's side: sign-in, consent, remembered consent, prompt=consent,
// changed permissions, denial, and the code exchanged for a verified id_token.

const REDIRECT_URI = "http://localhost:8787/auth/callback";

describe("standalone sign-in (seed 001 Sign-in for standalone apps)", () => {
  const { emulator, sandbox } = createTestEmulator();
  const request = (path: string, init?: RequestInit) => emulator.app.request(path, init);
  let browser: TestBrowser;

  beforeEach(async () => {
    await sandbox("POST", "/reset");
    browser = new TestBrowser(request);
  });

  async function exchange(code: string, verifier: string) {
    const response = await request("/v3/oauth/token", {
      method: "POST",
      headers: { authorization: `Bearer ${FULL_KEY}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier }).toString(),
    });
    expect(response.status).toBe(200);
    return z.parse(oauthTokenResponse, await response.json());
  }

  it("signs in, consents, redirects with a code and the state, and exchanges it for a verified id_token", async () => {
    const account = findMultiOrgAccount(emulator.state);
    const pkce = pkcePair();
    const state = "st&te=/?ü";

    const signInPage = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state, codeChallenge: pkce.challenge, nonce: "n-0S6_WzA2Mj" }));
    expect(isSignInPage(signInPage)).toBe(true);
    expect(pageTitle(signInPage.html)).toBe("Sign in to Clinic Data Service");
    const options = selectOptions(signInPage.html, "oauth-account");
    expect(options[0]).toMatchObject({ value: account.id, selected: true });
    expect(options[0]?.label).toBe("Dr. Jacob Brooks, MD — Physician at Riverside Health Partners; Physician at Harbourside Medical Group");
    expect(signInPage.html).toContain('id="oauth-sign-in"');

    const consent = await signIn(browser, signInPage, account.id);
    expect(consent.status).toBe(200);
    expect(isConsentPage(consent)).toBe(true);
    expect(pageTitle(consent.html)).toBe("Allow Tandem to access your organizations");
    expect(textOf(consent.html, "oauth-scopes")).toMatch(/read:appointments[\s\S]*read:facilities[\s\S]*read:providers[\s\S]*write:soap_notes[\s\S]*read:patients[\s\S]*Optional/);
    expect(checkedValues(consent.html, "organizationId").sort()).toEqual([ORG_A_ID, ORG_B_ID].sort());
    expect(consent.html).toContain('id="oauth-allow"');
    expect(consent.html).toContain('id="oauth-deny"');

    const callback = await decide(browser, consent, "allow");
    expect(callback.status).toBe(303);
    expect(callback.location?.startsWith(`${REDIRECT_URI}?`)).toBe(true);
    const { code, state: echoed } = z.parse(oauthCallbackSuccess, Object.fromEntries(callbackOf(callback)));
    expect(echoed).toBe(state);

    const data = await exchange(code, pkce.verifier);
    expect(data.token_type).toBe("Bearer");
    expect(data.expires_in).toBe(8 * 60 * 60);
    expect(data.user).toMatchObject({ id: account.id, email: account.email, firstName: "Jacob", lastName: "Brooks", displayName: "Dr. Jacob Brooks, MD" });
    expect(data.user.providers).toEqual(account.memberships.map(({ organizationId, providerId, roles }) => ({ organizationId, providerId: toPrefixedId("prv", providerId), roles })));
    expect(data.user.providers.every((provider) => provider.roles.includes("Physician"))).toBe(true);
    const orgA = data.authorizedOrganizations.find((organization) => organization.organizationId === ORG_A_ID);
    const orgB = data.authorizedOrganizations.find((organization) => organization.organizationId === ORG_B_ID);
    expect(orgA?.name).toBe("Riverside Health Partners");
    const zones = (facilities: { timezone: string }[] | undefined) => [...new Set(facilities?.map((facility) => facility.timezone))].sort();
    expect(zones(orgA?.facilities)).toEqual(["America/Chicago", "America/New_York"]);
    expect(zones(orgB?.facilities)).toEqual(["Australia/Lord_Howe", "Australia/Sydney"]);
    // Only visible facilities: org A's closed Chelsea site is left out.
    expect(orgA?.facilities.map((facility) => facility.name)).not.toContain("Riverside Health - Chelsea (closed)");
    // The provider ids are v3's form of those v1 gives (the host token's provider_id).
    const providerA = emulator.state.org(ORG_A_ID)?.ehr.providers.find((provider) => provider.id === toRawUuid(data.user.providers[0]?.providerId ?? ""));
    expect(providerA?.firstName).toBe("Jacob");

    const jwks = createLocalJWKSet(z.parse(z.object({ keys: z.array(z.record(z.string(), z.unknown())) }), await (await request("/.well-known/jwks.json")).json()));
    const { payload, protectedHeader } = await jwtVerify(data.id_token, jwks, {
      issuer: emulator.settings.publicUrl,
      audience: "tandem",
      algorithms: ["ES256"],
      typ: "JWT",
      currentDate: new Date(emulator.clock.now()),
    });
    expect(protectedHeader.kid).toBe(decodeProtectedHeader(data.id_token).kid);
    expect(protectedHeader.kid).toBeTruthy();
    const claims = z.parse(idTokenClaims, payload);
    const now = Math.floor(emulator.clock.now() / 1000);
    expect(claims).toMatchObject({
      iss: "http://127.0.0.1:4010",
      aud: "tandem",
      sub: account.id,
      nonce: "n-0S6_WzA2Mj",
      iat: now,
      nbf: now,
      exp: now + 300,
      auth_time: now,
      email: account.email,
      email_verified: true,
      name: "Jacob Brooks",
      given_name: "Jacob",
      family_name: "Brooks",
    });
  });

  it("redirects at once when the consent is remembered and unchanged, and leaves nonce out when none was sent", async () => {
    const account = findMultiOrgAccount(emulator.state);
    const first = pkcePair();
    const signInPage = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state: "one", codeChallenge: first.challenge }));
    await decide(browser, await signIn(browser, signInPage, account.id), "allow", [ORG_B_ID]);

    const second = pkcePair();
    const again = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state: "two", codeChallenge: second.challenge }));
    expect(again.status).toBe(302);
    expect(again.headers.get("cache-control")).toBe("no-store");
    const callback = callbackOf(again);
    expect(callback.get("state")).toBe("two");
    const data = await exchange(callback.get("code") ?? "", second.verifier);
    expect(data.authorizedOrganizations.map((organization) => organization.organizationId)).toEqual([ORG_B_ID]);
    expect(data.user.providers.map((provider) => provider.organizationId)).toEqual([ORG_B_ID]);
    const claims = z.parse(idTokenClaims, JSON.parse(Buffer.from(data.id_token.split(".")[1] ?? "", "base64url").toString()));
    expect(claims.nonce).toBeUndefined();
  });

  it("shows the consent again with prompt=consent, starting from the previous choice", async () => {
    const account = findMultiOrgAccount(emulator.state);
    const pkce = pkcePair();
    const signInPage = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state: "s", codeChallenge: pkce.challenge }));
    await decide(browser, await signIn(browser, signInPage, account.id), "allow", [ORG_A_ID]);

    const forced = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state: "s2", codeChallenge: pkce.challenge, prompt: "consent" }));
    expect(forced.status).toBe(200);
    expect(isConsentPage(forced)).toBe(true);
    expect(checkboxValues(forced.html, "organizationId").sort()).toEqual([ORG_A_ID, ORG_B_ID].sort());
    expect(checkedValues(forced.html, "organizationId")).toEqual([ORG_A_ID]);

    // The new choice is remembered.
    const changed = await decide(browser, forced, "allow", [ORG_A_ID, ORG_B_ID]);
    expect(callbackOf(changed).get("state")).toBe("s2");
    const data = await exchange(callbackOf(changed).get("code") ?? "", pkce.verifier);
    expect(data.authorizedOrganizations).toHaveLength(2);
    const repeat = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state: "s3", codeChallenge: pkce.challenge }));
    expect(repeat.status).toBe(302);
  });

  it("shows the consent again when an installation's grants change", async () => {
    const account = findMultiOrgAccount(emulator.state);
    const pkce = pkcePair();
    const signInPage = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state: "s", codeChallenge: pkce.challenge }));
    await decide(browser, await signIn(browser, signInPage, account.id), "allow");

    const changed = await sandbox("POST", `/installations/${ORG_B_ID}`, { status: "active", grantedPermissions: ["read:patients"] });
    expect(changed.status).toBe(200);
    const again = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state: "s2", codeChallenge: pkce.challenge }));
    expect(again.status).toBe(200);
    expect(isConsentPage(again)).toBe(true);
    expect(textOf(again.html, "oauth-organizations")).toMatch(/Harbourside Medical Group\s*You: Physician · optional access granted: read:patients/);
  });

  it("shows the consent again when a chosen organization is no longer active, and offers only active ones", async () => {
    const account = findMultiOrgAccount(emulator.state);
    const pkce = pkcePair();
    const signInPage = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state: "s", codeChallenge: pkce.challenge }));
    await decide(browser, await signIn(browser, signInPage, account.id), "allow");

    await sandbox("POST", `/installations/${ORG_B_ID}`, { status: "suspended" });
    const again = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state: "s2", codeChallenge: pkce.challenge }));
    expect(isConsentPage(again)).toBe(true);
    expect(checkboxValues(again.html, "organizationId")).toEqual([ORG_A_ID]);
  });

  it("sends a denial back to the app with access_denied and the state", async () => {
    const pkce = pkcePair();
    const signInPage = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state: "keep me", codeChallenge: pkce.challenge }));
    const consent = await signIn(browser, signInPage, findMultiOrgAccount(emulator.state).id);
    const denied = await decide(browser, consent, "deny");
    expect(denied.status).toBe(303);
    expect(denied.location?.startsWith(`${REDIRECT_URI}?`)).toBe(true);
    const error = z.parse(oauthCallbackError, Object.fromEntries(callbackOf(denied)));
    expect(error).toMatchObject({ error: "access_denied", state: "keep me" });
    expect(callbackOf(denied).has("code")).toBe(false);
  });

  it("lets the user cancel at the sign-in page (access_denied)", async () => {
    const signInPage = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state: "s", codeChallenge: pkcePair().challenge }));
    const hidden = /name="transaction" value="([^"]+)"[\s\S]*name="csrf" value="([^"]+)"/.exec(signInPage.html);
    const cancelled = await browser.post("/oauth/authorize/decision", [
      ["transaction", hidden?.[1] ?? ""],
      ["csrf", hidden?.[2] ?? ""],
      ["decision", "deny"],
    ]);
    expect(callbackOf(cancelled).get("error")).toBe("access_denied");
  });

  it("re-shows the consent with an error when Allow is pressed with no organization ticked", async () => {
    const signInPage = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state: "s", codeChallenge: pkcePair().challenge }));
    const consent = await signIn(browser, signInPage, findMultiOrgAccount(emulator.state).id);
    const again = await decide(browser, consent, "allow", []);
    expect(again.status).toBe(400);
    expect(isConsentPage(again)).toBe(true);
    expect(textOf(again.html, "oauth-error")).toBe("Choose at least one organization to share.");
    // The form still works afterwards.
    const allowed = await decide(browser, again, "allow", [ORG_A_ID]);
    expect(callbackOf(allowed).get("code")).toBeTruthy();
  });

  it("refuses an organization the account cannot share", async () => {
    const frontDesk = findSingleOrgAccount(emulator.state, ORG_A_ID, "Front Desk");
    const signInPage = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state: "s", codeChallenge: pkcePair().challenge }));
    const consent = await signIn(browser, signInPage, frontDesk.id);
    expect(checkboxValues(consent.html, "organizationId")).toEqual([ORG_A_ID]);
    const again = await decide(browser, consent, "allow", [ORG_A_ID, ORG_B_ID]);
    expect(again.status).toBe(400);
    expect(textOf(again.html, "oauth-error")).toMatch(/can no longer be shared/);
  });

  it("refuses a form posted without this browser's cookie (CSRF) or from another browser", async () => {
    const signInPage = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state: "s", codeChallenge: pkcePair().challenge }));
    const hidden = /name="transaction" value="([^"]+)"[\s\S]*name="csrf" value="([^"]+)"/.exec(signInPage.html);
    const fields: [string, string][] = [
      ["transaction", hidden?.[1] ?? ""],
      ["csrf", hidden?.[2] ?? ""],
      ["accountId", findMultiOrgAccount(emulator.state).id],
    ];
    const withoutCookie = await request("/oauth/authorize/sign-in", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
    expect(withoutCookie.status).toBe(400);
    // Another browser, with a pending request of its own, cannot post this one.
    const stranger = new TestBrowser(request);
    await stranger.get(authorizePath({ redirectUri: REDIRECT_URI, state: "other", codeChallenge: pkcePair().challenge }));
    const refused = await stranger.post("/oauth/authorize/sign-in", fields);
    expect(refused.status).toBe(400);
    expect(refused.location).toBeNull();
    expect(pageTitle(refused.html)).toBe("This sign-in request has expired");
    expect(stranger.cookie("svc_idp_session")).toBeUndefined();
    // The owner still can.
    expect(isConsentPage(await signIn(browser, signInPage, findMultiOrgAccount(emulator.state).id))).toBe(true);
  });

  it("sets HttpOnly, SameSite=Lax, Path=/oauth cookies and no-store pages that cannot be framed", async () => {
    const signInPage = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state: "s", codeChallenge: pkcePair().challenge }));
    expect(signInPage.headers.get("cache-control")).toBe("no-store");
    expect(signInPage.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
    expect(signInPage.headers.get("content-security-policy")).toMatch(/form-action 'self' http:\/\/localhost:8787/);
    const consent = await signIn(browser, signInPage, findMultiOrgAccount(emulator.state).id);
    for (const page of [signInPage, consent]) {
      const name = page === signInPage ? "svc_oauth_browser" : "svc_idp_session";
      const line = page.headers.getSetCookie().find((candidate) => candidate.startsWith(`${name}=`)) ?? "";
      expect(line.split("; ").slice(1).sort()).toEqual(["HttpOnly", "Path=/oauth", "SameSite=Lax"]);
    }
  });

  it("asks for a sign-in again with prompt=login, and fails prompt=none without a session", async () => {
    const pkce = pkcePair();
    const none = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state: "s", codeChallenge: pkce.challenge, prompt: "none" }));
    expect(callbackOf(none).get("error")).toBe("login_required");
    expect(callbackOf(none).get("state")).toBe("s");

    const signInPage = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state: "s", codeChallenge: pkce.challenge }));
    await decide(browser, await signIn(browser, signInPage, findMultiOrgAccount(emulator.state).id), "allow");
    const silent = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state: "s", codeChallenge: pkce.challenge, prompt: "none" }));
    expect(callbackOf(silent).get("code")).toBeTruthy();

    const login = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state: "s", codeChallenge: pkce.challenge, prompt: "login" }));
    expect(isSignInPage(login)).toBe(true);
    const scheduler = findSingleOrgAccount(emulator.state, ORG_B_ID, "Scheduler");
    const consent = await signIn(browser, login, scheduler.id);
    expect(isConsentPage(consent)).toBe(true);
    const callback = await decide(browser, consent, "allow");
    const data = await exchange(callbackOf(callback).get("code") ?? "", pkce.verifier);
    expect(data.user.id).toBe(scheduler.id);
    expect(data.user.providers).toEqual([{ organizationId: ORG_B_ID, providerId: toPrefixedId("prv", scheduler.memberships[0]?.providerId ?? ""), roles: ["Scheduler"] }]);
  });

  it("offers no Allow to an account none of whose organizations has an active installation", async () => {
    await sandbox("POST", `/installations/${ORG_A_ID}`, { status: "uninstalled" });
    const signInPage = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state: "s", codeChallenge: pkcePair().challenge }));
    const consent = await signIn(browser, signInPage, findSingleOrgAccount(emulator.state, ORG_A_ID, "Front Desk").id);
    expect(consent.html).toContain('id="oauth-no-organizations"');
    expect(consent.html).not.toContain('id="oauth-allow"');
  });

  it("forgets sign-in sessions, remembered consents and codes on reset", async () => {
    const pkce = pkcePair();
    const signInPage = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state: "s", codeChallenge: pkce.challenge }));
    const callback = await decide(browser, await signIn(browser, signInPage, findMultiOrgAccount(emulator.state).id), "allow");
    const code = callbackOf(callback).get("code") ?? "";
    await sandbox("POST", "/reset");

    const again = await browser.get(authorizePath({ redirectUri: REDIRECT_URI, state: "s", codeChallenge: pkce.challenge }));
    expect(isSignInPage(again)).toBe(true);
    const response = await request("/v3/oauth/token", {
      method: "POST",
      headers: { authorization: `Bearer ${FULL_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: pkce.verifier }),
    });
    expect(response.status).toBe(400);
    // The same accounts (same ids) after the reset.
    expect(isConsentPage(await signIn(browser, again, findMultiOrgAccount(emulator.state).id))).toBe(true);
  });
});
