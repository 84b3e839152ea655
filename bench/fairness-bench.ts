import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { freePort } from "../scripts/testing/free-port.ts";
import { waitUntilHealthy } from "../scripts/wait-until-healthy.ts";
import { percentile, round } from "./measure.ts";
import { stopChild } from "./stop-child.ts";

// ADR 0017 (a fair share per organization): one organization hammering the service while another
// organization's users do their ordinary work. The emulator and one BFF run
// as their own processes with production settings (the key's 1000 requests
// per 60 s, UPSTREAM_USER_LIMIT 200 per user), the load in this process.
// - Org A, hammering: 8 clinicians of org A each alternating reads of their
//   note and of its images (the review's first pattern; notes are never
//   cached), 100 requests a second together (6,000 a minute, six times the
//   key's whole budget), without waiting for answers (at most 8 in flight per
//   user). Distinct slot searches would hammer as well, but the emulator
//   computes slots on the same 2 cores as the BFF and the load, so its
//   backlog, not the limiter, would be measured; and a faster flood measures
//   this machine's CPU (FAIR_HAMMER_RATE sets it).
// - Org B, ordinary: front-desk sessions searching slots every ~2 s over a
//   few filter combinations (a third of the searches change them), and
//   clinicians re-reading their note and its images every 20 s (the SPA's
//   note refresh).
// Printed: org A's answers by status (200, 429 from the per-user limit, 503
// from its share of the key), org B's latency p50/p95/p99 and its 429s and
// 503s (the budget: none), and what the emulator counted per organization
// (the busiest 60 s, from 1 s samples of `GET /_sandbox/request-stats`).
// FAIR_SECONDS (default 75: past one window, so A's first window turns over);
// FAIR_HAMMER_RATE (requests a second, default 100).

const ORG_A = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
const ORG_B = "8c4e2d19-7a36-4b5f-a0e1-9d8c7b6a5f42";
const HAMMER_USERS = 8;
const HAMMER_IN_FLIGHT_PER_USER = 8;
const CLINICAL_ROLES = ["Physician", "Nurse Practitioner", "Medical Assistant"];
const FRONT_DESK_SESSIONS = 8;
const CLINICIAN_SESSIONS = 4;
const SEARCH_INTERVAL_MS = 2_000;
const NOTE_REFRESH_MS = 20_000;
const B_COMBINATIONS = 8;
const REQUEST_TIMEOUT_MS = 15_000;
const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`${init?.method ?? "GET"} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

interface Stack {
  emulatorUrl: string;
  appUrl: string;
  stop(): Promise<void>;
}

async function startStack(): Promise<Stack> {
  const [emulatorPort, bffPort] = [await freePort(), await freePort()];
  const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
  const appUrl = `http://localhost:${bffPort}`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ["CLINIC_API_BASE_URL", "CLINIC_API_KEY", "DATABASE_URL", "UPSTREAM_USER_LIMIT", "UPSTREAM_RATE_SHARE", "REDIS_URL", "RATE_LIMIT_SCOPE"]) delete env[name];
  const dataDir = mkdtempSync(join(tmpdir(), "tandem-fairness-bench-"));
  let output = "";
  const keep = (child: ChildProcess) => {
    for (const stream of [child.stdout, child.stderr]) stream?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    return child;
  };
  const emulator = keep(spawn(process.execPath, ["--import", "tsx", "emulator/index.ts"], { cwd: REPO_ROOT, env: { ...env, PORT: String(emulatorPort), EMULATOR_APP_URL: appUrl }, stdio: ["ignore", "pipe", "pipe"] }));
  const bff = keep(spawn(process.execPath, ["--import", "tsx", "server/index.ts"], { cwd: REPO_ROOT, env: { ...env, PORT: String(bffPort), SANDBOX_EMULATOR_URL: emulatorUrl, DATA_DIR: join(dataDir, "pglite"), LOG_LEVEL: "error" }, stdio: ["ignore", "pipe", "pipe"] }));
  const stop = async () => {
    await stopChild(bff);
    await stopChild(emulator);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilHealthy(`${emulatorUrl}/healthz`, { child: emulator, log: () => output });
    await waitUntilHealthy(`${appUrl}/healthz`, { child: bff, log: () => output });
  } catch (error) {
    await stop();
    throw error;
  }
  return { emulatorUrl, appUrl, stop };
}

