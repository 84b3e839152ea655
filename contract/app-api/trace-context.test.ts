import { describe, expect, it } from "vitest";
import { displayTraceId, formatTraceparent, newTraceContext, parseTraceparent } from "./trace-context.ts";

// W3C Trace Context, version 00 only (docs/operations.md "Following one request: trace ids").

const VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

describe("traceparent", () => {
  it("reads version 00 and writes it back unchanged", () => {
    const context = parseTraceparent(VALID);
    expect(context).toEqual({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", parentId: "00f067aa0ba902b7", flags: "01" });
    expect(context && formatTraceparent(context)).toBe(VALID);
    expect(context && displayTraceId(context)).toBe("tdm_4bf92f3577b34da6a3ce929d0e0e4736");
  });

  it.each([
    ["absent", undefined],
    ["empty", ""],
    ["all-zero trace id", `00-${"0".repeat(32)}-00f067aa0ba902b7-01`],
    ["all-zero parent id", `00-4bf92f3577b34da6a3ce929d0e0e4736-${"0".repeat(16)}-01`],
    ["another version", "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"],
    ["upper-case hex", VALID.toUpperCase()],
    ["a short trace id", "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01"],
    ["a trailing field", `${VALID}-00`],
    ["surrounding text", ` ${VALID}`],
  ])("refuses %s", (_what, header) => {
    expect(parseTraceparent(header)).toBeNull();
  });

  it("makes new contexts that parse back, each with its own trace id", () => {
    const ids = new Set<string>();
    for (let n = 0; n < 2000; n += 1) {
      const context = newTraceContext();
      expect(parseTraceparent(formatTraceparent(context))).toEqual(context);
      ids.add(context.traceId);
    }
    expect(ids.size).toBe(2000);
  });
});
