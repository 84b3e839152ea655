import type { ClinicApiRoute } from "#contract/clinic-api/responses.ts";
import { bodyIdForms, organizationHeaderValue, pathIdForm, queryIdForm } from "./id-forms.ts";

// Turns a route key and a call into the exact request the service expects
// (seed 001 "Common rules"; DESIGN.md "Upstream"): the path with its
// parameters URL-encoded, list parameters comma-separated, the organization
// header set here (never by callers), and one key that identifies the read
// for coalescing and caching.

export type QueryValue = string | number | boolean | readonly string[] | undefined;

export interface ClinicCall {
  /** Raw UUID; required on every route except the installations list. */
  organizationId?: string;
  params?: Readonly<Record<string, string>>;
  query?: Readonly<Record<string, QueryValue>>;
  body?: unknown;
  /** Bypasses the cache (and coalescing) and, where the route takes it, asks the service to read the EHR live. */
  consistency?: "strong";
  /**
   * For a read without staleness meta of its own (`CALLER_BOUNDED_ROUTES` in
   * cache-policy.ts): the client-clock instant it may be kept until, the
   * bound of the schedule read it is combined with (ADR 0020).
   */
  cacheUntil?: number;
  /** A write's key (the write intent's id), sent as `Idempotency-Key` (docs/assumed-contracts.md); the BFF stays correct when the service ignores it. */
  idempotencyKey?: string;
}

export interface PreparedRequest {
  route: ClinicApiRoute;
  method: string;
  /** Path and sorted query string, e.g. `/v2/schedule/slots?appointmentTypeId=…`. */
  target: string;
  /** The raw organization UUID sent as `X-Organization-Id`, or null for the app-level installations list. */
  organizationId: string | null;
  bodyText: string | undefined;
  strong: boolean;
  /** The caller's bound on a caller-bounded read (ClinicCall.cacheUntil). */
  cacheUntil: number | undefined;
  idempotencyKey: string | undefined;
  /** Same org, route, parameters and query: the same key (coalescing and cache). */
  key: string;
}

/** Calls made for the app, not for one organization (DESIGN.md assumed contract of `GET /v1/installations`). */
const APP_LEVEL_ROUTES: ReadonlySet<ClinicApiRoute> = new Set<ClinicApiRoute>(["GET /v1/installations"]);

/** Where `consistency=strong` is a query parameter of the service (seed 001 "Schedule"). */
const CONSISTENCY_ROUTES: ReadonlySet<ClinicApiRoute> = new Set<ClinicApiRoute>(["GET /v2/schedule/slots"]);

export function splitRoute(route: ClinicApiRoute): { method: string; template: string } {
  const space = route.indexOf(" ");
  return { method: route.slice(0, space), template: route.slice(space + 1) };
}

function buildPath(route: ClinicApiRoute, template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined || value === "") throw new TypeError(`${route}: path parameter ${name} is required`);
    return encodeURIComponent(pathIdForm(route, name, value));
  });
}

function queryText(route: ClinicApiRoute, name: string, value: Exclude<QueryValue, undefined>): string {
  // Lists go out comma-separated (DESIGN.md "Upstream"), joined once, by queryIdForm.
  return typeof value === "string" || Array.isArray(value) ? queryIdForm(route, name, value) : String(value);
}

function buildSearch(route: ClinicApiRoute, query: Readonly<Record<string, QueryValue>>, strong: boolean): string {
  const entries: [string, string][] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || name === "consistency") continue;
    entries.push([name, queryText(route, name, value)]);
  }
  if (strong && CONSISTENCY_ROUTES.has(route)) entries.push(["consistency", "strong"]);
  // Sorted, so the same query in another order is the same read.
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new URLSearchParams(entries).toString();
}

export function prepareRequest(route: ClinicApiRoute, call: ClinicCall): PreparedRequest {
  const { method, template } = splitRoute(route);
  const query = call.query ?? {};
  const strong = call.consistency === "strong" || query.consistency === "strong";
  const path = buildPath(route, template, call.params ?? {});
  const search = buildSearch(route, query, strong);
  const target = search ? `${path}?${search}` : path;
  let organizationId: string | null = null;
  if (!APP_LEVEL_ROUTES.has(route)) {
    if (call.organizationId === undefined) throw new TypeError(`${route}: organizationId is required`);
    organizationId = organizationHeaderValue(call.organizationId);
  }
  const body = call.body === undefined ? undefined : bodyIdForms(route, call.body);
  const bodyText = body === undefined ? undefined : JSON.stringify(body);
  return { route, method, target, organizationId, bodyText, strong, cacheUntil: call.cacheUntil, idempotencyKey: call.idempotencyKey, key: `${organizationId ?? "-"} ${method} ${target}` };
}
