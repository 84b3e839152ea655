import * as z from "zod/mini";
import type { TestEmulator } from "../../../testing/emulator-client.ts";

// Test access to the inventory picker (`GET /_sandbox/ehr/{org}/inventory`),
// parsed, since the service itself lists neither changes nor archived products.

const inventoryPicker = z.object({
  products: z.array(z.object({ id: z.string(), name: z.string(), gtin: z.string(), archivedAt: z.nullable(z.string()) })),
  changes: z.array(
    z.object({
      id: z.string(),
      facilityId: z.string(),
      facilityName: z.nullable(z.string()),
      name: z.string(),
      type: z.string(),
      status: z.string(),
      createdAt: z.string(),
      itemCount: z.int(),
    }),
  ),
});
export type InventoryPicker = z.infer<typeof inventoryPicker>;

export async function inventoryPickerOf(test: TestEmulator, organizationId: string): Promise<InventoryPicker> {
  const { status, body } = await test.sandbox("GET", `/ehr/${organizationId}/inventory`);
  if (status !== 200) throw new Error(`inventory picker answered ${status}`);
  return z.parse(inventoryPicker, body);
}
