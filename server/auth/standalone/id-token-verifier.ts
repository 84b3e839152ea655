import { createRemoteJWKSet, customFetch, errors, jwtVerify } from "jose";
import * as z from "zod/mini";
import { ID_TOKEN_TYPE, idTokenClaims, type IdTokenClaims } from "../../../contract/clinic-api/oauth.ts";
import { describeZodError } from "../../../contract/validation.ts";

// Verifies the OIDC id_token of a standalone sign-in (DESIGN.md "Standalone
// mode"): ES256 only, a key of the platform's JWKS, the pinned issuer, our
// slug as audience, the nonce of this browser's sign-in, time claims with at
// most 30 s of skew.

const MAX_SKEW_SECONDS = 30;

export class InvalidIdToken extends Error {}

export type IdTokenVerifier = (token: string, expectedNonce: string) => Promise<IdTokenClaims>;

export function createIdTokenVerifier(options: { issuer: string; jwksUrl: string; audience: string; fetch?: typeof fetch | undefined; now?: () => number }): IdTokenVerifier {
  const now = options.now ?? Date.now;
  const jwksFetch = options.fetch;
  const jwks = createRemoteJWKSet(new URL(options.jwksUrl), {
    cooldownDuration: 30_000,
    cacheMaxAge: 10 * 60_000,
    ...(jwksFetch && { [customFetch]: (url: string, init: RequestInit) => jwksFetch(url, init) }),
  });
  return async (token, expectedNonce) => {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, jwks, {
        algorithms: ["ES256"],
        issuer: options.issuer,
        audience: options.audience,
        typ: ID_TOKEN_TYPE,
        clockTolerance: MAX_SKEW_SECONDS,
        currentDate: new Date(now()),
        requiredClaims: ["iat", "exp", "sub", "nonce"],
      }));
    } catch (error) {
      throw new InvalidIdToken(error instanceof errors.JOSEError ? `the id_token is not valid (${error.code})` : "the id_token could not be verified");
    }
    const claims = z.safeParse(idTokenClaims, payload);
    if (!claims.success) throw new InvalidIdToken(`the id_token's claims are not valid: ${describeZodError(claims.error)}`);
    if (claims.data.nonce !== expectedNonce) throw new InvalidIdToken("the id_token's nonce is not this sign-in's");
    return claims.data;
  };
}
