import { describe, expect, it } from "vitest";
import { UpstreamError } from "../clinic/upstream-error.ts";
import { isoFromTextTimestamp, mapAtMost, readIfAvailable } from "./recent-notes.ts";

describe("mapAtMost", () => {
  it("keeps the items' order and never runs more than the limit at once", async () => {
    let running = 0;
    let most = 0;
    const results = await mapAtMost([5, 1, 4, 2, 3, 0, 6], 3, async (delay) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, delay));
      running -= 1;
      return delay * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30, 0, 60]);
    expect(most).toBe(3);
  });

  it("starts nothing new after a failure, and fails with it", async () => {
    const started: number[] = [];
    // Item 1 finishes only after the failure was reported; then its worker has had its chance to start another (ADR 0011: an event, not a pause).
    let letFirstFinish: () => void = () => undefined;
    const firstMayFinish = new Promise<void>((resolve) => {
      letFirstFinish = resolve;
    });
    let firstFinished: () => void = () => undefined;
    const firstDone = new Promise<void>((resolve) => {
      firstFinished = resolve;
    });
    const run = mapAtMost([1, 2, 3, 4, 5], 2, async (item) => {
      started.push(item);
      if (item === 2) throw new Error("down");
      if (item === 1) {
        await firstMayFinish;
        firstFinished();
      }
      return item;
    });
    await expect(run).rejects.toThrow("down");
    letFirstFinish();
    await firstDone;
    // No timer is involved: one macrotask later every continuation of item 1's worker has run.
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(started).toEqual([1, 2]);
  });

  it("answers an empty list at once", async () => {
    expect(await mapAtMost([], 4, () => Promise.reject(new Error("never called")))).toEqual([]);
  });
});

describe("readIfAvailable", () => {
  const failing = (status: number, code: string) => () => Promise.reject(new UpstreamError({ status, code, message: code, upstreamStatus: status }));

  it("leaves out a note the service no longer has or refuses, and an id it could never take", async () => {
    expect(await readIfAvailable("0b7c3d2e-1f4a-4b5c-8d6e-7f8091a2b3c4", failing(404, "not_found"))).toBeNull();
    expect(await readIfAvailable("0b7c3d2e-1f4a-4b5c-8d6e-7f8091a2b3c4", failing(403, "forbidden"))).toBeNull();
    expect(await readIfAvailable("not-a-note", () => Promise.reject(new Error("never called")))).toBeNull();
  });

  it("passes on any other failure: the service failing as a whole fails the list", async () => {
    await expect(readIfAvailable("0b7c3d2e-1f4a-4b5c-8d6e-7f8091a2b3c4", failing(503, "server_unresponsive"))).rejects.toBeInstanceOf(UpstreamError);
  });
});

describe("isoFromTextTimestamp", () => {
  it("turns the note's text timestamp into ISO 8601 UTC", () => {
    expect(isoFromTextTimestamp("2026-11-20 16:20:00.123456+00")).toBe("2026-11-20T16:20:00.123Z");
  });

  it("answers null for a day the calendar does not have", () => {
    expect(isoFromTextTimestamp("2026-02-31 10:00:00.000000+00")).toBeNull();
  });
});
