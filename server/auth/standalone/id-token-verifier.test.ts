import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { createIdTokenVerifier, InvalidIdToken } from "./id-token-verifier.ts";

// The id_token of a standalone sign-in, case by case (DESIGN.md "Standalone
// mode"): ES256 from the JWKS, pinned issuer, our audience, this sign-in's
// nonce, time claims.

const ISSUER = "https://service.example.test";
const JWKS_URL = "https://service.example.test/.well-known/jwks.json";
const SUB = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";
const NOW_S = 1_800_000_000;

let key: { privateKey: CryptoKey; jwk: JWK };
let stranger: CryptoKey;

const verifier = () =>
  createIdTokenVerifier({
    issuer: ISSUER,
    jwksUrl: JWKS_URL,
    audience: "tandem",
    now: () => NOW_S * 1000,
    fetch: () => Promise.resolve(new Response(JSON.stringify({ keys: [key.jwk] }), { headers: { "content-type": "application/json" } })),
  });

function idToken(options: { nonce?: string | null; aud?: string; iss?: string; exp?: number; typ?: string; signWith?: CryptoKey; claims?: Record<string, unknown> } = {}) {
  const claims: Record<string, unknown> = { email: "a@b.example", email_verified: true, name: "A B", given_name: "A", family_name: "B", auth_time: NOW_S, ...options.claims };
  if (options.nonce !== null) claims.nonce = options.nonce ?? "n-1";
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "ES256", typ: options.typ ?? "JWT", kid: "k1" })
    .setIssuer(options.iss ?? ISSUER)
    .setAudience(options.aud ?? "tandem")
    .setSubject(SUB)
    .setIssuedAt(NOW_S)
    .setExpirationTime(options.exp ?? NOW_S + 300)
    .sign(options.signWith ?? key.privateKey);
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof InvalidIdToken) return error.message;
    throw error;
  }
  throw new Error("the id_token was accepted");
}

beforeAll(async () => {
  const pair = await generateKeyPair("ES256", { extractable: true });
  key = { privateKey: pair.privateKey, jwk: { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256" } };
  stranger = (await generateKeyPair("ES256")).privateKey;
});

describe("createIdTokenVerifier", () => {
  it("accepts a valid id_token with this sign-in's nonce", async () => {
    expect((await verifier()(await idToken(), "n-1")).sub).toBe(SUB);
  });

  it.each([
    ["another sign-in's nonce", () => idToken({ nonce: "n-2" }), /nonce/],
    ["no nonce", () => idToken({ nonce: null }), /not valid/],
    ["another audience", () => idToken({ aud: "other-app" }), /not valid/],
    ["another issuer", () => idToken({ iss: "https://evil.example" }), /not valid/],
    ["an expired token", () => idToken({ exp: NOW_S - 60 }), /not valid/],
    ["a key not in the JWKS", () => idToken({ signWith: stranger }), /not valid/],
    ["claims of the wrong shape", () => idToken({ claims: { email_verified: "yes" } }), /claims/],
  ])("refuses %s", async (_label, make, message) => {
    expect(await refusal(verifier()(await make(), "n-1"))).toMatch(message);
  });
});
