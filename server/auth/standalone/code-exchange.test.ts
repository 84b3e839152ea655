import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { exchangeCode, type CodeExchange } from "./code-exchange.ts";
import { createOidcClient } from "./oidc-client.ts";

// The callback's exchange case by case (DESIGN.md "Standalone mode"), against
// a scripted service: openid-client checks the id_token (ES256 from the
// JWKS, pinned issuer, our audience, this sign-in's nonce, time claims on
// the BFF's clock, which is years away from the machine's here), the profile
// is read with the contract, and a refused code is told apart from tokens
// that do not check out.

const ISSUER = "https://service.example.test";
const REDIRECT_URI = "https://tandem.example/auth/callback";
const DATA_KEY = "svc_prd_ak_0123456789abcdef";
const SUB = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";
const ORG = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
/** 2030-01-01: the BFF's clock, far from Date.now(). */
const NOW_S = 1_893_456_000;

let key: { privateKey: CryptoKey; jwk: JWK };
let stranger: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair("ES256", { extractable: true });
  key = { privateKey: pair.privateKey, jwk: { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256", use: "sig" } };
  stranger = (await generateKeyPair("ES256")).privateKey;
});

interface IdTokenOptions {
  nonce?: string | null;
  aud?: string;
  iss?: string;
  sub?: string;
  exp?: number;
  typ?: string;
  signWith?: CryptoKey;
  claims?: Record<string, unknown>;
}

function idToken(options: IdTokenOptions = {}): Promise<string> {
  const claims: Record<string, unknown> = { email: "a@b.example", email_verified: true, name: "A B", given_name: "A", family_name: "B", auth_time: NOW_S, ...options.claims };
  if (options.nonce !== null) claims.nonce = options.nonce ?? "n-1";
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "ES256", typ: options.typ ?? "JWT", kid: "k1" })
    .setIssuer(options.iss ?? ISSUER)
    .setAudience(options.aud ?? "tandem")
    .setSubject(options.sub ?? SUB)
    .setIssuedAt(NOW_S)
    .setExpirationTime(options.exp ?? NOW_S + 300)
    .sign(options.signWith ?? key.privateKey);
}

const profile = {
  user: { id: SUB, email: "a@b.example", firstName: "A", lastName: "B", displayName: "Dr. A B", providers: [{ organizationId: ORG, providerId: "prv_0123456789abcdef0123456789abcdef", roles: ["Physician"] }] },
  authorizedOrganizations: [{ organizationId: ORG, name: "Riverside", facilities: [{ id: "fac_0123456789abcdef0123456789abcdef", name: "Uptown", timezone: "America/New_York" }] }],
};

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

/** The service, scripted: discovery and JWKS as a service has them, the token endpoint answering `token`. */
function service(token: () => Promise<Response>) {
  const tokenRequests: Request[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const { pathname } = new URL(request.url);
    if (pathname === "/.well-known/openid-configuration") {
      return json({ issuer: ISSUER, authorization_endpoint: `${ISSUER}/oauth/authorize`, token_endpoint: `${ISSUER}/v3/oauth/token`, userinfo_endpoint: `${ISSUER}/v3/oauth/userinfo`, jwks_uri: `${ISSUER}/.well-known/jwks.json`, id_token_signing_alg_values_supported: ["ES256"] });
    }
    if (pathname === "/.well-known/jwks.json") return json({ keys: [key.jwk] });
    if (pathname === "/v3/oauth/token") {
      tokenRequests.push(request);
      return token();
    }
    return json({ error: "not_found" }, 404);
  };
  return { fetch, tokenRequests };
}

async function tokens(id: Promise<string>, extra: Record<string, unknown> = {}): Promise<Response> {
  return json({ access_token: "at-1", token_type: "Bearer", expires_in: 28800, id_token: await id, ...profile, ...extra }, 200, { "cache-control": "no-store" });
}

