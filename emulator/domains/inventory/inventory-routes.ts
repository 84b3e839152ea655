import * as z from "zod/mini";
import { inventoryChange, inventoryChangeItem, inventoryProduct } from "#contract/clinic-api/inventory.ts";
import { inventoryChangeQuery, productsQuery } from "#contract/clinic-api/queries.ts";
import { isPrefixedId, isRawUuid, toRawUuid } from "#contract/ids.ts";
import { badRequest, notFound } from "../../http/service-error.ts";
import { ok } from "../../http/service-middleware.ts";
import { parseQuery } from "../../http/validate.ts";
import type { ServiceApp } from "../../routes/route-deps.ts";
import { parseV1Id } from "../../routes/path-ids.ts";
import type { InventoryStore } from "./inventory-store.ts";
import { listProducts } from "./product-search.ts";

// Seed 001 "Inventory": the product list (`search`, no pagination object), a
// product, a change (its facility required), a change's items. The seeds
// show no scope for these: an active installation is enough (the pipeline
// checks it). v1 ids are UUIDs.

/** A facility as v1 takes it: a raw UUID (a `fac_` id is accepted too, as the other v1 facility filters do). */
function facilityIdOf(value: string): string {
  if (!isRawUuid(value) && !isPrefixedId(value, "fac")) throw badRequest("facilityId: must be a UUID or a fac_ id");
  return toRawUuid(value);
}

export function registerInventoryRoutes(app: ServiceApp, store: InventoryStore): void {
  app.get("/v1/inventory/products", (c) => {
    const query = parseQuery(c, productsQuery);
    const products = listProducts(store.of(c.get("org").ehr.id).products, query.search);
    return ok(c, { products: products.map((product) => z.parse(inventoryProduct, product)) });
  });

  app.get("/v1/inventory/products/:id", (c) => {
    const id = parseV1Id(c.req.param("id"), "id");
    // Archived products are still served by id (with `archivedAt`): old changes name them.
    const product = store.of(c.get("org").ehr.id).productsById.get(id);
    if (!product) throw notFound(`Inventory product ${id} not found`);
    return ok(c, { product: z.parse(inventoryProduct, product) });
  });

  app.get("/v1/inventory/changes/:id", (c) => {
    const id = parseV1Id(c.req.param("id"), "id");
    const facilityId = facilityIdOf(parseQuery(c, inventoryChangeQuery).facilityId);
    const record = store.of(c.get("org").ehr.id).changesById.get(id);
    // A change of another facility is answered as if it did not exist.
    if (!record || record.change.facilityId !== facilityId) throw notFound(`Inventory change ${id} not found at facility ${facilityId}`);
    return ok(c, { change: z.parse(inventoryChange, record.change) });
  });

  app.get("/v1/inventory/changes/:id/products", (c) => {
    const id = parseV1Id(c.req.param("id"), "id");
    const record = store.of(c.get("org").ehr.id).changesById.get(id);
    if (!record) throw notFound(`Inventory change ${id} not found`);
    return ok(c, { items: record.items.map((item) => z.parse(inventoryChangeItem, item)) });
  });
}
