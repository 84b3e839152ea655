import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmulator, type Emulator } from "../../emulator/app.ts";
import { FULL_KEY } from "../../emulator/testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID } from "../../emulator/world/identities.ts";
import { createStore } from "../store/create-store.ts";
import { dropSchema } from "../store/testing/drop-schema.ts";

// ADR 0026 with real processes: 2 and 4 processes, each with the upstream
// budget `server/app.ts` builds (testing/budget-process.ts), against one
// emulator whose limit is small (40 per 2 s) to keep the run short. The
// emulator's own count (`GET /_sandbox/request-stats`) never passes its
// limit, an organization hammering through every process leaves another its
// fair share, one process alone can use the whole budget (no static split),
// and a process killed mid-run gives its budget back within a window.
// PostgreSQL when DATABASE_URL is set, Redis when REDIS_URL is; skipped
// without either.

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const LIMIT = 40;
const WINDOW_MS = 2_000;
/** A process's round with the store ends by then, or it falls back (the default); its sends are counted from there. */
const ROUND_MS = 1_000;

interface Sent {
  organization: string;
  at: number;
  status: number;
}

interface Figures {
  sends: Sent[];
  /** Per organization, the requests the limiter refused. */
  refused: Record<string, number>;
}

interface Load {
  organization: string;
  inFlight: number;
  /** A pause after each send: a steady user rather than a hammer. */
  paceMs?: number;
}

interface BudgetProcess {
  child: ChildProcess;
  /** What it sent, once it has finished; never for a killed one. */
  done: Promise<Figures>;
  go(): void;
}

function startProcess(store: Record<string, string>, emulatorUrl: string, scope: "key" | "organization", load: Load[], durationMs: number): Promise<BudgetProcess> {
  const env = { ...process.env, ...store, EMULATOR_URL: emulatorUrl, DATA_KEY: FULL_KEY, SCOPE: scope, LIMIT: String(LIMIT), WINDOW_MS: String(WINDOW_MS), DURATION_MS: String(durationMs), LOAD: JSON.stringify(load) };
  const child = spawn(process.execPath, ["--import", "tsx", "server/two-process/testing/budget-process.ts"], { env, stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
    if (process.env.H37_DEBUG) process.stderr.write(chunk);
  });
  return new Promise((resolveReady, rejectReady) => {
    const done = new Promise<Figures>((resolve, reject) => {
      child.on("exit", () => {
        const last = output.trim().split("\n").at(-1) ?? "";
        if (last.startsWith("{")) resolve(JSON.parse(last) as Figures);
        else reject(new Error(`budget process ended without its figures: ${errors.slice(-2000)}`));
      });
    });
    done.catch(() => undefined);
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.startsWith("ready")) resolveReady({ child, done, go: () => child.stdin?.write("go\n") });
    });
    child.on("exit", () => rejectReady(new Error(`budget process ended before it was ready: ${errors.slice(-2000)}`)));
  });
}

