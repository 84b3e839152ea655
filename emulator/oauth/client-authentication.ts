import type { MiddlewareHandler } from "hono";
import type { ServiceEnv } from "../http/env.ts";
import { checkDataKey } from "../http/service-middleware.ts";
import { bearerChallenge, oauthError } from "./oauth-errors.ts";

// The token endpoint's client authentication (seed 001 "Sign-in for
// standalone apps" 5: "authenticating with the app's API key"): a data key of
// the app as `Authorization: Bearer`. RFC 6749 5.2 makes a refused client
// `invalid_client` with 401, and, since the client authenticated in the
// Authorization header, a challenge of that scheme.

export const authenticateOAuthClient: MiddlewareHandler<ServiceEnv> = async (c, next) => {
  const check = checkDataKey(c.req.header("authorization"));
  if (check.kind === "ok") {
    c.set("dataKey", check.dataKey);
    await next();
    return;
  }
  return oauthError(c, 401, "invalid_client", check.message, bearerChallenge(check.kind === "missing" ? null : "invalid_client"));
};
