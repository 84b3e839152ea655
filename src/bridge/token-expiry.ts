import * as z from "zod/mini";
import { unverifiedPayload } from "./token-payload.ts";

const claims = z.object({ exp: z.number(), iat: z.optional(z.number()) });

/**
 * When a host token runs out on this browser's clock (epoch ms), read without verifying: only to schedule a
 * refresh (the BFF verifies). Its lifetime (`exp` - `iat`) from when it arrived, since the workstation's clock
 * may be minutes off the EHR's (ahead, every token would look spent and be asked for again each second); `exp`
 * as written for a token without `iat`.
 */
export function tokenExpiresAt(token: string, receivedAtMs: number): number | null {
  const parsed = z.safeParse(claims, unverifiedPayload(token));
  if (!parsed.success) return null;
  const { exp, iat } = parsed.data;
  return iat === undefined ? exp * 1000 : receivedAtMs + (exp - iat) * 1000;
}
