import { beforeAll, describe, expect, it } from "vitest";
import type { InventoryChangeItem } from "#contract/clinic-api/inventory.ts";
import { toPrefixedId } from "#contract/ids.ts";
import { createTestEmulator, TEST_NOW, type TestEmulator } from "../../testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID } from "../../world/identities.ts";
import { gs1DateToIso } from "./gs1-date.ts";
import { GS, parseGs1ElementString } from "./gs1-element-string.ts";
import { inventoryPickerOf, type InventoryPicker } from "./testing/inventory-picker.ts";

// Seed 001 "Inventory": GET /v1/inventory/changes/{id} (facilityId required)
// and GET /v1/inventory/changes/{id}/products, with the items' barcode fields
// checked against their rawBarcode. Every answer is parsed with the contract.

const REFERENCE_YEAR = new Date(TEST_NOW).getUTCFullYear();

let test: TestEmulator;
let picker: InventoryPicker;
/** Every item of every change of org A. */
let items: InventoryChangeItem[];

type PickedChange = InventoryPicker["changes"][number];

function changeWhere(predicate: (change: PickedChange) => boolean): PickedChange {
  const change = picker.changes.find(predicate);
  if (!change) throw new Error("the seed lacks a change for this test");
  return change;
}

beforeAll(async () => {
  test = createTestEmulator();
  picker = await inventoryPickerOf(test, ORG_A_ID);
  items = [];
  for (const change of picker.changes) items.push(...(await test.get("GET /v1/inventory/changes/{id}/products", { params: { id: change.id } })).items);
});

describe("the seeded changes", () => {
  it("span every facility of the organization, with receiving and other types, closed and cancelled", async () => {
    const facilities = (await test.get("GET /v1/facilities")).facilities;
    expect(new Set(picker.changes.map((change) => change.facilityId))).toEqual(new Set(facilities.map((facility) => facility.id)));
    const types = new Set(picker.changes.map((change) => change.type));
    expect(types.has("receiving")).toBe(true);
    expect(types.size).toBeGreaterThan(1);
    const statuses = new Set(picker.changes.map((change) => change.status));
    expect([...statuses].sort()).toEqual(["cancelled", "closed"]);
  });
});

describe("GET /v1/inventory/changes/{id}", () => {
  it("answers data.change for its facility, by raw UUID or fac_ id", async () => {
    const picked = changeWhere((change) => change.itemCount > 0);
    const data = await test.get("GET /v1/inventory/changes/{id}", { params: { id: picked.id }, query: { facilityId: picked.facilityId } });
    expect(data.change).toMatchObject({ id: picked.id, facilityId: picked.facilityId, name: picked.name, type: picked.type, status: picked.status });
    expect(data.change.closedAt >= data.change.createdAt).toBe(true);
    expect(data.change.updatedAt >= data.change.closedAt).toBe(true);
    const prefixed = await test.get("GET /v1/inventory/changes/{id}", { params: { id: picked.id }, query: { facilityId: toPrefixedId("fac", picked.facilityId) } });
    expect(prefixed.change).toEqual(data.change);
  });

  it("requires facilityId: 400 naming it", async () => {
    const picked = changeWhere(() => true);
    const result = await test.call("GET /v1/inventory/changes/{id}", { params: { id: picked.id } });
    expect(result.status).toBe(400);
    expect(result.error?.code).toBe("bad_request");
    expect(result.error?.message).toBe("facilityId: is required");
  });

  it("refuses a facilityId that is not a facility id, naming it", async () => {
    const picked = changeWhere(() => true);
    for (const facilityId of ["nope", "pat_0123456789abcdef0123456789abcdef"]) {
      const result = await test.call("GET /v1/inventory/changes/{id}", { params: { id: picked.id }, query: { facilityId } });
      expect(result.status).toBe(400);
      expect(result.error?.message).toMatch(/^facilityId/);
    }
  });

  it("answers 404 for a change of another facility", async () => {
    const picked = changeWhere(() => true);
    const other = changeWhere((change) => change.facilityId !== picked.facilityId);
    const result = await test.call("GET /v1/inventory/changes/{id}", { params: { id: picked.id }, query: { facilityId: other.facilityId } });
    expect(result.status).toBe(404);
    expect(result.error?.code).toBe("not_found");
  });

  it("answers 404 for an unknown change and for another organization's", async () => {
    const picked = changeWhere(() => true);
    const unknown = await test.call("GET /v1/inventory/changes/{id}", { params: { id: "00000000-0000-4000-8000-000000000000" }, query: { facilityId: picked.facilityId } });
    expect(unknown.status).toBe(404);
    const elsewhere = await test.call("GET /v1/inventory/changes/{id}", { params: { id: picked.id }, query: { facilityId: picked.facilityId }, organizationId: ORG_B_ID });
    expect(elsewhere.status).toBe(404);
  });

  it("answers 400 naming the id when it is not a UUID", async () => {
    const picked = changeWhere(() => true);
    const result = await test.call("GET /v1/inventory/changes/{id}", { params: { id: "12345" }, query: { facilityId: picked.facilityId } });
    expect(result.status).toBe(400);
    expect(result.error?.message).toBe("id must be a valid UUID");
  });
});

