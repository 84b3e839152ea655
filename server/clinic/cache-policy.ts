import * as z from "zod/mini";
import { utcTimestamp } from "#contract/clinic-api/primitives.ts";
import type { ClinicApiRoute } from "#contract/clinic-api/responses.ts";

// What may be cached, and until when (DESIGN.md "Upstream": cache a read until
// `sourceSyncedAt + maxStalenessSeconds`, never longer, never notes). Two
// kinds of read are cached on their own terms, and the appointments list only
// when its caller bounds it by a schedule read's staleness (ADR 0020);
// everything else (notes, images, patients, holds, tasks, installations,
// billing, appointments read for anything else) always goes upstream.

/** Picker lists carry no staleness meta; they change rarely and are cached for a short fixed time. */
const PICKER_ROUTE_LIST = ["GET /v1/providers", "GET /v1/facilities", "GET /v3/appointment-types"] as const satisfies readonly ClinicApiRoute[];
export const PICKER_ROUTES: ReadonlySet<ClinicApiRoute> = new Set<ClinicApiRoute>(PICKER_ROUTE_LIST);

/** Schedule reads whose `data.meta` says how stale they may be (seed 001 "Limits", stale-read bound). */
const STALENESS_ROUTE_LIST = ["GET /v3/schedule/availability-templates", "GET /v2/schedule/slots"] as const satisfies readonly ClinicApiRoute[];
export const STALENESS_ROUTES: ReadonlySet<ClinicApiRoute> = new Set<ClinicApiRoute>(STALENESS_ROUTE_LIST);

/**
 * Reads without staleness meta of their own, cached only when the caller
 * gives `cacheUntil`: the bound of the schedule read they are combined with,
 * from the same mirror (the booked load, ADR 0020). Read without it, they
 * neither use nor fill the cache.
 */
const CALLER_BOUNDED_ROUTE_LIST = ["GET /v1/appointments"] as const satisfies readonly ClinicApiRoute[];
export const CALLER_BOUNDED_ROUTES: ReadonlySet<ClinicApiRoute> = new Set<ClinicApiRoute>(CALLER_BOUNDED_ROUTE_LIST);

/** Routes whose answers may be cached, and so shared between callers as one serialized answer (`shared-answer.ts`). */
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
  /** The client's clock when the request was sent (before the service stamped `generatedAt`). */
  requestStartedAt: number;
  now: number;
  pickerTtlMs: number;
  /** For a caller-bounded route: the client-clock instant its caller says it may be kept until. */
  cacheUntil?: number;
}

/** When the mirror a schedule read came from was synced (ms), or null for other routes and answers without that meta. */
export function sourceSyncedAtOf(route: ClinicApiRoute, data: unknown): number | null {
  if (!STALENESS_ROUTES.has(route)) return null;
  const parsed = z.safeParse(stalenessMeta, data);
  return parsed.success ? Date.parse(parsed.data.meta.sourceSyncedAt) : null;
}

/**
 * The one staleness bound of a schedule read (DESIGN.md "Upstream"): the
 * instant its mirror's sync plus `maxStalenessSeconds` passes, or null for a
 * strong read or one with no staleness allowed. `cacheExpiry` keeps answers
 * by it; a caller combining a read with others bounds them by it (ADR 0020).
 */
export function staleAt(meta: { sourceSyncedAt: string; maxStalenessSeconds: number; strongConsistency?: boolean | undefined }): number | null {
  if (meta.strongConsistency === true || meta.maxStalenessSeconds <= 0) return null;
  return Date.parse(meta.sourceSyncedAt) + meta.maxStalenessSeconds * 1000;
}

/** The client-clock instant the answer stops being usable, or null when it must not be cached. */
export function cacheExpiry({ route, data, strong, requestStartedAt, now, pickerTtlMs, cacheUntil }: CachePolicyInput): number | null {
  if (strong) return null;
  if (PICKER_ROUTES.has(route)) return pickerTtlMs > 0 ? now + pickerTtlMs : null;
  if (CALLER_BOUNDED_ROUTES.has(route)) return cacheUntil !== undefined && cacheUntil > now ? cacheUntil : null;
  if (!STALENESS_ROUTES.has(route)) return null;
  const parsed = z.safeParse(stalenessMeta, data);
  if (!parsed.success) return null;
  const bound = staleAt(parsed.data.meta);
  if (bound === null) return null;
  const { generatedAt } = parsed.data.meta;
  let expiresAt = bound;
  // With the service's own "now" (`generatedAt`), the remaining lifetime is
  // also measured on its clock and counted from when we asked, so a client
  // clock running behind the service's cannot stretch it.
  if (generatedAt !== undefined) expiresAt = Math.min(expiresAt, requestStartedAt + (bound - Date.parse(generatedAt)));
  return expiresAt > now ? expiresAt : null;
}
