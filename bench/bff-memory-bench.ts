import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { freePort } from "../scripts/testing/free-port.ts";
import { programArgs } from "../scripts/programs.ts";
import { waitUntilHealthy } from "../scripts/wait-until-healthy.ts";
import { round } from "./measure.ts";
import { stopChild } from "./stop-child.ts";
import { dropSchema } from "../server/store/testing/drop-schema.ts";

// The compiled BFF process's memory alone (as deployed: `node` running
// build/server/index.js with the flags `npm start` gives it, no emulator in
// it), on the embedded store (a new data directory, then a restart on it) and
// on PostgreSQL when DATABASE_URL is set. Figures: RSS after start, after
// 100,000 requests, its peak (VmHWM), and the heap V8 holds; on PostgreSQL
// also a soak (MEMORY_SOAK_SECONDS, default 600): the same traffic for that
// long, RSS sampled every 5 s, and its slope in MB per minute after the
// first minute. Budgets: 300 MB on the embedded store, 150 MB on PostgreSQL
// (docs/operations.md "What the BFF keeps in memory").
//
// The traffic, 32 requests in flight, cycles through a pool of host tokens
// for several users of two organizations (each new token is verified once and
// remembered):
// - cache hits: the pickers (facilities, appointment types, providers);
// - cache misses: slot searches over windows that never repeat, which go
//   upstream until this process's share of the service's limit is spent and
//   are then answered 429, as a user would be;
// - the session and a note's draft (the store on every request).

const ORGS = ["3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61", "8c4e2d19-7a36-4b5f-a0e1-9d8c7b6a5f42"];
const REQUESTS = Number(process.env.MEMORY_REQUESTS ?? 100_000);
const SOAK_SECONDS = Number(process.env.MEMORY_SOAK_SECONDS ?? 600);
const CONCURRENCY = 32;
const TOKENS_PER_ORG = 500;
/** Host tokens live 5 minutes; the soak mints its pools again before they expire. */
const TOKEN_RENEW_MS = 4 * 60_000;
const SAMPLE_MS = 5_000;
const METRICS_SCRAPE_TIMEOUT_MS = 5_000;

