import http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import type { ServerType } from "@hono/node-server";
import type { Bff } from "../server/app.ts";

// Measured before anything else is loaded: the project's modules are imported
// dynamically below so the RSS can be split by stage.
const rssBareMb = Math.round((process.memoryUsage().rss / 1024 / 1024) * 10) / 10;

// The server side of `bench/bff-bench.ts`, forked with `--import tsx` so the
// load generator does not share this heap. One process holds the emulator
// (real HTTP), two BFFs (picker cache on, and `pickerTtlMs: 0` so every read
// goes upstream) and a bare `node:http` reverse proxy, all on loopback and
// free ports. IPC: sends `{type:"ready", ...urls}` once listening; answers
// `{type:"stats", id}` with memory, event-loop and clinic-client figures;
// `{type:"gc"}` runs a collection if `--expose-gc` was given; `{type:"exit"}`
// exits (cleanly, so `--cpu-prof` can write its profile).

const HOST = "127.0.0.1";
const DATA_KEY = "svc_dev_ak_5a0d1e2f3a4b5c6d7e8f90a1b2c3d4e5";

export interface ReadyMessage {
  type: "ready";
  emulatorUrl: string;
  bffUrl: string;
  bffUncachedUrl: string;
  proxyUrl: string;
  /** RSS (MB) by stage: Node with the tsx loader; + the project's modules; + the emulator's world; + the in-memory PGlite (migrated); + both BFFs started. */
  rssStagesMb: { nodeAndTsx: number; modulesLoaded: number; emulatorBuilt: number; storeOpened: number; bffsStarted: number };
}

export interface StatsMessage {
  type: "stats";
  id: number;
  memory: NodeJS.MemoryUsage;
  /** Cumulative event-loop utilization since start (the parent takes differences). */
  elu: { idle: number; active: number };
  cpu: NodeJS.CpuUsage;
  gcAvailable: boolean;
  clinic: { cached: ReturnType<Bff["clinic"]["stats"]>; uncached: ReturnType<Bff["clinic"]["stats"]> };
}

type Handler = (request: Request) => Response | Promise<Response>;

/** Binds a Hono-style fetch handler on a free loopback port; the handler may be set after the port is known. */
async function listen(handler: () => Handler): Promise<{ server: ServerType; url: string }> {
  const { serve } = await import("@hono/node-server");
  return new Promise((resolve) => {
    const server = serve({ fetch: (request: Request) => handler()(request), port: 0, hostname: HOST }, (info) => {
      resolve({ server, url: `http://${HOST}:${info.port}` });
    });
  });
}

/** A bare reverse proxy: the same upstream call the BFF makes, with nothing else. */
function bareProxy(emulatorUrl: string, organizationId: string): Promise<{ server: http.Server; url: string; agent: http.Agent }> {
  const upstream = new URL(emulatorUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((req, res) => {
    const outgoing = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        agent,
        headers: { accept: "application/json", authorization: `Bearer ${DATA_KEY}`, "x-organization-id": organizationId },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    outgoing.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(outgoing);
  });
  server.keepAliveTimeout = 30_000;
  return new Promise((resolve) => {
    server.listen(0, HOST, () => resolve({ server, url: `http://${HOST}:${(server.address() as AddressInfo).port}`, agent }));
  });
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

async function main(): Promise<void> {
  const send = (message: object) => process.send?.(message);
  if (!process.send) throw new Error("bff-bench-server: run me with child_process.fork (IPC)");
  const organizationId = process.env.BFF_BENCH_ORG ?? "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
  const [{ createEmulator }, { createBffApp }, { readBffConfig }, { createLogger }, { createStore }] = await Promise.all([
    import("../emulator/app.ts"),
    import("../server/app.ts"),
    import("../server/env.ts"),
    import("../server/logger.ts"),
    import("../server/store/create-store.ts"),
    import("@hono/node-server"),
  ]);
  const rssModulesMb = mb(process.memoryUsage().rss);

  let emulatorHandler: Handler = () => new Response("starting", { status: 503 });
  const emulatorServer = await listen(() => emulatorHandler);
  const emulator = createEmulator({ settings: { strongReadLatencyMs: 0, rateLimit: 10_000_000, publicUrl: emulatorServer.url } });
  emulatorHandler = emulator.app.fetch;
  const rssEmulatorMb = mb(process.memoryUsage().rss);

  const config = { ...readBffConfig({ SANDBOX_EMULATOR_URL: emulatorServer.url }), distDir: "dist" };
  const logger = createLogger({ level: "silent", secrets: [config.clinicApiKey, ...config.webhookSecrets] });
  // One in-memory PGlite for both BFFs (one database, as in production).
  const store = await createStore({});
  const rssStoreMb = mb(process.memoryUsage().rss);
  // The BFF's limiter (1000 per 60 s, the service's published limit) is raised so it does not throttle a throughput test.
  const limiter = { scope: "key" as const, limit: 10_000_000 };
  const bff = createBffApp({ config, store, logger, clinicOptions: { limiter } });
  const bffUncached = createBffApp({ config, store, logger, clinicOptions: { limiter, pickerTtlMs: 0 } });
  await bff.start();
  await bffUncached.start();
  const bffServer = await listen(() => bff.app.fetch);
  const bffUncachedServer = await listen(() => bffUncached.app.fetch);
  const proxy = await bareProxy(emulatorServer.url, organizationId);
  // Node's default server keep-alive (5 s) would close idle sockets between phases.
  for (const server of [emulatorServer.server, bffServer.server, bffUncachedServer.server]) {
    if (server instanceof http.Server) server.keepAliveTimeout = 30_000;
  }

  async function exit(): Promise<void> {
    const deadline = setTimeout(() => process.exit(0), 2_000);
    deadline.unref();
    await Promise.allSettled([bff.close(), bffUncached.close()]);
    emulator.close();
    proxy.agent.destroy();
    for (const server of [emulatorServer.server, bffServer.server, bffUncachedServer.server, proxy.server]) {
      if ("closeAllConnections" in server) server.closeAllConnections();
      server.close();
    }
    await store.close().catch(() => undefined);
    process.exit(0);
  }

  process.on("message", (message: { type?: string; id?: number }) => {
    if (message.type === "stats") {
      const elu = performance.eventLoopUtilization();
      const reply: StatsMessage = {
        type: "stats",
        id: message.id ?? 0,
        memory: process.memoryUsage(),
        elu: { idle: elu.idle, active: elu.active },
        cpu: process.cpuUsage(),
        gcAvailable: typeof globalThis.gc === "function",
        clinic: { cached: bff.clinic.stats(), uncached: bffUncached.clinic.stats() },
      };
      send(reply);
    } else if (message.type === "gc") {
      globalThis.gc?.();
      send({ type: "gc", id: message.id ?? 0 });
    } else if (message.type === "exit") {
      void exit();
    }
  });
  // The parent going away (crash, Ctrl-C) must not leave this process behind.
  process.on("disconnect", () => void exit());

  const ready: ReadyMessage = {
    type: "ready",
    emulatorUrl: emulatorServer.url,
    bffUrl: bffServer.url,
    bffUncachedUrl: bffUncachedServer.url,
    proxyUrl: proxy.url,
    rssStagesMb: { nodeAndTsx: rssBareMb, modulesLoaded: rssModulesMb, emulatorBuilt: rssEmulatorMb, storeOpened: rssStoreMb, bffsStarted: mb(process.memoryUsage().rss) },
  };
  send(ready);
}

main().catch((error: unknown) => {
  process.send?.({ type: "error", message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
});
