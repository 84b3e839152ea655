import type { Hono } from "hono";
import { lastSlotSearchPutRequest, type LastSlotSearchResponse } from "#contract/app-api/last-slot-search.ts";
import type { AppEnv } from "../http/app-env.ts";
import { parseJsonBody } from "../http/validate.ts";
import type { Store } from "../store/store.ts";

// GET, PUT and DELETE /api/slots/last-search (issue 36 item 8): the user's last slot
// search, so a reload of the whole EHR page (which opens Tandem's frame at its
// start address, with no storage of its own in a cross-site frame) opens the
// slot finder on the same search. One row per organization and user, both
// from the verified session (host token or standalone sign-in), never the
// body. The search is filters only (ids, dates, values; no patient data), so
// neither call is an access to audit. The SPA checks what it reads back as it
// checks a link (src/scheduling/slot-search-params.ts).

export interface LastSlotSearchRouteDeps {
  store: Pick<Store, "lastSlotSearches">;
  now: () => number;
}

export function registerLastSlotSearchRoutes(api: Hono<AppEnv>, { store, now }: LastSlotSearchRouteDeps): void {
  api.get("/slots/last-search", async (c) => {
    const { organizationId, userId } = c.get("session");
    const kept = await store.lastSlotSearches.get(organizationId, userId);
    return c.json({ search: kept?.search ?? null, savedAt: kept ? new Date(kept.savedAt).toISOString() : null } satisfies LastSlotSearchResponse);
  });

  api.put("/slots/last-search", async (c) => {
    const { search } = await parseJsonBody(c, lastSlotSearchPutRequest);
    const { organizationId, userId } = c.get("session");
    const savedAt = now();
    await store.lastSlotSearches.put({ organizationId, userId, search, savedAt });
    return c.json({ search, savedAt: new Date(savedAt).toISOString() } satisfies LastSlotSearchResponse);
  });

  // Forgets it: the slot finder then opens on the defaults.
  api.delete("/slots/last-search", async (c) => {
    const { organizationId, userId } = c.get("session");
    await store.lastSlotSearches.delete(organizationId, userId);
    return c.json({ search: null, savedAt: null } satisfies LastSlotSearchResponse);
  });
}