interface Tally {
  requests: number;
  byStatus: Record<string, number>;
  latencies: number[];
  /** When each answer came, same order as `latencies`. */
  answeredAt: number[];
}

const tally = (): Tally => ({ requests: 0, byStatus: {}, latencies: [], answeredAt: [] });

/** p50/p95/p99 of the answers that came in [from, to) (ms since `start`). */
function latencyFigures(into: Tally, start: number, from = 0, to = Infinity): { answers: number; p50Ms: number; p95Ms: number; p99Ms: number } {
  const sorted = into.latencies.filter((_, index) => (into.answeredAt[index] ?? 0) - start >= from && (into.answeredAt[index] ?? 0) - start < to).sort((a, b) => a - b);
  return { answers: sorted.length, p50Ms: round(percentile(sorted, 50)), p95Ms: round(percentile(sorted, 95)), p99Ms: round(percentile(sorted, 99)) };
}

/** GET over a shared keep-alive agent; records status ("network" on a failure) and latency. */
function caller(appUrl: string) {
  const target = new URL(appUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const get = (path: string, token: string, into: Tally): Promise<{ status: number; body: string }> => {
    into.requests += 1;
    const started = performance.now();
    return new Promise((resolve) => {
      const request = http.get({ host: target.hostname, port: target.port, path, agent, headers: { authorization: `Bearer ${token}`, accept: "application/json" } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const status = response.statusCode ?? 0;
          into.latencies.push(performance.now() - started);
          into.answeredAt.push(performance.now());
          into.byStatus[status] = (into.byStatus[status] ?? 0) + 1;
          resolve({ status, body: Buffer.concat(chunks).toString() });
        });
      });
      request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy(new Error("timeout")));
      request.on("error", () => {
        into.byStatus.network = (into.byStatus.network ?? 0) + 1;
        resolve({ status: 0, body: "" });
      });
    });
  };
  return { get, close: () => agent.destroy() };
}

interface SandboxUser {
  id: string;
  roles: string[];
  hidden: boolean;
  active: boolean;
}

