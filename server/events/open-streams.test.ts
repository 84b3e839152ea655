import { describe, expect, it } from "vitest";
import { OpenStreams } from "./open-streams.ts";

// The open live-event streams a shutdown ends, each with its reconnection hint.

describe("OpenStreams", () => {
  it("ends every open stream with a hint in [base, 2 × base), spread by the random source; a removed stream is left alone", async () => {
    const randoms = [0, 0.5, 0.999];
    const streams = new OpenStreams(() => randoms.shift() ?? 0);
    const hints: number[] = [];
    const remove = streams.add(() => Promise.resolve(void hints.push(-1)));
    for (let i = 0; i < 3; i += 1) streams.add((retryMs) => Promise.resolve(void hints.push(retryMs)));
    remove();
    expect(streams.size).toBe(3);
    await streams.closeAll(1_000);
    expect(hints).toEqual([1_000, 1_500, 1_999]);
    expect(streams.size).toBe(0);
  });

  it("ends a stream opened while closing at once", async () => {
    const streams = new OpenStreams(() => 0);
    await streams.closeAll(1_000);
    const hints: number[] = [];
    streams.add((retryMs) => Promise.resolve(void hints.push(retryMs)));
    expect(hints).toEqual([1_000]);
    expect(streams.size).toBe(0);
  });

  it("waits for every stream, and a stream that fails to end does not stop the others", async () => {
    const streams = new OpenStreams(() => 0);
    const ended: string[] = [];
    streams.add(() => Promise.reject(new Error("the client is gone")));
    streams.add(() => Promise.resolve(void ended.push("second")));
    await streams.closeAll(1_000);
    expect(ended).toEqual(["second"]);
  });
});
