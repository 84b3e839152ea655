import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import v8 from "node:v8";
import type { PGlite } from "@electric-sql/pglite";

// How the embedded PGlite is started. The defaults are ADR 0019's choice,
// made on bench/embedded-store-memory.ts's figures; the bench passes other
// values to measure the alternatives.

export interface EmbeddedTuning {
  /** PostgreSQL settings for every start (`-c name=value`), beside PGlite's own; empty keeps PostgreSQL's defaults. */
  settings: Readonly<Record<string, string>>;
  /**
   * Initialise a new data directory in a short-lived child process, whose memory then goes back to the
   * system. In memory there is no directory to hand over, so initdb runs in this process.
   */
  initdbInChild: boolean;
  /** Compile PGlite's WebAssembly with V8's baseline compiler (Liftoff) only. Process-wide, and set once. */
  baselineCompilerOnly: boolean;
  /** PGlite's `relaxedDurability`: a query's answer does not wait for the file system sync. */
  relaxedDurability: boolean;
  /** PGlite's `initialMemory` in MB; undefined keeps its default (128, the least its module accepts). */
  initialMemoryMb?: number;
}

export const EMBEDDED_TUNING: EmbeddedTuning = {
  settings: {
    // The default 128 MB buffer pool is shared memory PGlite keeps in its WebAssembly heap for good;
    // the BFF's tables are small, and a page not in the pool is read from the file system (the OS's page cache).
    shared_buffers: "8MB",
    // One session: PGlite is single-user, and each allowed connection sizes lock tables in shared memory.
    max_connections: "2",
    superuser_reserved_connections: "0",
  },
  initdbInChild: true,
  baselineCompilerOnly: true,
  relaxedDurability: false,
};

const requireHere = createRequire(import.meta.url);

/** PGlite started as `tuning` says: in memory when `dataDir` is undefined. */
export async function startPglite(dataDir: string | undefined, tuning: EmbeddedTuning = EMBEDDED_TUNING): Promise<PGlite> {
  if (tuning.baselineCompilerOnly) useBaselineWasmCompiler();
  // Loaded only when used: PGlite's WebAssembly engine costs memory a BFF on PostgreSQL does not need.
  const { PGlite } = await import("@electric-sql/pglite");
  if (dataDir !== undefined) {
    await mkdir(dataDir, { recursive: true });
    if (tuning.initdbInChild && !isInitialised(dataDir)) await initdbInChildProcess(dataDir, tuning);
  }
  const settings = Object.entries(tuning.settings).flatMap(([name, value]) => ["-c", `${name}=${value}`]);
  const client = new PGlite(dataDir, {
    // Given, startParams replace PGlite's own, so those are kept in front.
    ...(settings.length === 0 ? {} : { startParams: [...PGlite.defaultStartParams, ...settings] }),
    relaxedDurability: tuning.relaxedDurability,
    ...(tuning.initialMemoryMb === undefined ? {} : { initialMemory: tuning.initialMemoryMb * 1024 * 1024 }),
  });
  await client.waitReady;
  return client;
}

function isInitialised(dataDir: string): boolean {
  // The file PGlite itself looks for to decide whether to run initdb.
  return existsSync(join(dataDir, "PG_VERSION"));
}

// Both, measured: Node 24 still optimises with only the second, and ignores `--liftoff-only` set at run time.
const BASELINE_ONLY_FLAGS = ["--no-wasm-dynamic-tiering", "--no-wasm-tier-up"];

let baselineCompilerSet = false;

function useBaselineWasmCompiler(): void {
  if (baselineCompilerSet) return;
  baselineCompilerSet = true;
  // Optimised (TurboFan) code for PostgreSQL's large functions costs tens of MB to keep, and hundreds of MB
  // and seconds of CPU to compile on two cores; the store's short queries gain nothing measurable from it
  // (ADR 0019 has the figures). Set here, before PGlite's module is compiled, as NODE_OPTIONS refuses V8 flags.
  for (const flag of BASELINE_ONLY_FLAGS) v8.setFlagsFromString(flag);
}

const execFileAsync = promisify(execFile);

// CommonJS so the child needs no loader: plain `node -e` works under tsx, vitest or a build alike.
// PGlite runs initdb when the directory holds no database, then starts; the child closes it at once.
const INITDB_SCRIPT = `require(process.argv[1]).PGlite.create(process.argv[2]).then((db) => db.close());`;

async function initdbInChildProcess(dataDir: string, tuning: EmbeddedTuning): Promise<void> {
  const flags = tuning.baselineCompilerOnly ? BASELINE_ONLY_FLAGS : [];
  try {
    await execFileAsync(process.execPath, [...flags, "-e", INITDB_SCRIPT, requireHere.resolve("@electric-sql/pglite"), dataDir]);
  } catch (error) {
    throw new Error(`store: initialising the PGlite data directory ${dataDir} failed`, { cause: error });
  }
}
