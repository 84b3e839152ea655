import * as z from "zod/mini";
import { LIVE_EVENT_NAME, liveEvent, type LiveEvent } from "#contract/app-api/live-events.ts";

// The frames of GET /api/events as they arrive: the live events, and the
// server's `retry:` hint (sent when its process shuts down: how long to wait
// before reconnecting, to another process through the proxy).

export interface ParsedFrames {
  events: LiveEvent[];
  /** The last `retry:` hint among the frames, in ms. */
  retryMs: number | null;
  /** An incomplete frame, to prepend to the next chunk. */
  rest: string;
}

export function parseFrames(buffer: string): ParsedFrames {
  const events: LiveEvent[] = [];
  let retryMs: number | null = null;
  const frames = buffer.split("\n\n");
  const rest = frames.pop() ?? "";
  for (const frame of frames) {
    const retry = /^retry: ?(\d+)$/m.exec(frame)?.[1];
    if (retry !== undefined) retryMs = Number(retry);
    const name = /^event: (.*)$/m.exec(frame)?.[1];
    const data = /^data: (.*)$/m.exec(frame)?.[1];
    if (name !== LIVE_EVENT_NAME || !data) continue;
    try {
      const parsed = z.safeParse(liveEvent, JSON.parse(data));
      if (parsed.success) events.push(parsed.data);
    } catch {
      // A malformed frame is skipped.
    }
  }
  return { events, retryMs, rest };
}
