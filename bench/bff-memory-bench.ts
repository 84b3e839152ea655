import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { freePort } from "../scripts/free-port.ts";
import { waitUntilHealthy } from "../scripts/wait-until-healthy.ts";
import { round } from "./measure.ts";

// The BFF process's memory alone (as deployed: no emulator in it): RSS after
// start, after 15 s of 32 concurrent reads, and its peak (VmHWM). Always on
// the embedded store with its chosen configuration (ADR 0019), on a new data
// directory (the first start, which creates it) and again on the same one
// (a restart); on PostgreSQL too when DATABASE_URL is set. Run with tsx, whose
// loader adds tens of MB a compiled build would not. `withinBudget` compares
// the peak with `maxRssMb`: 300 MB on the embedded store (issue 16), 150 MB on
// PostgreSQL (issue 3).

const ORG_A = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
const LOAD_MS = 15_000;
const CONCURRENCY = 32;

function statusMb(pid: number | undefined, field: "VmRSS" | "VmHWM"): number {
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return round(Number(match?.[1]) / 1024, 1);
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", () => resolve()));
}

type Engine = { name: "pglite"; dataDir: string; start: "first" | "restart" } | { name: "postgresql"; databaseUrl: string };

async function measureBff(engine: Engine): Promise<Record<string, unknown>> {
  const [emulatorPort, bffPort] = [await freePort(), await freePort()];
  const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
  const bffUrl = `http://127.0.0.1:${bffPort}`;
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "warn" };
  delete env.CLINIC_API_BASE_URL;
  delete env.DATABASE_URL;
  const storeEnv = engine.name === "pglite" ? { DATA_DIR: engine.dataDir } : { DATABASE_URL: engine.databaseUrl };
  const emulator = spawn(process.execPath, ["--import", "tsx", "emulator/index.ts"], { env: { ...env, PORT: String(emulatorPort) }, stdio: "ignore" });
  const bff = spawn(process.execPath, ["--import", "tsx", "server/index.ts"], { env: { ...env, ...storeEnv, PORT: String(bffPort), SANDBOX_EMULATOR_URL: emulatorUrl }, stdio: "ignore" });
  try {
    await waitUntilHealthy(`${emulatorUrl}/healthz`, { child: emulator });
    await waitUntilHealthy(`${bffUrl}/healthz`, { child: bff });
    const users = (await (await fetch(`${emulatorUrl}/_sandbox/ehr/${ORG_A}/users`)).json()) as { users: { id: string }[] };
    const tokenResponse = await fetch(`${emulatorUrl}/_sandbox/host-token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ organizationId: ORG_A, userId: users.users[0]?.id }) });
    const { token } = (await tokenResponse.json()) as { token: string };
    const afterStart = statusMb(bff.pid, "VmRSS");
    let requests = 0;
    let failures = 0;
    const end = Date.now() + LOAD_MS;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (Date.now() < end) {
          const response = await fetch(`${bffUrl}/api/facilities`, { headers: { authorization: `Bearer ${token}` } });
          await response.arrayBuffer();
          if (response.ok) requests += 1;
          else failures += 1;
        }
      }),
    );
    const maxRssMb = engine.name === "pglite" ? 300 : 150;
    const peakRssMb = statusMb(bff.pid, "VmHWM");
    return {
      bench: "bff-memory-alone",
      engine: engine.name,
      ...(engine.name === "pglite" ? { start: engine.start } : {}),
      loader: "tsx",
      rssAfterStartMb: afterStart,
      rssAfterLoadMb: statusMb(bff.pid, "VmRSS"),
      peakRssMb,
      requests,
      failures,
      seconds: LOAD_MS / 1000,
      concurrency: CONCURRENCY,
      maxRssMb,
      withinBudget: peakRssMb <= maxRssMb,
    };
  } finally {
    bff.kill("SIGTERM");
    emulator.kill("SIGTERM");
    // The restart reopens this data directory: the BFF must have closed it.
    await Promise.all([exited(bff), exited(emulator)]);
  }
}

export async function runBffMemoryBench(): Promise<Record<string, unknown>[]> {
  const scratch = mkdtempSync(join(tmpdir(), "tandem-bench-"));
  try {
    const dataDir = join(scratch, "pglite");
    const rows = [await measureBff({ name: "pglite", dataDir, start: "first" }), await measureBff({ name: "pglite", dataDir, start: "restart" })];
    if (process.env.DATABASE_URL) rows.push(await measureBff({ name: "postgresql", databaseUrl: process.env.DATABASE_URL }));
    return rows;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of await runBffMemoryBench()) console.log(JSON.stringify(row));
}
