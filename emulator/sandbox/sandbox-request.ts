import type * as z from "zod/mini";
import { Hono, type Context } from "hono";
import { parseDescribed } from "#contract/validation.ts";
import { SandboxError } from "./sandbox-error.ts";
import type { OrgState, ServiceState } from "../service/service-state.ts";

// Request plumbing of every `/_sandbox/` control (the core's and the
// domains'): plain JSON, an empty body reads as `{}`, refusals are
// `{code, message}`.

const CODE_BY_STATUS = { 400: "bad_request", 404: "not_found", 409: "conflict" } as const;

/** A sub-app whose refusals are answered as the core controls answer theirs. */
export function sandboxApp(): Hono {
  const app = new Hono();
  app.onError((error, c) => {
    if (error instanceof SandboxError) return c.json({ code: CODE_BY_STATUS[error.status], message: error.message }, error.status);
    throw error;
  });
  return app;
}

export async function sandboxBody<T extends z.ZodMiniType>(c: Context, schema: T): Promise<z.infer<T>> {
  let raw: unknown = {};
  const text = await c.req.text();
  if (text.trim() !== "") {
    try {
      raw = JSON.parse(text);
    } catch {
      throw new SandboxError(400, "body must be valid JSON");
    }
  }
  const result = parseDescribed(schema, raw, "body");
  if (!result.success) throw new SandboxError(400, result.message);
  return result.data;
}

export function sandboxOrg(state: ServiceState, organizationId: string): OrgState {
  const org = state.org(organizationId);
  if (!org) throw new SandboxError(404, `unknown organization ${organizationId}`);
  return org;
}
