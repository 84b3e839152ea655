import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import { BENCH_MECHANISMS, parseBenchDisable, type BenchMechanism } from "../server/clinic/bench-switches.ts";
import { REPO_ROOT } from "../scripts/programs.ts";
import { round } from "./measure.ts";

// Issue 37 item 2: does each piece of the upstream client's performance
// machinery earn its place? For each mechanism (server/clinic/bench-switches.ts),
// the 1,000-user load bench's one-process PostgreSQL row (bench/load-bench.ts,
// LOAD_RUNS=one) runs RUNS times with it on and RUNS times with it off
// (LOAD_DISABLE), in rounds that share the on runs (runAblationBench), so
// that the machine's drift falls on every side alike. Printed: a markdown table per mechanism (errors,
// p50/p95/p99, upstream calls per run; each side's mean and spread, min-max;
// whether the difference of the means exceeds the larger spread), ready for
// bench/RESULTS.md. Each run is its own `node --import tsx` process: no run
// inherits another's heap.
//
// `npm run bench:ablation` (builds first). Needs DATABASE_URL. At 120 s a run
// plus start-up, five rounds of eight runs take about 90 minutes (LOAD_SECONDS=60,
// about an hour): run it on a quiet machine. ABLATION_MECHANISMS=refresh-ahead,… measures only those;
// ABLATION_RUNS (default 5) runs per side; LOAD_SESSIONS and LOAD_SECONDS
// pass through to the load bench. Each run's whole row goes to stderr as a
// JSON line, the table to stdout.

const DEFAULT_RUNS = 5;

/** What one load run gave, as the ablation compares it. */
export interface RunFigures {
  errors: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  upstreamCalls: number;
  /** The mechanism's own count of its work (0 when it was off), and whether the BFF had it on. */
  uses: number;
  on: boolean;
  loadAvg1m: number;
}

const FIGURES = [
  ["errors", "errors"],
  ["p50Ms", "p50 (ms)"],
  ["p95Ms", "p95 (ms)"],
  ["p99Ms", "p99 (ms)"],
  ["upstreamCalls", "upstream calls per run"],
  ["uses", "the mechanism's uses per run"],
] as const satisfies readonly (readonly [keyof RunFigures, string])[];

/** The figures the ablation reads from a load-bench row (bench/load-bench.ts). */
export function figuresOf(row: Record<string, unknown>, mechanism: BenchMechanism): RunFigures {
  const number = (value: unknown, name: string) => {
    if (typeof value !== "number" || !Number.isFinite(value)) throw new Error(`the load bench's row has no number ${name}`);
    return value;
  };
  const upstream = (row.upstreamPerOrganization ?? {}) as Record<string, { requests?: unknown }>;
  const mechanisms = (row.benchMechanisms ?? {}) as Record<string, { on?: unknown; uses?: unknown } | undefined>;
  const own = mechanisms[mechanism];
  if (own === undefined) throw new Error(`the load bench's row does not say whether ${mechanism} was on (benchMechanisms)`);
  const machine = (row.machine ?? {}) as { loadAvg1mBefore?: unknown };
  return {
    errors: number(row.errors, "errors"),
    p50Ms: number(row.p50Ms, "p50Ms"),
    p95Ms: number(row.p95Ms, "p95Ms"),
    p99Ms: number(row.p99Ms, "p99Ms"),
    upstreamCalls: Object.values(upstream).reduce((sum, entry) => sum + number(entry.requests, "upstream requests"), 0),
    uses: number(own.uses, `${mechanism}'s uses`),
    on: own.on === true,
    loadAvg1m: number(machine.loadAvg1mBefore, "machine.loadAvg1mBefore"),
  };
}

interface Side {
  mean: number;
  min: number;
  max: number;
}

function sideOf(values: readonly number[]): Side {
  if (values.length === 0) return { mean: Number.NaN, min: Number.NaN, max: Number.NaN };
  return { mean: values.reduce((sum, value) => sum + value, 0) / values.length, min: Math.min(...values), max: Math.max(...values) };
}

/** Whether the means differ by more than the larger spread (max - min) of the two sides: a difference the run-to-run noise does not explain. */
export function exceedsSpread(on: Side, off: Side): boolean {
  return Math.abs(on.mean - off.mean) > Math.max(on.max - on.min, off.max - off.min);
}

const shown = (value: number) => String(round(value, 1));
const sideText = (side: Side) => `${shown(side.mean)} (${shown(side.min)}-${shown(side.max)})`;

