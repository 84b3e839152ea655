import { Server, type IncomingMessage, type ServerResponse } from "node:http";
import type { Listener } from "./graceful-shutdown.ts";

function asNodeServer(server: unknown): Server<typeof IncomingMessage, typeof ServerResponse> {
  if (!(server instanceof Server)) throw new TypeError("the BFF's server is expected to be Node's http.Server");
  return server as Server<typeof IncomingMessage, typeof ServerResponse>;
}

/** The drain's view of Node's HTTP/1.1 server (what @hono/node-server's `serve` makes by default). */
export function nodeListener(server: unknown): Listener {
  const node = asNodeServer(server);
  return {
    // The callback also fires, with an error, when the server was not listening: stopped either way.
    stopAccepting: () => new Promise((resolve) => node.close(() => resolve())),
    closeIdle: () => node.closeIdleConnections(),
    closeAll: () => node.closeAllConnections(),
  };
}

/**
 * Keeps an idle keep-alive connection open `seconds` (HTTP_KEEP_ALIVE_SECONDS,
 * server/env.ts) instead of Node's 5 s; answers say so in `Keep-Alive:
 * timeout=`. A drain still closes idle connections at once (closeIdle).
 */
export function keepIdleConnections(server: unknown, seconds: number): void {
  asNodeServer(server).keepAliveTimeout = seconds * 1000;
}
