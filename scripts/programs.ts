import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// The two Node programs Tandem runs, and how: compiled (build/, plain `node`:
// `npm start`, the e2e suite, production), or from source under tsx
// (`npm run dev` watching, tests of the sources).

export type Program = "server" | "emulator";
export type RunMode = "compiled" | "source" | "watch";

/** True when this module is itself compiled (build/scripts/programs.js). */
export const RUNNING_COMPILED = import.meta.url.endsWith(".js");
/** The tree this module is part of: the repository, or the build it was compiled into. */
const TREE_ROOT = fileURLToPath(new URL("../", import.meta.url));
/** The repository's sources (meaningful from source only). */
export const REPO_ROOT = TREE_ROOT;
/** The compiled programs: build/ of the repository, or, compiled, this module's own build wherever it was written. */
export const BUILD_DIR = RUNNING_COMPILED ? TREE_ROOT : join(TREE_ROOT, "build");

/**
 * How the compiled BFF is run (docs/deploy.md "Memory"). V8 sizes its heap
 * limit from the machine (about 4 GB on the 2-core test machine) and, with memory to spare, lets
 * the heap grow far past what is live: 330 MB RSS after 100,000 requests
 * whose live heap was under 60 MB. These keep the heap near what is live,
 * with room above for every in-memory cache full (docs/operations.md),
 * without `--optimize-for-size`, which collected so often that it cost the
 * 1,000-user load its latency ("How many users one process serves").
 */
export const BFF_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=4", "--max-old-space-size=128"];

/**
 * The emulator's under the load bench only (bench/load/load-stack.ts passes
 * them; every other run of the emulator uses V8's defaults): a large group's
 * slot search builds and serializes up to 3 MB per answer, and with V8's
 * default young generation much of that was promoted before it died, so the
 * old generation of the large world's 700 MB heap was collected over and
 * over, and every call queued behind those pauses, on the cores the bench's
 * BFFs share. A 64 MB semi-space lets it die young: under the 1,000-user
 * load the p99 went from 288 to 89 ms, and the emulator's RSS peak from 851
 * to 710 MB (bench/RESULTS.md, "History moved from docs/deploy.md").
 */
export const EMULATOR_BENCH_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=64"];

/** The arguments of `node` that run `program` in `mode`. */
export function programArgs(program: Program, mode: RunMode, buildDir = BUILD_DIR): string[] {
  if (mode === "compiled") return [...(program === "server" ? BFF_NODE_FLAGS : []), join(buildDir, program, "index.js")];
  if (RUNNING_COMPILED) throw new Error(`the compiled scripts run compiled programs only, not ${mode}`);
  const source = join(REPO_ROOT, program, "index.ts");
  // tsx's own watcher restarts the program on a change of any file it imported.
  return mode === "watch" ? [createRequire(import.meta.url).resolve("tsx/cli"), "watch", source] : ["--import", "tsx", source];
}
