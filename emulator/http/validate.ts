import type * as z from "zod/mini";
import type { Context } from "hono";
import { parseDescribed, queryRecord } from "#contract/validation.ts";
import { badRequest } from "./service-error.ts";

/**
 * Parses a request's query with a contract schema. Repeated parameters are
 * joined with commas (seed 001: facility ids "repeated or comma-separated").
 */
export function parseQuery<T extends z.ZodMiniType>(c: Context, schema: T): z.infer<T> {
  const result = parseDescribed(schema, queryRecord(c.req.queries()), "query");
  if (!result.success) throw badRequest(result.message);
  return result.data;
}

export async function parseJsonBody<T extends z.ZodMiniType>(c: Context, schema: T): Promise<z.infer<T>> {
  const type = c.req.header("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/json")) throw badRequest("Content-Type must be application/json");
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
