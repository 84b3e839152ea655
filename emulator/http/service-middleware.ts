import { randomBytes } from "node:crypto";
import { IncomingMessage } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import { isRawUuid } from "#contract/ids.ts";
import type { ServiceState } from "../service/service-state.ts";
import { DATA_KEYS, type DataKey } from "../world/identities.ts";
import type { FaultRegistry } from "./faults.ts";
import type { ServiceEnv } from "./env.ts";
import type { RateLimiter, RateLimitState } from "./rate-limiter.ts";
import { ServiceError } from "./service-error.ts";

// The request pipeline of every data endpoint (seed 001 "Common rules",
// "Authentication", "Errors", "Limits"): key, organization header,
// installation, rate limit, injected faults.

export const newTraceId = () => `trc_${randomBytes(12).toString("hex")}`;

export function errorResponse(c: Context, error: ServiceError) {
  const traceId = (c.get("traceId") as string | undefined) ?? newTraceId();
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return c.json({ code: error.code, message: error.message, trace_id: traceId }, error.status as 400);
}

export const assignTraceId: MiddlewareHandler<ServiceEnv> = async (c, next) => {
  c.set("traceId", newTraceId());
  await next();
};

export type DataKeyCheck = { kind: "ok"; dataKey: DataKey } | { kind: "missing" | "refused"; message: string };

/** The data key of an `Authorization` header: missing, malformed (no `Bearer `), unknown or revoked ones are refused. */
export function checkDataKey(header: string | undefined): DataKeyCheck {
  if (!header) return { kind: "missing", message: "Authorization header is required: Bearer <API_KEY>" };
  if (!header.startsWith("Bearer ")) return { kind: "refused", message: "Authorization header is malformed: it must start with 'Bearer '" };
  const presented = header.slice("Bearer ".length).trim();
  const dataKey = DATA_KEYS.find((candidate) => candidate.key === presented);
  if (!dataKey) return { kind: "refused", message: "API key is invalid" };
  if (dataKey.revoked) return { kind: "refused", message: "API key has been revoked" };
  return { kind: "ok", dataKey };
}

/** 401 `unauthorized` for a missing, malformed, unknown or revoked key. */
export const authenticateKey: MiddlewareHandler<ServiceEnv> = async (c, next) => {
  const check = checkDataKey(c.req.header("authorization"));
  if (check.kind !== "ok") throw ServiceError.of("unauthorized", check.message);
  c.set("dataKey", check.dataKey);
  await next();
};

/** `X-Organization-Id` must be a raw UUID of an organization with an active installation. */
export function resolveOrganization(state: ServiceState): MiddlewareHandler<ServiceEnv> {
  return async (c, next) => {
    const organizationId = c.req.header("x-organization-id");
    if (!organizationId) throw ServiceError.of("bad_request", "X-Organization-Id header is required");
    if (!isRawUuid(organizationId)) throw ServiceError.of("bad_request", "X-Organization-Id must be a valid UUID");
    const org = state.org(organizationId);
    if (!org) throw ServiceError.of("forbidden", "The organization has not installed this app");
    if (org.installation.status !== "active") {
      throw ServiceError.of("forbidden", `The organization's installation of this app is ${org.installation.status}; requests for it are rejected`);
    }
    c.set("org", org);
    await next();
  };
}

function rateLimitHeaders(limit: RateLimitState): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(limit.limit),
    "X-RateLimit-Remaining": String(limit.remaining),
    "X-RateLimit-Reset": String(limit.resetAt),
  };
}

/** DESIGN.md: counted per key and organization (requests without one count per key). */
export function rateLimit(limiter: RateLimiter): MiddlewareHandler<ServiceEnv> {
  return async (c, next) => {
    const organizationId = c.req.header("x-organization-id");
    const limit = limiter.hit(`${c.get("dataKey").key}|${organizationId?.toLowerCase() ?? "-"}`);
    const headers = rateLimitHeaders(limit);
    if (limit.limited) {
      const { windowSeconds } = limiter.settings;
      const counted = organizationId === undefined ? "this key's calls without an organization (the code exchange, the installations list)" : "this key and organization";
      throw ServiceError.of("rate_limit_exceeded", `Rate limit exceeded: ${limit.limit} requests per ${windowSeconds} seconds for ${counted}`, {
        ...headers,
        "Retry-After": String(limit.retryAfterSeconds),
      });
    }
    await next();
    // An injected 429 carries its own rate-limit headers; keep them.
    if (c.res.status !== 429) for (const [name, value] of Object.entries(headers)) c.header(name, value);
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `delay` waits out a fault's latency: real time unless a test injects its own (ADR 0011). */
export function injectFaults(faults: FaultRegistry, limiterWindowSeconds: number, now: () => number, delay: (ms: number) => Promise<void> = sleep): MiddlewareHandler<ServiceEnv> {
  return async (c, next) => {
    const decision = faults.decide(c.req.method, c.req.path);
    if (decision.latencyMs > 0) await delay(decision.latencyMs);
    if (decision.error) {
      const { status, code } = decision.error;
      const headers: Record<string, string> = {};
      if (status === 429) {
        const resetAt = Math.ceil(now() / 1000) + limiterWindowSeconds;
        Object.assign(headers, { "X-RateLimit-Limit": "1000", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": String(resetAt), "Retry-After": "1" });
      }
      throw new ServiceError(status, code, `Injected fault: ${code}`, headers);
    }
    await next();
    // Acted, and the answer never leaves: only over a real connection (in-process calls have no socket and get the answer).
    if (decision.resetAfterAction && c.env && typeof c.env === "object" && "incoming" in c.env && c.env.incoming instanceof IncomingMessage) c.env.incoming.socket.destroy();
  };
}

/**
 * Effective permission = key scopes ∩ installation grants. The 403 names the
 * scope and says which side lacks it.
 */
export function requireScope(c: Context<ServiceEnv>, state: ServiceState, scope: string): void {
  if (!c.get("dataKey").scopes.includes(scope)) {
    throw ServiceError.of("forbidden", `Missing required scope ${scope}: the API key does not have it`);
  }
  const org = c.get("org");
  if (!state.grantedScopes(org).has(scope)) {
    throw ServiceError.of("forbidden", `Missing required scope ${scope}: the organization's installation did not grant it`);
  }
}

export const ok = <T>(c: Context, data: T) => c.json({ code: "success" as const, data });

/**
 * The same envelope, for a large `data` serialized once and sent many times:
 * `members` are its members but `meta`, as JSON (`"a":…,"b":…`), followed by
 * `meta`, which is made anew for each answer.
 */
export const okWithSerialized = (c: Context, members: string, meta: unknown) =>
  c.body(`{"code":"success","data":{${members},"meta":${JSON.stringify(meta)}}}`, 200, { "content-type": "application/json" });

/** `value`'s members as JSON, without the braces around them: for `okWithSerialized`. */
export const serializedMembers = (value: object) => JSON.stringify(value).slice(1, -1);
