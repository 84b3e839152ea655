import { DATA_KEY_BEARER_AUTH_METHOD, JWKS_PATH, OAUTH_AUTHORIZE_PATH, OAUTH_PROMPTS, OAUTH_TOKEN_PATH, OAUTH_USERINFO_PATH, type OpenIdConfiguration } from "#contract/clinic-api/oauth.ts";

// `GET /.well-known/openid-configuration` (OIDC Discovery 1.0 section 4):
// what a standard OpenID Connect client needs to sign in against the
// sandbox. The issuer is the id_token's `iss` exactly: the emulator's public
// URL. The token endpoint authenticates the app by its data key sent as
// `Authorization: Bearer`, which no registered method name describes.

export function openIdConfiguration(issuer: string): OpenIdConfiguration {
  const base = issuer.replace(/\/+$/, "");
  return {
    issuer,
    authorization_endpoint: `${base}${OAUTH_AUTHORIZE_PATH}`,
    token_endpoint: `${base}${OAUTH_TOKEN_PATH}`,
    userinfo_endpoint: `${base}${OAUTH_USERINFO_PATH}`,
    jwks_uri: `${base}${JWKS_PATH}`,
    scopes_supported: ["openid"],
    response_types_supported: ["code"],
    grant_types_supported: ["authorization_code"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["ES256"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: [DATA_KEY_BEARER_AUTH_METHOD],
    claims_supported: ["iss", "sub", "aud", "exp", "iat", "nbf", "auth_time", "nonce", "email", "email_verified", "name", "given_name", "family_name", "providers", "authorizedOrganizations"],
    prompt_values_supported: [...OAUTH_PROMPTS],
  };
}
