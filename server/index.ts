import { serve } from "@hono/node-server";
import { createBffApp } from "./app.ts";
import { ConfigError, readBffConfig, secretsOf } from "./env.ts";
import { createLogger } from "./logger.ts";
import { serveMetrics } from "./metrics/metrics-server.ts";
import { followEmulatorClock } from "./sandbox-clock.ts";
import { createStore } from "./store/create-store.ts";

// `server/index.ts`: reads the configuration, opens the store (migrations at
// start-up), binds PORT (default 8787).

let config;
try {
  config = readBffConfig();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}

const logger = createLogger({ level: config.logLevel, secrets: secretsOf(config), name: "bff" });
const store = await createStore(config.databaseUrl ? { databaseUrl: config.databaseUrl, schema: config.databaseSchema } : { dataDir: config.dataDir });
const now = config.clock === "emulator" ? await followEmulatorClock(config.clinicApiBaseUrl) : Date.now;
const bff = createBffApp({ config, store, logger, now });
await bff.start();
if (config.metrics) serveMetrics({ ...config.metrics, registry: bff.metrics, logger });

const server = serve({ fetch: bff.app.fetch, port: config.port, hostname: config.host }, (info) => {
  logger.info(
    {
      port: info.port,
      sandbox: config.isSandbox,
      service: config.clinicApiBaseUrl,
      // Issue 8: with PostgreSQL, processes sharing it share live events over LISTEN/NOTIFY and split the upstream budget.
      liveEvents: store.notifications === null ? "in-process" : "postgres",
      upstreamRateShare: config.upstreamRateShare,
    },
    `Tandem BFF on http://localhost:${info.port}`,
  );
});

async function shutdown() {
  await bff.close();
  server.close();
  await store.close();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown());
process.on("SIGTERM", () => void shutdown());
