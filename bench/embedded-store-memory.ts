import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { register } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
// Loads no PGlite: the engine module imports it only when it starts one.
import { EMBEDDED_TUNING, type EmbeddedTuning } from "../server/store/embedded-engine.ts";
import type { MixResult } from "./embedded-store-mix.ts";

// What the embedded store costs in memory, engine by engine
// and setting by setting (ADR 0019 has the table and the choice). Each variant
// runs in a fresh Node process (`node --import tsx`, as the BFF runs): open
// the store (migrations included), then a representative mix of store
// operations (embedded-store-mix.ts). Reported: RSS (VmRSS), V8 heap used and
// external memory after the open and after the mix, the peak RSS (VmHWM), and
// the open and mix times. No thresholds: figures only.
//
//   npx tsx bench/embedded-store-memory.ts [--markdown] [--rounds N] [--only TEXT]
//     [--node 22=/path/to/node22 ...] [--pglite 0.4.6=/dir/of/that/package ...]
//
// --node adds rows on other Node versions (e.g. `npx -y -p node@24 which node`);
// --pglite adds rows on another PGlite version installed outside the repo
// (e.g. `npm i pglite04@npm:@electric-sql/pglite@0.4.6` in a scratch dir),
// swapped in for `@electric-sql/pglite` by a module resolution hook; --only
// keeps the variants whose label contains TEXT.

type Storage = "memory" | "new-dir" | "existing-dir";
type Host = "in-process" | "worker" | "child-process";

interface Variant {
  label: string;
  /** Key of a --node binary; default this process's Node. */
  node?: string;
  /** Key of a --pglite package directory; default the repo's. */
  pglite?: string;
  storage: Storage;
  tuning: Partial<EmbeddedTuning>;
  host: Host;
}

interface Sample {
  rssMb: number;
  heapUsedMb: number;
  externalMb: number;
}

interface Measured {
  /** Node, tsx and the store's modules loaded, nothing opened. */
  beforeOpen: Sample;
  afterOpen: Sample;
  afterMix: Sample;
  peakRssMb: number;
  openMs: number;
  mix: MixResult;
  /** The child-process host's PGlite process; the samples above are then the app process's. */
  storeProcess?: { afterOpenRssMb: number; afterMixRssMb: number; peakRssMb: number };
}

interface RunSpec {
  variant: Variant;
  dataDir: string | undefined;
  pgliteDir: string | undefined;
  rounds: number;
}

/** PGlite 0.5 as it was started before ADR 0019: its own settings, initdb in the process, V8's default compilers. */
const PGLITE_DEFAULTS: EmbeddedTuning = { settings: {}, initdbInChild: false, baselineCompilerOnly: false, relaxedDurability: false };
const DEFAULT_ROUNDS = 400;

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

function procStatusMb(pid: number | "self", field: "VmRSS" | "VmHWM"): number {
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match?.[1] === undefined ? Number.NaN : Math.round((Number(match[1]) / 1024) * 10) / 10;
}

function sample(): Sample {
  const usage = process.memoryUsage();
  return { rssMb: procStatusMb("self", "VmRSS"), heapUsedMb: mb(usage.heapUsed), externalMb: mb(usage.external) };
}

// ------------------------------------------------------------ the variants

