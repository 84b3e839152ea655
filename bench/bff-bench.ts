import { fork, type ChildProcess } from "node:child_process";
import http from "node:http";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ReadyMessage, StatsMessage } from "./bff-bench-server.ts";
import { percentile, round } from "./measure.ts";

// The BFF's budgets (DESIGN.md "Performance budgets"): median and p99 latency
// of a proxied read against a direct call to the emulator in the same run (at
// most 1.2×, 1 ms added); proxied reads per second against a bare `node:http`
// proxy in the same run (at least 0.7× of it, and 3,000/s); RSS after the load
// (at most 150 MB). The servers run in one forked child
// (`bench/bff-bench-server.ts`), the load generator here, over loopback HTTP
// with keep-alive. About 35 s on 2 cores.

const ORG_ID = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
/** The sandbox data key, for the direct calls (bench code only, never a browser). */
const DATA_KEY = "svc_dev_ak_5a0d1e2f3a4b5c6d7e8f90a1b2c3d4e5";
/** The exact upstream request the BFF makes for `/api/facilities` (paging.ts). */
const UPSTREAM_PATH = "/v1/facilities?page=1&pageSize=100";

const LATENCY_SAMPLES = 300;
const LATENCY_WARMUP = 60;
const CONCURRENCY = 32;
const THROUGHPUT_MS = 5_000;
const THROUGHPUT_WARMUP_MS = 700;
const REQUEST_TIMEOUT_MS = 5_000;
const READY_TIMEOUT_MS = 30_000;

interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
}

interface Outcome {
  status: number;
  bytes: number;
}

/** One GET over `agent`; resolves once the whole body is read. */
function get(agent: http.Agent, target: Target): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const request = http.get(target.url, { agent, headers: target.headers }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, bytes }));
      response.on("error", reject);
    });
    request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy(new Error(`timeout after ${REQUEST_TIMEOUT_MS} ms`)));
    request.on("error", reject);
  });
}

const keepAlive = (maxSockets: number) => new http.Agent({ keepAlive: true, maxSockets, keepAliveMsecs: 30_000 });

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`${init?.method ?? "GET"} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A host token of org A (5 minutes, reusable for GETs). */
async function hostToken(emulatorUrl: string): Promise<string> {
  const { users } = await json<{ users: { id: string; active: boolean; hidden: boolean }[] }>(`${emulatorUrl}/_sandbox/ehr/${ORG_ID}/users`);
  const user = users.find((candidate) => candidate.active && !candidate.hidden) ?? users[0];
  if (!user) throw new Error("the emulator has no user in org A");
  const { token } = await json<{ token: string }>(`${emulatorUrl}/_sandbox/host-token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ organizationId: ORG_ID, userId: user.id }),
  });
  return token;
}

/** The forked server process, with a request/answer helper over IPC. */
class ServerChild {
  private nextId = 1;
  private readonly waiting = new Map<number, (message: StatsMessage) => void>();
  readonly ready: Promise<ReadyMessage>;

