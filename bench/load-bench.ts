import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { ORG_A_ID, ORG_B_ID, ORG_D_ID, ORG_E_ID, ORG_F_ID } from "../emulator/world/identities.ts";
import { AppClient, LiveStreams, LoadFigures } from "./load/app-client.ts";
import { SlotPicker } from "./load/slot-picker.ts";
import { TokenMint } from "./load/host-tokens.ts";
import { startLoadStack, type LoadStack } from "./load/load-stack.ts";
import { random, sleep } from "./load/load-random.ts";
import { loadOrgWorld, warmProcess } from "./load/org-world.ts";
import { machineSpeedProbeMs } from "./load/machine-speed.ts";
import { MachineMeter, ProcessMeter } from "./load/process-figures.ts";
import { Responsiveness } from "./load/responsiveness.ts";
import { planSessions, ROLE_BEHAVIOURS, type Run } from "./load/sessions.ts";
import { bffAnswersByRoute, counterTotal, LIMIT_PER_MINUTE, upstreamAttemptsByRoute, UpstreamSampler, type DurationCounts } from "./load/upstream-stats.ts";
import { percentile, round } from "./measure.ts";

// Load: many concurrent app sessions spread evenly over the five installed
// organizations of the emulator's large world (A, B, D, E and F; at 250
// sessions an organization, four organizations' upstream reached the
// 1000-a-minute limit at peaks: docs/deploy.md "How many users one process
// serves"), for a fixed
// time, against the compiled programs run as in production (bench/load/
// load-stack.ts): ONE BFF process on PostgreSQL (DATABASE_URL; a fresh
// schema), as docs/deploy.md has a deployment of this size run; the same on
// the embedded store (PGlite), which is meant for the sandbox and a small
// clinic; then TWO and FOUR processes sharing one PostgreSQL and one
// upstream budget through it (ADR 0026), sessions split between them.
// What the sessions do: bench/load/sessions.ts. Host tokens: bench/load/
// host-tokens.ts (not timed, not counted as app traffic; reported apart).
// Measured, per run: requests answered to the sessions; errors (non-2xx and
// network failures, by status and code; 429s that reached a user on their
// own); latency p50/p95/p99 overall and per route class; upstream requests
// per minute per organization as the EMULATOR counted them and whether each
// stayed under its 1000 per 60 s; each BFF process's CPU (seconds, and % of
// one core) and RSS (peak and end), the emulator's, and the load generator's
// own CPU (this process: it shares the machine's cores with what it
// measures; it times every answer on its one thread, so its own event-loop
// delay is reported too, and its heavy work, picking a slot out of a large
// answer, runs on a thread of its own: load/slot-picker.ts). The targets (0 errors, p99 at most 100 ms, every organization
// under the limit) are checked in the run and printed with the figures.
//
// LOAD_SESSIONS (default 1000) and LOAD_SECONDS (default 120) shorten trial
// runs; LOAD_RUNS=one, embedded, two or four (or a comma-separated list) runs
// only those rows (default all); LOAD_BUDGET_STORE=redis has the processes
// share the upstream budget through REDIS_URL instead of PostgreSQL;
// LOAD_CPU_PROFILE_DIR=dir has each BFF process and the emulator write a V8
// CPU profile there, and LOAD_LOG_DIR=dir their whole output (a row's files
// replace the previous row's). Per organization, the row reports the
// emulator's own peak count (its fixed windows, and the busiest 60 s) and its
// share of all upstream requests. LOAD_DISABLE=refresh-ahead,… turns
// mechanisms of the upstream client off in every BFF (their bench-only
// BENCH_DISABLE, server/clinic/bench-switches.ts; bench/ablation-bench.ts);
// the row's `benchMechanisms` says, per mechanism, whether it was on and how
// often it did its work.

