import * as z from "zod/mini";
import { describe, expect, it } from "vitest";
import { inventoryChangeItem } from "#contract/clinic-api/inventory.ts";
import { EmulatorClock } from "../../clock.ts";
import { createTestEmulator, TEST_NOW, type TestEmulator } from "../../testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID } from "../../world/identities.ts";
import { inventoryPickerOf } from "./testing/inventory-picker.ts";

// Seeded inventory: the same seed and clock give the same data, reset brings
// it back, another seed gives other data. Plus the picker and the contract's
// shape of `parsedFields`.

/** Everything the inventory endpoints serve for an organization. */
async function snapshot(test: TestEmulator, organizationId: string) {
  const picker = await inventoryPickerOf(test, organizationId);
  const products = (await test.get("GET /v1/inventory/products", { organizationId })).products;
  const changes = [];
  for (const picked of picker.changes) {
    const { change } = await test.get("GET /v1/inventory/changes/{id}", { params: { id: picked.id }, query: { facilityId: picked.facilityId }, organizationId });
    const { items } = await test.get("GET /v1/inventory/changes/{id}/products", { params: { id: picked.id }, organizationId });
    changes.push({ change, items });
  }
  return { picker, products, changes };
}

describe("seeded inventory", () => {
  it("is the same for the same seed and clock", async () => {
    const first = createTestEmulator();
    const second = createTestEmulator();
    for (const organizationId of [ORG_A_ID, ORG_B_ID]) expect(await snapshot(second, organizationId)).toEqual(await snapshot(first, organizationId));
  });

  it("keeps its ids whatever the hour the emulator starts at", async () => {
    const ids = async (test: TestEmulator) => {
      const { products, changes } = await snapshot(test, ORG_A_ID);
      // Sorted: the order of changes on the same day in two zones can depend on the hour.
      return { products: products.map((product) => product.id).sort(), changes: changes.map(({ change, items }) => [change.id, ...items.map((item) => item.id)]).sort() };
    };
    const base = await ids(createTestEmulator());
    // 15.5 hours later is 05:30 UTC: New York and Chicago are on different dates.
    for (const hours of [5, 11, 15.5, 17, 23]) {
      expect(await ids(createTestEmulator({ clock: new EmulatorClock(TEST_NOW + hours * 3_600_000, true) }))).toEqual(base);
    }
  });

  it("differs for another seed", async () => {
    const first = await inventoryPickerOf(createTestEmulator(), ORG_A_ID);
    const other = await inventoryPickerOf(createTestEmulator({ seed: 7 }), ORG_A_ID);
    expect(other.products.map((product) => product.id)).not.toEqual(first.products.map((product) => product.id));
    // The catalog is shared: the same products, under the organization's own ids.
    expect(other.products.map((product) => product.gtin)).toEqual(first.products.map((product) => product.gtin));
  });

  it("comes back the same after POST /_sandbox/reset, clock moved or not", async () => {
    const test = createTestEmulator();
    const before = await snapshot(test, ORG_A_ID);
    await test.sandbox("POST", "/clock", { advanceSeconds: 40 * 86_400 });
    await test.sandbox("POST", "/reset");
    expect(await snapshot(test, ORG_A_ID)).toEqual(before);
  });
});

describe("GET /_sandbox/ehr/{organizationId}/inventory", () => {
  it("lists products (archived too) and changes, newest first", async () => {
    const picker = await inventoryPickerOf(createTestEmulator(), ORG_A_ID);
    expect(picker.products.some((product) => product.archivedAt !== null)).toBe(true);
    const created = picker.changes.map((change) => change.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    expect(picker.changes.every((change) => change.facilityName !== null)).toBe(true);
  });

  it("answers 404 for an unknown organization", async () => {
    const result = await createTestEmulator().sandbox("GET", "/ehr/00000000-0000-4000-8000-000000000000/inventory");
    expect(result.status).toBe(404);
    expect(result.body).toMatchObject({ code: "not_found" });
  });
});

describe("contract: parsedFields", () => {
  const item = {
    id: "i",
    changeId: "c",
    productId: "p",
    scanSourceType: "scanner",
    rawBarcode: "0100304094276014",
    gtin: "00304094276014",
    lotNumber: "L",
    expirationDate: "2027-06-30",
    serialNumber: null,
    quantity: 1,
    notes: null,
    createdAt: "2026-11-23T14:00:00.000Z",
    productName: "n",
  };

  it("maps GS1 application identifiers (2 to 4 digits) to strings, and nothing else", () => {
    expect(z.safeParse(inventoryChangeItem, { ...item, parsedFields: { "01": "00304094276014", "3103": "000250", "240": "A" } }).success).toBe(true);
    expect(z.safeParse(inventoryChangeItem, { ...item, parsedFields: { gtin: "00304094276014" } }).success).toBe(false);
    expect(z.safeParse(inventoryChangeItem, { ...item, parsedFields: { "1": "x" } }).success).toBe(false);
  });
});
