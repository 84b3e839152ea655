import { SignJWT } from "jose";
import { ID_TOKEN_LIFETIME_SECONDS, ID_TOKEN_TYPE } from "#contract/clinic-api/oauth.ts";
import type { SigningKey } from "../tokens/signing-keys.ts";
import type { SandboxAccount } from "./accounts.ts";
import { standardClaims } from "./profile.ts";

// The OpenID Connect id_token of the token response (seed 001 "Sign-in for
// standalone apps" 6): ES256 with the key of the emulator's JWKS (the one
// that signs host tokens), the standard claims of OIDC Core 2 and 5.1, times
// from the emulator's clock.

export interface IdTokenInput {
  issuer: string;
  clientId: string;
  account: SandboxAccount;
  nonce: string | null;
  /** Epoch ms. */
  authTime: number;
  /** Epoch ms. */
  now: number;
}

export async function issueIdToken(key: SigningKey, input: IdTokenInput): Promise<string> {
  const iat = Math.floor(input.now / 1000);
  const { account } = input;
  const claims: Record<string, unknown> = { auth_time: Math.floor(input.authTime / 1000), ...standardClaims(account) };
  if (input.nonce !== null) claims.nonce = input.nonce;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "ES256", typ: ID_TOKEN_TYPE, kid: key.kid })
    .setIssuer(input.issuer)
    .setAudience(input.clientId)
    .setSubject(account.id)
    .setIssuedAt(iat)
    .setNotBefore(iat)
    .setExpirationTime(iat + ID_TOKEN_LIFETIME_SECONDS)
    .sign(key.privateKey);
}
