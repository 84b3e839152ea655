import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { HOLD_LIMIT_CODE } from "../contract/app-api/slots.ts";
import { addDays, localDateOf, weekdayOf } from "../contract/time/zoned-time.ts";
import { freePort } from "../scripts/free-port.ts";
import { waitUntilHealthy } from "../scripts/wait-until-healthy.ts";
import { percentile, round } from "./measure.ts";
import { stopChild } from "./stop-child.ts";

// Issue 8, "Load": many concurrent app sessions across both installed
// organizations (org A and org B) against the sandbox, run as real processes
// (the emulator and ONE BFF, as `npm start` runs them), for a fixed time.
// Measured: requests answered to the sessions, the error rate (non-2xx and
// network failures, by status and code; `rate_limited`/429 answers that
// reached a user counted on their own), latency p50/p95/p99 overall and per
// route class, the BFF's RSS (VmRSS of its process, sampled every second: peak
// and end), and upstream requests per data key per minute, and per key and
// organization, as the EMULATOR counted them (`GET /_sandbox/request-stats`,
// its rate limiter's own counts; the limit is 1000 per 60 s per key and
// organization there, and the BFF limits per key).
//
// Sessions (split evenly over the two organizations; half front desk, a fifth
// schedulers, the rest clinicians), each over keep-alive HTTP with its own
// host tokens and a live-event stream open, as the SPA keeps one:
// - front desk: loads the session and pickers, then searches slots every
//   ~2 s (±20 %), changing filters on a third of the searches (per-org sets
//   of type, facility, provider, window and new-patient combinations); after
//   about one search in 30 (once a minute) picks a slot with capacity from
//   the answer, checks it (the strong read), holds it, talks 3-8 s, releases.
// - schedulers: page availability a week at a time (every 2-4 s) for a
//   facility, sometimes filtered to one provider; mostly forward, sometimes
//   back to this week or to another facility/provider.
// - clinicians: open their note (note, draft, tasks, images, and the patient
//   banner where `read:patients` is granted), save a draft every 10-20 s,
//   and re-open the note every 45-75 s (half the time moving to another).
// Host tokens come from the emulator's `POST /_sandbox/host-token`: one read
// token per session identity, refreshed after 4 minutes (they live 5), and a
// few pre-minted unused tokens per writing session, since every write spends
// its token (POST/PUT/DELETE, the slot check included). Minting runs two at a
// time, is not timed and is not counted as app traffic (it is reported).
//
// LOAD_SESSIONS (default 200) and LOAD_SECONDS (default 60) shorten trial runs.

const ORGS = [
  { label: "A", id: "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61" },
  { label: "B", id: "8c4e2d19-7a36-4b5f-a0e1-9d8c7b6a5f42" },
] as const;
const CLINICAL_ROLES = ["Physician", "Nurse Practitioner", "Medical Assistant"];
const BUDGET_PER_MINUTE = 1000;

const SEARCH_INTERVAL_MS = 2_000;
const FILTER_CHANGE_PROBABILITY = 1 / 3;
const HOLD_PROBABILITY = 1 / 30;
const HOLD_TALK_MS: Range = [3_000, 8_000];
const AVAILABILITY_PAGE_MS: Range = [2_000, 4_000];
const DRAFT_SAVE_MS: Range = [10_000, 20_000];
const NOTE_REOPEN_MS: Range = [45_000, 75_000];
const SESSION_START_SPREAD_MS = 5_000;
const FILTER_COMBINATIONS_PER_ORG = 16;

const TOKEN_REFRESH_AGE_MS = 4 * 60_000;
const WRITE_TOKEN_SPARES = { frontDesk: 3, scheduler: 0, clinician: 2 } as const;
const MINT_CONCURRENCY = 2;
const PREMINT_CONCURRENCY = 8;
const REQUEST_TIMEOUT_MS = 15_000;
const READY_TIMEOUT_MS = 60_000;
const SAMPLE_MS = 1_000;

type Range = readonly [number, number];
type Role = "frontDesk" | "scheduler" | "clinician";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));

// ------------------------------------------------------------------ helpers

/** Deterministic pseudo-random numbers (mulberry32), so two runs issue the same load. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
const between = (next: () => number, [low, high]: Range) => low + next() * (high - low);
function pick<T>(next: () => number, items: readonly T[]): T {
  const item = items[Math.floor(next() * items.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
}

const asRecord = (value: unknown): Record<string, unknown> => (typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {});
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]) : []);
const asString = (value: unknown): string => (typeof value === "string" ? value : "");

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`${init?.method ?? "GET"} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** VmRSS of a process, MB (null once it is gone). */
function rssMb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match?.[1] ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** User + system CPU seconds of a process so far. */
function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

// ------------------------------------------------------------------ the stack

interface Stack {
  emulatorUrl: string;
  appUrl: string;
  bff: ChildProcess;
  emulator: ChildProcess;
  /** Lines of the BFF's output (LOG_LEVEL=warn) that say the service rate-limited it. */
  bffRateLimitWarnings: () => number;
  stop(): Promise<void>;
}

