import { createBffApp } from "../server/app.ts";
import { ConfigError, readBffConfig, secretsOf } from "../server/env.ts";
import { createLogger } from "../server/logger.ts";
import { createStore } from "../server/store/create-store.ts";

// `npm run reconcile`: the nightly installations reconciliation, by hand
// (seed 001 "Delivery guarantees" 5: the installations list is authoritative).

try {
  const config = readBffConfig();
  const logger = createLogger({ level: config.logLevel, secrets: secretsOf(config), name: "reconcile" });
  const store = await createStore(config.databaseUrl ? { databaseUrl: config.databaseUrl, schema: config.databaseSchema } : { dataDir: config.dataDir });
  const bff = createBffApp({ config, store, logger });
  const written = await bff.installations.refresh();
  for (const installation of await store.installations.list()) {
    console.log(`${installation.organizationId}  ${installation.status.padEnd(11)}  grants: ${installation.grantedPermissions.join(", ") || "(required scopes only)"}`);
  }
  console.log(`${written} installation record(s) updated`);
  await bff.close();
  await store.close();
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof Error ? error.message : error);
  process.exit(1);
}
