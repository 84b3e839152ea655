import type { Context } from "hono";
import * as z from "zod/mini";
import { OAUTH_TOKEN_PATH, pkceVerifier, type OAuthTokenError, type OAuthTokenResponse } from "#contract/clinic-api/oauth.ts";
import type { Clock } from "../clock.ts";
import type { ServiceEnv } from "../http/env.ts";
import type { ServiceApp } from "../routes/route-deps.ts";
import type { ServiceState } from "../service/service-state.ts";
import type { SigningKey } from "../tokens/signing-keys.ts";
import type { AccessTokens } from "./access-tokens.ts";
import { findAccount } from "./accounts.ts";
import type { AuthorizationCodes, CodeGrant } from "./authorization-codes.ts";
import { issueIdToken } from "./id-token.ts";
import type { OAuthClient } from "./oauth-client.ts";
import { NO_STORE, oauthError } from "./oauth-errors.ts";
import { verifiesChallenge } from "./pkce.ts";
import { activeMemberships, authorizedOrganization, tokenUser } from "./profile.ts";

// `POST /v3/oauth/token` (seed 001 "Sign-in for standalone apps" 5-6; RFC
// 6749 4.1.3 and 5; OIDC Core 3.1.3.3): the app's backend exchanges the
// code, authenticated with a data key of the app (client-authentication.ts),
// without `X-Organization-Id` (the code encodes the organizations). Any data
// key of the app may exchange codes, the ERA-only one too: the exchange gives
// identity, not data. The answer is OAuth's top-level JSON, not the service's
// envelope; errors are RFC 6749 5.2's `{error, error_description}`.

export interface TokenDeps {
  state: ServiceState;
  clock: Clock;
  /** The app every sandbox data key belongs to. */
  client: OAuthClient;
  codes: AuthorizationCodes;
  accessTokens: AccessTokens;
  signingKey: () => Promise<SigningKey>;
  issuer: string;
}

class TokenRequestError extends Error {
  constructor(
    readonly error: Exclude<OAuthTokenError, "invalid_client">,
    description: string,
  ) {
    super(description);
  }
}

/** RFC 6749 4.1.3 sends a form; JSON is accepted too. Parameters must not repeat (RFC 6749 3.2). */
async function tokenParameters(c: Context<ServiceEnv>): Promise<Record<string, string>> {
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  const body = await c.req.text();
  if (type.startsWith("application/x-www-form-urlencoded")) {
    const params: Record<string, string> = {};
    for (const [name, value] of new URLSearchParams(body)) {
      if (name in params) throw new TokenRequestError("invalid_request", `${name} must be given once`);
      params[name] = value;
    }
    return params;
  }
  if (type.startsWith("application/json")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new TokenRequestError("invalid_request", "body must be valid JSON");
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new TokenRequestError("invalid_request", "body must be a JSON object");
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(parsed)) {
      if (typeof value !== "string") throw new TokenRequestError("invalid_request", `${name} must be a string`);
      params[name] = value;
    }
    return params;
  }
  throw new TokenRequestError("invalid_request", "Content-Type must be application/x-www-form-urlencoded or application/json");
}

function required(params: Record<string, string>, name: string): string {
  const value = params[name];
  if (value === undefined || value === "") throw new TokenRequestError("invalid_request", `${name} is required`);
  return value;
}

/** The request's checks, in RFC 6749 4.1.3 order; the code is only spent once the request is well-formed. */
function redeem(params: Record<string, string>, deps: TokenDeps): CodeGrant {
  const grantType = required(params, "grant_type");
  if (grantType !== "authorization_code") throw new TokenRequestError("unsupported_grant_type", `grant_type "${grantType}" is not supported; use authorization_code`);
  const code = required(params, "code");
  const redirectUri = required(params, "redirect_uri");
  const verifier = required(params, "code_verifier");
  if (!z.safeParse(pkceVerifier, verifier).success) throw new TokenRequestError("invalid_request", "code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, '-', '.', '_', '~'");

  const redemption = deps.codes.redeem(code);
  switch (redemption.kind) {
    case "unknown":
      throw new TokenRequestError("invalid_grant", "code is invalid");
    case "spent":
      throw new TokenRequestError("invalid_grant", "code has already been used");
    case "expired":
      throw new TokenRequestError("invalid_grant", "code has expired: a code is valid for 10 minutes");
    case "ok":
      break;
  }
  const { grant } = redemption;
  const clientId = params.client_id;
  if (grant.clientId !== deps.client.clientId || (clientId !== undefined && clientId !== grant.clientId)) throw new TokenRequestError("invalid_grant", "code was issued to another app");
  if (redirectUri !== grant.redirectUri) throw new TokenRequestError("invalid_grant", "redirect_uri does not match the one of the authorization request");
  if (!verifiesChallenge(verifier, grant.codeChallenge)) throw new TokenRequestError("invalid_grant", "code_verifier does not match the code_challenge");
  return grant;
}

async function tokenResponse(grant: CodeGrant, deps: TokenDeps): Promise<OAuthTokenResponse> {
  const account = findAccount(deps.state, grant.accountId);
  if (!account) throw new TokenRequestError("invalid_grant", "the account behind the code can no longer sign in");
  // An organization that left the active state, or the user, since the consent is left out.
  const authorized = activeMemberships(deps.state, account, grant.organizationIds);
  if (authorized.length === 0) throw new TokenRequestError("invalid_grant", "none of the authorized organizations has an active installation of the app");
  const now = deps.clock.now();
  const idToken = await issueIdToken(await deps.signingKey(), { issuer: deps.issuer, clientId: grant.clientId, account, nonce: grant.nonce, authTime: grant.authTime, now });
  const { accessToken, expiresIn } = deps.accessTokens.issue({ accountId: account.id, clientId: grant.clientId, organizationIds: authorized.map(({ org }) => org.ehr.id) });
  return {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: expiresIn,
    id_token: idToken,
    scope: "openid",
    user: tokenUser(account, authorized),
    authorizedOrganizations: authorized.map(({ org }) => authorizedOrganization(org)),
  };
}

export function registerOAuthTokenRoute(app: ServiceApp, deps: TokenDeps): void {
  app.post(OAUTH_TOKEN_PATH, async (c) => {
    try {
      const grant = redeem(await tokenParameters(c), deps);
      return c.json(await tokenResponse(grant, deps), 200, NO_STORE);
    } catch (error) {
      if (!(error instanceof TokenRequestError)) throw error;
      return oauthError(c, 400, error.error, error.message);
    }
  });
}
