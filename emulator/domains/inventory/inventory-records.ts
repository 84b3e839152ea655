import type { InventoryChange, InventoryChangeItem, InventoryProduct } from "#contract/clinic-api/inventory.ts";

// What the inventory domain holds per organization: the products (archived
// ones too), and each facility's changes with their items, as served.

export interface ChangeRecord {
  change: InventoryChange;
  items: InventoryChangeItem[];
}

export interface OrgInventory {
  /** Every product, archived ones included, in catalog order. */
  products: InventoryProduct[];
  productsById: Map<string, InventoryProduct>;
  changesById: Map<string, ChangeRecord>;
}
