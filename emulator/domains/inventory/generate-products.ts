import type { InventoryProduct } from "#contract/clinic-api/inventory.ts";
import { MS_PER_DAY, utcTimestamp } from "../../seed/format.ts";
import type { Practice } from "../../seed/clinical-catalog.ts";
import type { Random } from "../../seed/random.ts";
import { withCheckDigit } from "./gs1-check-digit.ts";
import { gtinOfNdc } from "./ndc.ts";
import { PRODUCT_CATALOG, type CatalogProduct } from "./product-catalog.ts";

// An organization's inventory products, from the catalog entries its
// practices stock: GTINs from the NDC (drugs) or the catalog (devices), case
// GTINs as additional ones, a clinic label on some, metadata on about half,
// and the catalog's archived products archived.

const TEMPERATURE_RANGES = {
  refrigerated: { minCelsius: 2, maxCelsius: 8 },
  frozen: { minCelsius: -50, maxCelsius: -15 },
  room_temperature: { minCelsius: 20, maxCelsius: 25 },
} as const;

function gtinAt(entry: CatalogProduct, indicator: number): string {
  if (entry.ndc !== null) return gtinOfNdc(entry.ndc, indicator);
  if (entry.gtinBody === undefined || !/^0\d{12}$/.test(entry.gtinBody)) throw new Error(`catalog product ${entry.key} needs an NDC or a 13-digit GTIN body`);
  return withCheckDigit(`${indicator}${entry.gtinBody.slice(1)}`);
}

/** The shape of `metadata` is not shown by the seeds: an open object of what a clinic's inventory system keeps. */
function metadataOf(random: Random, entry: CatalogProduct): Record<string, unknown> | null {
  if (random.chance(0.5)) return null;
  const reorderPoint = random.int(1, 6);
  const metadata: Record<string, unknown> = {
    storage: entry.storage,
    temperatureRange: TEMPERATURE_RANGES[entry.storage],
    reorderPoint,
    parLevel: reorderPoint * random.int(2, 4),
    lotTracked: true,
  };
  if (random.chance(0.5)) metadata.supplierItemNumber = random.digits(7);
  if (entry.type === "vaccine") metadata.vfcEligible = random.chance(0.5);
  if (entry.storage !== "room_temperature") metadata.coldChain = true;
  return metadata;
}

/** `RHP` for Riverside Health Partners: the prefix of the clinic's own shelf labels. */
export function labelPrefix(organizationName: string): string {
  return organizationName
    .split(/\s+/)
    .map((word) => word.replace(/[^A-Za-z]/g, "").charAt(0).toUpperCase())
    .join("");
}

export interface ProductGeneration {
  organizationName: string;
  practices: ReadonlySet<Practice>;
  now: number;
}

/** A product as served, with the catalog entry it came from (its shelf life, lot layout…). */
export interface GeneratedProduct {
  product: InventoryProduct;
  entry: CatalogProduct;
  /** Whole days before the seed's clock it was created (and archived): what changes compare, so that the hour the emulator starts at changes nothing. */
  createdDaysAgo: number;
  archivedDaysAgo: number | null;
}

export function generateProducts(random: Random, { organizationName, practices, now }: ProductGeneration): GeneratedProduct[] {
  const prefix = labelPrefix(organizationName);
  const entries = PRODUCT_CATALOG.filter((entry) => entry.practices.some((practice) => practices.has(practice)));
  return entries.map((entry, index) => {
    const archivedDaysAgo = entry.archivedDaysAgo ?? null;
    const archivedAt = archivedDaysAgo === null ? null : now - archivedDaysAgo * MS_PER_DAY - random.int(0, 86_399) * 1000;
    const createdDaysAgo = (archivedDaysAgo ?? 0) + random.int(150, 1200);
    const createdAt = now - createdDaysAgo * MS_PER_DAY - random.int(0, 86_399) * 1000;
    const updatedAt = archivedAt ?? Math.max(createdAt, Math.min(now - random.int(1, 90) * MS_PER_DAY, createdAt + random.int(0, 600) * MS_PER_DAY));
    const product: InventoryProduct = {
      id: random.uuid(),
      gtin: gtinAt(entry, 0),
      additionalGtins: entry.caseIndicators.map((indicator) => gtinAt(entry, indicator)),
      customBarcode: random.chance(0.3) ? `${prefix}-${String(index + 1).padStart(4, "0")}` : null,
      // The seeds give `ndc` as a string, not nullable: devices and supplies have none, so it is empty.
      ndc: entry.ndc ?? "",
      name: entry.name,
      manufacturer: entry.manufacturer,
      description: entry.description,
      type: entry.type,
      unitOfMeasure: entry.unitOfMeasure,
      quantityPerUnit: entry.quantityPerUnit,
      metadata: metadataOf(random, entry),
      archivedAt: archivedAt === null ? null : utcTimestamp(archivedAt),
      createdAt: utcTimestamp(createdAt),
      updatedAt: utcTimestamp(updatedAt),
    };
    return { product, entry, createdDaysAgo, archivedDaysAgo };
  });
}
