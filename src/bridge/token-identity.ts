import * as z from "zod/mini";
import type { CacheIdentity } from "../api/cache-identity.ts";
import { unverifiedPayload } from "./token-payload.ts";

const claims = z.object({ org_id: z.string(), sub: z.string() });

/**
 * Whose data a host token reads (`org_id`, `sub`), read without verifying: only to key the cache by
 * (ADR 0025; the BFF verifies, and answers for the token's identity whatever this says). Null when unreadable.
 */
export function cacheIdentityOfHostToken(token: string): CacheIdentity | null {
  const parsed = z.safeParse(claims, unverifiedPayload(token));
  return parsed.success ? { organizationId: parsed.data.org_id, userId: parsed.data.sub } : null;
}
