import { describe, expect, it } from "vitest";
import { EmulatorClock } from "./clock.ts";

describe("the emulator's clock (DESIGN.md: now, frozen, advanceSeconds, reset)", () => {
  const start = Date.parse("2026-03-08T06:00:00.000Z");

  it("a frozen clock stands still and moves only by advanceSeconds", () => {
    let real = 1_000;
    const clock = new EmulatorClock(start, true, () => real);
    real += 5_000;
    expect(clock.now()).toBe(start);
    clock.set({ advanceSeconds: 90 });
    expect(clock.now()).toBe(start + 90_000);
    expect(clock.isFrozen()).toBe(true);
  });

  it("`now` without `frozen` keeps the clock running from there", () => {
    let real = 1_000;
    const clock = new EmulatorClock(start, true, () => real);
    clock.set({ now: "2026-11-01T05:30:00.000Z" });
    real += 2_000;
    expect(clock.now()).toBe(Date.parse("2026-11-01T05:30:02.000Z"));
    expect(clock.isFrozen()).toBe(false);
  });

  it("reset restores the first setting", () => {
    const clock = new EmulatorClock(start, true);
    clock.set({ now: "2030-01-01T00:00:00.000Z", frozen: true });
    clock.reset();
    expect(clock.now()).toBe(start);
  });
});
