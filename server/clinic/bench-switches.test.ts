import { describe, expect, it } from "vitest";
import { BenchSwitches, parseBenchDisable } from "./bench-switches.ts";

describe("bench switches (BENCH_DISABLE, issue 37)", () => {
  it("reads mechanism names separated by commas, and refuses unknown ones by name", () => {
    expect(parseBenchDisable("")).toEqual([]);
    expect(parseBenchDisable(" refresh-ahead ,intake-thread,")).toEqual(["refresh-ahead", "intake-thread"]);
    expect(() => parseBenchDisable("refresh-ahead,gzip")).toThrow(/unknown mechanism "gzip": give some of refresh-ahead, intake-thread/);
  });

  it("says which mechanisms are on and counts the uses of each", () => {
    const switches = new BenchSwitches(["intake-thread"]);
    expect(switches.isOn("intake-thread")).toBe(false);
    expect(switches.isOn("refresh-ahead")).toBe(true);
    switches.used("refresh-ahead");
    switches.used("refresh-ahead");
    const report = switches.report();
    expect(report["refresh-ahead"]).toEqual({ on: true, uses: 2 });
    expect(report["intake-thread"]).toEqual({ on: false, uses: 0 });
  });
});
