import type { Hono } from "hono";
import type { Clock } from "../clock.ts";
import type { ServiceEnv } from "../http/env.ts";
import type { FaultRegistry } from "../http/faults.ts";
import type { EmulatorSettings, ServiceApp } from "../routes/route-deps.ts";
import type { ServiceState } from "../service/service-state.ts";
import type { SigningKey } from "../tokens/signing-keys.ts";
import { AccessTokens } from "./access-tokens.ts";
import { AuthorizationCodes } from "./authorization-codes.ts";
import { createAuthorizeRoutes } from "./authorize-routes.ts";
import { Consents } from "./consents.ts";
import { openIdConfiguration } from "./discovery.ts";
import { IdpSessions } from "./idp-sessions.ts";
import { loadOAuthClient, type OAuthClient } from "./oauth-client.ts";
import { PendingAuthorizations } from "./pending-authorizations.ts";
import { registerOAuthTokenRoute } from "./token-route.ts";
import { createUserinfoRoutes } from "./userinfo-route.ts";

// The emulator's side of standalone sign-in, assembled: the pages under
// `/oauth/` (mounted by `emulator/app.ts` on the emulator's origin), the
// token exchange inside the data pipeline, userinfo beside it, the discovery
// document, and a reset that forgets codes, access tokens, sign-in sessions,
// pending requests and remembered consents.

export interface OAuthProviderDeps {
  state: ServiceState;
  clock: Clock;
  settings: Pick<EmulatorSettings, "publicUrl" | "appUrl" | "rateLimitWindowSeconds">;
  signingKey: () => Promise<SigningKey>;
  faults: FaultRegistry;
}

export interface OAuthProvider {
  client: OAuthClient;
  /** Mount at the root: the pages under `/oauth/` carry their full paths (OAUTH_AUTHORIZE_PATH, pages.ts). */
  routes: Hono;
  /** Mount at `OAUTH_USERINFO_PATH`, outside the data pipeline (an access token, not a data key). */
  userinfo: Hono<ServiceEnv>;
  /** `GET /.well-known/openid-configuration`'s body. */
  discovery: ReturnType<typeof openIdConfiguration>;
  registerTokenRoute: (service: ServiceApp) => void;
  reset: () => void;
}

export function createOAuthProvider(deps: OAuthProviderDeps): OAuthProvider {
  const { state, clock, settings } = deps;
  const client = loadOAuthClient(settings.appUrl);
  const sessions = new IdpSessions(clock);
  const pending = new PendingAuthorizations(clock);
  const codes = new AuthorizationCodes(clock);
  const accessTokens = new AccessTokens(clock);
  const consents = new Consents();
  const secureCookies = new URL(settings.publicUrl).protocol === "https:";
  // The id_token's `iss`, and so discovery's `issuer`: the emulator's public URL, as host tokens have it.
  const issuer = settings.publicUrl;
  return {
    client,
    routes: createAuthorizeRoutes({ state, client, sessions, pending, codes, consents, secureCookies }),
    userinfo: createUserinfoRoutes({ state, clock, accessTokens, faults: deps.faults, rateLimitWindowSeconds: settings.rateLimitWindowSeconds }),
    discovery: openIdConfiguration(issuer),
    registerTokenRoute: (service) => registerOAuthTokenRoute(service, { state, clock, client, codes, accessTokens, signingKey: deps.signingKey, issuer }),
    reset: () => {
      sessions.clear();
      pending.clear();
      codes.clear();
      accessTokens.clear();
      consents.clear();
    },
  };
}
