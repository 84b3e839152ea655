import * as z from "zod/mini";
import { facilityId, providerId, rawUuid } from "./primitives.ts";

// Sign-in for standalone apps (seed 001 "Sign-in for standalone apps", OAuth
// 2.0 authorization code with PKCE; DESIGN.md "Standalone mode"). The seeds
// leave the parameter names, the token response beyond `id_token` and
// `authorizedOrganizations`, the error values and the claims open: these are
// the assumed contracts of docs/assumed-contracts.md.

/** An HTML page on the service's origin, without a version segment. */
export const OAUTH_AUTHORIZE_PATH = "/oauth/authorize";
/** Authenticated with the app's data key; no `X-Organization-Id`. */
export const OAUTH_TOKEN_PATH = "/v3/oauth/token";
/** OIDC Core 5.3: authenticated with the token response's `access_token`, not a data key. */
export const OAUTH_USERINFO_PATH = "/v3/oauth/userinfo";
export const JWKS_PATH = "/.well-known/jwks.json";
/** OIDC Discovery 1.0 section 4, under the issuer. */
export const OPENID_CONFIGURATION_PATH = "/.well-known/openid-configuration";

/** Seed 001 "Limits": a code expires after 10 minutes and works once. */
export const AUTHORIZATION_CODE_LIFETIME_SECONDS = 600;
export const ID_TOKEN_LIFETIME_SECONDS = 300;
/** The access token's lifetime: as long as the app's standalone session (8 hours), so a session can be re-checked until its end. */
export const ACCESS_TOKEN_LIFETIME_SECONDS = 8 * 60 * 60;
/**
 * The token endpoint's client authentication as discovery names it: the
 * app's data key as `Authorization: Bearer` (seed 001 "Sign-in for
 * standalone apps" 5); not one of RFC 8414's registered methods.
 */
export const DATA_KEY_BEARER_AUTH_METHOD = "api_key_bearer";
/** The `typ` header of an id_token (a host token's is `host-session+jwt`). */
export const ID_TOKEN_TYPE = "JWT";

/** RFC 7636: S256 only; the challenge is BASE64URL(SHA256(verifier)), 43 characters. */
export const pkceChallenge = z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/, "must be a BASE64URL-encoded SHA-256 (43 characters)"));
/** RFC 7636 4.1: 43-128 unreserved characters. */
export const pkceVerifier = z.string().check(z.regex(/^[A-Za-z0-9._~-]{43,128}$/, "must be 43 to 128 characters of A-Z, a-z, 0-9, '-', '.', '_', '~'"));

/**
 * `prompt`: space-separated. `login` (and `select_account`) show the sign-in
 * even with an IdP session; `consent` shows the consent even when it is
 * remembered; `none` shows nothing and fails with `login_required` or
 * `consent_required` when a page would be needed.
 */
export const OAUTH_PROMPTS = ["none", "login", "consent", "select_account"] as const;
export type OAuthPrompt = (typeof OAUTH_PROMPTS)[number];

/** `GET /oauth/authorize`: what the app puts in the query. */
export const oauthAuthorizeQuery = z.object({
  client_id: z.string().check(z.minLength(1)),
  /** Matched exactly (scheme, host, port, path) against the registered URIs. */
  redirect_uri: z.string().check(z.minLength(1)),
  state: z.string().check(z.minLength(1)),
  code_challenge: pkceChallenge,
  code_challenge_method: z.literal("S256"),
  /** OIDC `nonce`, echoed in the id_token (an assumed extension). */
  nonce: z.optional(z.string()),
  prompt: z.optional(z.string()),
  /** Optional; when present it must be `code`. */
  response_type: z.optional(z.literal("code")),
});
export type OAuthAuthorizeQuery = z.infer<typeof oauthAuthorizeQuery>;

/** The callback's query on approval: `state` is echoed exactly. */
export const oauthCallbackSuccess = z.object({ code: z.string().check(z.minLength(1)), state: z.string() });

/** Error values the authorize endpoint sends back to the redirect URI (RFC 6749 4.1.2.1, OIDC Core 3.1.2.6). */
export const OAUTH_AUTHORIZE_ERRORS = ["invalid_request", "unsupported_response_type", "access_denied", "login_required", "consent_required"] as const;
/** The callback's query on denial or a bad request; `error` stays an open string, as a real service may send others. */
export const oauthCallbackError = z.object({
  error: z.string().check(z.minLength(1)),
  error_description: z.optional(z.string()),
  state: z.optional(z.string()),
});

/** `POST /v3/oauth/token`, sent as `application/x-www-form-urlencoded` (or JSON). */
export const oauthTokenRequest = z.object({
  grant_type: z.literal("authorization_code"),
  code: z.string().check(z.minLength(1)),
  /** The same redirect URI as the authorize request. */
  redirect_uri: z.string().check(z.minLength(1)),
  code_verifier: pkceVerifier,
  /** Optional; when present it must be the code's client. */
  client_id: z.optional(z.string()),
});
export type OAuthTokenRequest = z.infer<typeof oauthTokenRequest>;