/** The emulator and one BFF as their own Node processes (so the BFF's pid gives its RSS), on free loopback ports. */
async function startStack(): Promise<Stack> {
  const [emulatorPort, bffPort] = [await freePort(), await freePort()];
  const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
  const appUrl = `http://localhost:${bffPort}`;
  const base: NodeJS.ProcessEnv = { ...process.env };
  delete base.CLINIC_API_BASE_URL;
  delete base.CLINIC_API_KEY;
  delete base.DATABASE_URL;
  const dataDir = mkdtempSync(join(tmpdir(), "tandem-load-bench-"));
  let emulatorOutput = "";
  let bffOutput = "";
  let rateLimitWarnings = 0;
  const emulator = spawn(process.execPath, ["--import", "tsx", "emulator/index.ts"], { cwd: REPO_ROOT, env: { ...base, PORT: String(emulatorPort), EMULATOR_APP_URL: appUrl }, stdio: ["ignore", "pipe", "pipe"] });
  for (const stream of [emulator.stdout, emulator.stderr]) stream?.on("data", (chunk: Buffer) => (emulatorOutput = (emulatorOutput + chunk.toString()).slice(-4000)));
  const bff = spawn(process.execPath, ["--import", "tsx", "server/index.ts"], {
    cwd: REPO_ROOT,
    env: { ...base, PORT: String(bffPort), SANDBOX_EMULATOR_URL: emulatorUrl, DATA_DIR: join(dataDir, "pglite"), LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (const stream of [bff.stdout, bff.stderr]) {
    stream?.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      rateLimitWarnings += text.match(/rate limited by the service/g)?.length ?? 0;
      bffOutput = (bffOutput + text).slice(-4000);
    });
  }
  const stop = async () => {
    await stopChild(bff);
    await stopChild(emulator);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilHealthy(`${emulatorUrl}/healthz`, { child: emulator, log: () => `[emulator]\n${emulatorOutput}`, timeoutMs: READY_TIMEOUT_MS });
    await waitUntilHealthy(`${appUrl}/healthz`, { child: bff, log: () => `[bff]\n${bffOutput}`, timeoutMs: READY_TIMEOUT_MS });
    // As the e2e sandbox does: the emulator's events reach the BFF, which pushes them down the live streams.
    await json(`${emulatorUrl}/_sandbox/webhooks`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: `${appUrl}/webhooks/clinic`, headerStyle: "standard" }) });
  } catch (error) {
    await stop();
    throw error;
  }
  return { emulatorUrl, appUrl, bff, emulator, bffRateLimitWarnings: () => rateLimitWarnings, stop };
}

// ------------------------------------------------------------------ host tokens

interface Identity {
  organizationId: string;
  userId: string;
  noteId?: string;
  patientId?: string;
  facilityId?: string;
}

/** Mints host tokens at the emulator, a few at a time, so minting never crowds out the data traffic. */
class TokenMint {
  minted = 0;
  failures = 0;
  onDemand = 0;
  private active = 0;
  private readonly queue: (() => void)[] = [];

  constructor(
    private readonly emulatorUrl: string,
    public concurrency: number,
  ) {}

