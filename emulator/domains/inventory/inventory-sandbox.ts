import type { Hono } from "hono";
import type { ServiceState } from "../../service/service-state.ts";
import type { InventoryStore } from "./inventory-store.ts";

// `GET /_sandbox/ehr/{organizationId}/inventory`: what a picker needs, since
// the service has no list of changes and its product list leaves archived
// products out. Plain JSON, no envelope.

export function registerInventorySandbox(sandbox: Hono, state: ServiceState, store: InventoryStore): void {
  sandbox.get("/ehr/:organizationId/inventory", (c) => {
    const organizationId = c.req.param("organizationId");
    const org = state.org(organizationId);
    if (!org) return c.json({ code: "not_found", message: `unknown organization ${organizationId}` }, 404);
    const facilityNames = new Map(org.ehr.facilities.map((facility) => [facility.id, facility.name]));
    return c.json({
      products: store.of(org.ehr.id).products.map(({ id, name, gtin, archivedAt }) => ({ id, name, gtin, archivedAt })),
      changes: store.changes(org.ehr.id).map(({ change }) => ({
        id: change.id,
        facilityId: change.facilityId,
        facilityName: facilityNames.get(change.facilityId) ?? null,
        name: change.name,
        type: change.type,
        status: change.status,
        createdAt: change.createdAt,
        itemCount: change.itemCount,
      })),
    });
  });
}
