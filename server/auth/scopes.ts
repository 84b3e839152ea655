import type { Context } from "hono";
import { APP_ERROR_CODES } from "#contract/app-api/errors.ts";
import { isClinicalRole } from "#contract/app-api/session.ts";
import { AppError } from "../http/app-error.ts";
import type { AppEnv } from "../http/app-env.ts";

/** Refuses before calling the service when the installation does not grant a scope (told apart from the installations table, never from message text). */
export function requireGrantedScope(c: Context<AppEnv>, scope: string): void {
  if (!c.get("grantedScopes").has(scope)) {
    throw new AppError(403, APP_ERROR_CODES.scopeNotGranted, `This organization's installation of Tandem does not grant ${scope}`, { missing_scope: scope });
  }
}

/** DESIGN.md "The host bridge" 4: note routes serve clinical roles only, reads too. */
export function requireClinicalRole(c: Context<AppEnv>): void {
  if (!isClinicalRole(c.get("session").roles)) {
    throw new AppError(403, APP_ERROR_CODES.roleForbidden, "Your role does not give access to clinical notes");
  }
}