async function mint(emulatorUrl: string, identity: Record<string, string>): Promise<string> {
  return (await json<{ token: string }>(`${emulatorUrl}/_sandbox/host-token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(identity) })).token;
}

async function visibleUsers(emulatorUrl: string, organizationId: string): Promise<SandboxUser[]> {
  const { users } = await json<{ users: SandboxUser[] }>(`${emulatorUrl}/_sandbox/ehr/${organizationId}/users`);
  return users.filter((user) => !user.hidden && user.active);
}

interface NoteSession {
  noteId: string;
  token: string;
}

/** `count` clinicians of an organization, each with a host token for an unsigned note of its own (for the note routes). */
async function noteSessions(emulatorUrl: string, organizationId: string, users: readonly SandboxUser[], count: number): Promise<NoteSession[]> {
  const clinicians = users.filter((user) => user.roles.some((role) => CLINICAL_ROLES.includes(role)));
  const { notes } = await json<{ notes: { id: string; status: string; patientId: string; facilityId: string }[] }>(`${emulatorUrl}/_sandbox/ehr/${organizationId}/notes`);
  const open = notes.filter((note) => note.status !== "signed");
  if (clinicians.length === 0 || open.length < count) throw new Error(`${organizationId}: not enough clinicians or unsigned notes`);
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const note = open[index];
      const userId = clinicians[index % clinicians.length]?.id ?? "";
      if (!note) throw new Error("no note");
      return { noteId: note.id, token: await mint(emulatorUrl, { organizationId, userId, noteId: note.id, patientId: note.patientId, facilityId: note.facilityId }) };
    }),
  );
}

/** The first appointment type and the visible facilities of an organization, read through the BFF (setup, not counted). */
async function searchTarget(appUrl: string, token: string): Promise<{ typeId: string; facilityIds: string[] }> {
  const headers = { authorization: `Bearer ${token}` };
  const { appointmentTypes } = await json<{ appointmentTypes: { id: string }[] }>(`${appUrl}/api/appointment-types`, { headers });
  const { facilities } = await json<{ facilities: { id: string }[] }>(`${appUrl}/api/facilities`, { headers });
  const typeId = appointmentTypes[0]?.id;
  if (!typeId || facilities.length === 0) throw new Error("no appointment type or facility");
  return { typeId, facilityIds: facilities.map((facility) => facility.id) };
}

const slotPath = (typeId: string, facilityId: string, startDate: string, endDate: string) => `/api/slots?${new URLSearchParams({ appointmentTypeId: typeId, facilityIds: facilityId, startDate, endDate }).toString()}`;

interface StatsBucket {
  organizationId: string | null;
  counted: number;
  /** 429s the emulator answered. */
  limited: number;
}

/** Upstream requests the emulator counted per organization, sampled every second; the busiest 60 s of each and of the key. */
class UpstreamSampler {
  private readonly samples: { at: number; counted: Map<string, number>; limited: number }[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly emulatorUrl: string) {}

  async sample(): Promise<void> {
    const { buckets } = await json<{ buckets: StatsBucket[] }>(`${this.emulatorUrl}/_sandbox/request-stats`);
    const counted = new Map<string, number>();
    for (const bucket of buckets) counted.set(bucket.organizationId ?? "-", (counted.get(bucket.organizationId ?? "-") ?? 0) + bucket.counted);
    this.samples.push({ at: performance.now(), counted, limited: buckets.reduce((sum, bucket) => sum + bucket.limited, 0) });
  }

  start(): void {
    this.timer = setInterval(() => void this.sample().catch(() => undefined), 1_000);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.sample();
  }

  /** 429s the emulator answered during the run. */
  limited(): number {
    return (this.samples.at(-1)?.limited ?? 0) - (this.samples[0]?.limited ?? 0);
  }

  /** Over the run: total and busiest 60 s for one organization, or all together. */
  figures(organization?: string): { total: number; peak60s: number } {
    const count = (sample: { counted: Map<string, number> }) => (organization === undefined ? [...sample.counted.values()].reduce((sum, value) => sum + value, 0) : (sample.counted.get(organization) ?? 0));
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last) return { total: 0, peak60s: 0 };
    let peak = 0;
    for (const from of this.samples) {
      const to = [...this.samples].reverse().find((candidate) => candidate.at - from.at <= 60_000) ?? from;
      peak = Math.max(peak, count(to) - count(from));
    }
    return { total: count(last) - count(first), peak60s: peak };
  }
}

export async function runFairnessBench(): Promise<Record<string, unknown>> {
  const seconds = Number(process.env.FAIR_SECONDS ?? 75);
  const hammerRate = Number(process.env.FAIR_HAMMER_RATE ?? 100);
  const stack = await startStack();
  const client = caller(stack.appUrl);
  try {
    const aUsers = await visibleUsers(stack.emulatorUrl, ORG_A);
    const bUsers = await visibleUsers(stack.emulatorUrl, ORG_B);
    const aNotes = await noteSessions(stack.emulatorUrl, ORG_A, aUsers, HAMMER_USERS);
    const frontDesk = bUsers.filter((user) => user.roles.includes("Front Desk") || user.roles.includes("Scheduler"));
    const bSearchTokens = await Promise.all(Array.from({ length: FRONT_DESK_SESSIONS }, (_, index) => mint(stack.emulatorUrl, { organizationId: ORG_B, userId: frontDesk[index % frontDesk.length]?.id ?? "" })));
    const bNotes = await noteSessions(stack.emulatorUrl, ORG_B, bUsers, CLINICIAN_SESSIONS);
    const bTarget = await searchTarget(stack.appUrl, bSearchTokens[0] ?? "");
    const bCombinations = Array.from({ length: B_COMBINATIONS }, (_, index) => {
      const facilityId = bTarget.facilityIds[index % bTarget.facilityIds.length] ?? "";
      return slotPath(bTarget.typeId, facilityId, day(1 + (index % 4) * 7), day(7 + (index % 4) * 7));
    });

    const sampler = new UpstreamSampler(stack.emulatorUrl);
    await sampler.sample();
    sampler.start();
    const hammering = tally();
    const ordinary = tally();
    const startedAt = performance.now();
    const endsAt = startedAt + seconds * 1_000;
    const running = () => performance.now() < endsAt;

    // Org A: each clinician alternates its note and its images, at its part of the target rate.
    const userIntervalMs = (1_000 * aNotes.length) / hammerRate;
    const hammer = async ({ noteId, token }: NoteSession, seed: number) => {
      const inFlight = new Set<Promise<unknown>>();
      await sleep((seed * userIntervalMs) / aNotes.length);
      for (let sent = 0; running(); sent += 1) {
        const call = client.get(sent % 2 === 0 ? `/api/notes/${noteId}` : `/api/notes/${noteId}/images`, token, hammering);
        inFlight.add(call);
        void call.then(() => inFlight.delete(call));
        if (inFlight.size >= HAMMER_IN_FLIGHT_PER_USER) await Promise.race(inFlight);
        await sleep(userIntervalMs);
      }
      await Promise.all(inFlight);
    };
    // Org B: what its users do anyway.
    const search = async (token: string, seed: number) => {
      let combination = seed % bCombinations.length;
      await sleep((seed * SEARCH_INTERVAL_MS) / FRONT_DESK_SESSIONS);
      for (let round = 0; running(); round += 1) {
        if (round % 3 === 2) combination = (combination + 1) % bCombinations.length;
        const started = performance.now();
        await client.get(bCombinations[combination] ?? "", token, ordinary);
        await sleep(SEARCH_INTERVAL_MS * (0.8 + 0.4 * ((seed + round) % 5) / 4) - (performance.now() - started));
      }
    };
    const readNote = async ({ noteId, token }: NoteSession, seed: number) => {
      await sleep((seed * NOTE_REFRESH_MS) / CLINICIAN_SESSIONS);
      while (running()) {
        const started = performance.now();
        await Promise.all([client.get(`/api/notes/${noteId}`, token, ordinary), client.get(`/api/notes/${noteId}/images`, token, ordinary)]);
        await sleep(NOTE_REFRESH_MS - (performance.now() - started));
      }
    };
    await Promise.all([
      ...aNotes.map((session, index) => hammer(session, index)),
      ...bSearchTokens.map((token, index) => search(token, index)),
      ...bNotes.map((session, index) => readNote(session, index)),
    ]);
    await sampler.stop();

    const ok = (into: Tally) => into.byStatus["200"] ?? 0;
    const key = sampler.figures();
    const ordinaryRefusals = (ordinary.byStatus["429"] ?? 0) + (ordinary.byStatus["503"] ?? 0);
    return {
      bench: "fairness",
      seconds,
      hammering: {
        organization: "A",
        users: aNotes.length,
        targetRatePerSecond: hammerRate,
        requests: hammering.requests,
        requestsPerSecond: round(hammering.requests / seconds, 1),
        okPerSecond: round(ok(hammering) / seconds, 1),
        byStatus: hammering.byStatus,
        // 429: its users' own limit (UPSTREAM_USER_LIMIT); 503 rate_limited: the organization's share of the key.
        http429: hammering.byStatus["429"] ?? 0,
        http503: hammering.byStatus["503"] ?? 0,
        upstream: sampler.figures(ORG_A),
      },
      ordinary: {
        organization: "B",
        sessions: { frontDesk: FRONT_DESK_SESSIONS, clinicians: CLINICIAN_SESSIONS },
        requests: ordinary.requests,
        byStatus: ordinary.byStatus,
        http429: ordinary.byStatus["429"] ?? 0,
        http503: ordinary.byStatus["503"] ?? 0,
        ...latencyFigures(ordinary, startedAt),
        // While A's admitted searches keep the emulator busy (A's share is used within the first seconds), and after, when A is only refused.
        first20s: latencyFigures(ordinary, startedAt, 0, 20_000),
        after20s: latencyFigures(ordinary, startedAt, 20_000),
        upstream: sampler.figures(ORG_B),
      },
      upstream: { key, limitPer60s: 1000, answered429: sampler.limited() },
      withinBudget: ordinaryRefusals === 0 && (ordinary.byStatus.network ?? 0) === 0 && key.peak60s <= 1000,
      note: "emulator and one BFF as their own processes (tsx, PGlite, production limits), load generator in this process, loopback on the same machine; upstream as the emulator counted it; latencies include the machine's other load",
    };
  } finally {
    client.close();
    await stack.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runFairnessBench()));
}
