import type { InventoryChangeItem, InventoryProduct } from "#contract/clinic-api/inventory.ts";
import { utcTimestamp } from "../../seed/format.ts";
import type { Random } from "../../seed/random.ts";
import { gs1Date, gs1DateToIso } from "./gs1-date.ts";
import { parseGs1ElementString, writeGs1ElementString } from "./gs1-element-string.ts";
import type { CatalogProduct } from "./product-catalog.ts";

// One scanned line of an inventory change: the pack's GS1 barcode (GTIN,
// expiry, lot, a serial on serialized drugs, sometimes a production date),
// written as the scanner transmits it, then parsed back into the item's
// fields, so the fields always agree with `rawBarcode`.

export type ChangeType = "receiving" | "adjustment" | "waste" | "count";

/** How the line was captured. The seeds show no values; these are the emulator's (an open set). */
const SCAN_SOURCES = [
  ["scanner", 0.65],
  ["camera", 0.2],
  ["manual", 0.15],
] as const;

/** The orders AIs come in on real packs; variable-length 10 and 21 are the ones that need separators. */
const SERIALIZED_LAYOUTS: readonly (readonly string[])[] = [
  ["01", "17", "10", "21"],
  ["01", "21", "17", "10"],
  ["01", "17", "21", "10"],
  ["01", "10", "17", "21"],
];
const LAYOUTS: readonly (readonly string[])[] = [
  ["01", "17", "10"],
  ["01", "10", "17"],
];

const LOT_LETTERS = [..."ABCDEFGHJKLMNPRSTUVWXYZ"];
const SERIAL_CHARACTERS = [..."0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"];

const ITEM_NOTES: Record<ChangeType, readonly string[]> = {
  receiving: ["Outer carton dented; contents intact.", "Short-dated: use first.", "Packing slip quantity differs; supplier notified.", "Data logger in range (3.9-5.2 °C)."],
  adjustment: ["Vial dropped and broken.", "Found in procedure room 2.", "Pharma rep sample added to stock."],
  waste: ["Expired on the shelf.", "Multi-dose vial opened more than 28 days ago.", "Refrigerator read 11 °C overnight."],
  count: ["Count confirmed by a second person.", "Partial box counted as one."],
};

function lotNumber(random: Random, pattern: string): string {
  return [...pattern].map((symbol) => (symbol === "A" ? random.pick(LOT_LETTERS) : symbol === "N" ? String(random.int(0, 9)) : symbol)).join("");
}

function serialNumber(random: Random): string {
  if (random.chance(0.5)) return random.digits(12);
  return Array.from({ length: 10 }, () => random.pick(SERIAL_CHARACTERS)).join("");
}

/** A month as one number (year × 12 + month − 1), so months add and subtract. */
const monthIndexOf = (epochMs: number) => new Date(epochMs).getUTCFullYear() * 12 + new Date(epochMs).getUTCMonth();
const yearOf = (monthIndex: number) => Math.floor(monthIndex / 12);
const monthOf = (monthIndex: number) => (monthIndex % 12) + 1;

/** The month a pack seen at `seenAt` expires in, by its shelf life. */
function expiryMonth(random: Random, entry: CatalogProduct, type: ChangeType, seenAt: number): number {
  // Waste is expired stock: an expiry in a month before the change.
  if (type === "waste") return monthIndexOf(seenAt) - random.int(1, 3);
  const shelfLife = random.int(entry.shelfLifeMonths[0], entry.shelfLifeMonths[1]);
  // Stock that is counted or adjusted has been on the shelf a while.
  return monthIndexOf(seenAt) + Math.max(1, type === "receiving" ? shelfLife : shelfLife - random.int(0, 5));
}

function quantity(random: Random, type: ChangeType): number {
  switch (type) {
    case "receiving":
      return random.int(1, 6);
    case "waste":
      return random.int(1, 3);
    case "adjustment":
      // Adjustments go both ways; the other types count what came in, went out, or is on the shelf.
      return random.chance(0.6) ? -random.int(1, 3) : random.int(1, 3);
    case "count":
      return random.int(0, 24);
  }
}

export interface ItemGeneration {
  changeId: string;
  type: ChangeType;
  product: InventoryProduct;
  entry: CatalogProduct;
  createdAt: number;
  /** The year GS1 dates are read against (the seed clock's year). */
  referenceYear: number;
}

export function generateChangeItem(random: Random, { changeId, type, product, entry, createdAt, referenceYear }: ItemGeneration): InventoryChangeItem {
  const serial = entry.serialized && random.chance(0.85) ? serialNumber(random) : null;
  // Receiving sometimes scans the shipper case, which carries the case-level GTIN.
  const gtin = type === "receiving" && product.additionalGtins.length > 0 && random.chance(0.2) ? random.pick(product.additionalGtins) : product.gtin;
  const expiresIn = expiryMonth(random, entry, type, createdAt);
  // A quarter of labels print a month-only expiry (day 00).
  const expiry = gs1Date(yearOf(expiresIn), monthOf(expiresIn), random.chance(0.25) ? 0 : random.int(1, 28));
  const values: Record<string, string> = { "01": gtin, "17": expiry, "10": lotNumber(random, entry.lotPattern) };
  if (serial !== null) values["21"] = serial;
  const layout: string[] = [...random.pick(serial === null ? LAYOUTS : SERIALIZED_LAYOUTS)];
  // Devices often print a production date (AI 11) after the GTIN: their shelf life before the expiry.
  if (entry.ndc === null && random.chance(0.3)) {
    const producedIn = expiresIn - entry.shelfLifeMonths[1];
    values["11"] = gs1Date(yearOf(producedIn), monthOf(producedIn), random.int(1, 28));
    layout.splice(1, 0, "11");
  }
  const rawBarcode = writeGs1ElementString(layout.map((ai) => [ai, values[ai] ?? ""] as const));
  const parsedFields = parseGs1ElementString(rawBarcode, referenceYear);
  const expirationDate = gs1DateToIso(parsedFields["17"] ?? "", referenceYear);
  const parsedGtin = parsedFields["01"];
  const parsedLot = parsedFields["10"];
  if (expirationDate === null || parsedGtin === undefined || parsedLot === undefined) throw new Error(`generated barcode lacks AI 01, 10 or 17: ${rawBarcode}`);
  return {
    id: random.uuid(),
    changeId,
    productId: product.id,
    scanSourceType: random.weighted(SCAN_SOURCES),
    rawBarcode,
    gtin: parsedGtin,
    lotNumber: parsedLot,
    expirationDate,
    serialNumber: parsedFields["21"] ?? null,
    quantity: quantity(random, type),
    parsedFields,
    notes: random.chance(0.12) ? random.pick(ITEM_NOTES[type]) : null,
    createdAt: utcTimestamp(createdAt),
    productName: product.name,
  };
}
