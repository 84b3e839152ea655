import type { Facility } from "#contract/clinic-api/people.ts";
import type { Practice } from "../../seed/clinical-catalog.ts";
import { randomFor } from "../../seed/random.ts";
import type { EhrOrganization } from "../../world/types.ts";
import { generateChanges } from "./generate-changes.ts";
import { generateProducts } from "./generate-products.ts";
import type { ChangeRecord, OrgInventory } from "./inventory-records.ts";

// Every organization's inventory, from the emulator's seed and the seeded
// world's organizations and facilities, dated relative to the instant the
// world was generated. Same seed and instant, same inventory.

export interface InventoryGeneration {
  seed: number;
  /** When the world was seeded (`ServiceState.seededAt()`). */
  now: number;
  organizations: readonly EhrOrganization[];
}

function practiceOf(facility: Facility): Practice {
  return /dermatolog/i.test(facility.specialty) ? "dermatology" : "primary";
}

function generateOrganization(seed: number, now: number, organization: EhrOrganization): OrgInventory {
  // One stream per part, so the products stay as they are when a facility is added.
  const practices = new Set(organization.facilities.map(practiceOf));
  const generated = generateProducts(randomFor(seed, organization.id, "inventory", "products"), { organizationName: organization.name, practices, now });
  const referenceYear = new Date(now).getUTCFullYear();
  const changes: ChangeRecord[] = organization.facilities.flatMap((facility) =>
    generateChanges(randomFor(seed, organization.id, "inventory", "changes", facility.id), { facility, practice: practiceOf(facility), products: generated, now, referenceYear }),
  );
  const products = generated.map(({ product }) => product);
  return {
    products,
    productsById: new Map(products.map((product) => [product.id, product])),
    changesById: new Map(changes.map((record) => [record.change.id, record])),
  };
}

export function generateInventory({ seed, now, organizations }: InventoryGeneration): Map<string, OrgInventory> {
  return new Map(organizations.map((organization) => [organization.id, generateOrganization(seed, now, organization)]));
}