function exchange(token: () => Promise<Response>): Promise<CodeExchange> & { requests: Request[] } {
  const scripted = service(token);
  const client = createOidcClient({ issuer: ISSUER, clientId: "tandem", dataKey: DATA_KEY, allowInsecureRequests: false, fetch: scripted.fetch, now: () => NOW_S * 1000 });
  const callbackUrl = new URL(`${REDIRECT_URI}?code=the-code&state=st-1`);
  const result = exchangeCode(client, { callbackUrl, state: "st-1", nonce: "n-1", codeVerifier: "v".repeat(43), now: NOW_S * 1000 });
  return Object.assign(result, { requests: scripted.tokenRequests });
}

describe("exchangeCode", () => {
  it("exchanges the code with the data key as Bearer and PKCE, and answers the profile and the access token with its expiry on the BFF's clock", async () => {
    const run = exchange(() => tokens(idToken()));
    const result = await run;
    if (result.kind !== "ok") throw new Error(`refused: ${result.reason}`);
    expect(result.profile).toEqual(profile);
    expect(result.accessToken).toEqual({ value: "at-1", expiresAt: (NOW_S + 28800) * 1000 });

    const [request] = run.requests;
    if (!request) throw new Error("no token request");
    expect(request.headers.get("authorization")).toBe(`Bearer ${DATA_KEY}`);
    expect(request.headers.get("x-organization-id")).toBeNull();
    const body = new URLSearchParams(await request.text());
    expect(Object.fromEntries(body)).toEqual({ grant_type: "authorization_code", code: "the-code", redirect_uri: REDIRECT_URI, code_verifier: "v".repeat(43), client_id: "tandem" });
  });

  it.each<[string, () => Promise<Response>]>([
    ["another sign-in's nonce", () => tokens(idToken({ nonce: "n-2" }))],
    ["no nonce", () => tokens(idToken({ nonce: null }))],
    ["another audience", () => tokens(idToken({ aud: "other-app" }))],
    ["another issuer", () => tokens(idToken({ iss: "https://evil.example" }))],
    ["an id_token expired on the BFF's clock", () => tokens(idToken({ exp: NOW_S - 60 }))],
    ["a key not in the JWKS", () => tokens(idToken({ signWith: stranger }))],
    ["claims of the wrong shape", () => tokens(idToken({ claims: { email_verified: "yes" } }))],
    ["a host token in place of an id_token", () => tokens(idToken({ typ: "host-session+jwt" }))],
    ["an id_token for another user than the profile", () => tokens(idToken({ sub: "0e6f3b1c-2a4d-4e5f-8a9b-0c1d2e3f4a5b" }))],
    ["a profile with a provider id in neither form the contract knows", () => tokens(idToken(), { user: { ...profile.user, providers: [{ organizationId: ORG, providerId: "42", roles: [] }] } })],
    ["no id_token", () => Promise.resolve(json({ access_token: "at-1", token_type: "Bearer", expires_in: 28800, ...profile }))],
  ])("refuses %s as identity_not_verified", async (_label, token) => {
    const result = await exchange(token);
    expect(result).toMatchObject({ kind: "failed", error: "identity_not_verified" });
  });

  it.each<[string, () => Promise<Response>]>([
    ["invalid_grant (400)", () => Promise.resolve(json({ error: "invalid_grant", error_description: "code has expired" }, 400))],
    ["invalid_client (401 with a challenge)", () => Promise.resolve(json({ error: "invalid_client" }, 401, { "www-authenticate": 'Bearer realm="x", error="invalid_client"' }))],
    ["a 503", () => Promise.resolve(json({ code: "server_unresponsive", message: "m", trace_id: "t" }, 503))],
    ["a network failure", () => Promise.reject(new TypeError("fetch failed"))],
  ])("refuses a code the service did not take, %s, as code_rejected", async (_label, token) => {
    const result = await exchange(token);
    expect(result).toMatchObject({ kind: "failed", error: "code_rejected" });
  });
});
