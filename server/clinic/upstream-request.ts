import type { ClinicApiRoute } from "#contract/clinic-api/responses.ts";
import { bodyIdForms, organizationHeaderValue, pathIdForm, queryIdForm } from "./id-forms.ts";

// A route key and a call, made the exact request the service expects (seed
// 001 "Common rules"; DESIGN.md "Upstream"), with the key that identifies a
// read for coalescing and caching.

export type ReadRoute = Extract<ClinicApiRoute, `GET ${string}`>;
export type WriteRoute = Exclude<ClinicApiRoute, ReadRoute>;
type QueryValue = string | number | boolean | readonly string[] | undefined;

export interface ClinicCall {
  /** Raw UUID; required on every route except the installations list. */
  organizationId?: string;
  params?: Readonly<Record<string, string>>;
  query?: Readonly<Record<string, QueryValue>>;
  body?: unknown;
  /** Bypasses the cache and coalescing and, where the route takes it, asks the service to read the EHR live. */
  consistency?: "strong";
  /** For a caller-bounded read (cache-policy.ts): the client-clock instant it may be kept until (ADR 0020). */
  cacheUntil?: number;
  /** Sent as `Idempotency-Key` (docs/assumed-contracts.md); the BFF stays correct when the service ignores it. */
  idempotencyKey?: string;
}

export interface PreparedRequest {
  route: ClinicApiRoute;
  method: string;
  /** Path and sorted query string. */
  target: string;
  /** Sent as `X-Organization-Id`; null for the app-level installations list. */
  organizationId: string | null;
  /** The organization the limiter, the cache and the coalescing count it for: `app` for none. */
  organization: string;
  bodyText: string | undefined;
  strong: boolean;
  cacheUntil: number | undefined;
  idempotencyKey: string | undefined;
  /** Same organization, route, parameters and query: the same key. */
  key: string;
}

/** Made for the app, not one organization (DESIGN.md assumed contract of `GET /v1/installations`). */
const APP_LEVEL_ROUTES: ReadonlySet<ClinicApiRoute> = new Set<ClinicApiRoute>(["GET /v1/installations"]);
/** Where `consistency=strong` is a query parameter of the service (seed 001 "Schedule"). */
const CONSISTENCY_ROUTES: ReadonlySet<ClinicApiRoute> = new Set<ClinicApiRoute>(["GET /v2/schedule/slots"]);

function buildSearch(route: ClinicApiRoute, query: Readonly<Record<string, QueryValue>>, strong: boolean): string {
  const entries: [string, string][] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || name === "consistency") continue;
    entries.push([name, typeof value === "string" || Array.isArray(value) ? queryIdForm(route, name, value) : String(value)]);
  }
  if (strong && CONSISTENCY_ROUTES.has(route)) entries.push(["consistency", "strong"]);
  // Sorted: the same query in another order is the same read.
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new URLSearchParams(entries).toString();
}

export function prepareRequest(route: ClinicApiRoute, call: ClinicCall): PreparedRequest {
  const [method = "", template = ""] = route.split(" ");
  const query = call.query ?? {};
  const strong = call.consistency === "strong" || query.consistency === "strong";
  const params = call.params ?? {};
  const path = template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined || value === "") throw new TypeError(`${route}: path parameter ${name} is required`);
    return encodeURIComponent(pathIdForm(route, name, value));
  });
  const search = buildSearch(route, query, strong);
  const target = search ? `${path}?${search}` : path;
  let organizationId: string | null = null;
  if (!APP_LEVEL_ROUTES.has(route)) {
    if (call.organizationId === undefined) throw new TypeError(`${route}: organizationId is required`);
    organizationId = organizationHeaderValue(call.organizationId);
  }
  const organization = organizationId ?? "app";
  const bodyText = call.body === undefined ? undefined : JSON.stringify(bodyIdForms(route, call.body));
  return { route, method, target, organizationId, organization, bodyText, strong, cacheUntil: call.cacheUntil, idempotencyKey: call.idempotencyKey, key: `${organization} ${method} ${target}` };
}
