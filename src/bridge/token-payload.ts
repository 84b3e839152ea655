/** A JWT's payload, parsed but not verified (the BFF verifies): for what the SPA only schedules or keys by. Null when unreadable. */
export function unverifiedPayload(token: string): unknown {
  const payload = token.split(".")[1];
  if (!payload) return null;
  try {
    return JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/"))) as unknown;
  } catch {
    return null;
  }
}
