import { describe, expect, it } from "vitest";
import { createTestEmulator } from "../testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID } from "../world/identities.ts";

// GET /_sandbox/request-stats: the rate limiter's counts per key and organization.

interface Stats {
  limit: number;
  windowSeconds: number;
  buckets: { key: string; organizationId: string | null; counted: number; limited: number; peakWindowCount: number; windowCount: number }[];
}

describe("GET /_sandbox/request-stats", () => {
  it("counts data requests per key and organization, 429s apart, masks the key, and starts over on reset", async () => {
    const { call, emulator } = createTestEmulator({ settings: { rateLimit: 2, rateLimitWindowSeconds: 60 } });
    const stats = async () => (await (await emulator.app.request("/_sandbox/request-stats")).json()) as Stats;
    for (let i = 0; i < 3; i += 1) await call("GET /v1/facilities");
    await call("GET /v1/facilities", { organizationId: ORG_B_ID });

    const before = await stats();
    expect(before).toMatchObject({ limit: 2, windowSeconds: 60 });
    const a = before.buckets.find((bucket) => bucket.organizationId === ORG_A_ID);
    const b = before.buckets.find((bucket) => bucket.organizationId === ORG_B_ID);
    expect(a).toMatchObject({ counted: 2, limited: 1, peakWindowCount: 2, windowCount: 2 });
    expect(b).toMatchObject({ counted: 1, limited: 0 });
    expect(a?.key).toMatch(/^svc_dev_ak_.{4}….{4}$/);

    // Totals outlive the window; the peak is per window.
    emulator.clock.set({ advanceSeconds: 61 });
    await call("GET /v1/facilities");
    expect((await stats()).buckets.find((bucket) => bucket.organizationId === ORG_A_ID)).toMatchObject({ counted: 3, limited: 1, peakWindowCount: 2, windowCount: 1 });

    await emulator.app.request("/_sandbox/reset", { method: "POST" });
    expect((await stats()).buckets).toEqual([]);
  });
});
