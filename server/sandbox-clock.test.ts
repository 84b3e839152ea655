import { describe, expect, it } from "vitest";
import { createEmulator } from "../emulator/app.ts";
import { EmulatorClock } from "../emulator/clock.ts";
import { followEmulatorClock } from "./sandbox-clock.ts";

describe("SANDBOX_CLOCK=emulator", () => {
  const pinned = Date.parse("2026-11-17T11:40:00.000Z");

  it("reads the emulator's clock once and runs on from it with real time", async () => {
    let real = 5_000_000;
    const emulator = createEmulator({ clock: new EmulatorClock(pinned, false, () => real) });
    const now = await followEmulatorClock("http://emulator.test", (input) => Promise.resolve(emulator.app.request(input instanceof Request ? input : new Request(input))), () => real);
    expect(now()).toBe(pinned);
    real += 90_000;
    expect(now()).toBe(pinned + 90_000);
    // A later move of the emulator's clock is the tests' way to probe the BFF's time checks: not followed.
    emulator.clock.set({ advanceSeconds: 600 });
    expect(now()).toBe(pinned + 90_000);
    emulator.close();
  });

  it("reads in whole milliseconds, as Date.now() does, whatever the round trip (the send log keeps instants as bigints)", async () => {
    let real = 5_000_000;
    const emulator = createEmulator({ clock: new EmulatorClock(pinned, false, () => real) });
    // The request leaves at 5,000,000 and its answer arrives 1 ms later: the middle is half a millisecond.
    const now = await followEmulatorClock("http://emulator.test", (input) => Promise.resolve(emulator.app.request(input instanceof Request ? input : new Request(input))), () => real++);
    expect(Number.isInteger(now())).toBe(true);
    emulator.close();
  });

  it("fails start-up with a message naming the setting when the emulator does not answer", async () => {
    await expect(followEmulatorClock("http://emulator.test", () => Promise.resolve(new Response("nope", { status: 404 })))).rejects.toThrow(/SANDBOX_CLOCK=emulator/);
  });
});
