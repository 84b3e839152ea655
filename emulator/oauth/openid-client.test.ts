import * as oidc from "openid-client";
import { beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { oauthTokenProfile, oauthUserInfo } from "#contract/clinic-api/oauth.ts";
import { createTestEmulator, FULL_KEY } from "../testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID } from "../world/identities.ts";
import { findMultiOrgAccount } from "./accounts.ts";
import { callbackOf, decide, isConsentPage, isSignInPage, signIn } from "./testing/oauth-flow.ts";
import { TestBrowser } from "./testing/test-browser.ts";

// A standard OpenID Connect client, openid-client 6 with nothing of ours but
// the client authentication the service asks for (the data key as Bearer),
// signs in against the emulator in-process: discovery, the authorize and
// consent pages, the callback, the token endpoint with PKCE, state and
// nonce, the id_token's ES256 signature from the JWKS, then userinfo.

const ISSUER = "http://127.0.0.1:4010";
const REDIRECT_URI = "http://localhost:8787/auth/callback";

describe("openid-client against the emulator", () => {
  const { emulator, sandbox } = createTestEmulator();
  const emulatorFetch: oidc.CustomFetch = (url, init) => Promise.resolve(emulator.app.fetch(new Request(url, init)));
  const dataKeyAsBearer: oidc.ClientAuth = (_server, _client, _body, headers) => headers.set("authorization", `Bearer ${FULL_KEY}`);

  beforeEach(async () => {
    await sandbox("POST", "/reset");
  });

  async function discover(): Promise<oidc.Configuration> {
    const config = await oidc.discovery(
      new URL(ISSUER),
      "tandem",
      // The emulator's clock is pinned; openid-client reads Date.now().
      { id_token_signed_response_alg: "ES256", [oidc.clockSkew]: Math.round((emulator.clock.now() - Date.now()) / 1000) },
      dataKeyAsBearer,
      { [oidc.customFetch]: emulatorFetch, execute: [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks] },
    );
    config[oidc.customFetch] = emulatorFetch;
    return config;
  }

  it("discovers, signs in through the pages, exchanges the code, verifies the id_token and reads userinfo", async () => {
    const config = await discover();
    expect(config.serverMetadata()).toMatchObject({ issuer: ISSUER, token_endpoint: `${ISSUER}/v3/oauth/token`, userinfo_endpoint: `${ISSUER}/v3/oauth/userinfo` });
    expect(config.serverMetadata().supportsPKCE()).toBe(true);

    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const authorize = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      response_type: "code",
      scope: "openid",
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    });
    expect(authorize.origin).toBe(ISSUER);

    const account = findMultiOrgAccount(emulator.state);
    const browser = new TestBrowser((path, init) => emulator.app.request(path.replace(ISSUER, ""), init));
    let page = await browser.get(`${authorize.pathname}${authorize.search}`);
    expect(isSignInPage(page)).toBe(true);
    page = await signIn(browser, page, account.id);
    expect(isConsentPage(page)).toBe(true);
    page = await decide(browser, page, "allow");
    const callback = new URL(REDIRECT_URI);
    callback.search = callbackOf(page).toString();

    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.expiresIn()).toBeGreaterThan(8 * 60 * 60 - 5);
    expect(tokens.claims()).toMatchObject({ iss: ISSUER, aud: "tandem", sub: account.id, nonce });
    const profile = z.parse(oauthTokenProfile, tokens);
    expect(profile.user.id).toBe(account.id);
    expect(profile.authorizedOrganizations.map((organization) => organization.organizationId)).toEqual([ORG_A_ID, ORG_B_ID]);

    const info = z.parse(oauthUserInfo, await oidc.fetchUserInfo(config, tokens.access_token, account.id));
    expect(info.sub).toBe(account.id);
    expect(info.providers).toEqual(profile.user.providers);

    // A replayed code is refused with RFC 6749's error, which openid-client reads.
    const replay = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(replay).toBeInstanceOf(oidc.ResponseBodyError);
    expect(replay).toMatchObject({ error: "invalid_grant", status: 400 });
  });

  it("reads invalid_client's Bearer challenge, and userinfo's invalid_token", async () => {
    const config = await discover();
    const wrongKey = new oidc.Configuration(config.serverMetadata(), "tandem", { [oidc.clockSkew]: 0 }, (_server, _client, _body, headers) => headers.set("authorization", "Bearer svc_dev_ak_ffffffffffffffffffffffffffffffff"));
    wrongKey[oidc.customFetch] = emulatorFetch;
    oidc.allowInsecureRequests(wrongKey);
    const refused = await oidc.authorizationCodeGrant(wrongKey, new URL(`${REDIRECT_URI}?code=c&state=s`), { pkceCodeVerifier: oidc.randomPKCECodeVerifier(), expectedState: "s" }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(oidc.WWWAuthenticateChallengeError);
    expect(refused).toMatchObject({ status: 401, cause: [{ scheme: "bearer", parameters: { realm: "Clinic Data Service", error: "invalid_client" } }] });

    const userinfo = await oidc.fetchUserInfo(config, "made-up", oidc.skipSubjectCheck).then(
      () => null,
      (error: unknown) => error,
    );
    expect(userinfo).toBeInstanceOf(oidc.WWWAuthenticateChallengeError);
    expect(userinfo).toMatchObject({ status: 401, cause: [{ scheme: "bearer", parameters: { error: "invalid_token" } }] });
  });
});
