import { randomUUID } from "node:crypto";
import { SignJWT, UnsecuredJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { createHostTokenVerifier, HOST_TOKEN_TYPE, InvalidHostToken } from "./host-token-verifier.ts";

// DESIGN.md "The host bridge" 2-3, case by case, against a JWKS served by an
// injected fetch (the platform's keys are ours to mint in this test).

const ISSUER = "https://platform.example.test";
const JWKS_URL = "https://platform.example.test/.well-known/jwks.json";
const ORG = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
const PROVIDER = "9c1a6f98-f0fb-4012-a800-8dcbd76bd1c9";
const NOW_S = 1_800_000_000;

interface Keys {
  privateKey: CryptoKey;
  jwk: JWK;
}

let platform: Keys;
let stranger: Keys;
let jwksFetches = 0;
let published: JWK[] = [];

async function makeKeys(kid: string): Promise<Keys> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" } };
}

const jwksFetch: typeof fetch = () => {
  jwksFetches += 1;
  return Promise.resolve(new Response(JSON.stringify({ keys: published }), { headers: { "content-type": "application/json" } }));
};

function verifier(nowS = NOW_S) {
  return createHostTokenVerifier({ issuer: ISSUER, jwksUrl: JWKS_URL, audience: "tandem", fetch: jwksFetch, now: () => nowS * 1000, jwksCooldownMs: 0 });
}

interface TokenOptions {
  keys?: Keys;
  kid?: string;
  typ?: string;
  iss?: string;
  aud?: string;
  iat?: number;
  nbf?: number;
  exp?: number;
  claims?: Record<string, unknown>;
}

function token(options: TokenOptions = {}): Promise<string> {
  const keys = options.keys ?? platform;
  const iat = options.iat ?? NOW_S;
  return new SignJWT({ org_id: ORG, provider_id: PROVIDER, roles: ["Physician"], note_id: "n-1", ...options.claims })
    .setProtectedHeader({ alg: "ES256", typ: options.typ ?? HOST_TOKEN_TYPE, kid: options.kid ?? keys.jwk.kid })
    .setIssuer(options.iss ?? ISSUER)
    .setAudience(options.aud ?? "tandem")
    .setSubject(PROVIDER)
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setNotBefore(options.nbf ?? iat)
    .setExpirationTime(options.exp ?? iat + 300)
    .sign(keys.privateKey);
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof InvalidHostToken) return error.message;
    throw error;
  }
  throw new Error("the token was accepted");
}

beforeAll(async () => {
  platform = await makeKeys("platform-1");
  stranger = await makeKeys("stranger");
  published = [platform.jwk];
});

describe("host token verification", () => {
  it("accepts a valid token and reads the session from its claims", async () => {
    const session = await verifier()(await token({ claims: { facility_id: "fac-1", patient_id: "pat-1" } }));
    expect(session).toMatchObject({ organizationId: ORG, providerId: PROVIDER, userId: `provider:${PROVIDER}`, accountId: PROVIDER, roles: ["Physician"], noteId: "n-1", facilityId: "fac-1", patientId: "pat-1", expiresAt: NOW_S + 300 });
  });

  it("refuses a malformed token", async () => {
    expect(await refusal(verifier()("not.a.jwt"))).toMatch(/malformed/);
  });

  it("refuses a tampered signature", async () => {
    const valid = await token();
    const [header, payload, signature = ""] = valid.split(".");
    const flipped = `${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`;
    expect(await refusal(verifier()(`${header}.${payload}.${flipped}`))).toMatch(/signature/);
  });

  it("refuses a tampered payload", async () => {
    const [header, , signature] = (await token()).split(".");
    const forged = Buffer.from(JSON.stringify({ org_id: "8c4e2d19-7a36-4b5f-a0e1-9d8c7b6a5f42" })).toString("base64url");
    expect(await refusal(verifier()(`${header}.${forged}.${signature}`))).toMatch(/signature|not valid/);
  });

  it("refuses alg: none", async () => {
    const unsigned = new UnsecuredJWT({ org_id: ORG, provider_id: PROVIDER, roles: [] }).setIssuer(ISSUER).setAudience("tandem").setIssuedAt(NOW_S).setExpirationTime(NOW_S + 60).encode();
    expect(await refusal(verifier()(unsigned))).toMatch(/ES256|malformed/);
  });

  it.each([
    ["wrong iss", { iss: "https://evil.example.test" }, /iss/],
    ["wrong aud", { aud: "another-app" }, /aud/],
    ["wrong typ", { typ: "JWT" }, /typ/],
    ["expired", { iat: NOW_S - 400, exp: NOW_S - 100 }, /expired/],
    ["nbf in the future", { nbf: NOW_S + 120 }, /nbf/],
    ["lifetime over 5 minutes", { exp: NOW_S + 3600 }, /5 minutes/],
    ["a non-UUID org_id", { claims: { org_id: "org-a" } }, /org_id/],
  ] as [string, TokenOptions, RegExp][])("refuses %s", async (_case, options, reason) => {
    expect(await refusal(verifier()(await token(options)))).toMatch(reason);
  });

  it("allows 30 s of clock skew, not more", async () => {
    await expect(verifier()(await token({ iat: NOW_S - 320, exp: NOW_S - 20 }))).resolves.toBeTruthy();
    expect(await refusal(verifier()(await token({ iat: NOW_S - 340, exp: NOW_S - 40 })))).toMatch(/expired/);
  });

  it("refuses a key it does not know, refetching the JWKS once for the unknown kid", async () => {
    const verify = verifier();
    await verify(await token());
    const before = jwksFetches;
    expect(await refusal(verify(await token({ keys: stranger })))).toMatch(/unknown key/);
    expect(jwksFetches).toBe(before + 1);
  });

  it("picks up a rotated key on an unknown kid", async () => {
    const verify = verifier();
    await verify(await token());
    const rotated = await makeKeys("platform-2");
    published = [platform.jwk, rotated.jwk];
    await expect(verify(await token({ keys: rotated }))).resolves.toMatchObject({ organizationId: ORG });
    published = [platform.jwk];
  });

  it("remembers a bounded number of verified tokens however many valid ones arrive, dropping expired ones first", async () => {
    const clock = { nowS: NOW_S };
    const verify = createHostTokenVerifier({ issuer: ISSUER, jwksUrl: JWKS_URL, audience: "tandem", fetch: jwksFetch, now: () => clock.nowS * 1000, jwksCooldownMs: 0, maxRememberedTokens: 50 });
    const tokens = await Promise.all(Array.from({ length: 400 }, () => token()));
    for (const each of tokens) await verify(each);
    expect(verify.remembered?.()).toBe(50);
    // Past the first batch's expiry (and the skew), one new token sweeps them all out.
    clock.nowS = NOW_S + 331;
    await verify(await token({ iat: clock.nowS }));
    expect(verify.remembered?.()).toBe(1);
  });
});

