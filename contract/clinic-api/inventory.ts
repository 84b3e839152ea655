import * as z from "zod/mini";
import { localDate, utcTimestamp } from "./primitives.ts";

// Seed 000 "Inventory product", "Inventory change", "Inventory change item".

export const inventoryProduct = z.object({
  id: z.string(),
  gtin: z.string(),
  additionalGtins: z.array(z.string()),
  customBarcode: z.nullable(z.string()),
  ndc: z.string(),
  name: z.string(),
  manufacturer: z.string(),
  description: z.string(),
  type: z.string(),
  unitOfMeasure: z.string(),
  quantityPerUnit: z.number(),
  /** Shape not shown. */
  metadata: z.nullable(z.looseObject({})),
  archivedAt: z.nullable(utcTimestamp),
  createdAt: utcTimestamp,
  updatedAt: utcTimestamp,
});
export type InventoryProduct = z.infer<typeof inventoryProduct>;

export const inventoryChange = z.object({
  id: z.string(),
  facilityId: z.string(),
  name: z.string(),
  type: z.string(),
  status: z.string(),
  notes: z.nullable(z.string()),
  closedAt: utcTimestamp,
  createdAt: utcTimestamp,
  updatedAt: utcTimestamp,
  itemCount: z.int().check(z.nonnegative()),
});
export type InventoryChange = z.infer<typeof inventoryChange>;

export const inventoryChangeItem = z.object({
  id: z.string(),
  changeId: z.string(),
  productId: z.string(),
  scanSourceType: z.string(),
  rawBarcode: z.string(),
  gtin: z.string(),
  lotNumber: z.string(),
  expirationDate: localDate,
  serialNumber: z.nullable(z.string()),
  quantity: z.int(),
  /** Barcode application identifiers (e.g. "01", "17", "10"; GS1 AIs have 2 to 4 digits) to their values. */
  parsedFields: z.record(z.string().check(z.regex(/^\d{2,4}$/, "must be a GS1 application identifier (2 to 4 digits)")), z.string()),
  notes: z.nullable(z.string()),
  createdAt: utcTimestamp,
  productName: z.string(),
});
export type InventoryChangeItem = z.infer<typeof inventoryChangeItem>;