function statusMb(pid: number | undefined, field: "VmRSS" | "VmHWM"): number {
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return round(Number(match?.[1]) / 1024, 1);
}

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${init?.method ?? "GET"} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The V8 heap the BFF reports on its metrics listener (prom-client's default metrics), MB. */
async function heapMb(metricsUrl: string): Promise<{ heapUsedMb: number; heapTotalMb: number }> {
  const text = await (await fetch(`${metricsUrl}/metrics`, { signal: AbortSignal.timeout(METRICS_SCRAPE_TIMEOUT_MS) })).text();
  const gauge = (name: string) => round(Number(new RegExp(`^${name} (\\S+)`, "m").exec(text)?.[1]) / 1024 / 1024, 1);
  return { heapUsedMb: gauge("nodejs_heap_size_used_bytes"), heapTotalMb: gauge("nodejs_heap_size_total_bytes") };
}

/** Least-squares slope of (seconds, MB) samples, in MB per minute. */
export function slopePerMinute(samples: readonly { seconds: number; mb: number }[]): number {
  const n = samples.length;
  if (n < 2) return 0;
  const meanX = samples.reduce((sum, sample) => sum + sample.seconds, 0) / n;
  const meanY = samples.reduce((sum, sample) => sum + sample.mb, 0) / n;
  let numerator = 0;
  let denominator = 0;
  for (const { seconds, mb } of samples) {
    numerator += (seconds - meanX) * (mb - meanY);
    denominator += (seconds - meanX) ** 2;
  }
  return denominator === 0 ? 0 : (numerator / denominator) * 60;
}

interface Traffic {
  /** Paths with the token to send them with, in the order they are sent. */
  next(index: number): { path: string; token: string };
  /** Mints the pools again (host tokens live 5 minutes: a soak renews them as the SPA does). */
  renew(): Promise<void>;
}

/** Tokens for every visible user of each organization (a pool of TOKENS_PER_ORG per organization), and the paths to cycle through. */
async function prepareTraffic(emulatorUrl: string, bffUrl: string): Promise<Traffic> {
  const pools: { desk: string[]; clinician: string[] }[] = [];
  const searches: { organization: number; base: string }[] = [];
  const drafts: string[] = [];
  const minters: (() => Promise<{ desk: string[]; clinician: string[] }>)[] = [];
  for (const [organization, organizationId] of ORGS.entries()) {
    const { users } = await json<{ users: { id: string; roles: string[]; hidden: boolean; active: boolean }[] }>(`${emulatorUrl}/_sandbox/ehr/${organizationId}/users`);
    const withRole = (role: string) => users.filter((user) => !user.hidden && user.active && user.roles.includes(role)).map((user) => user.id);
    const { notes } = await json<{ notes: { id: string; status: string }[] }>(`${emulatorUrl}/_sandbox/ehr/${organizationId}/notes`);
    const draftNote = notes.find((entry) => entry.status !== "signed")?.id;
    if (draftNote === undefined) throw new Error(`organization ${organizationId}: no unsigned note`);
    drafts.push(draftNote);
    const mint = async (userIds: string[], count: number, noteId?: string) => {
      const tokens: string[] = [];
      for (let start = 0; start < count; start += 8) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(8, count - start) }, (_, offset) =>
            json<{ token: string }>(`${emulatorUrl}/_sandbox/host-token`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ organizationId, userId: userIds[(start + offset) % userIds.length], noteId }),
            }),
          ),
        );
        tokens.push(...batch.map((answer) => answer.token));
      }
      return tokens;
    };
    // Nine in ten requests are the front desk's, one in ten a clinician's.
    const mintPool = async () => ({ desk: await mint(withRole("Front Desk"), (TOKENS_PER_ORG * 9) / 10), clinician: await mint(withRole("Physician"), TOKENS_PER_ORG / 10, draftNote) });
    minters.push(mintPool);
    const pool = await mintPool();
    pools.push(pool);
    const headers = { authorization: `Bearer ${pool.desk[0] ?? ""}` };
    const { facilities } = await json<{ facilities: { id: string }[] }>(`${bffUrl}/api/facilities`, { headers });
    const { appointmentTypes } = await json<{ appointmentTypes: { id: string }[] }>(`${bffUrl}/api/appointment-types`, { headers });
    for (const type of appointmentTypes.slice(0, 4)) {
      searches.push({ organization, base: new URLSearchParams({ appointmentTypeId: type.id, facilityIds: facilities.map((facility) => facility.id).join(","), isNewPatient: "false" }).toString() });
    }
  }
  const pickers = ["/api/facilities", "/api/appointment-types", "/api/providers"];
  return {
    next(index) {
      const organization = index % ORGS.length;
      const kind = index % 10;
      const pool = (kind < 9 ? pools[organization]?.desk : pools[organization]?.clinician) ?? [];
      const token = pool[Math.floor(index / ORGS.length) % pool.length] ?? "";
      if (kind < 6) return { path: pickers[index % pickers.length] ?? "/api/facilities", token };
      if (kind < 9) {
        const candidates = searches.filter((search) => search.organization === organization);
        const search = candidates[index % candidates.length];
        // A window starting on a different day each time, within about 27 years: no two searches are the same.
        const start = new Date(Date.UTC(2027, 0, 1) + (index % 10_000) * 86_400_000).toISOString().slice(0, 10);
        return { path: `/api/slots?${search?.base ?? ""}&startDate=${start}&endDate=${start}`, token };
      }
      return { path: `/api/notes/${drafts[organization] ?? ""}/draft`, token };
    },
    async renew() {
      const fresh = await Promise.all(minters.map((mintPool) => mintPool()));
      pools.splice(0, pools.length, ...fresh);
    },
  };
}

type Engine = { name: "pglite"; dataDir: string; start: "first" | "restart" } | { name: "postgresql"; databaseUrl: string; schema: string };

