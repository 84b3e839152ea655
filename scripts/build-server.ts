import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve, sep } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { BUILD_DIR, REPO_ROOT } from "./programs.ts";

// `npm run build` (after the SPA): the BFF, the emulator and the start and
// reconcile scripts compiled to plain ESM JavaScript in build/ by tsc
// (tsconfig.build.json: NodeNext, `.ts` imports rewritten to `.js`), laid out
// as the sources are, so every file a module finds beside itself through
// `import.meta.url` is copied to the same place (ADR 0018). `--out-dir`
// builds elsewhere (the start tests build their own copy); the compiled
// modules find their dependencies in the node_modules of a folder above it.

/** Files read at run time relative to the module that reads them. */
const RUNTIME_FILES: { from: string; filter?: (name: string) => boolean }[] = [
  // server/manifest.ts and emulator/oauth/oauth-client.ts read the app's manifest.
  { from: "svc.app.toml" },
  // server/store/database.ts: drizzle's SQL migrations and their journal.
  { from: "server/store/migrations" },
  // emulator/host-page/host-page.ts serves these to the browser as they are.
  { from: "emulator/host-page", filter: (name) => /\.(js|css)$/.test(name) },
];

/**
 * package.json's `imports` (the `#contract/…` alias, ADR 0021) as the
 * compiled modules need them. tsc leaves a non-relative specifier as it is
 * (`#contract/ids.ts`), so build/package.json maps it to the output
 * (`#contract/*.ts` to `./contract/*.js`). An alias whose target tsc does
 * not compile (`#src/*`: the SPA, which the server may not import) is left out.
 */
function compiledImports(): Record<string, string> {
  const { imports = {} } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { imports?: Record<string, unknown> };
  const compiled: Record<string, string> = {};
  for (const [alias, target] of Object.entries(imports)) {
    if (typeof target === "string" && target.endsWith(".ts")) compiled[alias] = target.replace(/\.ts$/, ".js");
  }
  return compiled;
}

const { values } = parseArgs({ options: { "out-dir": { type: "string" } } });
const outDir = resolve(values["out-dir"] ?? BUILD_DIR);
// It is emptied first: never the repository, nor a folder that holds a project.
if (REPO_ROOT.startsWith(join(outDir, "/")) || ["node_modules", ".git", "package-lock.json"].some((entry) => existsSync(join(outDir, entry)))) {
  throw new Error(`--out-dir ${outDir} is not a build folder`);
}

const started = performance.now();
rmSync(outDir, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", join(REPO_ROOT, "tsconfig.build.json"), "--outDir", outDir], { stdio: "inherit" });
// Test code (`*.test.ts` and `testing/` folders) never ships: tsc compiles
// only what the entry points import, and eslint forbids production code to
// import test code; should one slip through, the build fails here.
const shippedTestCode = readdirSync(outDir, { recursive: true, encoding: "utf8" }).filter((path) => path.split(sep).includes("testing") || /\.test\.js$/.test(path));
if (shippedTestCode.length > 0) {
  throw new Error(`test code in the production build (${outDir}): ${shippedTestCode.join(", ")}`);
}
for (const { from, filter } of RUNTIME_FILES) {
  const source = join(REPO_ROOT, from);
  if (filter) {
    for (const name of readdirSync(source).filter(filter)) cpSync(join(source, name), join(outDir, from, name));
  } else {
    cpSync(source, join(outDir, from), { recursive: true });
  }
}
// Copied elsewhere without the repository's package.json, the modules are
// still ES modules, and the aliases still resolve.
const buildPackage = { "//": "Compiled by npm run build (scripts/build-server.ts); not edited by hand.", type: "module", imports: compiledImports() };
writeFileSync(join(outDir, "package.json"), `${JSON.stringify(buildPackage, null, 2)}\n`);
process.stdout.write(`${outDir}: the BFF, the emulator and the scripts compiled in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
