import { randomBytes } from "node:crypto";
import { createStore } from "../../store/create-store.ts";
import type { Store } from "../../store/store.ts";
import { dropSchema } from "../../store/testing/drop-schema.ts";

// The store engines a hardening run covers: the embedded PGlite always,
// PostgreSQL too when a connection string is given (DATABASE_URL in CI),
// each on a schema of its own that is dropped afterwards.

export type StoreEngine = { name: "pglite"; databaseUrl?: undefined } | { name: "postgres"; databaseUrl: string };

export function storeEngines(databaseUrl: string | undefined): StoreEngine[] {
  return [{ name: "pglite" }, ...(databaseUrl ? [{ name: "postgres" as const, databaseUrl }] : [])];
}

export interface EngineStore {
  store: Store;
  /** Closes the store, and drops its PostgreSQL schema. */
  close(): Promise<void>;
}

export async function openEngineStore(engine: StoreEngine): Promise<EngineStore> {
  if (engine.name === "pglite") {
    const store = await createStore();
    return { store, close: () => store.close() };
  }
  const schema = `fuzz_${process.pid}_${randomBytes(4).toString("hex")}`;
  const store = await createStore({ databaseUrl: engine.databaseUrl, schema });
  return {
    store,
    async close() {
      try {
        await store.close();
      } finally {
        await dropSchema(engine.databaseUrl, schema);
      }
    },
  };
}
