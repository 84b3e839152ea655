import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPglite } from "./embedded-engine.ts";

// How the embedded engine is started (ADR 0019). Its memory figures are
// bench/embedded-store-memory.ts's; here only what it does.

// initdb and two starts: seconds each, more on a busy 2-core machine.
const SLOW_MS = 90_000;

describe("the embedded engine", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "tandem-embedded-"));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("initialises a new data directory, starts on it with the chosen settings, and keeps data across a restart", async () => {
    const dataDir = join(dir, "pglite");
    const first = await startPglite(dataDir);
    try {
      expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(true);
      const settings = await first.query<{ name: string; setting: string; unit: string | null }>(
        "SELECT name, setting, unit FROM pg_settings WHERE name IN ('shared_buffers', 'max_connections') ORDER BY name",
      );
      expect(settings.rows).toEqual([
        { name: "max_connections", setting: "2", unit: null },
        { name: "shared_buffers", setting: "1024", unit: "8kB" },
      ]);
      await first.exec("CREATE TABLE kept (id integer); INSERT INTO kept VALUES (7)");
    } finally {
      await first.close();
    }

    const again = await startPglite(dataDir);
    try {
      expect((await again.query<{ id: number }>("SELECT id FROM kept")).rows).toEqual([{ id: 7 }]);
    } finally {
      await again.close();
    }
  }, SLOW_MS);

  it("says which data directory it could not initialise", async () => {
    // No database, and a file where initdb must make a directory.
    const dataDir = join(dir, "blocked");
    await mkdir(dataDir);
    await writeFile(join(dataDir, "global"), "not a directory");
    await expect(startPglite(dataDir)).rejects.toThrow(`initialising the PGlite data directory ${dataDir}`);
  }, SLOW_MS);
});
