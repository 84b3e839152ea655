import * as z from "zod/mini";
import { unverifiedPayload } from "./token-payload.ts";

const claims = z.object({ exp: z.number() });

/** The host token's `exp` (epoch ms), read without verifying: only to schedule a refresh (the BFF verifies). */
export function tokenExpiresAt(token: string): number | null {
  const parsed = z.safeParse(claims, unverifiedPayload(token));
  return parsed.success ? parsed.data.exp * 1000 : null;
}
