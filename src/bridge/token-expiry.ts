import * as z from "zod/mini";

const claims = z.object({ exp: z.number() });

/** The host token's `exp` (epoch ms), read without verifying: only to schedule a refresh (the BFF verifies). */
export function tokenExpiresAt(token: string): number | null {
  const payload = token.split(".")[1];
  if (!payload) return null;
  try {
    const json: unknown = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/")));
    const parsed = z.safeParse(claims, json);
    return parsed.success ? parsed.data.exp * 1000 : null;
  } catch {
    return null;
  }
}
