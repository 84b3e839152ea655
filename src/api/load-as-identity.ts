import { currentCacheIdentity, sameIdentity } from "./cache-identity.ts";

/**
 * Runs a route loader's reads. One that failed because another organization or
 * user signed in meanwhile (its read cancelled, or its answer dropped: ADR 0025)
 * is not the route's error: the router loads again for the new identity
 * (main.tsx), and nothing of the previous one is shown meanwhile.
 */
export async function loadAsCurrentIdentity(load: () => Promise<void>): Promise<void> {
  const identity = currentCacheIdentity();
  try {
    await load();
  } catch (error) {
    if (!sameIdentity(identity, currentCacheIdentity())) return;
    throw error;
  }
}
