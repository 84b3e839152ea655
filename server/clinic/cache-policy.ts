import * as z from "zod/mini";
import { utcTimestamp } from "#contract/clinic-api/primitives.ts";
import type { ClinicApiRoute } from "#contract/clinic-api/responses.ts";

// What may be cached, and until when (DESIGN.md "Upstream": until
// `sourceSyncedAt + maxStalenessSeconds`, never longer, never notes). Every
// route not named here always goes upstream.

/** No staleness meta; they change rarely and are kept for a short fixed time. */
const PICKER_ROUTE_LIST = ["GET /v1/providers", "GET /v1/facilities", "GET /v3/appointment-types"] as const satisfies readonly ClinicApiRoute[];
const PICKER_ROUTES: ReadonlySet<ClinicApiRoute> = new Set<ClinicApiRoute>(PICKER_ROUTE_LIST);

/** Schedule reads whose `data.meta` says how stale they may be (seed 001 "Limits"). */
const STALENESS_ROUTE_LIST = ["GET /v3/schedule/availability-templates", "GET /v2/schedule/slots"] as const satisfies readonly ClinicApiRoute[];
const STALENESS_ROUTES: ReadonlySet<ClinicApiRoute> = new Set<ClinicApiRoute>(STALENESS_ROUTE_LIST);

/** Kept only until the `cacheUntil` their caller gives: the bound of the schedule read they are combined with (the booked load, ADR 0020). */
const CALLER_BOUNDED_ROUTE_LIST = ["GET /v1/appointments"] as const satisfies readonly ClinicApiRoute[];
export const CALLER_BOUNDED_ROUTES: ReadonlySet<ClinicApiRoute> = new Set<ClinicApiRoute>(CALLER_BOUNDED_ROUTE_LIST);

/** Routes whose answers may be kept, and so are shared between callers as bytes (shared-answer.ts). */
export type SharedRoute = (typeof PICKER_ROUTE_LIST)[number] | (typeof STALENESS_ROUTE_LIST)[number] | (typeof CALLER_BOUNDED_ROUTE_LIST)[number];
const SHARED_ROUTES: ReadonlySet<string> = new Set<string>([...PICKER_ROUTE_LIST, ...STALENESS_ROUTE_LIST, ...CALLER_BOUNDED_ROUTE_LIST]);
export const isSharedRoute = (route: string): route is SharedRoute => SHARED_ROUTES.has(route);

const stalenessMeta = z.object({
  meta: z.object({
    sourceSyncedAt: utcTimestamp,
    maxStalenessSeconds: z.number().check(z.nonnegative()),
    strongConsistency: z.optional(z.boolean()),
    generatedAt: z.optional(utcTimestamp),
  }),
});

export interface CachePolicyInput {
  route: ClinicApiRoute;
  data: unknown;
  strong: boolean;
  /** The client's clock when the request was sent. */
  requestStartedAt: number;
  now: number;
  pickerTtlMs: number;
  cacheUntil?: number;
}

/** When the mirror a schedule read came from was synced (ms); null for other routes. */
export function sourceSyncedAtOf(route: ClinicApiRoute, data: unknown): number | null {
  if (!STALENESS_ROUTES.has(route)) return null;
  const parsed = z.safeParse(stalenessMeta, data);
  return parsed.success ? Date.parse(parsed.data.meta.sourceSyncedAt) : null;
}

/** The one staleness bound of a schedule read (null: strong, or no staleness allowed); callers combining reads bound them by it (ADR 0020). */
export function staleAt(meta: { sourceSyncedAt: string; maxStalenessSeconds: number; strongConsistency?: boolean | undefined }): number | null {
  if (meta.strongConsistency === true || meta.maxStalenessSeconds <= 0) return null;
  return Date.parse(meta.sourceSyncedAt) + meta.maxStalenessSeconds * 1000;
}

/** The client-clock instant the answer stops being usable, or null when it must not be kept. */
export function cacheExpiry({ route, data, strong, requestStartedAt, now, pickerTtlMs, cacheUntil }: CachePolicyInput): number | null {
  if (strong) return null;
  if (PICKER_ROUTES.has(route)) return pickerTtlMs > 0 ? now + pickerTtlMs : null;
  if (CALLER_BOUNDED_ROUTES.has(route)) return cacheUntil !== undefined && cacheUntil > now ? cacheUntil : null;
  if (!STALENESS_ROUTES.has(route)) return null;
  const parsed = z.safeParse(stalenessMeta, data);
  const bound = parsed.success ? staleAt(parsed.data.meta) : null;
  if (!parsed.success || bound === null) return null;
  const { generatedAt } = parsed.data.meta;
  // With the service's own "now", the lifetime left is measured on its clock from when we asked: a client clock behind it cannot stretch it.
  const expiresAt = generatedAt === undefined ? bound : Math.min(bound, requestStartedAt + (bound - Date.parse(generatedAt)));
  return expiresAt > now ? expiresAt : null;
}
