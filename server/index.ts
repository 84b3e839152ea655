import { serve } from "@hono/node-server";
import { setTimeout as delay } from "node:timers/promises";
import { createBffApp, type Bff } from "./app.ts";
import { ConfigError, readBffConfig, secretsOf, type BffConfig } from "./env.ts";
import { drainAndClose } from "./lifecycle/graceful-shutdown.ts";
import { heapLimitWarning } from "./lifecycle/heap-limit.ts";
import { LifecycleGate } from "./lifecycle/lifecycle-gate.ts";
import { keepIdleConnections, nodeListener } from "./lifecycle/node-listener.ts";
import { createLogger } from "./logger.ts";
import { serveMetrics } from "./metrics/metrics-server.ts";
import { followEmulatorClock } from "./sandbox-clock.ts";
import { createStore } from "./store/create-store.ts";
import type { Store } from "./store/store.ts";

// `server/index.ts` (compiled: build/server/index.js): reads the
// configuration, binds PORT (default 8787) at once, answering 503 on
// /healthz and /readyz while it opens the store (migrations) and starts the
// background work, then serves. SIGTERM or SIGINT drains
// (lifecycle/graceful-shutdown.ts) and exits 0, or 1 when the grace period
// cut requests off; a second SIGINT (Ctrl-C again) exits at once.

function readConfigOrExit(): BffConfig {
  try {
    return readBffConfig();
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }
}

const config = readConfigOrExit();

const logger = createLogger({ level: config.logLevel, secrets: secretsOf(config), name: "bff" });
// A real deployment only: `npm start` gives the flags, and `npm run dev` (tsx) does without.
const heapWarning = config.isSandbox ? null : heapLimitWarning();
if (heapWarning !== null) logger.warn(heapWarning);
const gate = new LifecycleGate();
const server = serve({ fetch: gate.fetch, port: config.port, hostname: config.host });
keepIdleConnections(server, config.keepAliveSeconds);

async function start(): Promise<{ bff: Bff; store: Store }> {
  const store = await createStore(config.databaseUrl ? { databaseUrl: config.databaseUrl, schema: config.databaseSchema } : { dataDir: config.dataDir });
  const now = config.clock === "emulator" ? await followEmulatorClock(config.clinicApiBaseUrl) : Date.now;
  // Large answers are taken in off the event loop (server/clinic/answer-intake.ts).
  const bff = createBffApp({ config, store, logger, now, clinicOptions: { intakeThread: true } });
  await bff.start();
  if (config.metrics) serveMetrics({ ...config.metrics, registry: bff.metrics, logger });
  gate.ready(bff.app.fetch, bff.health.isReady);
  logger.info(
    {
      port: config.port,
      sandbox: config.isSandbox,
      service: config.clinicApiBaseUrl,
      // ADR 0009: with PostgreSQL, processes sharing it share live events over LISTEN/NOTIFY; ADR 0026: and the upstream budget (or through Redis).
      liveEvents: store.notifications === null ? "in-process" : "postgres",
      upstreamBudget: config.redisUrl ? "redis" : config.databaseUrl ? "postgres" : "this process",
      // Issue 37 item 5: answers shared by every process.
      sharedAnswers: config.redisUrl ? "redis" : "none",
    },
    `Tandem BFF on http://localhost:${config.port}`,
  );
  return { bff, store };
}

const started = start();
started.catch((error: unknown) => {
  logger.fatal({ err: error }, "start-up failed");
  process.exit(1);
});

let stopping = false;
let interrupts = 0;
async function shutdown(signal: NodeJS.Signals): Promise<void> {
  // Only a repeated Ctrl-C forces: under `npm start` one Ctrl-C arrives as SIGINT from the terminal and SIGTERM from the supervisor.
  if (signal === "SIGINT" && ++interrupts > 1) {
    logger.warn({ signal }, "second Ctrl-C: exiting without waiting for the drain");
    process.exit(1);
  }
  if (stopping) return;
  stopping = true;
  // Not ready from now on; a shutdown during start-up lets the migrations finish first.
  gate.drain();
  logger.info({ signal }, "shutting down");
  const { bff, store } = await started;
  const outcome = await drainAndClose({
    gate,
    listener: nodeListener(server),
    streams: bff.streams,
    closeBackground: () => bff.close(),
    closeStore: () => store.close(),
    graceMs: config.shutdownGraceSeconds * 1000,
    wait: (ms, signal) => delay(ms, undefined, { signal }),
    logger,
  });
  process.exit(outcome.clean ? 0 : 1);
}
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    shutdown(signal).catch((error: unknown) => {
      logger.fatal({ err: error }, "shutdown failed");
      process.exit(1);
    });
  });
}
