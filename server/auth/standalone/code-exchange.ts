import { decodeProtectedHeader } from "jose";
import * as oidc from "openid-client";
import * as z from "zod/mini";
import { ID_TOKEN_TYPE, idTokenClaims, oauthTokenProfile, type OAuthTokenProfile } from "#contract/clinic-api/oauth.ts";
import { describeZodError } from "#contract/validation.ts";
import type { OidcClient } from "./oidc-client.ts";

// The callback's half of standalone sign-in (seed 001 "Sign-in for
// standalone apps" 4-6): openid-client checks `state`, exchanges the code
// with the PKCE verifier, and checks the id_token (ES256 from the JWKS, the
// pinned issuer, our audience, this sign-in's nonce, time claims on the
// BFF's clock). Then the token response's profile is read with the contract,
// and the id_token must name the same user.

/** The token response's access token: it opens the service's userinfo, and nothing else. Never sent to the browser. */
export interface IssuedAccessToken {
  value: string;
  /** Epoch ms on the BFF's clock; null when the service stated no lifetime. */
  expiresAt: number | null;
}

export type CodeExchange =
  | { kind: "ok"; profile: OAuthTokenProfile; accessToken: IssuedAccessToken }
  /** `code_rejected`: the service did not answer the exchange with tokens. `identity_not_verified`: it did, and they did not check out. */
  | { kind: "failed"; error: "code_rejected" | "identity_not_verified"; reason: string };

export interface CodeExchangeInput {
  /** The registered redirect URI with the callback's query: openid-client sends it back, query stripped, as `redirect_uri`. */
  callbackUrl: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
  now: number;
}

/** For the log: openid-client's message, and its cause's (which claim, which status). */
const reasonOf = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ""}` : "unknown");

function readProfile(tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers): { profile: OAuthTokenProfile } | { problem: string } {
  const claims = z.safeParse(idTokenClaims, tokens.claims());
  if (!claims.success) return { problem: `the id_token's claims are not valid: ${describeZodError(claims.error)}` };
  // Signed, so the header is the issuer's: a host token (`host-session+jwt`) is no id_token.
  if (tokens.id_token === undefined || decodeProtectedHeader(tokens.id_token).typ !== ID_TOKEN_TYPE) return { problem: `the id_token's typ is not ${ID_TOKEN_TYPE}` };
  const profile = z.safeParse(oauthTokenProfile, tokens);
  if (!profile.success) return { problem: `the token response's profile is not valid: ${describeZodError(profile.error)}` };
  if (claims.data.sub.toLowerCase() !== profile.data.user.id.toLowerCase()) return { problem: "the id_token names another user than the profile" };
  return { profile: profile.data };
}

export async function exchangeCode(client: OidcClient, input: CodeExchangeInput): Promise<CodeExchange> {
  // Whether the token endpoint answered 200 tells a refused code from tokens that did not check out.
  let answered = false;
  try {
    return await client.run(async (config) => {
      const tokenEndpoint = config.serverMetadata().token_endpoint;
      const send = config[oidc.customFetch] ?? fetch;
      config[oidc.customFetch] = async (url, init) => {
        const response = await send(url, init);
        if (url === tokenEndpoint && response.status === 200) answered = true;
        return response;
      };
      const tokens = await oidc.authorizationCodeGrant(config, input.callbackUrl, {
        pkceCodeVerifier: input.codeVerifier,
        expectedState: input.state,
        expectedNonce: input.nonce,
        idTokenExpected: true,
      });
      const read = readProfile(tokens);
      if ("problem" in read) return { kind: "failed", error: "identity_not_verified", reason: read.problem };
      const expiresAt = tokens.expires_in === undefined ? null : input.now + tokens.expires_in * 1000;
      return { kind: "ok", profile: read.profile, accessToken: { value: tokens.access_token, expiresAt } };
    });
  } catch (error) {
    return { kind: "failed", error: answered ? "identity_not_verified" : "code_rejected", reason: reasonOf(error) };
  }
}