/** The most sends inside any half-open interval [t, t + WINDOW_MS). */
function maxPerWindow(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end += 1) {
    while ((sorted[end] ?? 0) - (sorted[start] ?? 0) >= WINDOW_MS) start += 1;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

interface StatsBucket {
  organizationId: string | null;
  limited: number;
  peakWindowCount: number;
}

function sharedBudgetOn(engine: string, storeEnv: () => Record<string, string>) {
  let emulator: Emulator;
  let server: ServerType;
  let emulatorUrl = "";

  beforeAll(async () => {
    emulator = createEmulator({ settings: { rateLimit: LIMIT, rateLimitWindowSeconds: WINDOW_MS / 1000 } });
    server = serve({ fetch: emulator.app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise((resolve) => server.once("listening", resolve));
    emulatorUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    server.close();
    emulator.close();
  });

  async function emulatorCount(): Promise<StatsBucket[]> {
    const response = await fetch(`${emulatorUrl}/_sandbox/request-stats`);
    return ((await response.json()) as { buckets: StatsBucket[] }).buckets;
  }

  for (const processes of [2, 4]) {
    it(`${engine}, ${processes} processes, scope key: never more than the limit in any window, and org B, on one process, gets every read while org A hammers through all of them`, async () => {
      const started = await Promise.all(
        Array.from({ length: processes }, (_, index) =>
          startProcess(storeEnv(), emulatorUrl, "key", index === 0 ? [{ organization: ORG_A_ID, inFlight: 4 }, { organization: ORG_B_ID, inFlight: 1, paceMs: 250 }] : [{ organization: ORG_A_ID, inFlight: 4 }], WINDOW_MS * 3),
        ),
      );
      for (const started_ of started) started_.go();
      const results = await Promise.all(started.map((started_) => started_.done));
      const sends = results.flatMap((result) => result.sends);
      expect(sends.filter((send) => send.status === 429)).toEqual([]);
      expect(maxPerWindow(sends.map((send) => send.at))).toBeLessThanOrEqual(LIMIT);
      const buckets = await emulatorCount();
      expect(buckets.every((bucket) => bucket.limited === 0)).toBe(true);
      expect(Math.max(...buckets.map((bucket) => bucket.peakWindowCount))).toBeLessThanOrEqual(LIMIT);
      // B sends about 8 a window, below half its fair share (18 of the 36 shared out): none refused, however A hammers.
      expect(sends.filter((send) => send.organization === ORG_B_ID).length).toBeGreaterThan(10);
      expect(results[0]?.refused[ORG_B_ID] ?? 0).toBe(0);
    }, 60_000);
  }

  it(`${engine}, 4 processes, one busy: the busy one uses the whole budget, not a quarter of it`, async () => {
    const started = await Promise.all(
      Array.from({ length: 4 }, (_, index) => startProcess(storeEnv(), emulatorUrl, "organization", index === 0 ? [{ organization: ORG_A_ID, inFlight: 8 }] : [{ organization: ORG_B_ID, inFlight: 1 }], WINDOW_MS * 2)),
    );
    for (const started_ of started) started_.go();
    const results = await Promise.all(started.map((started_) => started_.done));
    const busy = (results[0]?.sends ?? []).map((send) => send.at);
    expect(maxPerWindow(busy)).toBe(LIMIT);
    const buckets = await emulatorCount();
    expect(buckets.find((bucket) => bucket.organizationId === ORG_A_ID)).toMatchObject({ limited: 0 });
    expect(Math.max(...buckets.map((bucket) => bucket.peakWindowCount))).toBeLessThanOrEqual(LIMIT);
  }, 60_000);

  it(`${engine}, 2 processes: one killed mid-run gives its budget back within a window`, async () => {
    const [doomed, survivor] = await Promise.all([0, 1].map(() => startProcess(storeEnv(), emulatorUrl, "organization", [{ organization: ORG_A_ID, inFlight: 8 }], WINDOW_MS * 5)));
    if (!doomed || !survivor) throw new Error("two processes");
    doomed.go();
    survivor.go();
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    doomed.child.kill("SIGKILL");
    const killedAt = Date.now();
    const { sends } = await survivor.done;
    // From a window after the kill on (the dead process's last sends counted from the end of their round), everything is the survivor's: the whole limit, not its half.
    const after = sends.filter((send) => send.at >= killedAt + ROUND_MS + WINDOW_MS).map((send) => send.at);
    expect(maxPerWindow(after)).toBeGreaterThan(LIMIT / 2);
    expect(maxPerWindow(after)).toBeLessThanOrEqual(LIMIT);
    expect((await emulatorCount()).every((bucket) => bucket.limited === 0 && bucket.peakWindowCount <= LIMIT)).toBe(true);
  }, 60_000);
}

describe.skipIf(databaseUrl === undefined)("processes sharing the upstream budget through PostgreSQL", () => {
  const schema = `budget_real_${randomBytes(4).toString("hex")}`;
  beforeAll(async () => {
    const store = await createStore({ databaseUrl, schema });
    await store.close();
  }, 60_000);
  afterAll(async () => {
    if (databaseUrl !== undefined) await dropSchema(databaseUrl, schema);
  });
  sharedBudgetOn("PostgreSQL", () => ({ DATABASE_URL: databaseUrl ?? "", DATABASE_SCHEMA: schema, REDIS_URL: "" }));
});

describe.skipIf(redisUrl === undefined)("processes sharing the upstream budget through Redis", () => {
  sharedBudgetOn("Redis", () => ({ REDIS_URL: redisUrl ?? "", DATABASE_URL: "" }));
});