  async mint(identity: Identity): Promise<string> {
    if (this.active >= this.concurrency) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.active += 1;
    try {
      const { token } = await json<{ token: string }>(`${this.emulatorUrl}/_sandbox/host-token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(identity),
      });
      this.minted += 1;
      return token;
    } catch (error) {
      this.failures += 1;
      throw error;
    } finally {
      this.active -= 1;
      this.queue.shift()?.();
    }
  }
}

interface Minted {
  token: string;
  at: number;
}

/** One identity's tokens: a reusable read token, and unused ones for writes. */
class SessionTokens {
  private current: Minted | null = null;
  private readonly spares: Minted[] = [];
  private refilling = false;

  constructor(
    private readonly mint: TokenMint,
    readonly identity: Identity,
    private readonly spareCount: number,
  ) {}

  async prepare(): Promise<void> {
    await this.read();
    while (this.spares.length < this.spareCount) this.spares.push({ token: await this.mint.mint(this.identity), at: performance.now() });
  }

  async read(): Promise<string> {
    if (!this.current || performance.now() - this.current.at > TOKEN_REFRESH_AGE_MS) this.current = { token: await this.mint.mint(this.identity), at: performance.now() };
    return this.current.token;
  }

  /** An unused token (a write spends it); tops the spares up in the background. */
  async write(): Promise<string> {
    let spare = this.spares.shift();
    while (spare && performance.now() - spare.at > TOKEN_REFRESH_AGE_MS) spare = this.spares.shift();
    this.refill();
    if (spare) return spare.token;
    this.mint.onDemand += 1;
    return this.mint.mint(this.identity);
  }

  private refill(): void {
    if (this.refilling || this.spares.length >= this.spareCount) return;
    this.refilling = true;
    void (async () => {
      try {
        while (this.spares.length < this.spareCount) this.spares.push({ token: await this.mint.mint(this.identity), at: performance.now() });
      } catch {
        // counted by the mint; the next write mints on demand
      } finally {
        this.refilling = false;
      }
    })();
  }
}

// ------------------------------------------------------------------ the app client and its figures

interface Answer {
  status: number;
  text: string;
}

/** The server closed an idle keep-alive connection just as it was reused: nothing reached it. */
class StaleSocketError extends Error {}

const errorCode = (error: unknown) => (error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : error instanceof Error && error.message.startsWith("timeout") ? "timeout" : "error");

interface RouteFigures {
  requests: number;
  latencies: number[];
  errors: number;
}

/** Calls the BFF over a shared keep-alive agent and records every answer. */
class AppClient {
  readonly routes = new Map<string, RouteFigures>();
  readonly byStatus: Record<string, number> = {};
  readonly errorsByCode: Record<string, number> = {};
  readonly all: number[] = [];
  requests = 0;
  errors = 0;
  rateLimitedToUsers = 0;
  networkErrors = 0;
  /** Requests sent again once because a reused keep-alive socket had just been closed by the server (what browsers do too). */
  staleSocketRetries = 0;
  holdConflicts = 0;
  /** Sessions of one user share the user's basket of MAX_ACTIVE_HOLDS (the bench has fewer users than sessions). */
  holdLimitRefusals = 0;
  private readonly target: URL;

  constructor(
    appUrl: string,
    private readonly agent: http.Agent,
  ) {
    this.target = new URL(appUrl);
  }

  /** Unrecorded (setup). */
  send(method: string, path: string, token: string, body?: unknown): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers: Record<string, string> = { accept: "application/json", authorization: `Bearer ${token}` };
      if (payload !== undefined) {
        headers["content-type"] = "application/json";
        headers["content-length"] = String(Buffer.byteLength(payload));
      }
      const request = http.request({ host: this.target.hostname, port: this.target.port, method, path, agent: this.agent, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        response.on("error", reject);
      });
      request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy(new Error(`timeout after ${REQUEST_TIMEOUT_MS} ms`)));
      request.on("error", (error) => reject(request.reusedSocket && errorCode(error) === "ECONNRESET" ? new StaleSocketError(error.message) : error));
      request.end(payload);
    });
  }

  /** A recorded call of route class `route`; null on a network failure or timeout. */
  async call(route: string, method: string, path: string, token: string, body?: unknown): Promise<Answer | null> {
    const figures = this.routes.get(route) ?? { requests: 0, latencies: [], errors: 0 };
    this.routes.set(route, figures);
    this.requests += 1;
    figures.requests += 1;
    const started = performance.now();
    let answer: Answer;
    try {
      try {
        answer = await this.send(method, path, token, body);
      } catch (error) {
        if (!(error instanceof StaleSocketError)) throw error;
        this.staleSocketRetries += 1;
        answer = await this.send(method, path, token, body);
      }
    } catch (error) {
      this.networkErrors += 1;
      this.errors += 1;
      figures.errors += 1;
      const kind = errorCode(error) === "timeout" ? "timeout" : "network";
      this.byStatus[kind] = (this.byStatus[kind] ?? 0) + 1;
      const key = `${kind} ${errorCode(error)} ${route}`;
      this.errorsByCode[key] = (this.errorsByCode[key] ?? 0) + 1;
      return null;
    }
    const elapsed = performance.now() - started;
    figures.latencies.push(elapsed);
    this.all.push(elapsed);
    this.byStatus[answer.status] = (this.byStatus[answer.status] ?? 0) + 1;
    if (answer.status < 200 || answer.status > 299) {
      this.errors += 1;
      figures.errors += 1;
      const code = asString(asRecord(parseJson(answer.text)).code) || "?";
      this.errorsByCode[`${answer.status} ${code}`] = (this.errorsByCode[`${answer.status} ${code}`] ?? 0) + 1;
      if (answer.status === 429 || code === "rate_limited" || code === "rate_limit_exceeded") this.rateLimitedToUsers += 1;
      if (route === "holdCreate" && answer.status === 409 && code === "conflict") this.holdConflicts += 1;
      if (route === "holdCreate" && answer.status === 409 && code === HOLD_LIMIT_CODE) this.holdLimitRefusals += 1;
    }
    return answer;
  }
}

// ------------------------------------------------------------------ what each organization offers

interface SlotQuery {
  appointmentTypeId: string;
  facilityIds: string[];
  providerIds: string[];
  startDate: string;
  endDate: string;
  isNewPatient: boolean;
}

interface OrgWorld {
  label: string;
  id: string;
  frontDeskUsers: string[];
  schedulerUsers: string[];
  clinicalUsers: string[];
  /** Unsigned notes, with their patient and facility. */
  notes: { id: string; patientId: string; facilityId: string }[];
  facilities: { id: string; timezone: string }[];
  providersByFacility: Map<string, string[]>;
  combinations: SlotQuery[];
}

function slotQueryString(query: SlotQuery): string {
  const params = new URLSearchParams({ appointmentTypeId: query.appointmentTypeId, facilityIds: query.facilityIds.join(","), startDate: query.startDate, endDate: query.endDate, isNewPatient: String(query.isNewPatient) });
  if (query.providerIds.length > 0) params.set("providerIds", query.providerIds.join(","));
  return params.toString();
}

/** Users, notes, pickers and which providers have slots where: read before the clock starts, not counted. */
async function loadOrgWorld(stack: Stack, client: AppClient, mint: TokenMint, org: (typeof ORGS)[number], seed: number): Promise<OrgWorld> {
  const { users } = await json<{ users: { id: string; roles: string[]; hidden: boolean; active: boolean }[] }>(`${stack.emulatorUrl}/_sandbox/ehr/${org.id}/users`);
  const visible = users.filter((user) => !user.hidden && user.active);
  const withRole = (roles: readonly string[]) => visible.filter((user) => user.roles.some((role) => roles.includes(role))).map((user) => user.id);
  const { notes } = await json<{ notes: { id: string; status: string; patientId: string; facilityId: string }[] }>(`${stack.emulatorUrl}/_sandbox/ehr/${org.id}/notes`);
  const frontDeskUsers = withRole(["Front Desk"]);
  if (frontDeskUsers.length === 0) throw new Error(`org ${org.label}: no front-desk user`);
  const token = await mint.mint({ organizationId: org.id, userId: frontDeskUsers[0] ?? "" });
  const get = async (path: string) => {
    const answer = await client.send("GET", path, token);
    if (answer.status !== 200) throw new Error(`setup ${path}: ${answer.status} ${answer.text}`);
    return asRecord(parseJson(answer.text));
  };
  const facilities = asArray((await get("/api/facilities")).facilities).map((entry) => ({ id: asString(asRecord(entry).id), timezone: asString(asRecord(entry).timezone) }));
  const types = asArray((await get("/api/appointment-types")).appointmentTypes).map((entry) => ({ id: asString(asRecord(entry).id), abbreviation: asString(asRecord(entry).abbreviation) }));
  const zone = facilities[0]?.timezone;
  if (!zone || types.length === 0) throw new Error(`org ${org.label}: no facility or appointment type`);
  const today = localDateOf(Date.now(), zone);

  // Which providers have slots at which facility: one search per facility over four weeks.
  const providersByFacility = new Map<string, string[]>();
  for (const facility of facilities) {
    const providers = new Set<string>();
    for (const type of types.slice(0, 3)) {
      const answer = await get(`/api/slots?${slotQueryString({ appointmentTypeId: type.id, facilityIds: [facility.id], providerIds: [], startDate: today, endDate: addDays(today, 27), isNewPatient: false })}`);
      for (const slot of asArray(answer.slots)) providers.add(asString(asRecord(slot).providerId));
    }
    providersByFacility.set(facility.id, [...providers].sort());
  }

  // What the front desks of this organization ask for: a fixed set of combinations (so the BFF's cache sees repeats, as a clinic's desks do).
  const next = random(seed);
  const monday = addDays(today, 7 - weekdayOf(today));
  const windows = [
    { startDate: today, endDate: addDays(today, 13) },
    { startDate: monday, endDate: addDays(monday, 6) },
    { startDate: today, endDate: addDays(today, 27) },
    { startDate: addDays(today, 14), endDate: addDays(today, 27) },
  ];
  const combinations: SlotQuery[] = [];
  const seen = new Set<string>();
  for (let attempt = 0; combinations.length < FILTER_COMBINATIONS_PER_ORG && attempt < 500; attempt += 1) {
    const type = pick(next, types);
    const facilityIds = next() < 0.3 ? facilities.map((facility) => facility.id) : [pick(next, facilities).id];
    const providers = facilityIds.flatMap((id) => providersByFacility.get(id) ?? []);
    const providerIds = next() < 0.25 && providers.length > 0 ? [pick(next, providers)] : [];
    const combination: SlotQuery = { appointmentTypeId: type.id, facilityIds, providerIds, ...pick(next, windows), isNewPatient: /^NP/i.test(type.abbreviation) || next() < 0.1 };
    const key = slotQueryString(combination);
    if (seen.has(key)) continue;
    seen.add(key);
    combinations.push(combination);
  }

  return {
    label: org.label,
    id: org.id,
    frontDeskUsers,
    schedulerUsers: withRole(["Scheduler"]),
    clinicalUsers: withRole(CLINICAL_ROLES),
    notes: notes.filter((note) => note.status !== "signed").map(({ id, patientId, facilityId }) => ({ id, patientId, facilityId })),
    facilities,
    providersByFacility,
    combinations,
  };
}

// ------------------------------------------------------------------ sessions

interface Run {
  client: AppClient;
  mint: TokenMint;
  appUrl: string;
  endsAt: number;
  holds: { attempts: number; unavailableAtCheck: number; held: number; released: number };
  draftsSaved: number;
  live: LiveStreams;
}

const running = (run: Run) => performance.now() < run.endsAt;

/** The SPA's live-event stream, one per session, reopened when it closes (at the token's expiry). */
class LiveStreams {
  opened = 0;
  failures = 0;
  events = 0;
  heartbeats = 0;
  private readonly open = new Set<http.ClientRequest>();
  private readonly agent = new http.Agent({ keepAlive: false });
  private stopped = false;

  constructor(private readonly appUrl: string) {}

  keep(tokens: SessionTokens, run: Run): void {
    const target = new URL(this.appUrl);
    const connect = async (): Promise<void> => {
      while (!this.stopped && running(run)) {
        const token = await tokens.read().catch(() => null);
        if (token === null) {
          await sleep(2_000);
          continue;
        }
        await new Promise<void>((resolve) => {
          const request = http.get({ host: target.hostname, port: target.port, path: "/api/events", agent: this.agent, headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" } }, (response) => {
            if (response.statusCode !== 200) {
              this.failures += 1;
              response.resume();
              response.on("end", resolve);
              return;
            }
            this.opened += 1;
            response.on("data", (chunk: Buffer) => {
              const text = chunk.toString();
              this.events += text.match(/^event: tandem$/gm)?.length ?? 0;
              this.heartbeats += text.match(/^event: (?!tandem$).*$/gm)?.length ?? 0;
            });
            response.on("end", resolve);
            response.on("error", resolve);
          });
          this.open.add(request);
          request.on("error", () => {
            if (!this.stopped) this.failures += 1;
            resolve();
          });
          request.on("close", () => {
            this.open.delete(request);
            resolve();
          });
        });
        await sleep(1_000);
      }
    };
    void connect();
  }

  stop(): void {
    this.stopped = true;
    for (const request of this.open) request.destroy();
    this.agent.destroy();
  }
}

interface SessionPlan {
  index: number;
  role: Role;
  org: OrgWorld;
  userId: string;
  /** Clinicians: where in the org's notes they start. */
  noteIndex: number;
  tokens: SessionTokens;
}

function clinicianIdentity(org: OrgWorld, userId: string, noteIndex: number): Identity {
  const note = org.notes[noteIndex % org.notes.length];
  if (!note) throw new Error(`org ${org.label}: no unsigned note`);
  return { organizationId: org.id, userId, noteId: note.id, patientId: note.patientId, facilityId: note.facilityId };
}

/** What the SPA loads when it starts in a view: the session, and that view's pickers. */
async function bootstrap(run: Run, plan: SessionPlan): Promise<Record<string, unknown> | null> {
  const token = await plan.tokens.read();
  const pickers: Record<Role, string[]> = {
    frontDesk: ["providers", "facilities", "appointment-types"],
    scheduler: ["providers", "facilities"],
    clinician: ["providers"],
  };
  const [session] = await Promise.all([
    run.client.call("session", "GET", "/api/session", token),
    ...pickers[plan.role].map((picker) => run.client.call("pickers", "GET", `/api/${picker}`, token)),
  ]);
  run.live.keep(plan.tokens, run);
  return session?.status === 200 ? asRecord(parseJson(session.text)) : null;
}

async function frontDesk(run: Run, plan: SessionPlan, next: () => number): Promise<void> {
  await bootstrap(run, plan);
  const combinations = plan.org.combinations;
  let combination = pick(next, combinations);
  let due = performance.now();
  while (running(run)) {
    await sleep(due - performance.now());
    if (!running(run)) break;
    if (next() < FILTER_CHANGE_PROBABILITY) combination = pick(next, combinations);
    const answer = await run.client.call("slots", "GET", `/api/slots?${slotQueryString(combination)}`, await plan.tokens.read());
    due += SEARCH_INTERVAL_MS * (0.8 + 0.4 * next());
    if (answer?.status !== 200 || next() >= HOLD_PROBABILITY) continue;
    const open = asArray(asRecord(parseJson(answer.text)).slots).map(asRecord).filter((slot) => Number(slot.remainingCapacity) > 0);
    if (open.length === 0) continue;
    const slot = pick(next, open);
    const selection = { providerId: asString(slot.providerId), facilityId: asString(slot.facilityId), startsAt: asString(slot.startsAt), endsAt: asString(slot.endsAt), appointmentTypeId: combination.appointmentTypeId, isNewPatient: combination.isNewPatient };
    run.holds.attempts += 1;
    const check = await run.client.call("slotCheck", "POST", "/api/slots/check", await plan.tokens.write(), selection);
    if (check?.status === 200 && asRecord(parseJson(check.text)).available === true) {
      const held = await run.client.call("holdCreate", "POST", "/api/holds", await plan.tokens.write(), selection);
      const holdId = held?.status === 200 ? asString(asRecord(asRecord(parseJson(held.text)).hold).id) : "";
      if (holdId !== "") {
        run.holds.held += 1;
        // On the phone with the patient; then the EHR books it, or the caller declines: here, released.
        await sleep(Math.min(between(next, HOLD_TALK_MS), run.endsAt - performance.now()));
        const released = await run.client.call("holdRelease", "DELETE", `/api/holds/${encodeURIComponent(holdId)}`, await plan.tokens.write());
        if (released?.status === 200) run.holds.released += 1;
      }
    } else if (check?.status === 200) {
      run.holds.unavailableAtCheck += 1;
    }
    due = performance.now() + SEARCH_INTERVAL_MS * (0.8 + 0.4 * next());
  }
}

async function scheduler(run: Run, plan: SessionPlan, next: () => number): Promise<void> {
  await bootstrap(run, plan);
  const { facilities, providersByFacility } = plan.org;
  const choose = () => {
    const facility = pick(next, facilities);
    const providers = providersByFacility.get(facility.id) ?? [];
    return { facility, providerId: next() < 0.3 && providers.length > 0 ? pick(next, providers) : null };
  };
  let view = choose();
  const thisWeek = () => {
    const today = localDateOf(Date.now(), view.facility.timezone);
    return addDays(today, -weekdayOf(today));
  };
  let week = thisWeek();
  while (running(run)) {
    const params = new URLSearchParams({ facilityId: view.facility.id, startDate: week, endDate: addDays(week, 6) });
    if (view.providerId) params.set("providerId", view.providerId);
    await run.client.call("availability", "GET", `/api/availability?${params.toString()}`, await plan.tokens.read());
    await sleep(Math.min(between(next, AVAILABILITY_PAGE_MS), run.endsAt - performance.now()));
    const move = next();
    if (move < 0.7) week = addDays(week, 7);
    else if (move < 0.8) week = addDays(week, -7);
    else if (move < 0.9) week = thisWeek();
    else {
      view = choose();
      week = thisWeek();
    }
    // Paging stays within about two months ahead.
    if (week > addDays(thisWeek(), 56)) week = thisWeek();
  }
}

async function clinician(run: Run, plan: SessionPlan, next: () => number): Promise<void> {
  const session = await bootstrap(run, plan);
  const canReadPatients = asArray(session?.grantedScopes).includes("read:patients");
  let tokens = plan.tokens;
  let noteIndex = plan.noteIndex;
  let saves = 0;
  while (running(run)) {
    // Open the note: what the note view loads.
    const noteId = tokens.identity.noteId ?? "";
    const token = await tokens.read();
    const path = `/api/notes/${noteId}`;
    const [note] = await Promise.all([
      run.client.call("noteRead", "GET", path, token),
      run.client.call("noteDraftRead", "GET", `${path}/draft`, token),
      run.client.call("noteTasks", "GET", `${path}/tasks`, token),
      run.client.call("noteImages", "GET", `${path}/images`, token),
      ...(canReadPatients ? [run.client.call("contextPatient", "GET", "/api/context/patient", token)] : []),
    ]);
    const body = asRecord(asRecord(parseJson(note?.text ?? "")).note);
    const baseline = asString(asRecord(body.soapNote).impressionsPlansComments);
    const version = typeof body.version === "number" ? body.version : null;
    const reopenAt = performance.now() + between(next, NOTE_REOPEN_MS);
    let draftAt = performance.now() + between(next, DRAFT_SAVE_MS);
    while (running(run)) {
      const wake = Math.min(draftAt, reopenAt, run.endsAt);
      await sleep(wake - performance.now());
      if (!running(run) || performance.now() >= reopenAt) break;
      saves += 1;
      const draft = { fields: { impressionsPlansComments: `${baseline}\nLoad bench draft ${plan.index}.${saves}` }, baseline: { impressionsPlansComments: baseline }, noteVersion: version };
      const saved = await run.client.call("noteDraftSave", "PUT", `${path}/draft`, await tokens.write(), draft);
      if (saved?.status === 200) run.draftsSaved += 1;
      draftAt = performance.now() + between(next, DRAFT_SAVE_MS);
    }
    if (running(run) && next() < 0.5) {
      noteIndex += 1;
      tokens = new SessionTokens(run.mint, clinicianIdentity(plan.org, plan.userId, noteIndex), WRITE_TOKEN_SPARES.clinician);
    }
  }
}

/** Sessions split evenly over the organizations; in each, half front desk, a fifth schedulers, the rest clinicians. */
function planSessions(worlds: readonly OrgWorld[], sessions: number, mint: TokenMint): SessionPlan[] {
  const plans: SessionPlan[] = [];
  worlds.forEach((org, orgIndex) => {
    const count = Math.floor(sessions / worlds.length) + (orgIndex < sessions % worlds.length ? 1 : 0);
    const frontDesks = Math.round(count * 0.5);
    const schedulers = Math.round(count * 0.2);
    for (let k = 0; k < count; k += 1) {
      const role: Role = k < frontDesks ? "frontDesk" : k < frontDesks + schedulers ? "scheduler" : "clinician";
      const users = role === "frontDesk" ? org.frontDeskUsers : role === "scheduler" ? org.schedulerUsers : org.clinicalUsers;
      const userId = users[k % Math.max(1, users.length)];
      if (!userId) throw new Error(`org ${org.label}: no user for ${role}`);
      const identity = role === "clinician" ? clinicianIdentity(org, userId, k) : { organizationId: org.id, userId };
      plans.push({ index: plans.length, role, org, userId, noteIndex: k, tokens: new SessionTokens(mint, identity, WRITE_TOKEN_SPARES[role]) });
    }
  });
  return plans;
}

// ------------------------------------------------------------------ upstream counts as the emulator saw them

interface StatsBucket {
  key: string;
  organizationId: string | null;
  counted: number;
  limited: number;
  peakWindowCount: number;
}

interface StatsSample {
  at: number;
  buckets: Map<string, StatsBucket>;
}

async function readStats(emulatorUrl: string): Promise<StatsSample> {
  const stats = await json<{ buckets: StatsBucket[] }>(`${emulatorUrl}/_sandbox/request-stats`);
  return { at: performance.now(), buckets: new Map(stats.buckets.map((bucket) => [`${bucket.key} ${bucket.organizationId ?? "-"}`, bucket])) };
}

interface PerMinute {
  requests: number;
  meanPerMinute: number;
  /** The most requests in any 60 s of the run (from one-second samples); null when the run is shorter. */
  peak60s: number | null;
  /** 429s the emulator answered in the run. */
  http429: number;
  /** The most the emulator counted in one of its fixed windows (since it started: setup included). */
  peakFixedWindow: number;
}

/** Per group (a key, or a key and organization): counts between the first and the last sample, and the busiest 60 s. */
function perMinute(samples: readonly StatsSample[], groupOf: (bucket: string, stats: StatsBucket) => string): Record<string, PerMinute> {
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last) return {};
  const minutes = (last.at - first.at) / 60_000;
  const totals = (sample: StatsSample) => {
    const byGroup = new Map<string, { counted: number; limited: number; peak: number }>();
    for (const [bucket, stats] of sample.buckets) {
      const group = groupOf(bucket, stats);
      const entry = byGroup.get(group) ?? { counted: 0, limited: 0, peak: 0 };
      entry.counted += stats.counted;
      entry.limited += stats.limited;
      entry.peak = Math.max(entry.peak, stats.peakWindowCount);
      byGroup.set(group, entry);
    }
    return byGroup;
  };
  const series = samples.map((sample) => ({ at: sample.at, totals: totals(sample) }));
  const result: Record<string, PerMinute> = {};
  const lastTotals = series.at(-1)?.totals ?? new Map<string, { counted: number; limited: number; peak: number }>();
  const firstTotals = series[0]?.totals ?? new Map<string, { counted: number; limited: number; peak: number }>();
  for (const [group, end] of lastTotals) {
    const start = firstTotals.get(group) ?? { counted: 0, limited: 0, peak: 0 };
    const requests = end.counted - start.counted;
    // A bucket the run did not touch (the BFF's start-up installations list, without an organization).
    if (requests === 0 && end.limited === start.limited) continue;
    let peak60s: number | null = null;
    for (let i = 0, j = 0; i < series.length; i += 1) {
      const from = series[i];
      if (!from) break;
      while (j < series.length && (series[j]?.at ?? 0) - from.at < 60_000 - SAMPLE_MS / 2) j += 1;
      const to = series[j];
      if (!to) break;
      const count = (to.totals.get(group)?.counted ?? 0) - (from.totals.get(group)?.counted ?? 0);
      peak60s = Math.max(peak60s ?? 0, count);
    }
    result[group] = { requests, meanPerMinute: round(requests / minutes, 1), peak60s, http429: end.limited - start.limited, peakFixedWindow: end.peak };
  }
  return result;
}

// ------------------------------------------------------------------ the run

const latencySummary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50Ms: round(percentile(sorted, 50), 1), p95Ms: round(percentile(sorted, 95), 1), p99Ms: round(percentile(sorted, 99), 1) };
};

export async function runLoadBench(): Promise<Record<string, unknown>> {
  const sessions = Number(process.env.LOAD_SESSIONS ?? 200);
  const seconds = Number(process.env.LOAD_SECONDS ?? 60);
  if (!Number.isInteger(sessions) || sessions < 2 || !(seconds > 0)) throw new Error("LOAD_SESSIONS must be an integer of at least 2 and LOAD_SECONDS a positive number");
  const loadAvgStart = loadavg()[0] ?? 0;
  const stack = await startStack();
  const agent = new http.Agent({ keepAlive: true, maxSockets: sessions + 16, maxFreeSockets: sessions + 16, keepAliveMsecs: 30_000 });
  const client = new AppClient(stack.appUrl, agent);
  const mint = new TokenMint(stack.emulatorUrl, PREMINT_CONCURRENCY);
  const live = new LiveStreams(stack.appUrl);
  let sampler: ReturnType<typeof setInterval> | undefined;
  try {
    const worlds = await Promise.all(ORGS.map((org, index) => loadOrgWorld(stack, client, mint, org, 20261122 + index)));
    const plans = planSessions(worlds, sessions, mint);
    // Every session's first tokens before the clock starts; from then on, two mints at a time.
    await Promise.all(
      Array.from({ length: PREMINT_CONCURRENCY }, async (_, worker) => {
        for (let index = worker; index < plans.length; index += PREMINT_CONCURRENCY) await plans[index]?.tokens.prepare();
      }),
    );
    mint.concurrency = MINT_CONCURRENCY;
    const mintedBefore = mint.minted;

    const stats: StatsSample[] = [await readStats(stack.emulatorUrl)];
    const rss: number[] = [];
    const emulatorRss: number[] = [];
    const rssStart = rssMb(stack.bff.pid);
    const cpuBefore = { bff: cpuSeconds(stack.bff.pid), emulator: cpuSeconds(stack.emulator.pid), self: process.cpuUsage() };
    const startedAt = performance.now();
    const run: Run = { client, mint, appUrl: stack.appUrl, endsAt: startedAt + seconds * 1000, holds: { attempts: 0, unavailableAtCheck: 0, held: 0, released: 0 }, draftsSaved: 0, live };
    sampler = setInterval(() => {
      const value = rssMb(stack.bff.pid);
      if (value !== null) rss.push(value);
      const emulatorValue = rssMb(stack.emulator.pid);
      if (emulatorValue !== null) emulatorRss.push(emulatorValue);
      void readStats(stack.emulatorUrl).then((sample) => stats.push(sample), () => undefined);
    }, SAMPLE_MS);

    const roles = { frontDesk, scheduler, clinician };
    await Promise.all(
      plans.map(async (plan) => {
        await sleep((plan.index / plans.length) * SESSION_START_SPREAD_MS);
        await roles[plan.role](run, plan, random(7919 * (plan.index + 1)));
      }),
    );
    const elapsedMs = performance.now() - startedAt;
    clearInterval(sampler);
    sampler = undefined;
    live.stop();
    stats.push(await readStats(stack.emulatorUrl));
    const rssEnd = rssMb(stack.bff.pid);
    if (rssEnd !== null) rss.push(rssEnd);
    const cpu = {
      bff: round((cpuSeconds(stack.bff.pid) - cpuBefore.bff) / (elapsedMs / 1000)),
      emulator: round((cpuSeconds(stack.emulator.pid) - cpuBefore.emulator) / (elapsedMs / 1000)),
      loadGenerator: round((() => {
        const used = process.cpuUsage(cpuBefore.self);
        return (used.user + used.system) / 1000 / elapsedMs;
      })()),
    };

    stats.sort((a, b) => a.at - b.at);
    const perKey = perMinute(stats, (_bucket, bucket) => bucket.key);
    const perKeyOrg = perMinute(stats, (bucket) => bucket);
    const upstreamRequests = Object.values(perKey).reduce((sum, entry) => sum + entry.requests, 0);
    const upstream429 = Object.values(perKey).reduce((sum, entry) => sum + entry.http429, 0);
    const worstPerMinute = Math.max(0, ...Object.values(perKey).map((entry) => entry.peak60s ?? entry.meanPerMinute));
    const perRoute: Record<string, Record<string, number>> = {};
    for (const [route, figures] of [...client.routes].sort(([a], [b]) => a.localeCompare(b))) {
      perRoute[route] = { requests: figures.requests, errors: figures.errors, ...latencySummary(figures.latencies) };
    }
    const errorRate = client.requests > 0 ? client.errors / client.requests : 0;
    const unexpected = client.errors - client.holdConflicts - client.holdLimitRefusals;
    return {
      bench: `load-${sessions}-sessions`,
      sessions,
      seconds,
      elapsedSeconds: round(elapsedMs / 1000, 1),
      sessionsByRole: Object.fromEntries((["frontDesk", "scheduler", "clinician"] as const).map((role) => [role, plans.filter((plan) => plan.role === role).length])),
      sessionsByOrg: Object.fromEntries(worlds.map((org) => [org.label, plans.filter((plan) => plan.org === org).length])),
      requests: client.requests,
      requestsPerSecond: round(client.requests / (elapsedMs / 1000), 1),
      errors: client.errors,
      errorRate: round(errorRate, 4),
      unexpectedErrorRate: round(client.requests > 0 ? unexpected / client.requests : 0, 4),
      byStatus: client.byStatus,
      errorsByCode: client.errorsByCode,
      rateLimitedToUsers: client.rateLimitedToUsers,
      networkErrors: client.networkErrors,
      staleSocketRetries: client.staleSocketRetries,
      ...latencySummary(client.all),
      perRoute,
      holds: { ...run.holds, conflicts: client.holdConflicts, limitRefusals: client.holdLimitRefusals },
      draftsSaved: run.draftsSaved,
      liveEvents: { streamsOpened: live.opened, streamFailures: live.failures, eventsReceived: live.events, heartbeats: live.heartbeats },
      bffRssStartMb: rssStart === null ? null : round(rssStart, 1),
      bffRssPeakMb: rss.length > 0 ? round(Math.max(...rss), 1) : null,
      bffRssEndMb: rssEnd === null ? null : round(rssEnd, 1),
      emulatorRssPeakMb: emulatorRss.length > 0 ? round(Math.max(...emulatorRss), 1) : null,
      cpuCores: cpu,
      upstreamRequests,
      upstream429,
      upstreamPerKeyPerMinute: perKey,
      upstreamPerKeyOrgPerMinute: perKeyOrg,
      budgetPerMinute: BUDGET_PER_MINUTE,
      withinBudget: client.rateLimitedToUsers === 0 && upstream429 === 0 && worstPerMinute < BUDGET_PER_MINUTE,
      bffRateLimitWarnings: stack.bffRateLimitWarnings(),
      hostTokens: { mintedDuringRun: mint.minted - mintedBefore, mintedBeforeRun: mintedBefore, perSecond: round((mint.minted - mintedBefore) / (elapsedMs / 1000), 1), onDemand: mint.onDemand, failures: mint.failures },
      machine: { cpus: cpus().length, loadAvg1mBefore: round(loadAvgStart), loadAvg1mAfter: round(loadavg()[0] ?? 0) },
      note: "emulator and one BFF as their own processes (tsx, PGlite), load generator in this process, all over loopback on the same machine; upstream counted by the emulator's rate limiter (GET /_sandbox/request-stats), host-token minting excluded; peak60s = busiest 60 s from 1 s samples; unexpectedErrorRate leaves out 409 conflicts on holds (a slot taken between check and hold) and 409 hold_limit_reached (several sessions share one user, and so the user's basket of 3 holds); a request on a keep-alive socket the BFF had just closed as idle is sent again once, as browsers do (staleSocketRetries); latencies include the machine's other load (machine.loadAvg1m*)",
    };
  } finally {
    if (sampler) clearInterval(sampler);
    live.stop();
    agent.destroy();
    await stack.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runLoadBench()));
}