  constructor(readonly child: ChildProcess) {
    this.ready = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`bff-bench-server not ready after ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
      child.on("message", (message: { type?: string; id?: number; message?: string }) => {
        if (message.type === "ready") {
          clearTimeout(timer);
          resolve(message as ReadyMessage);
        } else if (message.type === "error") {
          clearTimeout(timer);
          reject(new Error(`bff-bench-server failed: ${message.message ?? "?"}`));
        } else if (message.type === "stats" && message.id !== undefined) {
          this.waiting.get(message.id)?.(message as StatsMessage);
          this.waiting.delete(message.id);
        }
      });
      child.on("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`bff-bench-server exited (${signal ?? code ?? "?"}) before it was ready`));
      });
      child.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  stats(): Promise<StatsMessage> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error("bff-bench-server did not answer stats"));
      }, 5_000);
      this.waiting.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      this.child.send({ type: "stats", id });
    });
  }

  /** Runs a collection in the child (only with `--expose-gc` in BFF_BENCH_CHILD_ARGS), then reads its stats. */
  async gcThenStats(): Promise<StatsMessage> {
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.child.off("message", onMessage);
        resolve();
      };
      const onMessage = (message: { type?: string }) => {
        if (message.type === "gc") done();
      };
      const timer = setTimeout(done, 5_000);
      this.child.on("message", onMessage);
      this.child.send({ type: "gc", id: 0 });
    });
    return this.stats();
  }

  /** Asks the child to exit (so `--cpu-prof` is written), then kills it if it has not within 3 s. */
  async stop(): Promise<void> {
    const { child } = this;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    if (child.connected) child.send({ type: "exit" });
    const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
    await exited;
    clearTimeout(timer);
  }
}

function startServer(): ServerChild {
  const script = fileURLToPath(new URL("./bff-bench-server.ts", import.meta.url));
  // BFF_BENCH_CHILD_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the servers.
  const extra = (process.env.BFF_BENCH_CHILD_ARGS ?? "").split(/\s+/).filter((arg) => arg !== "");
  const child = fork(script, [], { execArgv: ["--import", "tsx", ...extra], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return new ServerChild(child);
}

const summary = (sorted: readonly number[]) => ({ medianMs: round(percentile(sorted, 50), 3), p99Ms: round(percentile(sorted, 99), 3) });

/** Sequential keep-alive GETs, interleaved across targets (rotating order) so they share conditions. */
async function latencies(targets: readonly Target[]): Promise<Map<string, number[]>> {
  const agents = targets.map(() => keepAlive(1));
  const samples = new Map<string, number[]>(targets.map((target) => [target.name, []]));
  try {
    for (let pass = 0; pass < LATENCY_WARMUP + LATENCY_SAMPLES; pass += 1) {
      for (let k = 0; k < targets.length; k += 1) {
        const index = (pass + k) % targets.length;
        const target = targets[index] as Target;
        const start = performance.now();
        const outcome = await get(agents[index] as http.Agent, target);
        const elapsed = performance.now() - start;
        if (outcome.status !== 200) throw new Error(`${target.name}: ${target.url} answered ${outcome.status}`);
        if (pass >= LATENCY_WARMUP) samples.get(target.name)?.push(elapsed);
      }
    }
  } finally {
    for (const agent of agents) agent.destroy();
  }
  for (const values of samples.values()) values.sort((a, b) => a - b);
  return samples;
}

interface ThroughputResult {
  readsPerSecond: number;
  requests: number;
  errors: number;
  non200: number;
  bytesPerResponse: number;
  /** The server process's event-loop utilization during the measured window (1 = saturated). */
  serverEventLoopUtilization: number;
  /** CPU time of the server process / of this load generator, as a fraction of one core. */
  serverCpuCores: number;
  loadGeneratorCpuCores: number;
  /** Upstream calls the BFFs made per answered read in the window (coalescing of identical in-flight reads lowers it). */
  upstreamCallsPerRead: number;
}

/** `CONCURRENCY` closed-loop workers on keep-alive sockets: a warm-up, then `THROUGHPUT_MS` measured. */
async function throughput(server: ServerChild, target: Target): Promise<ThroughputResult> {
  const agent = keepAlive(CONCURRENCY);
  const counts = { requests: 0, errors: 0, non200: 0, bytes: 0 };
  let measuring = false;
  let stopAt = Number.POSITIVE_INFINITY;
  const worker = async () => {
    while (performance.now() < stopAt) {
      try {
        const outcome = await get(agent, target);
        if (!measuring) continue;
        counts.requests += 1;
        counts.bytes += outcome.bytes;
        if (outcome.status !== 200) counts.non200 += 1;
      } catch {
        if (measuring) counts.errors += 1;
      }
    }
  };
  try {
    const workers = Array.from({ length: CONCURRENCY }, worker);
    await new Promise((resolve) => setTimeout(resolve, THROUGHPUT_WARMUP_MS));
    const before = await server.stats();
    const cpuBefore = process.cpuUsage();
    const start = performance.now();
    measuring = true;
    stopAt = start + THROUGHPUT_MS;
    await new Promise((resolve) => setTimeout(resolve, THROUGHPUT_MS));
    measuring = false;
    const elapsedMs = performance.now() - start;
    const after = await server.stats();
    const cpu = process.cpuUsage(cpuBefore);
    await Promise.all(workers);
    const upstream = (stats: StatsMessage) => stats.clinic.cached.upstreamRequests + stats.clinic.uncached.upstreamRequests;
    const serverCpuUs = after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system;
    const active = after.elu.active - before.elu.active;
    const idle = after.elu.idle - before.elu.idle;
    return {
      readsPerSecond: Math.round((counts.requests / elapsedMs) * 1000),
      requests: counts.requests,
      errors: counts.errors,
      non200: counts.non200,
      bytesPerResponse: counts.requests > 0 ? Math.round(counts.bytes / counts.requests) : 0,
      serverEventLoopUtilization: round(active / (active + idle)),
      serverCpuCores: round(serverCpuUs / 1000 / elapsedMs),
      loadGeneratorCpuCores: round((cpu.user + cpu.system) / 1000 / elapsedMs),
      upstreamCallsPerRead: counts.requests > 0 ? round((upstream(after) - upstream(before)) / counts.requests, 3) : 0,
    };
  } finally {
    stopAt = 0;
    agent.destroy();
  }
}

const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);

export async function runBffBench(): Promise<Record<string, unknown>[]> {
  const server = startServer();
  try {
    const ready = await server.ready;
    const token = await hostToken(ready.emulatorUrl);
    const upstreamHeaders = { accept: "application/json", authorization: `Bearer ${DATA_KEY}`, "x-organization-id": ORG_ID };
    const appHeaders = { accept: "application/json", authorization: `Bearer ${token}` };
    const direct: Target = { name: "direct", url: `${ready.emulatorUrl}${UPSTREAM_PATH}`, headers: upstreamHeaders };
    const proxy: Target = { name: "proxy", url: `${ready.proxyUrl}${UPSTREAM_PATH}`, headers: { accept: "application/json" } };
    const uncached: Target = { name: "bffUncached", url: `${ready.bffUncachedUrl}/api/facilities`, headers: appHeaders };
    const cached: Target = { name: "bffCached", url: `${ready.bffUrl}/api/facilities`, headers: appHeaders };

    // Latency: sequential, one keep-alive socket per target.
    const samples = await latencies([direct, uncached, cached, proxy]);
    const of = (name: string) => summary(samples.get(name) ?? []);
    const [d, u, c, p] = [of("direct"), of("bffUncached"), of("bffCached"), of("proxy")];
    const afterLatency = await server.stats();
    const latency = {
      bench: "bff-latency",
      route: "GET /api/facilities vs GET /v1/facilities",
      samples: LATENCY_SAMPLES,
      directMedianMs: d.medianMs,
      directP99Ms: d.p99Ms,
      bffUncachedMedianMs: u.medianMs,
      bffUncachedP99Ms: u.p99Ms,
      ratioMedian: round(u.medianMs / d.medianMs),
      addedMedianMs: round(u.medianMs - d.medianMs, 3),
      ratioP99: round(u.p99Ms / d.p99Ms),
      addedP99Ms: round(u.p99Ms - d.p99Ms, 3),
      bffCachedMedianMs: c.medianMs,
      bffCachedP99Ms: c.p99Ms,
      cachedRatioMedian: round(c.medianMs / d.medianMs),
      cachedAddedMedianMs: round(c.medianMs - d.medianMs, 3),
      bareProxyMedianMs: p.medianMs,
      bareProxyP99Ms: p.p99Ms,
      budgetRatio: 1.2,
      budgetAddedMs: 1,
      withinBudgetRatio: u.medianMs <= 1.2 * d.medianMs,
      withinBudgetAddedMs: u.medianMs - d.medianMs <= 1,
      uncachedUpstreamCalls: afterLatency.clinic.uncached.upstreamRequests,
      cachedUpstreamCalls: afterLatency.clinic.cached.upstreamRequests,
    };

    // Throughput: the bare proxy, the uncached BFF, the cached BFF, and the emulator alone for context.
    const proxyRun = await throughput(server, proxy);
    const uncachedRun = await throughput(server, uncached);
    const cachedRun = await throughput(server, cached);
    const directRun = await throughput(server, direct);
    const throughputLine = {
      bench: "bff-throughput",
      concurrency: CONCURRENCY,
      seconds: THROUGHPUT_MS / 1000,
      bareProxyReadsPerSecond: proxyRun.readsPerSecond,
      bffUncachedReadsPerSecond: uncachedRun.readsPerSecond,
      bffCachedReadsPerSecond: cachedRun.readsPerSecond,
      directReadsPerSecond: directRun.readsPerSecond,
      ratioUncachedToBareProxy: round(uncachedRun.readsPerSecond / proxyRun.readsPerSecond),
      ratioCachedToBareProxy: round(cachedRun.readsPerSecond / proxyRun.readsPerSecond),
      minReadsPerSecond: 3000,
      minRatioToBareProxy: 0.7,
      withinBudgetUncached: uncachedRun.readsPerSecond >= 3000 && uncachedRun.readsPerSecond >= 0.7 * proxyRun.readsPerSecond,
      withinBudgetCached: cachedRun.readsPerSecond >= 3000 && cachedRun.readsPerSecond >= 0.7 * proxyRun.readsPerSecond,
      errors: { bareProxy: proxyRun.errors + proxyRun.non200, bffUncached: uncachedRun.errors + uncachedRun.non200, bffCached: cachedRun.errors + cachedRun.non200, direct: directRun.errors + directRun.non200 },
      serverEventLoopUtilization: { bareProxy: proxyRun.serverEventLoopUtilization, bffUncached: uncachedRun.serverEventLoopUtilization, bffCached: cachedRun.serverEventLoopUtilization, direct: directRun.serverEventLoopUtilization },
      serverCpuCores: { bareProxy: proxyRun.serverCpuCores, bffUncached: uncachedRun.serverCpuCores, bffCached: cachedRun.serverCpuCores, direct: directRun.serverCpuCores },
      upstreamCallsPerRead: { bffUncached: uncachedRun.upstreamCallsPerRead, bffCached: cachedRun.upstreamCallsPerRead },
      loadGeneratorCpuCores: { bareProxy: proxyRun.loadGeneratorCpuCores, bffUncached: uncachedRun.loadGeneratorCpuCores, bffCached: cachedRun.loadGeneratorCpuCores, direct: directRun.loadGeneratorCpuCores },
      bytesPerResponse: { bareProxy: proxyRun.bytesPerResponse, bff: cachedRun.bytesPerResponse },
      limiterRaisedForBench: true,
      setup: "emulator, both BFFs and the bare proxy share one child process (one event loop); load from the parent over loopback",
    };

    const after = await server.stats();
    const afterGc = after.gcAvailable ? await server.gcThenStats() : undefined;
    const memory = {
      bench: "bff-memory",
      rssMb: mb(after.memory.rss),
      heapUsedMb: mb(after.memory.heapUsed),
      heapTotalMb: mb(after.memory.heapTotal),
      externalMb: mb(after.memory.external),
      arrayBuffersMb: mb(after.memory.arrayBuffers),
      rssStagesMb: ready.rssStagesMb,
      gcAvailable: after.gcAvailable,
      ...(afterGc && { rssAfterGcMb: mb(afterGc.memory.rss), heapUsedAfterGcMb: mb(afterGc.memory.heapUsed), externalAfterGcMb: mb(afterGc.memory.external) }),
      maxRssMb: 150,
      withinBudget: mb(after.memory.rss) <= 150,
      process: "one process: Node + tsx loader, emulator, 2 BFFs sharing one in-memory PGlite, bare proxy; after the load",
      clinicStats: after.clinic,
    };
    return [latency, throughputLine, memory];
  } finally {
    await server.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await runBffBench()) console.log(JSON.stringify(line));
}
