import { describe, expect, it } from "vitest";
import { parseFrames } from "./live-event-frames.ts";

describe("parseFrames", () => {
  it("reads the live events, skips heartbeats and malformed frames, keeps an incomplete frame for the next chunk", () => {
    const parsed = parseFrames('event: heartbeat\ndata: \n\nevent: tandem\ndata: {"type":"note.changed","noteId":"n1"}\n\nevent: tandem\ndata: {oops\n\nevent: tan');
    expect(parsed).toEqual({ events: [{ type: "note.changed", noteId: "n1" }], retryMs: null, rest: "event: tan" });
  });

  it("reads the server's retry: hint (its process shutting down), the last one winning", () => {
    expect(parseFrames("retry: 1500\n\n").retryMs).toBe(1500);
    expect(parseFrames("event: heartbeat\ndata: \n\nretry: 1200\n\nretry:1900\n\n").retryMs).toBe(1900);
    // Not complete yet: not read.
    expect(parseFrames("retry: 1500")).toEqual({ events: [], retryMs: null, rest: "retry: 1500" });
  });
});
