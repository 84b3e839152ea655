import { beforeAll, describe, expect, it } from "vitest";
import type { InventoryProduct } from "#contract/clinic-api/inventory.ts";
import { createTestEmulator, ERAS_ONLY_KEY, type TestEmulator } from "../../testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID, ORG_C_ID } from "../../world/identities.ts";
import { isValidGtin } from "./gs1-check-digit.ts";
import { inventoryPickerOf, type InventoryPicker } from "./testing/inventory-picker.ts";
import { ndc11, ndcDigits } from "./ndc.ts";

// Seed 001 "Inventory": GET /v1/inventory/products (the assumed `search`; no
// pagination object) and GET /v1/inventory/products/{id}. Every answer is
// parsed with the contract by the test client.

let test: TestEmulator;
let picker: InventoryPicker;
let listed: InventoryProduct[];

const search = async (text: string) => (await test.get("GET /v1/inventory/products", { query: { search: text } })).products;
const names = (products: readonly InventoryProduct[]) => products.map((product) => product.name);

function listedWhere(predicate: (product: InventoryProduct) => boolean): InventoryProduct {
  const product = listed.find(predicate);
  if (!product) throw new Error("the seed lacks a product for this test");
  return product;
}

beforeAll(async () => {
  test = createTestEmulator();
  picker = await inventoryPickerOf(test, ORG_A_ID);
  listed = (await test.get("GET /v1/inventory/products")).products;
});

describe("GET /v1/inventory/products", () => {
  it("answers data.products and no pagination object", async () => {
    const result = await test.call("GET /v1/inventory/products");
    expect(result.status).toBe(200);
    expect(Object.keys(result.data ?? {})).toEqual(["products"]);
  });

  it("lists every product that is not archived, ordered by name, within the cap of 100", () => {
    const active = picker.products.filter((product) => product.archivedAt === null);
    expect(listed.length).toBe(active.length);
    expect(listed.length).toBeGreaterThan(30);
    expect(listed.length).toBeLessThanOrEqual(100);
    expect(listed.every((product) => product.archivedAt === null)).toBe(true);
    const lowerNames = names(listed).map((name) => name.toLowerCase());
    expect(lowerNames).toEqual([...lowerNames].sort());
  });

  it("carries realistic identifiers: valid GTIN-14s, NDCs on drugs, some custom barcodes, metadata null or an object", () => {
    for (const product of listed) {
      expect(product.gtin).toMatch(/^\d{14}$/);
      expect(isValidGtin(product.gtin)).toBe(true);
      for (const gtin of product.additionalGtins) expect(isValidGtin(gtin) && gtin !== product.gtin).toBe(true);
      if (product.ndc !== "") expect(product.gtin.slice(3, 13)).toBe(ndcDigits(product.ndc));
    }
    expect(listed.some((product) => product.ndc === "")).toBe(true);
    expect(listed.some((product) => product.additionalGtins.length > 0)).toBe(true);
    expect(listed.some((product) => product.customBarcode !== null)).toBe(true);
    expect(listed.some((product) => product.metadata === null)).toBe(true);
    expect(listed.some((product) => product.metadata !== null && typeof product.metadata === "object")).toBe(true);
  });

  it("searches the name as a case-insensitive substring", async () => {
    const found = await search("LIDOCAINE hcl");
    expect(found.length).toBeGreaterThanOrEqual(3);
    expect(found.every((product) => product.name.toLowerCase().includes("lidocaine hcl"))).toBe(true);
    expect(names(await search("botox"))).toEqual(names(listed.filter((product) => /botox/i.test(product.name))));
  });

  it("searches the primary GTIN, as 14 digits or in its shorter GTIN-12 form", async () => {
    const product = listedWhere((candidate) => candidate.ndc !== "");
    expect(names(await search(product.gtin))).toEqual([product.name]);
    expect(names(await search(product.gtin.slice(2)))).toEqual([product.name]);
  });

  it("searches an additional GTIN", async () => {
    const product = listedWhere((candidate) => candidate.additionalGtins.length > 0);
    expect(names(await search(product.additionalGtins[0] ?? ""))).toEqual([product.name]);
  });

  it("searches the NDC with or without dashes, and in its 11-digit form", async () => {
    const product = listedWhere((candidate) => candidate.ndc !== "");
    for (const text of [product.ndc, ndcDigits(product.ndc), ndc11(product.ndc), ` ${product.ndc} `]) {
      expect(names(await search(text))).toEqual([product.name]);
    }
  });

  it("searches the custom barcode, in any case", async () => {
    const product = listedWhere((candidate) => candidate.customBarcode !== null);
    expect(names(await search(product.customBarcode ?? ""))).toEqual([product.name]);
    expect(names(await search((product.customBarcode ?? "").toLowerCase()))).toEqual([product.name]);
  });

  it("matches identifiers whole, not in part", async () => {
    const product = listedWhere((candidate) => candidate.ndc !== "");
    expect(await search(product.gtin.slice(0, 10))).toEqual([]);
  });

  it("answers an empty list when nothing matches, and everything for an empty search", async () => {
    expect(await search("zz-no-such-product-zz")).toEqual([]);
    expect(names(await search(""))).toEqual(names(listed));
  });

  it("leaves archived products out, even when searched by their GTIN", async () => {
    const archived = picker.products.find((product) => product.archivedAt !== null);
    expect(archived).toBeDefined();
    expect(await search(archived?.gtin ?? "")).toEqual([]);
  });

  it("refuses a search longer than 200 characters with a 400 naming it", async () => {
    const result = await test.call("GET /v1/inventory/products", { query: { search: "x".repeat(201) } });
    expect(result.status).toBe(400);
    expect(result.error?.message).toBe("search: must be at most 200 characters");
  });

  it("serves each organization its own products", async () => {
    const other = (await test.get("GET /v1/inventory/products", { organizationId: ORG_B_ID })).products;
    const ids = new Set(listed.map((product) => product.id));
    expect(other.length).toBeGreaterThan(0);
    expect(other.some((product) => ids.has(product.id))).toBe(false);
  });
});