function variants(nodes: string[], pglites: string[]): Variant[] {
  const list: Variant[] = [
    { label: "0.5 defaults, in memory", storage: "memory", tuning: PGLITE_DEFAULTS, host: "in-process" },
    { label: "0.5 defaults, new data dir", storage: "new-dir", tuning: PGLITE_DEFAULTS, host: "in-process" },
    { label: "0.5 defaults, existing data dir", storage: "existing-dir", tuning: PGLITE_DEFAULTS, host: "in-process" },
    { label: "0.5 initialMemory 256 MB", storage: "existing-dir", tuning: { ...PGLITE_DEFAULTS, initialMemoryMb: 256 }, host: "in-process" },
    { label: "0.5 relaxedDurability", storage: "existing-dir", tuning: { ...PGLITE_DEFAULTS, relaxedDurability: true }, host: "in-process" },
    { label: "0.5 shared_buffers 16MB", storage: "existing-dir", tuning: { ...PGLITE_DEFAULTS, settings: { shared_buffers: "16MB" } }, host: "in-process" },
    { label: "0.5 chosen settings (shared_buffers 8MB, max_connections 2)", storage: "existing-dir", tuning: { ...PGLITE_DEFAULTS, settings: EMBEDDED_TUNING.settings }, host: "in-process" },
    { label: "0.5 defaults, initdb in a child", storage: "new-dir", tuning: { ...PGLITE_DEFAULTS, initdbInChild: true }, host: "in-process" },
    { label: "0.5 defaults, baseline compiler only", storage: "existing-dir", tuning: { ...PGLITE_DEFAULTS, baselineCompilerOnly: true }, host: "in-process" },
    { label: "chosen, new data dir", storage: "new-dir", tuning: {}, host: "in-process" },
    { label: "chosen, existing data dir", storage: "existing-dir", tuning: {}, host: "in-process" },
    { label: "chosen, in memory", storage: "memory", tuning: {}, host: "in-process" },
    { label: "chosen without initdb in a child, new data dir", storage: "new-dir", tuning: { initdbInChild: false }, host: "in-process" },
    { label: "chosen without the small settings", storage: "existing-dir", tuning: { settings: {} }, host: "in-process" },
    { label: "chosen without baseline compiler only", storage: "existing-dir", tuning: { baselineCompilerOnly: false }, host: "in-process" },
    { label: "chosen + work_mem 1MB, maintenance_work_mem 8MB, wal_buffers 64kB", storage: "existing-dir", tuning: { settings: { ...EMBEDDED_TUNING.settings, work_mem: "1MB", maintenance_work_mem: "8MB", wal_buffers: "64kB" } }, host: "in-process" },
    { label: "chosen, in a worker thread", storage: "existing-dir", tuning: {}, host: "worker" },
    { label: "chosen, in a child process", storage: "existing-dir", tuning: {}, host: "child-process" },
  ];
  for (const node of nodes) {
    list.push(
      { label: `0.5 defaults, new data dir, Node ${node}`, node, storage: "new-dir", tuning: PGLITE_DEFAULTS, host: "in-process" },
      { label: `0.5 defaults, existing data dir, Node ${node}`, node, storage: "existing-dir", tuning: PGLITE_DEFAULTS, host: "in-process" },
      { label: `chosen, new data dir, Node ${node}`, node, storage: "new-dir", tuning: {}, host: "in-process" },
      { label: `chosen, existing data dir, Node ${node}`, node, storage: "existing-dir", tuning: {}, host: "in-process" },
    );
  }
  for (const pglite of pglites) {
    // initdb in the process: the child that would run it loads the repo's PGlite, not the swapped one.
    list.push(
      { label: `${pglite} defaults, new data dir`, pglite, storage: "new-dir", tuning: PGLITE_DEFAULTS, host: "in-process" },
      { label: `${pglite} defaults, existing data dir`, pglite, storage: "existing-dir", tuning: PGLITE_DEFAULTS, host: "in-process" },
      { label: `${pglite} defaults, baseline compiler only`, pglite, storage: "existing-dir", tuning: { ...PGLITE_DEFAULTS, baselineCompilerOnly: true }, host: "in-process" },
    );
  }
  return list;
}

// ------------------------------------------------------------ the parent

const SELF = fileURLToPath(import.meta.url);

