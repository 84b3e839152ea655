import { Hono, type Context } from "hono";
import type { Clock } from "../clock.ts";
import type { ServiceEnv } from "../http/env.ts";
import type { FaultRegistry } from "../http/faults.ts";
import { ServiceError } from "../http/service-error.ts";
import { assignTraceId, errorResponse, injectFaults } from "../http/service-middleware.ts";
import type { ServiceState } from "../service/service-state.ts";
import type { AccessTokens } from "./access-tokens.ts";
import { findAccount } from "./accounts.ts";
import { bearerChallenge, NO_STORE, oauthError } from "./oauth-errors.ts";
import { userInfo } from "./profile.ts";

// `GET` and `POST /v3/oauth/userinfo` (OIDC Core 5.3), mounted at that path
// beside the data pipeline: it takes the token response's access token as
// `Authorization: Bearer` (RFC 6750 2.1), never a data key. Claims are read
// from the world at the moment of the call, so a provider made inactive or
// given other roles in the EHR shows at once. Injected faults apply, as on
// every call to the service.

export interface UserinfoDeps {
  state: ServiceState;
  clock: Clock;
  accessTokens: AccessTokens;
  faults: FaultRegistry;
  rateLimitWindowSeconds: number;
}

function presentedToken(c: Context): string | null {
  const header = c.req.header("authorization");
  if (!header?.startsWith("Bearer ")) return null;
  const token = header.slice("Bearer ".length).trim();
  return token === "" ? null : token;
}

export function createUserinfoRoutes(deps: UserinfoDeps): Hono<ServiceEnv> {
  const { state, accessTokens } = deps;
  const app = new Hono<ServiceEnv>();
  app.use("/", assignTraceId);
  app.use("/", injectFaults(deps.faults, deps.rateLimitWindowSeconds, () => deps.clock.now()));
  app.on(["GET", "POST"], "/", (c) => {
    const token = presentedToken(c);
    // RFC 6750 3.1: a request without credentials gets a challenge without an error code.
    if (token === null) return oauthError(c, 401, "invalid_token", "An access token is required: Authorization: Bearer <access_token>", bearerChallenge(null));
    const grant = accessTokens.find(token);
    const refuse = (description: string) => oauthError(c, 401, "invalid_token", description, bearerChallenge("invalid_token"));
    if (!grant) return refuse("The access token is unknown or has expired");
    state.syncIfDue();
    const account = findAccount(state, grant.accountId);
    if (!account) return refuse("The account behind the access token can no longer sign in");
    return c.json(userInfo(state, account, grant.organizationIds), 200, NO_STORE);
  });
  app.onError((error, c) => {
    if (error instanceof ServiceError) return errorResponse(c, error);
    console.error("emulator: unexpected error", error);
    return errorResponse(c, ServiceError.of("internal_error", "Internal error"));
  });
  return app;
}
