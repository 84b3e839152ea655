import { Server } from "node:http";
import type { Listener } from "./graceful-shutdown.ts";

/** The drain's view of Node's HTTP/1.1 server (what @hono/node-server's `serve` makes by default). */
export function nodeListener(server: unknown): Listener {
  if (!(server instanceof Server)) throw new TypeError("the BFF's server is expected to be Node's http.Server");
  return {
    // The callback also fires, with an error, when the server was not listening: stopped either way.
    stopAccepting: () => new Promise((resolve) => server.close(() => resolve())),
    closeIdle: () => server.closeIdleConnections(),
    closeAll: () => server.closeAllConnections(),
  };
}
