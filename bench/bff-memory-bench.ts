import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { freePort } from "../scripts/free-port.ts";
import { waitUntilHealthy } from "../scripts/wait-until-healthy.ts";
import { round } from "./measure.ts";

// Issue 3's memory figure for the BFF process alone (as deployed: no
// emulator in it), on PostgreSQL when DATABASE_URL is set (CI's machine has
// one), else on PGlite: RSS after start and after 15 s of 32 concurrent
// reads. Run with tsx, whose loader adds tens of MB a compiled build would not.

const ORG_A = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
const LOAD_MS = 15_000;
const CONCURRENCY = 32;

const rssMb = (pid: number | undefined) => round(Number(execFileSync("ps", ["-o", "rss=", "-p", String(pid)]).toString().trim()) / 1024, 1);

export async function runBffMemoryBench(): Promise<Record<string, unknown>> {
  const [emulatorPort, bffPort] = [await freePort(), await freePort()];
  const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
  const bffUrl = `http://127.0.0.1:${bffPort}`;
  const engine = process.env.DATABASE_URL ? "postgresql" : "pglite";
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "warn" };
  delete env.CLINIC_API_BASE_URL;
  const emulator = spawn(process.execPath, ["--import", "tsx", "emulator/index.ts"], { env: { ...env, PORT: String(emulatorPort) }, stdio: "ignore" });
  const bff = spawn(process.execPath, ["--import", "tsx", "server/index.ts"], { env: { ...env, PORT: String(bffPort), SANDBOX_EMULATOR_URL: emulatorUrl, ...(process.env.DATABASE_URL ? {} : { DATA_DIR: join(mkdtempSync(join(tmpdir(), "tandem-bench-")), "pglite") }) }, stdio: "ignore" });
  try {
    await waitUntilHealthy(`${emulatorUrl}/healthz`, { child: emulator });
    await waitUntilHealthy(`${bffUrl}/healthz`, { child: bff });
    const users = (await (await fetch(`${emulatorUrl}/_sandbox/ehr/${ORG_A}/users`)).json()) as { users: { id: string }[] };
    const tokenResponse = await fetch(`${emulatorUrl}/_sandbox/host-token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ organizationId: ORG_A, userId: users.users[0]?.id }) });
    const { token } = (await tokenResponse.json()) as { token: string };
    const afterStart = rssMb(bff.pid);
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
    return { bench: "bff-memory-alone", engine, loader: "tsx", rssAfterStartMb: afterStart, rssAfterLoadMb: rssMb(bff.pid), requests, failures, seconds: LOAD_MS / 1000, concurrency: CONCURRENCY, maxRssMb: 150 };
  } finally {
    bff.kill("SIGTERM");
    emulator.kill("SIGTERM");
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runBffMemoryBench()));
}