/** The user's provider in one authorized organization. */
export const oauthUserProvider = z.object({
  /** Raw UUID, as `X-Organization-Id` needs it. */
  organizationId: rawUuid,
  /** v3's `prv_` form (seed 001 "Versioning"); the BFF keeps the raw UUID, as a host token's `provider_id` has it. */
  providerId,
  roles: z.array(z.string()),
});
export type OAuthUserProvider = z.infer<typeof oauthUserProvider>;

export const oauthUser = z.object({
  /** The account's id, the id_token's `sub`. */
  id: rawUuid,
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  displayName: z.string(),
  /** Only for the authorized organizations; an organization without an entry names no provider of the user. */
  providers: z.array(oauthUserProvider),
});
export type OAuthUser = z.infer<typeof oauthUser>;

/** `id` in v3's `fac_` form. */
export const authorizedFacility = z.object({ id: facilityId, name: z.string(), timezone: z.string() });
export type AuthorizedFacility = z.infer<typeof authorizedFacility>;

export const authorizedOrganization = z.object({
  organizationId: rawUuid,
  name: z.string(),
  /** The organization's visible facilities. */
  facilities: z.array(authorizedFacility),
});
export type AuthorizedOrganization = z.infer<typeof authorizedOrganization>;

/** What the token response says about the user, beside RFC 6749's fields; the BFF reads it as its own. */
export const oauthTokenProfile = z.object({
  user: oauthUser,
  authorizedOrganizations: z.array(authorizedOrganization),
});
export type OAuthTokenProfile = z.infer<typeof oauthTokenProfile>;

/** `POST /v3/oauth/token`'s 200: a top-level JSON object (RFC 6749 5.1, OIDC Core 3.1.3.3), not the service's envelope. */
export const oauthTokenResponse = z.extend(oauthTokenProfile, {
  /** Opaque; good only at the userinfo endpoint, never for data. */
  access_token: z.string().check(z.minLength(1)),
  token_type: z.literal("Bearer"),
  /** The access token's lifetime in seconds. */
  expires_in: z.int().check(z.positive()),
  id_token: z.string(),
  scope: z.optional(z.string()),
});
export type OAuthTokenResponse = z.infer<typeof oauthTokenResponse>;

/** Error values of the token endpoint (RFC 6749 5.2): `invalid_client` is a 401, the others a 400. */
export const OAUTH_TOKEN_ERRORS = ["invalid_request", "invalid_client", "invalid_grant", "unsupported_grant_type"] as const;
export type OAuthTokenError = (typeof OAUTH_TOKEN_ERRORS)[number];

/** An error of the token or userinfo endpoint (RFC 6749 5.2, RFC 6750 3). A 429 keeps the service's error body. */
export const oauthErrorBody = z.object({
  error: z.string(),
  error_description: z.optional(z.string()),
});
export type OAuthErrorBody = z.infer<typeof oauthErrorBody>;

/**
 * `GET` or `POST /v3/oauth/userinfo` (OIDC Core 5.3.2): the standard claims
 * and, as of the moment of the call, the user's providers among the
 * organizations the access token was issued for and those of them whose
 * installation is still active.
 */
export const oauthUserInfo = z.object({
  /** The account id, the id_token's `sub`. */
  sub: rawUuid,
  email: z.string(),
  email_verified: z.boolean(),
  name: z.string(),
  given_name: z.string(),
  family_name: z.string(),
  /** The user's current provider (active, with its current roles) in each organization of the token that still has one. */
  providers: z.array(oauthUserProvider),
  /** The token's organizations whose installation is still active. */
  authorizedOrganizations: z.array(authorizedOrganization),
});
export type OAuthUserInfo = z.infer<typeof oauthUserInfo>;

/** OIDC Discovery 1.0 section 3: the fields this service publishes (all URLs absolute). */
export const openIdConfiguration = z.object({
  /** Exactly the id_token's `iss`. */
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  userinfo_endpoint: z.url(),
  jwks_uri: z.url(),
  scopes_supported: z.array(z.string()),
  response_types_supported: z.array(z.string()),
  grant_types_supported: z.array(z.string()),
  subject_types_supported: z.array(z.string()),
  id_token_signing_alg_values_supported: z.array(z.string()),
  code_challenge_methods_supported: z.array(z.string()),
  token_endpoint_auth_methods_supported: z.array(z.string()),
  claims_supported: z.array(z.string()),
  prompt_values_supported: z.array(z.string()),
});
export type OpenIdConfiguration = z.infer<typeof openIdConfiguration>;

/** The id_token's payload (OIDC Core 2 and 5.1), ES256, header `typ: "JWT"` with a `kid` of the JWKS. */
export const idTokenClaims = z.object({
  /** The service's public URL, the same issuer as host tokens. */
  iss: z.string(),
  /** The app's slug (`client_id`). */
  aud: z.union([z.string(), z.array(z.string())]),
  /** The account id (`user.id`). */
  sub: rawUuid,
  /** Present when the authorize request carried one. */
  nonce: z.optional(z.string()),
  iat: z.int(),
  nbf: z.optional(z.int()),
  exp: z.int(),
  auth_time: z.int(),
  email: z.string(),
  email_verified: z.boolean(),
  name: z.string(),
  given_name: z.string(),
  family_name: z.string(),
});
export type IdTokenClaims = z.infer<typeof idTokenClaims>;
