import { afterEach, describe, expect, it, vi } from "vitest";
import { finishBeforeSignOut, finishPendingWrites } from "./before-sign-out.ts";

afterEach(() => vi.useRealTimers());

describe("finishPendingWrites", () => {
  it("runs every registered write and waits for them all; a removed one is not run", async () => {
    const done: string[] = [];
    const stopA = finishBeforeSignOut(async () => {
      await Promise.resolve();
      done.push("draft A");
    });
    const stopB = finishBeforeSignOut(() => Promise.reject(new Error("the BFF refused it")));
    const stopC = finishBeforeSignOut(() => {
      done.push("unmounted");
      return Promise.resolve();
    });
    stopC();
    await finishPendingWrites();
    expect(done).toEqual(["draft A"]);
    stopA();
    stopB();
  });

  it("gives up waiting after the bound: a BFF that does not answer keeps no one signed in", async () => {
    vi.useFakeTimers();
    const stop = finishBeforeSignOut(() => new Promise<void>(() => undefined));
    let finished = false;
    const waiting = finishPendingWrites(5_000).then(() => {
      finished = true;
    });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(finished).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(finished).toBe(true);
    stop();
  });
});