/** One mechanism's markdown table: a row per figure, each side's mean (min-max), and whether the difference exceeds the spread. */
export function ablationTable(mechanism: BenchMechanism, on: readonly RunFigures[], off: readonly RunFigures[]): string {
  const lines = [
    `#### ${mechanism}: ${on.length} runs on, ${off.length} off (1-min load average ${shown(sideOf(on.map((run) => run.loadAvg1m)).mean)} on, ${shown(sideOf(off.map((run) => run.loadAvg1m)).mean)} off)`,
    "",
    "| figure | on: mean (min-max) | off: mean (min-max) | off - on | exceeds the spread |",
    "| --- | --: | --: | --: | :-: |",
  ];
  for (const [key, label] of FIGURES) {
    const onSide = sideOf(on.map((run) => run[key]));
    const offSide = sideOf(off.map((run) => run[key]));
    lines.push(`| ${label} | ${sideText(onSide)} | ${sideText(offSide)} | ${shown(offSide.mean - onSide.mean)} | ${exceedsSpread(onSide, offSide) ? "yes" : "no"} |`);
  }
  const leaked = off.filter((run) => run.on || run.uses > 0).length;
  if (leaked > 0) lines.push("", `**${leaked} of the off runs had ${mechanism} on or using itself: the switch did not take; these figures do not measure it.**`);
  return lines.join("\n");
}

/** One run of the load bench's one-process PostgreSQL row in a process of its own; its row. */
async function loadRun(benchDisable: string): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/load-bench.ts"], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOAD_RUNS: "one", LOAD_DISABLE: benchDisable },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`the load bench exited with ${code}`);
  const line = output.trim().split("\n").at(-1) ?? "";
  return JSON.parse(line) as Record<string, unknown>;
}

/** The pseudo-mechanism of the ablation: every measured mechanism off at once. */
const ALL_OFF = "all";

export async function runAblationBench(): Promise<string> {
  if (!process.env.DATABASE_URL) throw new Error("DATABASE_URL is not set: the ablation runs the one-process PostgreSQL row (e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/test)");
  // Shared answers do their work only between processes sharing Redis: measured with the load bench's two- and
  // four-process rows instead (LOAD_BUDGET_STORE=redis, LOAD_DISABLE=shared-answers; ADR 0034).
  const mechanisms = process.env.ABLATION_MECHANISMS === undefined ? BENCH_MECHANISMS.filter((mechanism) => mechanism !== "shared-answers") : parseBenchDisable(process.env.ABLATION_MECHANISMS);
  const runs = Number(process.env.ABLATION_RUNS ?? DEFAULT_RUNS);
  if (!Number.isInteger(runs) || runs < 1) throw new Error("ABLATION_RUNS must be a whole number of runs per side, at least 1");
  // Each round runs the "on" side once, then each mechanism off, then all of
  // them off, in an order rotated from round to round: the on runs are shared
  // by every comparison, and the machine's drift falls on every side alike.
  const sides = [...mechanisms.map((mechanism) => ({ name: mechanism, disable: mechanism })), { name: ALL_OFF, disable: mechanisms.join(",") }];
  const on: Record<string, unknown>[] = [];
  const off = new Map<string, Record<string, unknown>[]>(sides.map((side) => [side.name, []]));
  for (let roundIndex = 0; roundIndex < runs; roundIndex += 1) {
    const row = await loadRun("");
    console.error(JSON.stringify({ ablation: "on", run: roundIndex + 1, loadAvg1mAfter: round(loadavg()[0] ?? 0), row }));
    on.push(row);
    const rotated = [...sides.slice(roundIndex % sides.length), ...sides.slice(0, roundIndex % sides.length)];
    for (const side of rotated) {
      // A run that fails (with a mechanism off, the BFF may die: its heap is bounded, docs/deploy.md) is named, not fatal.
      const offRow = await loadRun(side.disable).catch((error: unknown) => {
        console.error(JSON.stringify({ ablation: side.name, side: "off", run: roundIndex + 1, failed: String(error) }));
        return null;
      });
      if (offRow === null) continue;
      console.error(JSON.stringify({ ablation: side.name, side: "off", run: roundIndex + 1, loadAvg1mAfter: round(loadavg()[0] ?? 0), row: offRow }));
      off.get(side.name)?.push(offRow);
    }
  }
  const tables = mechanisms.map((mechanism) => ablationTable(mechanism, on.map((row) => figuresOf(row, mechanism)), (off.get(mechanism) ?? []).map((row) => figuresOf(row, mechanism))));
  // For "all off", the uses column counts refresh-ahead's (the first mechanism's) work.
  const first = mechanisms[0];
  if (first !== undefined && mechanisms.length > 1) {
    tables.push(ablationTable(first, on.map((row) => figuresOf(row, first)), (off.get(ALL_OFF) ?? []).map((row) => figuresOf(row, first))).replace(`#### ${first}:`, `#### all of ${mechanisms.join(", ")} off together:`));
  }
  return [
    `### Ablation of the upstream client's mechanisms (${runs} rounds; each round one run with everything on, one with each mechanism off, one with all off, in a rotated order; one process, PostgreSQL)`,
    "",
    "\"exceeds the spread\": the means differ by more than the larger min-max spread of the two sides. The on side is shared by every comparison.",
    "",
    tables.join("\n\n"),
  ].join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await runAblationBench());
}