const ORGS = [
  { label: "A", id: ORG_A_ID },
  { label: "B", id: ORG_B_ID },
  { label: "D", id: ORG_D_ID },
  { label: "E", id: ORG_E_ID },
  { label: "F", id: ORG_F_ID },
] as const;
const P99_TARGET_MS = 100;
/** Sessions open at the pace the 200-session bench had (200 in 5 s): 1,000 users do not all open the app in the same 5 s. */
const SESSIONS_STARTED_PER_SECOND = 40;
const MINT_CONCURRENCY = 2;
const PREMINT_CONCURRENCY = 8;
const SAMPLE_MS = 1_000;
const REFRESHED_AHEAD = "tandem_upstream_refreshed_ahead_total";

/** Per mechanism of server/clinic/bench-switches.ts, summed over the processes: whether it was on and how often it did its work (since each process started). */
async function benchMechanisms(metricsUrls: readonly string[]): Promise<Record<string, { on: boolean; uses: number }>> {
  const series = /^tandem_bench_mechanism_uses_total\{mechanism="([^"]+)",on="(true|false)"\} (\d+)$/gm;
  const figures: Record<string, { on: boolean; uses: number }> = {};
  for (const url of metricsUrls) {
    const text = await (await fetch(url, { signal: AbortSignal.timeout(15_000) })).text();
    for (const [, mechanism = "", on, uses = "0"] of text.matchAll(series)) figures[mechanism] = { on: on === "true", uses: (figures[mechanism]?.uses ?? 0) + Number(uses) };
  }
  return figures;
}

const latencySummary = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50Ms: round(percentile(sorted, 50), 1), p95Ms: round(percentile(sorted, 95), 1), p99Ms: round(percentile(sorted, 99), 1) };
};

interface LoadRun {
  sessions: number;
  seconds: number;
  processes: number;
  /** Share the upstream budget through this Redis instead of PostgreSQL (LOAD_BUDGET_STORE=redis). */
  redisUrl?: string;
  databaseUrl?: string;
  /** LOAD_DISABLE: each BFF's BENCH_DISABLE. */
  benchDisable?: string;
}

/** Per route, the counts of the run (after minus before) and how many of them took over 100 ms; routes with none left out, slowest first. */
function over100MsBetween(before: ReadonlyMap<string, DurationCounts>, after: ReadonlyMap<string, DurationCounts>): Record<string, { count: number; over100Ms: number }> {
  return Object.fromEntries(
    [...after]
      .map(([route, counts]): [string, { count: number; over100Ms: number }] => {
        const start = before.get(route) ?? { count: 0, within100Ms: 0 };
        const count = counts.count - start.count;
        return [route, { count, over100Ms: count - (counts.within100Ms - start.within100Ms) }];
      })
      .filter(([, figures]) => figures.over100Ms > 0)
      .sort(([, a], [, b]) => b.over100Ms - a.over100Ms),
  );
}

const rowName = (sessions: number, processes: number, store: "pglite" | "postgres") => `load-${sessions}-sessions-${processes === 1 ? "one-process" : `${processes}-processes`}-${store === "pglite" ? "embedded" : "postgres"}`;

