import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// The two Node programs Tandem runs, and how: compiled into build/ and run by
// plain `node` (`npm start`, the e2e suite, production), or from source under
// tsx (`npm run dev` watching, tests that exercise the sources).

export type Program = "server" | "emulator";
export type RunMode = "compiled" | "source" | "watch";

/** True when this module is itself the compiled copy (build/scripts/programs.js). */
export const RUNNING_COMPILED = import.meta.url.endsWith(".js");
export const REPO_ROOT = fileURLToPath(new URL(RUNNING_COMPILED ? "../../" : "../", import.meta.url));
export const BUILD_DIR = join(REPO_ROOT, "build");

/** The compiled entry point of `program` (exists after `npm run build`). */
export function compiledEntry(program: Program | "scripts/start"): string {
  return join(BUILD_DIR, program === "scripts/start" ? "scripts/start.js" : `${program}/index.js`);
}

/** The arguments of `node` that run `program` in `mode`. */
export function programArgs(program: Program, mode: RunMode): string[] {
  const source = join(REPO_ROOT, program, "index.ts");
  switch (mode) {
    case "compiled":
      return [compiledEntry(program)];
    case "source":
      return ["--import", "tsx", source];
    case "watch":
      // tsx's own watcher restarts the program on a change of any file it imported.
      return [createRequire(import.meta.url).resolve("tsx/cli"), "watch", source];
  }
}