describe("GET /v1/inventory/products/{id}", () => {
  it("answers data.product", async () => {
    const product = listed[0];
    const data = await test.get("GET /v1/inventory/products/{id}", { params: { id: product?.id ?? "" } });
    expect(data.product).toEqual(product);
  });

  it("serves an archived product by id, with archivedAt set", async () => {
    const archived = picker.products.find((product) => product.archivedAt !== null);
    const data = await test.get("GET /v1/inventory/products/{id}", { params: { id: archived?.id ?? "" } });
    expect(data.product.archivedAt).toBe(archived?.archivedAt);
    expect(data.product.updatedAt >= (data.product.archivedAt ?? "")).toBe(true);
  });

  it("accepts the UUID in upper case", async () => {
    const product = listed[0];
    const data = await test.get("GET /v1/inventory/products/{id}", { params: { id: (product?.id ?? "").toUpperCase() } });
    expect(data.product.id).toBe(product?.id);
  });

  it("answers 404 for an unknown id and for another organization's product", async () => {
    const unknown = await test.call("GET /v1/inventory/products/{id}", { params: { id: "00000000-0000-4000-8000-000000000000" } });
    expect(unknown.status).toBe(404);
    expect(unknown.error?.code).toBe("not_found");
    const elsewhere = await test.call("GET /v1/inventory/products/{id}", { params: { id: listed[0]?.id ?? "" }, organizationId: ORG_B_ID });
    expect(elsewhere.status).toBe(404);
  });

  it("answers 400 naming the id when it is not a UUID", async () => {
    for (const id of ["abc", "fac_0123456789abcdef0123456789abcdef"]) {
      const result = await test.call("GET /v1/inventory/products/{id}", { params: { id } });
      expect(result.status).toBe(400);
      expect(result.error?.message).toBe("id must be a valid UUID");
    }
  });
});

describe("inventory access", () => {
  it("needs no scope beyond an active installation: a key with only read:eras reads it", async () => {
    const result = await test.call("GET /v1/inventory/products", { authorization: `Bearer ${ERAS_ONLY_KEY}` });
    expect(result.status).toBe(200);
  });

  it("rejects an organization whose installation is not active", async () => {
    const result = await test.call("GET /v1/inventory/products", { organizationId: ORG_C_ID });
    expect(result.status).toBe(403);
    expect(result.error?.code).toBe("forbidden");
  });
});
