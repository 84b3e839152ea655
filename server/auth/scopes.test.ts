import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../http/app-env.ts";
import { handleAppError } from "../http/error-handler.ts";
import { createLogger } from "../logger.ts";
import type { HostSession } from "./host-token-verifier.ts";
import { requireClinicalRole, requireGrantedScope } from "./scopes.ts";

// DESIGN.md "The host bridge" 4: note routes serve clinical roles only; a
// scope the installation does not grant is refused before any upstream call.

function appFor(roles: string[], granted: string[]) {
  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    c.set("traceId", "t");
    c.set("logger", createLogger({ level: "silent", secrets: [] }));
    const session: HostSession = { kind: "host", userId: "provider:u", accountId: "u", providerId: "u", organizationId: "o", roles, facilityId: null, patientId: null, noteId: "n", jti: "j", expiresAt: 0 };
    c.set("session", session);
    c.set("grantedScopes", new Set(granted));
    await next();
  });
  app.onError(handleAppError);
  app.patch("/note", (c) => {
    requireClinicalRole(c);
    requireGrantedScope(c, "write:soap_notes");
    return c.json({ ok: true });
  });
  return app;
}

describe("role and scope guards", () => {
  it.each(["Front Desk", "Scheduler"])("refuses a %s with 403 role_forbidden", async (role) => {
    const response = await appFor([role], ["write:soap_notes"]).request("/note", { method: "PATCH" });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "role_forbidden" });
  });

  it.each(["Physician", "Nurse Practitioner", "Medical Assistant"])("lets a %s through", async (role) => {
    expect((await appFor([role], ["write:soap_notes"]).request("/note", { method: "PATCH" })).status).toBe(200);
  });

  it("names the scope an installation does not grant", async () => {
    const response = await appFor(["Physician"], []).request("/note", { method: "PATCH" });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "scope_not_granted", missing_scope: "write:soap_notes" });
  });
});
