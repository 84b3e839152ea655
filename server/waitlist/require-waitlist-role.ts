import type { Context } from "hono";
import { APP_ERROR_CODES } from "#contract/app-api/errors.ts";
import { canUseWaitlist } from "#contract/app-api/waitlist.ts";
import type { AppEnv } from "../http/app-env.ts";
import { AppError } from "../http/app-error.ts";

/** Issue 38: the waitlist (its routes, a hold from its offers) is for front-desk and scheduler roles only; 403 `role_forbidden` otherwise. */
export function requireWaitlistRole(c: Context<AppEnv>): void {
  if (!canUseWaitlist(c.get("session").roles)) {
    throw new AppError(403, APP_ERROR_CODES.roleForbidden, "The waitlist is for front-desk and scheduler roles: your role does not give access to it");
  }
}
