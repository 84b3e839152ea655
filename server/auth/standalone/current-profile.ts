import * as oidc from "openid-client";
import * as z from "zod/mini";
import { oauthUserInfo } from "#contract/clinic-api/oauth.ts";
import { describeZodError } from "#contract/validation.ts";
import type { Logger } from "../../logger.ts";
import type { OidcClient } from "./oidc-client.ts";
import { profileFromUserInfo, type RecheckedProfile } from "./standalone-session.ts";

// Who the service says a signed-in user is now (OIDC Core 5.3, userinfo with
// the sign-in's access token): for re-checking a standalone session against
// the EHR (a provider made inactive, roles changed, an installation gone).
// A token the service no longer takes is `revoked`; anything that says
// nothing about the user (network, timeout, 429, 5xx, an answer the contract
// cannot read) is `unavailable`, and the caller decides how long to trust
// the session meanwhile.

export type CurrentProfile = { kind: "ok"; sub: string; profile: RecheckedProfile } | { kind: "revoked" } | { kind: "unavailable" };

function isRevoked(error: unknown): boolean {
  // 401, with a Bearer challenge (RFC 6750 3.1 `invalid_token`) or without one.
  if (error instanceof oidc.WWWAuthenticateChallengeError || error instanceof oidc.ResponseBodyError) return error.status === 401;
  if (!(error instanceof oidc.ClientError)) return false;
  // The token answers for another user than the session's.
  if (error.code === "OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED") return true;
  return error.code === "OAUTH_RESPONSE_IS_NOT_CONFORM" && error.cause instanceof Response && error.cause.status === 401;
}

/** `expectedSubject`: the session's `sub`; an answer for anyone else counts as revoked. */
export async function fetchCurrentProfile(client: OidcClient, logger: Logger, accessToken: string, expectedSubject?: string): Promise<CurrentProfile> {
  let claims: unknown;
  try {
    claims = await client.run((config) => oidc.fetchUserInfo(config, accessToken, expectedSubject ?? oidc.skipSubjectCheck));
  } catch (error) {
    if (isRevoked(error)) return { kind: "revoked" };
    logger.warn({ reason: error instanceof Error ? `${error.name}: ${error.message}` : "unknown" }, "standalone session: userinfo could not be read");
    return { kind: "unavailable" };
  }
  const info = z.safeParse(oauthUserInfo, claims);
  if (!info.success) {
    logger.warn({ reason: describeZodError(info.error) }, "standalone session: userinfo does not match the contract");
    return { kind: "unavailable" };
  }
  return { kind: "ok", ...profileFromUserInfo(info.data) };
}
