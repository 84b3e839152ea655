import { describe, expect, it } from "vitest";
import { readEmulatorEnv } from "./env.ts";

describe("the emulator's environment", () => {
  it("leaves the load bench's answer memo off unless EMULATOR_BENCH_ANSWER_MEMO=1", () => {
    expect(readEmulatorEnv({}).EMULATOR_BENCH_ANSWER_MEMO).toBe(false);
    expect(readEmulatorEnv({ EMULATOR_BENCH_ANSWER_MEMO: "1" }).EMULATOR_BENCH_ANSWER_MEMO).toBe(true);
    expect(readEmulatorEnv({ EMULATOR_BENCH_ANSWER_MEMO: "0" }).EMULATOR_BENCH_ANSWER_MEMO).toBe(false);
  });

  it("refuses another value, naming the variable", () => {
    expect(() => readEmulatorEnv({ EMULATOR_BENCH_ANSWER_MEMO: "yes" })).toThrow(/EMULATOR_BENCH_ANSWER_MEMO/);
  });
});
