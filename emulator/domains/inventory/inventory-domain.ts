import type { DomainDeps, EmulatorDomain } from "../domain.ts";
import { generateInventory } from "./generate-inventory.ts";
import { registerInventoryRoutes } from "./inventory-routes.ts";
import { registerInventorySandbox } from "./inventory-sandbox.ts";
import { InventoryStore } from "./inventory-store.ts";

// Inventory (seed 001 "Inventory"): seeded products and changes per
// organization, the four read endpoints, a sandbox picker. It emits no
// events (the seeds define none for inventory).

export function createInventoryDomain({ state, seed }: DomainDeps): EmulatorDomain {
  // Generated from the world as seeded: `reset()` runs after the state has reloaded it.
  const store = new InventoryStore(() => generateInventory({ seed, now: state.seededAt(), organizations: state.organizations().map((org) => org.ehr) }));
  return {
    name: "inventory",
    registerRoutes: (service) => registerInventoryRoutes(service, store),
    registerSandbox: (sandbox) => registerInventorySandbox(sandbox, state, store),
    reset: () => store.reset(),
  };
}