describe("GET /v1/inventory/changes/{id}/products", () => {
  it("answers data.items without a facilityId", async () => {
    const picked = changeWhere((change) => change.itemCount > 0);
    const result = await test.call("GET /v1/inventory/changes/{id}/products", { params: { id: picked.id } });
    expect(result.status).toBe(200);
    expect(Object.keys(result.data ?? {})).toEqual(["items"]);
    expect(result.data?.items.every((item) => item.changeId === picked.id)).toBe(true);
  });

  it("has as many items as the change's itemCount, for every change", async () => {
    for (const picked of picker.changes) {
      const { change } = await test.get("GET /v1/inventory/changes/{id}", { params: { id: picked.id }, query: { facilityId: picked.facilityId } });
      const { items: lines } = await test.get("GET /v1/inventory/changes/{id}/products", { params: { id: picked.id } });
      expect(lines.length).toBe(change.itemCount);
    }
    expect(items.length).toBeGreaterThan(20);
  });

  it("gives parsedFields, gtin, lotNumber, expirationDate and serialNumber as rawBarcode says", () => {
    for (const item of items) {
      const fields = parseGs1ElementString(item.rawBarcode, REFERENCE_YEAR);
      expect(item.parsedFields).toEqual(fields);
      expect(item.gtin).toBe(fields["01"]);
      expect(item.lotNumber).toBe(fields["10"]);
      expect(item.expirationDate).toBe(gs1DateToIso(fields["17"] ?? "", REFERENCE_YEAR));
      expect(item.serialNumber).toBe(fields["21"] ?? null);
    }
  });

  it("has real GS1 element strings: separators after variable-length fields that others follow, month-only expiries, serials on some", () => {
    expect(items.some((item) => item.rawBarcode.includes(GS))).toBe(true);
    expect(items.some((item) => !item.rawBarcode.includes(GS))).toBe(true);
    expect(items.some((item) => item.parsedFields["17"]?.endsWith("00"))).toBe(true);
    expect(items.some((item) => item.serialNumber !== null)).toBe(true);
    expect(items.some((item) => item.serialNumber === null)).toBe(true);
    expect(new Set(items.map((item) => item.scanSourceType)).size).toBeGreaterThan(1);
  });

  it("names products that resolve by id, archived ones included, under their own name and GTINs", async () => {
    const productIds = [...new Set(items.map((item) => item.productId))];
    const products = new Map<string, { name: string; gtins: string[]; archived: boolean }>();
    for (const id of productIds) {
      const { product } = await test.get("GET /v1/inventory/products/{id}", { params: { id } });
      products.set(id, { name: product.name, gtins: [product.gtin, ...product.additionalGtins], archived: product.archivedAt !== null });
    }
    for (const item of items) {
      const product = products.get(item.productId);
      expect(item.productName).toBe(product?.name);
      expect(product?.gtins).toContain(item.gtin);
    }
    expect([...products.values()].some((product) => product.archived)).toBe(true);
  });

  it("answers 404 for an unknown change and 400 for an id that is not a UUID", async () => {
    const unknown = await test.call("GET /v1/inventory/changes/{id}/products", { params: { id: "00000000-0000-4000-8000-000000000000" } });
    expect(unknown.status).toBe(404);
    const bad = await test.call("GET /v1/inventory/changes/{id}/products", { params: { id: "x" } });
    expect(bad.status).toBe(400);
    expect(bad.error?.message).toBe("id must be a valid UUID");
  });
});
