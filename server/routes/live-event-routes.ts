import type { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { HEARTBEAT_EVENT_NAME, LIVE_EVENT_NAME } from "../../contract/app-api/live-events.ts";
import type { LiveEventHub } from "../events/live-event-hub.ts";
import type { AppEnv } from "../http/app-env.ts";

// GET /api/events: server-sent events for the caller's organization only,
// read with fetch so the token stays in the Authorization header; heartbeats;
// closed at the token's exp and on uninstall. A client that reconnects
// refetches what it shows.

export function registerLiveEventRoutes(api: Hono<AppEnv>, hub: LiveEventHub, options: { heartbeatMs?: number; now?: () => number } = {}): void {
  api.get("/events", (c) => {
    const session = c.get("session");
    return streamSSE(c, async (stream) => {
      let finish: () => void = () => undefined;
      const finished = new Promise<void>((resolve) => {
        finish = resolve;
      });
      const send = (event: string, data: string) => stream.writeSSE({ event, data }).catch(() => finish());
      const unsubscribe = hub.subscribe(session.organizationId, (event) => {
        const written = send(LIVE_EVENT_NAME, JSON.stringify(event));
        // Uninstalled: say so, then close.
        if (event.type === "installation.changed" && event.status !== "active") void written.then(finish);
      });
      const heartbeat = setInterval(() => void send(HEARTBEAT_EVENT_NAME, ""), options.heartbeatMs ?? 15_000);
      const untilExpiry = Math.max(0, session.expiresAt * 1000 - (options.now ?? Date.now)());
      const expiry = setTimeout(finish, untilExpiry);
      stream.onAbort(finish);
      void send(HEARTBEAT_EVENT_NAME, "");
      await finished;
      clearInterval(heartbeat);
      clearTimeout(expiry);
      unsubscribe();
    });
  });
}