async function runLoad(options: LoadRun): Promise<Record<string, unknown>> {
  const { sessions, seconds, processes } = options;
  const loadAvgStart = loadavg()[0] ?? 0;
  const speedProbeMs = machineSpeedProbeMs();
  const cpuProfileDir = process.env.LOAD_CPU_PROFILE_DIR;
  const budgetStore = processes === 1 && options.databaseUrl === undefined ? "this process" : options.redisUrl !== undefined ? "redis" : "postgres";
  const logDir = process.env.LOAD_LOG_DIR;
  const stack: LoadStack = await startLoadStack({ processes, ...(options.redisUrl !== undefined && { redisUrl: options.redisUrl }), ...(options.databaseUrl !== undefined && { databaseUrl: options.databaseUrl }), ...(cpuProfileDir !== undefined && { cpuProfileDir }), ...(logDir !== undefined && { logDir }), ...(options.benchDisable !== undefined && { benchDisable: options.benchDisable }) });
  const figures = new LoadFigures();
  const socketsPerProcess = Math.ceil(sessions / processes) + 16;
  const targets = stack.bffs.map((bff, index) => ({ client: new AppClient(bff.url, figures, index, socketsPerProcess), appUrl: bff.url }));
  const mint = new TokenMint(stack.emulatorUrl, PREMINT_CONCURRENCY);
  const live = new LiveStreams();
  const picker = new SlotPicker();
  let sampler: ReturnType<typeof setInterval> | undefined;
  try {
    const setupClient = targets[0]?.client;
    if (!setupClient) throw new Error("no BFF process");
    const worlds = await Promise.all(ORGS.map((org, index) => loadOrgWorld(stack.emulatorUrl, setupClient, mint, org, 20261122 + index)));
    // The first process served the setup; every other one is warmed the same way (org-world.ts says why).
    for (const [index, target] of targets.entries()) {
      if (index > 0) await Promise.all(worlds.map((world) => warmProcess(target.client, mint, world, `BFF process ${index + 1}`)));
    }
    const plans = planSessions(worlds, sessions, mint, targets);
    // Every session's first tokens before the clock starts; from then on, two mints at a time.
    await Promise.all(
      Array.from({ length: PREMINT_CONCURRENCY }, async (_, worker) => {
        for (let index = worker; index < plans.length; index += PREMINT_CONCURRENCY) await plans[index]?.tokens.prepare();
      }),
    );
    mint.concurrency = MINT_CONCURRENCY;
    const mintedBefore = mint.minted;

    const upstream = new UpstreamSampler(stack.emulatorUrl);
    await upstream.sample();
    const metricsUrls = stack.bffs.map((bff) => bff.metricsUrl);
    const callsBefore = await upstreamAttemptsByRoute(metricsUrls);
    const answersBefore = await bffAnswersByRoute(metricsUrls);
    const refreshedBefore = await counterTotal(metricsUrls, REFRESHED_AHEAD);
    const responsiveness = new Responsiveness(metricsUrls, stack.emulatorUrl);
    await responsiveness.sample();
    const bffMeters = stack.bffs.map((bff) => new ProcessMeter(bff.child.pid));
    const emulatorMeter = new ProcessMeter(stack.emulator.pid);
    for (const meter of [...bffMeters, emulatorMeter]) meter.begin();
    const machine = new MachineMeter();
    const selfBefore = process.cpuUsage();
    const startedAt = performance.now();
    const run: Run = { mint, endsAt: startedAt + seconds * 1000, holds: { attempts: 0, unavailableAtCheck: 0, held: 0, released: 0, skippedBasketFull: 0 }, draftsSaved: 0, live, basket: new Map(), picker };
    figures.recording = true;
    sampler = setInterval(() => {
      for (const meter of [...bffMeters, emulatorMeter]) meter.sample();
      void upstream.sample().catch(() => undefined);
      void responsiveness.sample();
    }, SAMPLE_MS);

    // Opening order: shuffled (deterministically), so organizations and roles start mixed.
    const opening = plans.map((plan) => plan.index);
    const shuffle = random(4099);
    for (let index = opening.length - 1; index > 0; index -= 1) {
      const other = Math.floor(shuffle() * (index + 1));
      [opening[index], opening[other]] = [opening[other] ?? 0, opening[index] ?? 0];
    }
    const openingAt = new Map(opening.map((planIndex, position) => [planIndex, (position / SESSIONS_STARTED_PER_SECOND) * 1000]));
    await Promise.all(
      plans.map(async (plan) => {
        await sleep(openingAt.get(plan.index) ?? 0);
        await ROLE_BEHAVIOURS[plan.role](run, plan, random(7919 * (plan.index + 1)));
      }),
    );
    // The recorded period: holds still held at its end are released after it, unrecorded (load/sessions.ts).
    const elapsedMs = Math.min(performance.now() - startedAt, seconds * 1000);
    figures.recording = false;
    clearInterval(sampler);
    sampler = undefined;
    responsiveness.stop();
    live.stop();
    const self = process.cpuUsage(selfBefore);
    const machineBusy = machine.busyPercentOfOneCore(cpus().length);
    for (const meter of [...bffMeters, emulatorMeter]) meter.end();
    await upstream.sample();
    const callsAfter = await upstreamAttemptsByRoute(metricsUrls);
    const answersAfter = await bffAnswersByRoute(metricsUrls);
    const refreshedAhead = (await counterTotal(metricsUrls, REFRESHED_AHEAD)) - refreshedBefore;
    const elapsedSeconds = elapsedMs / 1000;
    const upstreamPerMinuteByRoute = Object.fromEntries(
      [...callsAfter]
        .map(([route, { count }]): [string, number] => [route, round(((count - (callsBefore.get(route)?.count ?? 0)) / elapsedSeconds) * 60, 1)])
        .filter(([, perMinute]) => perMinute > 0)
        .sort(([, a], [, b]) => b - a),
    );
    // Where a user's slow request can come from: the service's own answer time (here the emulator's, on the same cores).
    const upstreamOver100MsByRoute = over100MsBetween(callsBefore, callsAfter);
    // And the BFF's own answer time, as its metrics measured it (the load generator's delays left out).
    const bffOver100MsByRoute = over100MsBetween(answersBefore, answersAfter);

    const labelOf = new Map<string, string>(ORGS.map((org) => [org.id, org.label]));
    const perOrganization = upstream.figures((bucket) => (bucket.organizationId === null ? "(no organization)" : (labelOf.get(bucket.organizationId) ?? bucket.organizationId)));
    const perKey = upstream.figures((bucket) => bucket.key);
    const everyOrganizationUnder = ORGS.every((org) => perOrganization[org.label]?.underLimit === true);
    const perRoute: Record<string, Record<string, number>> = {};
    for (const [route, entry] of [...figures.routes].sort(([a], [b]) => a.localeCompare(b))) {
      if (entry.requests > 0) perRoute[route] = { requests: entry.requests, errors: entry.errors, ...latencySummary(entry.latencies) };
    }
    const overall = latencySummary(figures.all);
    // How the tail moved over the run (session start-up first): p99 of the answers of each 10 s.
    const p99By10s: number[] = [];
    for (let from = 0; from < elapsedMs; from += 10_000) {
      const inWindow = figures.all.filter((_, index) => (figures.answeredAt[index] ?? 0) - startedAt >= from && (figures.answeredAt[index] ?? 0) - startedAt < from + 10_000);
      p99By10s.push(latencySummary(inWindow).p99Ms);
    }
    const loadGeneratorCpu = (self.user + self.system) / 1e6;
    const bffFigures = bffMeters.map((meter) => meter.figures(elapsedSeconds));
    const emulatorFigures = emulatorMeter.figures(elapsedSeconds);
    const loadGeneratorPercent = round((loadGeneratorCpu / elapsedSeconds) * 100, 1);
    const measuredPercent = bffFigures.reduce((sum, entry) => sum + entry.cpuPercentOfOneCore, 0) + emulatorFigures.cpuPercentOfOneCore + loadGeneratorPercent;
    return {
      bench: rowName(sessions, processes, stack.store),
      processes,
      store: stack.store,
      upstreamRateLimitScope: "organization",
      upstreamBudgetSharedThrough: budgetStore,
      sessions,
      seconds,
      elapsedSeconds: round(elapsedSeconds, 1),
      organizations: ORGS.map((org) => org.label),
      sessionsByOrg: Object.fromEntries(worlds.map((org) => [org.label, plans.filter((plan) => plan.org === org).length])),
      sessionsByRole: Object.fromEntries((["frontDesk", "scheduler", "clinician"] as const).map((role) => [role, plans.filter((plan) => plan.role === role).length])),
      usersByOrg: Object.fromEntries(worlds.map((org) => [org.label, { frontDesk: org.frontDeskUsers.length, scheduler: org.schedulerUsers.length, clinical: org.clinicalUsers.length, unsignedNotes: org.notes.length }])),
      slotSearchAnswerKbByOrg: Object.fromEntries(worlds.map((org) => [org.label, org.slotAnswerKb])),
      requests: figures.requests,
      requestsPerSecond: round(figures.requests / elapsedSeconds, 1),
      requestsPerProcess: figures.perProcess,
      errors: figures.errors,
      byStatus: figures.byStatus,
      errorsByCode: figures.errorsByCode,
      rateLimitedToUsers: figures.rateLimitedToUsers,
      networkErrors: figures.networkErrors,
      staleSocketRetries: figures.staleSocketRetries,
      ...overall,
      p99MsBy10s: p99By10s,
      ...responsiveness.by10s(startedAt, elapsedMs),
      perRoute,
      holds: { ...run.holds, conflicts: figures.holdConflicts, limitRefusals: figures.holdLimitRefusals },
      draftsSaved: run.draftsSaved,
      liveEvents: { streamsOpened: live.opened, streamFailures: live.failures, eventsReceived: live.events, heartbeats: live.heartbeats },
      upstreamPerOrganization: perOrganization,
      // Each organization's part of every upstream request of the run, and its peak against the limit (each has its own: RATE_LIMIT_SCOPE=organization).
      upstreamSharePerOrganization: Object.fromEntries(
        Object.entries(perOrganization).map(([label, entry]) => [label, { share: round(entry.requests / Math.max(1, Object.values(perOrganization).reduce((sum, other) => sum + other.requests, 0)), 3), peakFixedWindow: entry.peakFixedWindow, peak60s: entry.peak60s }]),
      ),
      upstreamPerKey: perKey,
      upstreamPerMinuteByRouteAllOrganizations: upstreamPerMinuteByRoute,
      // Schedule reads the BFFs read again in the background once a newer sync of their mirror showed (server/clinic/refresh-ahead.ts).
      refreshedAhead,
      benchDisabled: options.benchDisable ?? "",
      benchMechanisms: await benchMechanisms(metricsUrls),
      upstreamOver100MsByRoute,
      bffOver100MsByRoute,
      upstreamLimitPerMinute: LIMIT_PER_MINUTE,
      bffRateLimitWarnings: stack.bffs.map((bff) => bff.rateLimitWarnings()),
      bff: bffFigures,
      emulator: emulatorFigures,
      loadGenerator: { cpuSeconds: round(loadGeneratorCpu, 1), cpuPercentOfOneCore: loadGeneratorPercent },
      hostTokens: { mintedDuringRun: mint.minted - mintedBefore, mintedBeforeRun: mintedBefore, perSecond: round((mint.minted - mintedBefore) / elapsedSeconds, 1), onDemand: mint.onDemand, failures: mint.failures },
      machine: {
        cpus: cpus().length,
        // Lower is faster; compare rows of different machines by it (bench/load/machine-speed.ts).
        speedProbeMs,
        busyPercentOfOneCore: machineBusy,
        // PostgreSQL's backends, and any other process on the machine.
        otherProcessesPercentOfOneCore: round(machineBusy - measuredPercent, 1),
        loadAvg1mBefore: round(loadAvgStart),
        loadAvg1mAfter: round(loadavg()[0] ?? 0),
      },
      targets: {
        zeroErrors: figures.errors === 0,
        p99AtMost100Ms: overall.p99Ms <= P99_TARGET_MS,
        everyOrganizationUnderUpstreamLimit: everyOrganizationUnder,
        met: figures.errors === 0 && overall.p99Ms <= P99_TARGET_MS && everyOrganizationUnder,
      },
      note: "compiled emulator (EMULATOR_SCALE=large) and BFF processes under plain node, load generator in this process, all over loopback on the same machine (cpus); the BFFs count the upstream limit per organization, as the emulator does; upstream as the emulator counted it (GET /_sandbox/request-stats), host-token minting excluded; peak60s = busiest 60 s from 1 s samples (null when the run is shorter), peakFixedWindow = the emulator's busiest window since it started (setup included); cpuPercentOfOneCore: 200 would be both cores; a request on a keep-alive socket the BFF had just closed as idle is sent again once, as browsers do (staleSocketRetries)",
    };
  } finally {
    if (sampler) clearInterval(sampler);
    live.stop();
    await picker.close();
    mint.close();
    for (const target of targets) target.client.close();
    await stack.stop();
  }
}

