import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../scripts/testing/free-port.ts";
import { EMULATOR_BENCH_NODE_FLAGS, programArgs, REPO_ROOT } from "../../scripts/programs.ts";
import { waitUntilHealthy } from "../../scripts/wait-until-healthy.ts";
import { stopChild } from "../stop-child.ts";
import { dropSchema } from "../../server/store/testing/drop-schema.ts";

// The processes the load bench measures, compiled (`npm run build`) and run
// under plain node as in production (docs/deploy.md "What runs"): the
// emulator at EMULATOR_SCALE=large (four installed organizations) and one or
// more BFF processes. One process keeps its store in PGlite; several share
// one PostgreSQL schema, made fresh for the run and dropped after, and one
// upstream budget through it (or through Redis: `redisUrl`), ADR 0026.
// Every BFF counts the upstream limit per organization
// (RATE_LIMIT_SCOPE=organization), as the emulator does (DESIGN.md "The
// emulator": counted per key and organization).

const READY_TIMEOUT_MS = 90_000;
const OUTPUT_TAIL = 4_000;

export interface BffProcess {
  /** Where the load generator sends its requests (127.0.0.1: no name lookup per connection). */
  url: string;
  child: ChildProcess;
  /** Its Prometheus metrics (METRICS_PORT, docs/operations.md), for the upstream calls by route. */
  metricsUrl: string;
  /** Lines of its output (LOG_LEVEL=warn) that say the service rate-limited it. */
  rateLimitWarnings: () => number;
}

export interface LoadStack {
  emulatorUrl: string;
  emulator: ChildProcess;
  bffs: BffProcess[];
  store: "pglite" | "postgres";
  stop(): Promise<void>;
}

export interface LoadStackOptions {
  processes: number;
  /** PostgreSQL for every BFF (a fresh schema); PGlite when unset (one process only). */
  databaseUrl?: string;
  /** Where the processes share the upstream budget: PostgreSQL (the store's, the default) or Redis (this REDIS_URL). */
  redisUrl?: string;
  /** Where each BFF process and the emulator write a V8 CPU profile when they exit (`node --cpu-prof`, named by pid); none when unset. */
  cpuProfileDir?: string;
  /** Where each process's whole output is written (`emulator.log`, `bff-1.log`, …); only its tail is kept when unset. */
  logDir?: string;
  /** Each BFF's bench-only BENCH_DISABLE: the upstream client's mechanisms turned off (server/clinic/bench-switches.ts). */
  benchDisable?: string;
}

const ENV_LEFT_OUT = ["METRICS_PORT", "METRICS_HOST", "CLINIC_API_BASE_URL", "CLINIC_API_KEY", "DATABASE_URL", "DATABASE_SCHEMA", "DATA_DIR", "UPSTREAM_USER_LIMIT", "UPSTREAM_RATE_SHARE", "REDIS_URL", "RATE_LIMIT_SCOPE", "EMULATOR_SCALE", "LOG_LEVEL", "BENCH_DISABLE"];

interface Started {
  child: ChildProcess;
  output: () => string;
  warnings: () => number;
}