function runChild(nodeBinary: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(nodeBinary, ["--import", "tsx", SELF, ...args], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${args[0] ?? ""} exited with ${code}`))));
  });
}

export async function runEmbeddedStoreMemoryBench(options: { nodes?: Record<string, string>; pglites?: Record<string, string>; rounds?: number; only?: (variant: Variant) => boolean } = {}): Promise<Record<string, unknown>[]> {
  const nodes = options.nodes ?? {};
  const pglites = options.pglites ?? {};
  const rounds = options.rounds ?? DEFAULT_ROUNDS;
  const rows: Record<string, unknown>[] = [];
  for (const variant of variants(Object.keys(nodes), Object.keys(pglites)).filter(options.only ?? (() => true))) {
    const nodeBinary = variant.node === undefined ? process.execPath : (nodes[variant.node] ?? process.execPath);
    const pgliteDir = variant.pglite === undefined ? undefined : pglites[variant.pglite];
    const scratch = mkdtempSync(join(tmpdir(), "tandem-embedded-"));
    try {
      const dataDir = variant.storage === "memory" ? undefined : join(scratch, "pglite");
      const spec: RunSpec = { variant, dataDir, pgliteDir, rounds };
      // A restart: the directory was made (and migrated) by an earlier process of the same engine.
      if (variant.storage === "existing-dir") await runChild(nodeBinary, ["--prepare", JSON.stringify(spec)]);
      const measured = JSON.parse(await runChild(nodeBinary, ["--run", JSON.stringify(spec)])) as Measured;
      rows.push({ bench: "embedded-store-memory", variant: variant.label, node: variant.node ?? process.versions.node.split(".")[0], pglite: variant.pglite ?? "0.5 (repo)", storage: variant.storage, host: variant.host, ...measured });
    } catch (error) {
      rows.push({ bench: "embedded-store-memory", variant: variant.label, failed: error instanceof Error ? error.message : String(error) });
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  return rows;
}

function markdownTable(rows: Record<string, unknown>[]): string {
  const lines = ["| variant | RSS before open | RSS after open | RSS after mix | peak RSS | heap / external after mix | open | mix |", "| --- | --: | --: | --: | --: | --: | --: | --: |"];
  for (const row of rows) {
    if (typeof row.failed === "string") {
      lines.push(`| ${String(row.variant)} | failed: ${row.failed} | | | | | | |`);
      continue;
    }
    const m = row as unknown as Measured;
    const store = m.storeProcess;
    const rss = (app: number, other: number | undefined) => (other === undefined ? `${app}` : `${app} + ${other} = ${Math.round((app + other) * 10) / 10}`);
    lines.push(
      `| ${String(row.variant)} | ${m.beforeOpen.rssMb} | ${rss(m.afterOpen.rssMb, store?.afterOpenRssMb)} | ${rss(m.afterMix.rssMb, store?.afterMixRssMb)} | ${rss(m.peakRssMb, store?.peakRssMb)} | ${m.afterMix.heapUsedMb} / ${m.afterMix.externalMb} | ${m.openMs} ms | ${m.mix.ms} ms |`,
    );
  }
  return lines.join("\n");
}

// ------------------------------------------------------------ the children

async function openAndMeasure(spec: RunSpec): Promise<Measured> {
  const [{ openDatabase }, { storeOnDatabase }, { runStoreMix }] = await Promise.all([import("../server/store/database.ts"), import("../server/store/create-store.ts"), import("./embedded-store-mix.ts")]);
  const beforeOpen = sample();
  const started = performance.now();
  // createStore() is openDatabase() then storeOnDatabase(); called apart here only to pass the tuning under test.
  const store = storeOnDatabase(await openDatabase({ dataDir: spec.dataDir, embedded: spec.variant.tuning }));
  const openMs = Math.round(performance.now() - started);
  const afterOpen = sample();
  const mix = await runStoreMix(store, spec.rounds);
  const afterMix = sample();
  const peakRssMb = procStatusMb("self", "VmHWM");
  await store.close();
  return { beforeOpen, afterOpen, afterMix, peakRssMb, openMs, mix };
}

function inWorker(spec: RunSpec): Promise<Measured> {
  return new Promise((resolve, reject) => {
    // A worker does not inherit tsx's hooks on Node 20: it registers them itself, then loads this file.
    const entry = `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))}).then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}); });`;
    const worker = new Worker(entry, { eval: true, workerData: spec });
    worker.once("message", (measured: Measured) => resolve(measured));
    worker.once("error", reject);
  });
}

async function inChildProcess(spec: RunSpec): Promise<Measured> {
  const [{ drizzle }, { migrate }, { storeOnDatabase }, { runStoreMix }, { childProcessClient }] = await Promise.all([
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
    import("../server/store/create-store.ts"),
    import("./embedded-store-mix.ts"),
    import("./embedded-store-child-host.ts"),
  ]);
  const beforeOpen = sample();
  const started = performance.now();
  const server: ChildProcess = spawn(process.execPath, ["--import", "tsx", SELF, "--serve", JSON.stringify(spec)], { stdio: ["ignore", "inherit", "inherit", "ipc"], serialization: "advanced" });
  const storeRss = (field: "VmRSS" | "VmHWM") => procStatusMb(server.pid ?? 0, field);
  try {
    const db = drizzle({ client: childProcessClient(server) });
    await migrate(db, { migrationsFolder: fileURLToPath(new URL("../server/store/migrations", import.meta.url)), migrationsSchema: "drizzle" });
    const store = storeOnDatabase({ engine: "pglite", schema: "public", db, notifications: null, poolUse: () => ({ total: 1, idle: 0, waiting: 0 }), close: () => Promise.resolve() });
    const openMs = Math.round(performance.now() - started);
    const afterOpen = sample();
    const storeAfterOpen = storeRss("VmRSS");
    const mix = await runStoreMix(store, spec.rounds);
    await store.close();
    return { beforeOpen, afterOpen, afterMix: sample(), peakRssMb: procStatusMb("self", "VmHWM"), openMs, mix, storeProcess: { afterOpenRssMb: storeAfterOpen, afterMixRssMb: storeRss("VmRSS"), peakRssMb: storeRss("VmHWM") } };
  } finally {
    server.disconnect();
  }
}

async function serve(spec: RunSpec): Promise<void> {
  const [{ startPglite, EMBEDDED_TUNING }, { serveQueries }] = await Promise.all([import("../server/store/embedded-engine.ts"), import("./embedded-store-child-host.ts")]);
  const db = await startPglite(spec.dataDir, { ...EMBEDDED_TUNING, ...spec.variant.tuning });
  serveQueries(db);
  process.once("disconnect", () => void db.close().then(() => process.exit(0)));
}

function swapPglite(pgliteDir: string): void {
  // Every import of "@electric-sql/pglite" (the store's and drizzle-orm's) gets the version under test.
  const target = pathToFileURL(join(pgliteDir, "dist", "index.js")).href;
  const hook = `export async function resolve(specifier, context, next) { return next(specifier === "@electric-sql/pglite" ? ${JSON.stringify(target)} : specifier, context); }`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
}

async function child(): Promise<void> {
  const { values } = parseArgs({ options: { run: { type: "string" }, prepare: { type: "string" }, serve: { type: "string" } }, strict: false });
  const raw = [values.run, values.prepare, values.serve].find((value) => typeof value === "string");
  if (typeof raw !== "string") throw new Error("no role");
  const spec = JSON.parse(raw) as RunSpec;
  if (spec.pgliteDir !== undefined) swapPglite(spec.pgliteDir);
  if (values.serve !== undefined) return serve(spec);
  if (values.prepare !== undefined) {
    await openAndMeasure({ ...spec, rounds: 0 });
    return;
  }
  const measured = spec.variant.host === "worker" ? await inWorker(spec) : spec.variant.host === "child-process" ? await inChildProcess(spec) : await openAndMeasure(spec);
  process.stdout.write(JSON.stringify(measured));
}

function keyedPaths(values: string[] | undefined): Record<string, string> {
  return Object.fromEntries((values ?? []).map((value) => value.split("=", 2) as [string, string]));
}

if (!isMainThread) {
  parentPort?.postMessage(await openAndMeasure(workerData as RunSpec));
} else if (process.argv.some((arg) => arg === "--run" || arg === "--prepare" || arg === "--serve")) {
  await child();
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { markdown: { type: "boolean" }, rounds: { type: "string" }, node: { type: "string", multiple: true }, pglite: { type: "string", multiple: true }, only: { type: "string" } } });
  const only = values.only;
  const rows = await runEmbeddedStoreMemoryBench({ nodes: keyedPaths(values.node), pglites: keyedPaths(values.pglite), ...(values.rounds === undefined ? {} : { rounds: Number(values.rounds) }), ...(only === undefined ? {} : { only: (variant: Variant) => variant.label.includes(only) }) });
  for (const row of rows) console.log(JSON.stringify(row));
  if (values.markdown) console.log(`\n${markdownTable(rows)}`);
}
