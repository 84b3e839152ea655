import type { Context } from "hono";
import * as z from "zod/mini";
import { OAUTH_TOKEN_PATH, pkceVerifier, ID_TOKEN_LIFETIME_SECONDS, type OAuthTokenData, type OAuthTokenError } from "../../contract/clinic-api/oauth.ts";
import type { Clock } from "../clock.ts";
import type { ServiceEnv } from "../http/env.ts";
import { ok } from "../http/service-middleware.ts";
import type { ServiceApp } from "../routes/route-deps.ts";
import type { ServiceState } from "../service/service-state.ts";
import type { SigningKey } from "../tokens/signing-keys.ts";
import { findAccount } from "./accounts.ts";
import type { AuthorizationCodes, CodeGrant } from "./authorization-codes.ts";
import { issueIdToken } from "./id-token.ts";
import type { OAuthClient } from "./oauth-client.ts";
import { verifiesChallenge } from "./pkce.ts";

// `POST /v3/oauth/token` (seed 001 "Sign-in for standalone apps" 5-6): the
// app's backend exchanges the code, authenticated with a data key of the app
// by the data pipeline, without `X-Organization-Id` (the code encodes the
// organizations). Any data key of the app may exchange codes, the ERA-only
// one too: the exchange gives identity, not data. Errors are HTTP 400 with
// the service's error body plus OAuth 2.0's `error` and `error_description`.

export interface TokenDeps {
  state: ServiceState;
  clock: Clock;
  /** The app every sandbox data key belongs to. */
  client: OAuthClient;
  codes: AuthorizationCodes;
  signingKey: () => Promise<SigningKey>;
  issuer: string;
}

class TokenRequestError extends Error {
  constructor(
    readonly error: OAuthTokenError,
    description: string,
  ) {
    super(description);
  }
}

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

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

async function tokenData(grant: CodeGrant, deps: TokenDeps): Promise<OAuthTokenData> {
  const account = findAccount(deps.state, grant.accountId);
  if (!account) throw new TokenRequestError("invalid_grant", "the account behind the code can no longer sign in");
  // An organization that left the active state, or the user, since the consent is left out.
  const authorized = grant.organizationIds.flatMap((organizationId) => {
    const org = deps.state.org(organizationId);
    const membership = account.memberships.find((candidate) => candidate.organizationId === organizationId);
    return org && membership && org.installation.status === "active" ? [{ org, membership }] : [];
  });
  if (authorized.length === 0) throw new TokenRequestError("invalid_grant", "none of the authorized organizations has an active installation of the app");
  const now = deps.clock.now();
  const idToken = await issueIdToken(await deps.signingKey(), { issuer: deps.issuer, clientId: grant.clientId, account, nonce: grant.nonce, authTime: grant.authTime, now });
  return {
    id_token: idToken,
    token_type: "Bearer",
    expires_in: ID_TOKEN_LIFETIME_SECONDS,
    user: {
      id: account.id,
      email: account.email,
      firstName: account.firstName,
      lastName: account.lastName,
      displayName: account.displayName,
      providers: authorized.map(({ membership }) => ({ organizationId: membership.organizationId, providerId: membership.providerId, roles: [...membership.roles] })),
    },
    authorizedOrganizations: authorized.map(({ org }) => ({
      organizationId: org.ehr.id,
      name: org.ehr.name,
      facilities: [...org.mirror.facilities.values()]
        .filter((facility) => facility.isVisible)
        .map((facility) => ({ id: facility.id, name: facility.name, timezone: facility.timezone })),
    })),
  };
}

export function registerOAuthTokenRoute(app: ServiceApp, deps: TokenDeps): void {
  app.post(OAUTH_TOKEN_PATH, async (c) => {
    try {
      const grant = redeem(await tokenParameters(c), deps);
      const data = await tokenData(grant, deps);
      for (const [name, value] of Object.entries(NO_STORE)) c.header(name, value);
      return ok(c, data);
    } catch (error) {
      if (!(error instanceof TokenRequestError)) throw error;
      const body = { code: "bad_request", message: error.message, trace_id: c.get("traceId"), error: error.error, error_description: error.message };
      return c.json(body, 400, NO_STORE);
    }
  });
}