function startProgram(program: "server" | "emulator", env: NodeJS.ProcessEnv, nodeFlags: readonly string[] = [], logFile?: string): Started {
  const child = spawn(process.execPath, [...nodeFlags, ...programArgs(program, "compiled")], { cwd: REPO_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  let warnings = 0;
  const log = logFile === undefined ? null : createWriteStream(logFile);
  child.on("exit", () => log?.end());
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on("data", (chunk: Buffer) => {
      log?.write(chunk);
      const text = chunk.toString();
      warnings += text.match(/rate limited by the service/g)?.length ?? 0;
      output = (output + text).slice(-OUTPUT_TAIL);
    });
  }
  return { child, output: () => output, warnings: () => warnings };
}

export async function startLoadStack(options: LoadStackOptions): Promise<LoadStack> {
  if (options.processes > 1 && !options.databaseUrl) throw new Error("several BFF processes need DATABASE_URL (they share one PostgreSQL)");
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ENV_LEFT_OUT) delete base[name];
  const emulatorPort = await freePort();
  const bffPorts: number[] = [];
  const metricsPorts: number[] = [];
  for (let index = 0; index < options.processes; index += 1) {
    bffPorts.push(await freePort());
    metricsPorts.push(await freePort());
  }
  const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
  const dataDir = mkdtempSync(join(tmpdir(), "tandem-load-bench-"));
  const schema = `tandem_load_${randomBytes(4).toString("hex")}`;

  const profile = options.cpuProfileDir ? ["--cpu-prof", "--cpu-prof-dir", options.cpuProfileDir] : [];
  if (options.logDir !== undefined) mkdirSync(options.logDir, { recursive: true });
  const logFile = (name: string) => (options.logDir === undefined ? undefined : join(options.logDir, `${name}.log`));
  // The emulator's bench-only tuning, named as such (its answer memo and heap flags): it shares the cores with the BFFs here.
  const emulatorEnv = { ...base, PORT: String(emulatorPort), EMULATOR_APP_URL: `http://localhost:${bffPorts[0] ?? 0}`, EMULATOR_SCALE: "large", EMULATOR_BENCH_ANSWER_MEMO: "1" };
  const emulator = startProgram("emulator", emulatorEnv, [...EMULATOR_BENCH_NODE_FLAGS, ...profile], logFile("emulator"));
  const started: Started[] = [];
  const stop = async () => {
    for (const bff of started) await stopChild(bff.child);
    await stopChild(emulator.child);
    rmSync(dataDir, { recursive: true, force: true });
    if (options.databaseUrl) await dropSchema(options.databaseUrl, schema).catch(() => undefined);
  };
  try {
    await waitUntilHealthy(`${emulatorUrl}/healthz`, { child: emulator.child, log: () => `[emulator]\n${emulator.output()}`, timeoutMs: READY_TIMEOUT_MS });
    const budget: NodeJS.ProcessEnv = options.redisUrl === undefined ? {} : { REDIS_URL: options.redisUrl };
    // One after the other: the first applies the migrations (docs/deploy.md "PostgreSQL").
    for (const [index, port] of bffPorts.entries()) {
      const store: NodeJS.ProcessEnv = options.databaseUrl ? { DATABASE_URL: options.databaseUrl, DATABASE_SCHEMA: schema } : { DATA_DIR: join(dataDir, `pglite-${index}`) };
      const bff = startProgram("server", { ...base, ...store, PORT: String(port), METRICS_PORT: String(metricsPorts[index] ?? 0), SANDBOX_EMULATOR_URL: emulatorUrl, LOG_LEVEL: "warn", RATE_LIMIT_SCOPE: "organization", ...budget, ...(options.benchDisable && { BENCH_DISABLE: options.benchDisable }) }, profile, logFile(`bff-${index + 1}`));
      started.push(bff);
      await waitUntilHealthy(`http://127.0.0.1:${port}/healthz`, { child: bff.child, log: () => `[bff ${index + 1}]\n${bff.output()}`, timeoutMs: READY_TIMEOUT_MS });
    }
    // As the e2e sandbox does: the emulator's events reach a BFF (the first), which pushes them down the live streams of every process.
    const response = await fetch(`${emulatorUrl}/_sandbox/webhooks`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: `http://127.0.0.1:${bffPorts[0] ?? 0}/webhooks/clinic`, headerStyle: "standard" }),
    });
    if (!response.ok) throw new Error(`registering the webhook target: ${response.status} ${await response.text()}`);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    emulatorUrl,
    emulator: emulator.child,
    bffs: started.map((bff, index) => ({ url: `http://127.0.0.1:${bffPorts[index] ?? 0}`, metricsUrl: `http://127.0.0.1:${metricsPorts[index] ?? 0}/metrics`, child: bff.child, rateLimitWarnings: bff.warnings })),
    store: options.databaseUrl ? "postgres" : "pglite",
    stop,
  };
}
