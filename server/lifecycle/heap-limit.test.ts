import { describe, expect, it } from "vitest";
import { heapLimitWarning } from "./heap-limit.ts";

describe("heapLimitWarning", () => {
  it("names the limit and the flags when the process was started without them", () => {
    expect(heapLimitWarning(2_096 * 1024 * 1024)).toMatch(/2096 MB.*--max-old-space-size=128/);
  });

  it("says nothing when a limit was set", () => {
    expect(heapLimitWarning(176 * 1024 * 1024)).toBeNull();
  });
});
