import type { ChangeRecord, OrgInventory } from "./inventory-records.ts";

// The inventory of every organization, regenerated from the seed on reset.
// Read-only otherwise: nothing in the service writes inventory.

const EMPTY: OrgInventory = { products: [], productsById: new Map(), changesById: new Map() };

export class InventoryStore {
  private byOrganization = new Map<string, OrgInventory>();

  constructor(private readonly generate: () => Map<string, OrgInventory>) {
    this.reset();
  }

  reset(): void {
    this.byOrganization = this.generate();
  }

  of(organizationId: string): OrgInventory {
    return this.byOrganization.get(organizationId.toLowerCase()) ?? EMPTY;
  }

  /** Every change of an organization, newest first. */
  changes(organizationId: string): ChangeRecord[] {
    return [...this.of(organizationId).changesById.values()].sort((a, b) => (a.change.createdAt < b.change.createdAt ? 1 : a.change.createdAt > b.change.createdAt ? -1 : 0));
  }
}
