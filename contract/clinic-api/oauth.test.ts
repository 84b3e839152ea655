import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { idTokenClaims, oauthAuthorizeQuery, oauthErrorBody, oauthTokenResponse, oauthTokenRequest, oauthUserInfo } from "./oauth.ts";
import { clinicApiResponses } from "./responses.ts";

// The assumed OAuth contract (docs/assumed-contracts.md), as the BFF and the
// emulator both parse it.

const ORG = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
const USER = "e4827176-e260-5dbe-984d-1dd9b4a19519";
const VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
const PROVIDER = "prv_e4827176e2605dbe984d1dd9b4a19519";
const FACILITY = "fac_9c2b7e105d4f4a3b8e1c6f7a8b9c0d1e";

describe("OAuth contract", () => {
  it("takes an authorize query with PKCE S256 only", () => {
    const query = { client_id: "tandem", redirect_uri: "http://localhost:8787/auth/callback", state: "s", code_challenge: CHALLENGE, code_challenge_method: "S256" };
    expect(z.safeParse(oauthAuthorizeQuery, query).success).toBe(true);
    expect(z.safeParse(oauthAuthorizeQuery, { ...query, code_challenge_method: "plain" }).success).toBe(false);
    expect(z.safeParse(oauthAuthorizeQuery, { ...query, code_challenge: "short" }).success).toBe(false);
    expect(z.safeParse(oauthAuthorizeQuery, { ...query, response_type: "token" }).success).toBe(false);
  });

  it("takes a token request with a 43-128 character verifier", () => {
    const request = { grant_type: "authorization_code", code: "c", redirect_uri: "http://localhost:8787/auth/callback", code_verifier: VERIFIER };
    expect(z.safeParse(oauthTokenRequest, request).success).toBe(true);
    expect(z.safeParse(oauthTokenRequest, { ...request, code_verifier: "x".repeat(129) }).success).toBe(false);
    expect(z.safeParse(oauthTokenRequest, { ...request, grant_type: "refresh_token" }).success).toBe(false);
  });

  it("reads the token response as RFC 6749's top-level JSON, not an envelope, with v3's prefixed facility and provider ids", () => {
    const response = {
      access_token: "opaque",
      token_type: "Bearer",
      expires_in: 28800,
      id_token: "a.b.c",
      scope: "openid",
      user: { id: USER, email: "jbrooks@example.test", firstName: "Jacob", lastName: "Brooks", displayName: "Dr. Jacob Brooks, MD", providers: [{ organizationId: ORG, providerId: PROVIDER, roles: ["Physician"] }] },
      authorizedOrganizations: [{ organizationId: ORG, name: "Riverside", facilities: [{ id: FACILITY, name: "Upper West Side", timezone: "America/New_York" }] }],
    };
    expect(z.parse(oauthTokenResponse, response)).toEqual(response);
    expect(Object.keys(clinicApiResponses)).not.toContain("POST /v3/oauth/token");
    expect(z.safeParse(oauthTokenResponse, { code: "success", data: response }).success).toBe(false);
    const { access_token: _accessToken, ...withoutAccessToken } = response;
    expect(z.safeParse(oauthTokenResponse, withoutAccessToken).success).toBe(false);
    expect(z.safeParse(oauthTokenResponse, { ...response, user: { ...response.user, providers: [{ organizationId: ORG, providerId: USER, roles: [] }] } }).success).toBe(false);
    expect(z.safeParse(oauthTokenResponse, { ...response, authorizedOrganizations: [{ organizationId: ORG, name: "R", facilities: [{ id: USER, name: "F", timezone: "UTC" }] }] }).success).toBe(false);
    expect(z.safeParse(oauthTokenResponse, { ...response, authorizedOrganizations: [{ organizationId: `fac_${"0".repeat(32)}`, name: "R", facilities: [] }] }).success).toBe(false);
  });

  it("reads OAuth's error body", () => {
    expect(z.parse(oauthErrorBody, { error: "invalid_grant", error_description: "code has expired" })).toEqual({ error: "invalid_grant", error_description: "code has expired" });
    expect(z.safeParse(oauthErrorBody, { code: "bad_request", message: "m", trace_id: "t" }).success).toBe(false);
  });

  it("reads userinfo's standard claims, providers and organizations", () => {
    const info = { sub: USER, email: "a@b.example", email_verified: true, name: "A B", given_name: "A", family_name: "B", providers: [{ organizationId: ORG, providerId: PROVIDER, roles: ["Physician"] }], authorizedOrganizations: [] };
    expect(z.parse(oauthUserInfo, info)).toEqual(info);
    const { sub: _sub, ...withoutSub } = info;
    expect(z.safeParse(oauthUserInfo, withoutSub).success).toBe(false);
  });

  it("reads the id_token's claims, nonce optional", () => {
    const claims = { iss: "http://127.0.0.1:4010", aud: "tandem", sub: USER, iat: 1, nbf: 1, exp: 301, auth_time: 1, email: "a@b.example", email_verified: true, name: "A B", given_name: "A", family_name: "B" };
    expect(z.safeParse(idTokenClaims, claims).success).toBe(true);
    expect(z.safeParse(idTokenClaims, { ...claims, sub: "not-a-uuid" }).success).toBe(false);
  });
});