async function measureBff(engine: Engine, soakSeconds: number): Promise<Record<string, unknown>> {
  const [emulatorPort, bffPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
  const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
  const bffUrl = `http://127.0.0.1:${bffPort}`;
  const metricsUrl = `http://127.0.0.1:${metricsPort}`;
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "error" };
  delete env.CLINIC_API_BASE_URL;
  delete env.DATABASE_URL;
  const storeEnv = engine.name === "pglite" ? { DATA_DIR: engine.dataDir } : { DATABASE_URL: engine.databaseUrl, DATABASE_SCHEMA: engine.schema };
  const emulator = spawn(process.execPath, programArgs("emulator", "compiled"), { env: { ...env, PORT: String(emulatorPort) }, stdio: "ignore" });
  const bff = spawn(process.execPath, programArgs("server", "compiled"), {
    env: { ...env, ...storeEnv, PORT: String(bffPort), METRICS_PORT: String(metricsPort), SANDBOX_EMULATOR_URL: emulatorUrl },
    stdio: "ignore",
  });
  const children: ChildProcess[] = [bff, emulator];
  try {
    await waitUntilHealthy(`${emulatorUrl}/healthz`, { child: emulator });
    await waitUntilHealthy(`${bffUrl}/readyz`, { child: bff });
    const rssAfterStartMb = statusMb(bff.pid, "VmRSS");
    const traffic = await prepareTraffic(emulatorUrl, bffUrl);
    let statuses: Record<string, number> = {};
    let sent = 0;
    const send = async () => {
      const { path, token } = traffic.next(sent++);
      try {
        const response = await fetch(`${bffUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
        await response.arrayBuffer();
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      } catch {
        statuses.network = (statuses.network ?? 0) + 1;
      }
    };
    const loadStarted = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (sent < REQUESTS) await send();
    }));
    const loadSeconds = round((performance.now() - loadStarted) / 1000, 1);
    const afterLoad = { rssAfterRequestsMb: statusMb(bff.pid, "VmRSS"), ...(await heapMb(metricsUrl)), requests: REQUESTS, loadSeconds, statuses };

    const soak: Record<string, unknown> = {};
    if (soakSeconds > 0) {
      const samples: { seconds: number; mb: number }[] = [];
      const soakStarted = performance.now();
      const soakEnd = soakStarted + soakSeconds * 1000;
      const sampler = setInterval(() => samples.push({ seconds: (performance.now() - soakStarted) / 1000, mb: statusMb(bff.pid, "VmRSS") }), SAMPLE_MS);
      let renewals = Promise.resolve();
      const renewer = setInterval(() => {
        renewals = renewals.then(() => traffic.renew());
      }, TOKEN_RENEW_MS);
      const before = sent;
      statuses = {};
      await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < soakEnd) await send();
      }));
      clearInterval(sampler);
      clearInterval(renewer);
      await renewals;
      const afterFirstMinute = samples.filter((sample) => sample.seconds >= 60);
      const values = samples.map((sample) => sample.mb);
      Object.assign(soak, {
        soakSeconds,
        soakRequests: sent - before,
        soakStatuses: statuses,
        soakRssFirstMb: values[0],
        soakRssLastMb: values.at(-1),
        soakRssMinMb: Math.min(...values),
        soakRssMaxMb: Math.max(...values),
        soakSlopeMbPerMinute: round(slopePerMinute(afterFirstMinute.length >= 2 ? afterFirstMinute : samples), 2),
      });
    }
    const maxRssMb = engine.name === "pglite" ? 300 : 150;
    const peakRssMb = statusMb(bff.pid, "VmHWM");
    return {
      bench: "bff-memory-alone",
      engine: engine.name,
      ...(engine.name === "pglite" ? { start: engine.start } : {}),
      run: "compiled",
      nodeArgs: programArgs("server", "compiled").slice(0, -1).join(" "),
      rssAfterStartMb,
      ...afterLoad,
      concurrency: CONCURRENCY,
      tokens: TOKENS_PER_ORG * ORGS.length,
      ...soak,
      peakRssMb,
      maxRssMb,
      withinBudget: peakRssMb <= maxRssMb,
    };
  } finally {
    // The restart reopens this data directory: the BFF must have closed it.
    for (const child of children) await stopChild(child);
  }
}

export async function runBffMemoryBench(): Promise<Record<string, unknown>[]> {
  const scratch = mkdtempSync(join(tmpdir(), "tandem-bench-"));
  try {
    const dataDir = join(scratch, "pglite");
    // MEMORY_ENGINES=postgresql measures PostgreSQL alone (the soak's figures without the embedded store's runs).
    const rows = process.env.MEMORY_ENGINES === "postgresql" ? [] : [await measureBff({ name: "pglite", dataDir, start: "first" }, 0), await measureBff({ name: "pglite", dataDir, start: "restart" }, 0)];
    const databaseUrl = process.env.DATABASE_URL;
    if (databaseUrl) {
      const schema = `bench_memory_${process.pid}`;
      try {
        rows.push(await measureBff({ name: "postgresql", databaseUrl, schema }, SOAK_SECONDS));
      } finally {
        await dropSchema(databaseUrl, schema);
      }
    }
    return rows;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of await runBffMemoryBench()) console.log(JSON.stringify(row));
}
