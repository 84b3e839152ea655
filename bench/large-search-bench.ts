import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { MAX_SLOT_SEARCH_FACILITY_DAYS, maxSlotSearchDays } from "#contract/app-api/slots.ts";
import { idKey } from "#contract/ids.ts";
import { addDays } from "#contract/time/zoned-time.ts";
import { BFF_NODE_FLAGS, programArgs } from "../scripts/programs.ts";
import { freePort } from "../scripts/testing/free-port.ts";
import { waitUntilHealthy } from "../scripts/wait-until-healthy.ts";
import { dropSchema } from "../server/store/testing/drop-schema.ts";
import { round } from "./measure.ts";
import { stopChild } from "./stop-child.ts";

// Issue 34 item 1's figures, at EMULATOR_SCALE=large against the compiled
// BFF run as deployed (`node --max-semi-space-size=4 --max-old-space-size=128`,
// its intake threads on): before the fix, a front desk's search of the
// shortest appointment type over every facility of the largest group for 62
// days was answered with 30-35 MB of JSON, and the BFF died of heap
// exhaustion within seconds.
//
// 1. The widest search the form used to allow: answered 4xx, the process
//    stays up, and a second user's reads meanwhile are served.
// 2. The same answer cut off by the read limit: a BFF with
//    UPSTREAM_MAX_BODY_BYTES at 4 MiB asked for every facility over 14 days
//    (about 6 MB): 422, the process up.
// 3. 20 concurrent widest-allowed searches (the two facilities with the
//    largest answers over the whole 62 days, 20 distinct windows, none
//    cached): RSS sampled every 50 ms and its peak (VmHWM), beside the heap
//    limit.
// The BFF runs on PostgreSQL as deployed when DATABASE_URL is set (a schema
// of its own, dropped after), else on the embedded store (about 50 MB more RSS).
// The searches' upstream answers are measured by asking for them first. The
// emulator makes a large answer in 0.5-2 s of CPU and keeps it a minute at
// most; 20 at once queue behind each other past the BFF's 10 s timeout on a
// busy machine. So the BFF talks to the emulator through a replay in front of
// it (`startSlotReplay`) that serves a slot search the emulator already
// answered once as it answered it, at the wire's speed: what is measured is
// the BFF taking in 20 such answers at once, not the emulator making them.

const ORG_A = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
const DATA_KEY = "svc_dev_ak_5a0d1e2f3a4b5c6d7e8f90a1b2c3d4e5";
const CONCURRENT_SEARCHES = 20;
const CUT_OFF_LIMIT_BYTES = 4 * 1024 * 1024;
const HEAP_LIMIT_MB = Number(/--max-old-space-size=(\d+)/.exec(BFF_NODE_FLAGS.join(" "))?.[1] ?? Number.NaN);

const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);

function statusMb(pid: number | undefined, field: "VmRSS" | "VmHWM"): number {
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return round(Number(match?.[1]) / 1024, 1);
}

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${init?.method ?? "GET"} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

interface Stack {
  /** The replay in front of the emulator: what the BFF and this bench talk to. */
  emulatorUrl: string;
  emulator: ChildProcess;
  stop(): Promise<void>;
}

/** A slot search's key: organization, path and parameters, sorted, ids in one form (the BFF sends its own). */
function searchKey(message: IncomingMessage): string | null {
  const url = new URL(message.url ?? "/", "http://replay");
  if (message.method !== "GET" || url.pathname !== "/v2/schedule/slots") return null;
  const params = [...url.searchParams].map(([name, value]) => `${name}=${value.split(",").map(idKey).sort().join(",")}`).sort();
  return `${String(message.headers["x-organization-id"] ?? "").toLowerCase()} ${params.join("&")}`;
}

