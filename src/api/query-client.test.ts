import { describe, expect, it } from "vitest";
import { ApiError } from "./bff-client.ts";
import { TANDEM_TROUBLE_REREAD_MS, rereadAfterTandemTrouble } from "./query-client.ts";

const failedWith = (error: unknown) => ({ state: { status: "error", error } }) as Parameters<typeof rereadAfterTandemTrouble>[0];
const apiError = (status: number, code: string) => new ApiError(status, { code, message: code, trace_id: "tdm_1" });

describe("rereadAfterTandemTrouble", () => {
  it("reads again a read Tandem's server failed: its store, a restart, or not reached", () => {
    expect(rereadAfterTandemTrouble(failedWith(apiError(503, "store_unavailable")))).toBe(TANDEM_TROUBLE_REREAD_MS);
    expect(rereadAfterTandemTrouble(failedWith(apiError(503, "not_ready")))).toBe(TANDEM_TROUBLE_REREAD_MS);
    expect(rereadAfterTandemTrouble(failedWith(new TypeError("Failed to fetch")))).toBe(TANDEM_TROUBLE_REREAD_MS);
  });

  it("leaves the service's failures, refusals and answers to Try again", () => {
    expect(rereadAfterTandemTrouble(failedWith(apiError(503, "rate_limited")))).toBe(false);
    expect(rereadAfterTandemTrouble(failedWith(apiError(502, "upstream_unavailable")))).toBe(false);
    expect(rereadAfterTandemTrouble(failedWith(apiError(502, "server_unresponsive")))).toBe(false);
    expect(rereadAfterTandemTrouble(failedWith(apiError(403, "role_forbidden")))).toBe(false);
    expect(rereadAfterTandemTrouble({ state: { status: "success", error: null } } as Parameters<typeof rereadAfterTandemTrouble>[0])).toBe(false);
  });
});