const RUNS = ["one", "embedded", "two", "four"] as const;
type RunName = (typeof RUNS)[number];

/** LOAD_RUNS: a comma-separated choice of the rows; `all` (the default) is every one, `both` the one- and two-process rows. */
function chosenRuns(text: string): ReadonlySet<RunName> {
  if (text === "all") return new Set(RUNS);
  if (text === "both") return new Set<RunName>(["one", "two"]);
  const names = text.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !(RUNS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`LOAD_RUNS: ${unknown.join(", ")} is not a run: give all, both, or some of ${RUNS.join(", ")}`);
  return new Set(names as RunName[]);
}

export async function runLoadBench(): Promise<Record<string, unknown>[]> {
  const sessions = Number(process.env.LOAD_SESSIONS ?? 1000);
  const seconds = Number(process.env.LOAD_SECONDS ?? 120);
  const runs = chosenRuns(process.env.LOAD_RUNS ?? "all");
  if (!Number.isInteger(sessions) || sessions < ORGS.length || !(seconds > 0)) throw new Error(`LOAD_SESSIONS must be an integer of at least ${ORGS.length} and LOAD_SECONDS a positive number`);
  if (process.env.LOAD_RATE_SHARE !== undefined) throw new Error("LOAD_RATE_SHARE was removed with UPSTREAM_RATE_SHARE: the processes share one budget (ADR 0026)");
  const budgetStore = process.env.LOAD_BUDGET_STORE ?? "postgres";
  if (budgetStore !== "postgres" && budgetStore !== "redis") throw new Error("LOAD_BUDGET_STORE must be postgres or redis");
  const redisUrl = process.env.REDIS_URL;
  if (budgetStore === "redis" && redisUrl === undefined) throw new Error("LOAD_BUDGET_STORE=redis needs REDIS_URL");
  const benchDisable = process.env.LOAD_DISABLE;
  const shared = { ...(budgetStore === "redis" && redisUrl !== undefined && { redisUrl }), ...(benchDisable !== undefined && { benchDisable }) };
  const databaseUrl = process.env.DATABASE_URL;
  const needsPostgres = (processes: number) => ({
    bench: rowName(sessions, processes, "postgres"),
    processes,
    skipped: true,
    reason: "DATABASE_URL is not set: this row runs on PostgreSQL (e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/test)",
  });
  const rows: Record<string, unknown>[] = [];
  // One process as docs/deploy.md has a deployment of this size run it: on PostgreSQL.
  if (runs.has("one")) rows.push(databaseUrl ? await runLoad({ sessions, seconds, processes: 1, databaseUrl, ...shared }) : needsPostgres(1));
  // The embedded store is for the sandbox and a small clinic (ADR 0019); measured under this load all the same.
  if (runs.has("embedded")) rows.push(await runLoad({ sessions, seconds, processes: 1, ...shared }));
  if (runs.has("two")) rows.push(databaseUrl ? await runLoad({ sessions, seconds, processes: 2, databaseUrl, ...shared }) : needsPostgres(2));
  if (runs.has("four")) rows.push(databaseUrl ? await runLoad({ sessions, seconds, processes: 4, databaseUrl, ...shared }) : needsPostgres(4));
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of await runLoadBench()) console.log(JSON.stringify(row));
}
