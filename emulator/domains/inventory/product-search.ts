import type { InventoryProduct } from "#contract/clinic-api/inventory.ts";
import { toGtin14 } from "./gs1-check-digit.ts";
import { ndc11, ndcDigits, ndcSearchKeys } from "./ndc.ts";

// The product list's `search` (an assumed name): a product matches when the
// text is part of its name (any case), or is one of its identifiers: a GTIN
// (primary or additional; GTIN-8, -12, -13 or -14, compared as 14 digits),
// its NDC (with or without dashes, 10- or 11-digit form), or its custom
// barcode (any case). Identifiers match whole, never in part.

/** At most this many products are answered (the list has no pagination); the first by name. */
export const PRODUCT_LIST_CAP = 100;

function ndcKeysOf(product: InventoryProduct): string[] {
  return product.ndc === "" ? [] : [ndcDigits(product.ndc), ndc11(product.ndc)];
}

export function matchesSearch(product: InventoryProduct, search: string): boolean {
  const text = search.trim();
  if (text === "") return true;
  const lower = text.toLowerCase();
  if (product.name.toLowerCase().includes(lower)) return true;
  if (product.customBarcode !== null && product.customBarcode.toLowerCase() === lower) return true;
  const gtin = toGtin14(text);
  if (gtin !== null && (product.gtin === gtin || product.additionalGtins.includes(gtin))) return true;
  const ndcKeys = ndcKeysOf(product);
  return ndcSearchKeys(text).some((key) => ndcKeys.includes(key));
}

const byName = (a: InventoryProduct, b: InventoryProduct) => {
  const left = a.name.toLowerCase();
  const right = b.name.toLowerCase();
  return left < right ? -1 : left > right ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
};

/** The products the list answers: not archived, matching `search`, ordered by name (then id), at most the cap. */
export function listProducts(products: readonly InventoryProduct[], search: string | undefined): InventoryProduct[] {
  return products
    .filter((product) => product.archivedAt === null && (search === undefined || matchesSearch(product, search)))
    .sort(byName)
    .slice(0, PRODUCT_LIST_CAP);
}