/** Forwards everything to the emulator on `emulatorPort`; keeps every slot search's answer and serves it again from memory. */
async function startSlotReplay(port: number, emulatorPort: number): Promise<Server> {
  const kept = new Map<string, { status: number; contentType: string; body: Buffer }>();
  const server = createServer((incoming, outgoing) => {
    const key = searchKey(incoming);
    const answer = key === null ? undefined : kept.get(key);
    if (answer) {
      outgoing.writeHead(answer.status, { "content-type": answer.contentType, "content-length": answer.body.byteLength });
      outgoing.end(answer.body);
      return;
    }
    // A connection of its own each time: a kept-alive one the emulator has just closed would reset under the request.
    const forwarded = httpRequest({ host: "127.0.0.1", port: emulatorPort, method: incoming.method, path: incoming.url, headers: incoming.headers, agent: false }, (upstream) => {
      if (key === null || upstream.statusCode !== 200) {
        outgoing.writeHead(upstream.statusCode ?? 502, upstream.headers);
        upstream.pipe(outgoing);
        return;
      }
      const chunks: Buffer[] = [];
      upstream.on("data", (chunk: Buffer) => chunks.push(chunk));
      upstream.on("end", () => {
        const body = Buffer.concat(chunks);
        kept.set(key, { status: 200, contentType: String(upstream.headers["content-type"] ?? "application/json"), body });
        outgoing.writeHead(200, { "content-type": String(upstream.headers["content-type"] ?? "application/json"), "content-length": body.byteLength });
        outgoing.end(body);
      });
    });
    forwarded.on("error", (error) => {
      console.error(`replay: ${incoming.method ?? ""} ${incoming.url ?? ""}: ${error.message}`);
      outgoing.destroy();
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return server;
}

interface Bff {
  url: string;
  /** `postgresql` or `pglite`. */
  store: string;
  metricsUrl: string;
  child: ChildProcess;
  /** The BFF's log lines at warn and above. */
  log: string[];
  isAlive(): boolean;
  stop(): Promise<void>;
}

async function startEmulator(): Promise<Stack> {
  const [port, replayPort] = [await freePort(), await freePort()];
  // Host tokens name the replay as their issuer: the BFF knows the service by the replay's address.
  const emulatorUrl = `http://127.0.0.1:${replayPort}`;
  const emulator = spawn(process.execPath, programArgs("emulator", "compiled"), { env: { ...process.env, PORT: String(port), EMULATOR_SCALE: "large", EMULATOR_PUBLIC_URL: emulatorUrl }, stdio: "ignore" });
  await waitUntilHealthy(`http://127.0.0.1:${port}/healthz`, { child: emulator, timeoutMs: 180_000 });
  const replay = await startSlotReplay(replayPort, port);
  return {
    emulatorUrl,
    emulator,
    async stop() {
      replay.closeAllConnections();
      await new Promise<void>((resolve) => replay.close(() => resolve()));
      await stopChild(emulator);
    },
  };
}

async function startBff(emulatorUrl: string, extraEnv: Record<string, string> = {}): Promise<Bff> {
  const [port, metricsPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), "tandem-large-search-"));
  const databaseUrl = process.env.DATABASE_URL;
  const schema = `bench_large_search_${process.pid}_${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "warn", DATA_DIR: dataDir, PORT: String(port), METRICS_PORT: String(metricsPort), SANDBOX_EMULATOR_URL: emulatorUrl, ...extraEnv };
  delete env.CLINIC_API_BASE_URL;
  delete env.DATABASE_URL;
  if (databaseUrl) Object.assign(env, { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema });
  const child = spawn(process.execPath, programArgs("server", "compiled"), { env, stdio: ["ignore", "pipe", "pipe"] });
  const log: string[] = [];
  const keep = (chunk: Buffer) => log.push(...chunk.toString("utf8").split("\n").filter((line) => line !== ""));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const url = `http://127.0.0.1:${port}`;
  await waitUntilHealthy(`${url}/readyz`, { child, log: () => log.slice(-20).join("\n") });
  return {
    url,
    store: databaseUrl ? "postgresql" : "pglite",
    metricsUrl: `http://127.0.0.1:${metricsPort}`,
    child,
    log,
    isAlive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
      if (databaseUrl) await dropSchema(databaseUrl, schema);
    },
  };
}

/** The V8 heap the BFF reports (prom-client's default metrics), MB. */
async function heapUsedMb(metricsUrl: string): Promise<number> {
  const text = await (await fetch(`${metricsUrl}/metrics`, { signal: AbortSignal.timeout(5_000) })).text();
  return mb(Number(/^nodejs_heap_size_used_bytes (\S+)/m.exec(text)?.[1]));
}

interface World {
  frontDesk: string[];
  physician: string;
  facilities: { id: string; name: string }[];
  shortestTypeId: string;
  shortestTypeMinutes: number;
  today: string;
}

async function readWorld(emulatorUrl: string): Promise<World> {
  const { users } = await json<{ users: { id: string; roles: string[]; hidden: boolean; active: boolean }[] }>(`${emulatorUrl}/_sandbox/ehr/${ORG_A}/users`);
  const withRole = (role: string) => users.filter((user) => !user.hidden && user.active && user.roles.includes(role)).map((user) => user.id);
  const headers = { authorization: `Bearer ${DATA_KEY}`, "x-organization-id": ORG_A };
  const facilities = (await json<{ data: { facilities: { id: string; name: string; isVisible: boolean }[] } }>(`${emulatorUrl}/v1/facilities?pageSize=100`, { headers })).data.facilities.filter((facility) => facility.isVisible);
  const types = (await json<{ data: { appointmentTypes: { id: string; defaultDurationMinutes: number }[] } }>(`${emulatorUrl}/v3/appointment-types?pageSize=100`, { headers })).data.appointmentTypes;
  const shortest = [...types].sort((a, b) => a.defaultDurationMinutes - b.defaultDurationMinutes)[0];
  if (!shortest) throw new Error("no appointment type");
  const clock = await json<{ now: string }>(`${emulatorUrl}/_sandbox/clock`);
  return { frontDesk: withRole("Front Desk"), physician: withRole("Physician")[0] ?? "", facilities, shortestTypeId: shortest.id, shortestTypeMinutes: shortest.defaultDurationMinutes, today: clock.now.slice(0, 10) };
}

async function hostToken(emulatorUrl: string, userId: string): Promise<string> {
  return (await json<{ token: string }>(`${emulatorUrl}/_sandbox/host-token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ organizationId: ORG_A, userId }) })).token;
}

const searchQuery = (world: World, facilityIds: readonly string[], startDate: string, days: number) =>
  new URLSearchParams({ appointmentTypeId: world.shortestTypeId, facilityIds: facilityIds.join(","), startDate, endDate: addDays(startDate, days - 1), isNewPatient: "false" }).toString();

/** The service's own answer to a search, in bytes (kept by the replay from then on). */
async function upstreamBytes(emulatorUrl: string, query: string): Promise<number> {
  const response = await fetch(`${emulatorUrl}/v2/schedule/slots?${query}`, { headers: { authorization: `Bearer ${DATA_KEY}`, "x-organization-id": ORG_A } });
  if (!response.ok) throw new Error(`upstream search: ${response.status}`);
  return (await response.arrayBuffer()).byteLength;
}

/** A BFF request; the body read (gzip as a browser takes it); the status, error code and message. */
async function ask(bff: Bff, path: string, token: string): Promise<{ status: number | "network"; code?: string; message?: string; bytes: number }> {
  try {
    const response = await fetch(`${bff.url}${path}`, { headers: { authorization: `Bearer ${token}`, "accept-encoding": "gzip" } });
    const body = await response.arrayBuffer();
    if (response.ok) return { status: response.status, bytes: body.byteLength };
    const error = JSON.parse(new TextDecoder().decode(body)) as { code?: string; message?: string };
    return { status: response.status, code: error.code, message: error.message, bytes: body.byteLength };
  } catch {
    return { status: "network", bytes: 0 };
  }
}

/** A second user's reads while `during` runs: every picker, again and again; their statuses. */
async function secondUserReads(bff: Bff, token: string, during: Promise<unknown>): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  let isDone = false;
  void during.finally(() => {
    isDone = true;
  });
  const paths = ["/api/facilities", "/api/appointment-types", "/api/providers", "/api/session"];
  for (let index = 0; !isDone || index < paths.length; index += 1) {
    const { status } = await ask(bff, paths[index % paths.length] ?? "/api/session", token);
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
  return statuses;
}

/** Samples the process's RSS (every 50 ms) and heap (every 500 ms) while `during` runs. */
async function sampled<T>(bff: Bff, during: () => Promise<T>): Promise<{ result: T; rssPeakSampledMb: number; heapUsedPeakMb: number }> {
  let rssPeak = 0;
  let heapPeak = 0;
  const rssTimer = setInterval(() => {
    if (bff.isAlive()) rssPeak = Math.max(rssPeak, statusMb(bff.child.pid, "VmRSS"));
  }, 50);
  let isRunning = true;
  const heapSampler = (async () => {
    while (isRunning && bff.isAlive()) {
      heapPeak = Math.max(heapPeak, await heapUsedMb(bff.metricsUrl).catch(() => 0));
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  })();
  try {
    const result = await during();
    return { result, rssPeakSampledMb: rssPeak, heapUsedPeakMb: heapPeak };
  } finally {
    isRunning = false;
    clearInterval(rssTimer);
    await heapSampler;
  }
}

export async function runLargeSearchBench(): Promise<Record<string, unknown>[]> {
  const stack = await startEmulator();
  const rows: Record<string, unknown>[] = [];
  try {
    const world = await readWorld(stack.emulatorUrl);
    const everyFacility = world.facilities.map((facility) => facility.id);
    const [deskToken, secondToken] = [await hostToken(stack.emulatorUrl, world.frontDesk[0] ?? ""), await hostToken(stack.emulatorUrl, world.physician)];

    // 1. The widest search the form used to allow, against the BFF as deployed.
    const widestQuery = searchQuery(world, everyFacility, world.today, 62);
    const widestUpstreamBytes = await upstreamBytes(stack.emulatorUrl, widestQuery);
    const bff = await startBff(stack.emulatorUrl);
    try {
      const rssBeforeMb = statusMb(bff.child.pid, "VmRSS");
      const widest = ask(bff, `/api/slots?${widestQuery}`, deskToken);
      const [answer, secondUser] = await Promise.all([widest, secondUserReads(bff, secondToken, widest)]);
      rows.push({
        bench: "large-search",
        scenario: "widest search the form used to allow (every facility, 62 days, shortest type)",
        store: bff.store,
        facilities: everyFacility.length,
        days: 62,
        facilityDays: everyFacility.length * 62,
        boundFacilityDays: MAX_SLOT_SEARCH_FACILITY_DAYS,
        typeMinutes: world.shortestTypeMinutes,
        upstreamAnswerMb: mb(widestUpstreamBytes),
        status: answer.status,
        code: answer.code,
        message: answer.message,
        secondUserStatuses: secondUser,
        processUp: bff.isAlive(),
        rssBeforeMb,
        rssAfterMb: statusMb(bff.child.pid, "VmRSS"),
      });

      // 3. 20 concurrent widest-allowed searches (run on the same BFF, after 1).
      const perFacilityBytes: { id: string; bytes: number }[] = [];
      for (const id of everyFacility) perFacilityBytes.push({ id, bytes: await upstreamBytes(stack.emulatorUrl, searchQuery(world, [id], world.today, 62)) });
      const widestDays = maxSlotSearchDays(2);
      const heaviest = [...perFacilityBytes].sort((a, b) => b.bytes - a.bytes).slice(0, 2).map((entry) => entry.id);
      const queries = Array.from({ length: CONCURRENT_SEARCHES }, (_, index) => searchQuery(world, heaviest, addDays(world.today, index), widestDays));
      const answerBytes: number[] = [];
      for (const query of queries) answerBytes.push(await upstreamBytes(stack.emulatorUrl, query));
      const tokens = await Promise.all(Array.from({ length: CONCURRENT_SEARCHES }, (_, index) => hostToken(stack.emulatorUrl, world.frontDesk[index % world.frontDesk.length] ?? "")));
      const rssBeforeConcurrentMb = statusMb(bff.child.pid, "VmRSS");
      const started = performance.now();
      const { result, rssPeakSampledMb, heapUsedPeakMb } = await sampled(bff, () => Promise.all(queries.map((query, index) => ask(bff, `/api/slots?${query}`, tokens[index] ?? deskToken))));
      const statuses: Record<string, number> = {};
      for (const { status } of result) statuses[status] = (statuses[status] ?? 0) + 1;
      const vmHwmMb = statusMb(bff.child.pid, "VmHWM");
      rows.push({
        bench: "large-search",
        scenario: "20 concurrent widest-allowed searches (2 facilities with the largest answers, 62 days, shortest type, 20 distinct windows)",
        store: bff.store,
        facilities: 2,
        days: widestDays,
        upstreamAnswerMbMin: mb(Math.min(...answerBytes)),
        upstreamAnswerMbMax: mb(Math.max(...answerBytes)),
        upstreamAnswerMbTotal: mb(answerBytes.reduce((sum, bytes) => sum + bytes, 0)),
        maxBodyMb: 16,
        statuses,
        seconds: round((performance.now() - started) / 1000, 1),
        rssBeforeMb: rssBeforeConcurrentMb,
        rssPeakSampledMb,
        rssPeakVmHwmMb: vmHwmMb,
        heapUsedPeakMb,
        heapLimitMb: HEAP_LIMIT_MB,
        rssUnderHeapLimit: vmHwmMb <= HEAP_LIMIT_MB,
        processUp: bff.isAlive(),
        intakeFailuresLogged: bff.log.filter((line) => line.includes("the intake thread could not take in")).length,
      });
    } finally {
      await bff.stop();
    }

    // 2. The cut-off itself: every facility over 14 days (within the bound) against a 4 MiB read limit.
    const fortnightQuery = searchQuery(world, everyFacility, addDays(world.today, 1), 14);
    const fortnightBytes = await upstreamBytes(stack.emulatorUrl, fortnightQuery);
    const limited = await startBff(stack.emulatorUrl, { UPSTREAM_MAX_BODY_BYTES: String(CUT_OFF_LIMIT_BYTES) });
    try {
      const search = ask(limited, `/api/slots?${fortnightQuery}`, deskToken);
      const { result, rssPeakSampledMb } = await sampled(limited, async () => Promise.all([search, secondUserReads(limited, secondToken, search)]));
      const [answer, secondUser] = result;
      rows.push({
        bench: "large-search",
        scenario: "an answer past UPSTREAM_MAX_BODY_BYTES (every facility, 14 days, shortest type; limit 4 MiB)",
        facilities: everyFacility.length,
        days: 14,
        upstreamAnswerMb: mb(fortnightBytes),
        maxBodyMb: mb(CUT_OFF_LIMIT_BYTES),
        status: answer.status,
        code: answer.code,
        message: answer.message,
        secondUserStatuses: secondUser,
        rssPeakSampledMb,
        rssPeakVmHwmMb: statusMb(limited.child.pid, "VmHWM"),
        processUp: limited.isAlive(),
      });
    } finally {
      await limited.stop();
    }
    return rows;
  } finally {
    await stack.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of await runLargeSearchBench()) console.log(JSON.stringify(row));
}
