import type * as z from "zod/mini";
import type { Context } from "hono";
import { parseDescribed, queryRecord } from "#contract/validation.ts";
import { badRequest } from "./app-error.ts";

/** Parses a query with a contract/app-api schema; repeated parameters are joined with commas. 400 names the field. */
export function parseQuery<T extends z.ZodMiniType>(c: Context, schema: T): z.infer<T> {
  const result = parseDescribed(schema, queryRecord(c.req.queries()), "query");
  if (!result.success) throw badRequest(result.message);
  return result.data;
}

export async function parseJsonBody<T extends z.ZodMiniType>(c: Context, schema: T): Promise<z.infer<T>> {
  if (!(c.req.header("content-type") ?? "").toLowerCase().startsWith("application/json")) throw badRequest("Content-Type must be application/json");
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw badRequest("body must be valid JSON");
  }
  const result = parseDescribed(schema, body, "body");
  if (!result.success) throw badRequest(result.message);
  return result.data;
}
