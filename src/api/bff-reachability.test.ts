import { describe, expect, it } from "vitest";
import { TANDEM_RETRY_MAX_MS, tandemRetryDelayMs } from "./bff-reachability.ts";

describe("trying Tandem's server again", () => {
  it("starts at a second and doubles, to at most ten seconds", () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(tandemRetryDelayMs)).toEqual([1_000, 2_000, 4_000, 8_000, TANDEM_RETRY_MAX_MS, TANDEM_RETRY_MAX_MS, TANDEM_RETRY_MAX_MS]);
    expect(tandemRetryDelayMs(0)).toBe(1_000);
  });
});
