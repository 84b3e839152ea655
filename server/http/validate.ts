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

/**
 * Parses one path parameter (as decoded) with the contract's schema for its
 * kind of id, before the store or the service sees it. 400 names it as
 * `name` (the route's `:id` is a note's `noteId`), e.g. "noteId: must be a
 * valid UUID" (seed 001 "Errors"). The route templates stay as they are:
 * they are the metrics' `route` label (docs/operations.md).
 */
export function parsePathParam<T extends z.ZodMiniType>(c: Context, param: string, schema: T, name = param): z.infer<T> {
  const result = parseDescribed(schema, c.req.param(param), name);
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
