import { randomBytes } from "node:crypto";
import pg from "pg";
import * as z from "zod/mini";
import { liveEvent, type LiveEvent } from "#contract/app-api/live-events.ts";
import { EmulatorClock } from "../../../emulator/clock.ts";
import { createTestEmulator, type TestEmulator } from "../../../emulator/testing/emulator-client.ts";
import { ORG_A_ID } from "../../../emulator/world/identities.ts";
import { createBffApp, type Bff } from "../../app.ts";
import { readBffConfig } from "../../env.ts";
import { createLogger } from "../../logger.ts";
import { createStore } from "../../store/create-store.ts";
import type { Store } from "../../store/store.ts";
import { HARNESS_NOW } from "../../testing/bff-harness.ts";
import { dropSchema } from "../../store/testing/drop-schema.ts";

// Two BFF apps on one PostgreSQL schema, each with its own store (pool) and
// its own bus connection: for the database, two processes. One emulator in
// front delivers webhooks to them through a plain round-robin (or to one of
// them), and serves both as the upstream service.

export interface ClusterProcess {
  name: "A" | "B";
  bff: Bff;
  store: Store;
  /** Hook ids this process marked processed, in order. */
  processed: string[];
  /** Org A's live events as this process's hub fanned them out. */
  hubEvents: LiveEvent[];
  logLines: string[];
}

export interface Delivery {
  to: "A" | "B";
  hookId: string;
  status: number;
  duplicate: boolean;
}

export interface TwoBffCluster {
  processes: [ClusterProcess, ClusterProcess];
  emulator: TestEmulator;
  schema: string;
  /** Who receives the next webhook: both in turn, or one. */
  route: "round-robin" | "A" | "B";
  deliveries: Delivery[];
  /** A query on the cluster's schema over a connection of its own. */
  query<Row>(text: string, values?: unknown[]): Promise<Row[]>;
  hostToken(claims?: { noteId?: string; userId?: string }): Promise<string>;
  userWithRole(role: string): string;
  /** Advances the emulator's (frozen) clock, so the next changes carry a later `updatedAt`. */
  advance(seconds: number): Promise<void>;
  /** The two processes' clock (epoch ms): pinned at HARNESS_NOW and running (ADR 0011), one clock as on one host. */
  now(): number;
  /** Moves the processes' clock (not the emulator's) ahead: a lease runs out without waiting for it. */
  advanceBffClock(ms: number): void;
  close(): Promise<void>;
}

const deliveryAnswer = z.object({ duplicate: z.boolean() });

export function testSchemaName(): string {
  return `t2p_${process.pid}_${randomBytes(4).toString("hex")}`;
}

export async function createTwoBffCluster(databaseUrl: string, options: { schema?: string } = {}): Promise<TwoBffCluster> {
  const schema = options.schema ?? testSchemaName();
  const processes: ClusterProcess[] = [];
  const deliveries: Delivery[] = [];
  let turn = 0;
  const cluster: Partial<TwoBffCluster> & { route: TwoBffCluster["route"] } = { route: "round-robin" };

  // The processes' clock: pinned, running, moved ahead by `advanceBffClock` (ADR 0011).
  const bffClock = new EmulatorClock(HARNESS_NOW, false);
  let bffOffsetMs = 0;
  const bffNow = () => bffClock.now() + bffOffsetMs;
  // Frozen at the pinned instant, and moved on by the tests: events of one appointment then differ in `updatedAt`.
  const emulator = createTestEmulator({
    clock: new EmulatorClock(HARNESS_NOW, true),
    fetch: async (input, init) => {
      const to = cluster.route === "round-robin" ? (turn++ % 2 === 0 ? "A" : "B") : cluster.route;
      const target = processes.find((candidate) => candidate.name === to);
      if (!target) throw new Error(`no process ${to}`);
      const request = new Request(input, init);
      const response = await target.bff.app.fetch(request);
      const answer = z.safeParse(deliveryAnswer, await response.clone().json().catch(() => null));
      deliveries.push({ to, hookId: request.headers.get("webhook-id") ?? "", status: response.status, duplicate: answer.success && answer.data.duplicate });
      return response;
    },
  });
  const config = { ...readBffConfig({}), distDir: "dist" };

  for (const name of ["A", "B"] as const) {
    const base = await createStore({ databaseUrl, schema });
    const processed: string[] = [];
    // The processor reaches the inbox through this store, so every processed hook id is seen here.
    const store: Store = {
      ...base,
      inbox: {
        ...base.inbox,
        markProcessed: async (hookId, at) => {
          processed.push(hookId);
          await base.inbox.markProcessed(hookId, at);
        },
      },
    };
    const logLines: string[] = [];
    const logger = createLogger({ level: "warn", secrets: [config.clinicApiKey], name: `bff-${name}`, destination: { write: (line: string) => void logLines.push(line) } });
    const bff = createBffApp({ config, store, logger, now: bffNow, fetch: async (input, init) => emulator.emulator.app.fetch(new Request(input, init)) });
    const hubEvents: LiveEvent[] = [];
    bff.hub.subscribe(ORG_A_ID, (event) => hubEvents.push(event));
    processes.push({ name, bff, store, processed, hubEvents, logLines });
  }
  // Not `bff.start()`: its drain timers would race the tests' own drains; the bus and the installations are what start brings here.
  for (const { bff } of processes) {
    await bff.bus.start();
    await bff.installations.refresh();
  }

  function userWithRole(role: string): string {
    const user = emulator.emulator.state.org(ORG_A_ID)?.ehr.providers.find((provider) => provider.roles.includes(role) && !provider.hidden);
    if (!user) throw new Error(`no ${role} in org A`);
    return user.id;
  }

  const [first, second] = processes;
  if (!first || !second) throw new Error("unreachable");
  return Object.assign(cluster, {
    processes: [first, second] as [ClusterProcess, ClusterProcess],
    emulator,
    schema,
    deliveries,
    async query<Row>(text: string, values: unknown[] = []): Promise<Row[]> {
      const client = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${schema}` });
      await client.connect();
      try {
        return (await client.query(text, values)).rows as Row[];
      } finally {
        await client.end();
      }
    },
    async hostToken(claims: { noteId?: string; userId?: string } = {}) {
      const result = await emulator.sandbox("POST", "/host-token", { organizationId: ORG_A_ID, userId: claims.userId ?? userWithRole("Physician"), ...(claims.noteId ? { noteId: claims.noteId } : {}) });
      const token = z.safeParse(z.object({ token: z.string() }), result.body);
      if (!token.success) throw new Error(`no host token: ${JSON.stringify(result.body)}`);
      return token.data.token;
    },
    userWithRole,
    now: bffNow,
    advanceBffClock(ms: number) {
      bffOffsetMs += ms;
    },
    async advance(seconds: number) {
      await emulator.sandbox("POST", "/clock", { advanceSeconds: seconds, frozen: true });
    },
    async close() {
      for (const { bff, store } of processes) {
        await bff.close();
        await store.close();
      }
      emulator.emulator.close();
      await dropSchema(databaseUrl, schema);
    },
  });
}

/** A `GET /api/events` stream on one process, read as the SPA does (fetch, token in the header). */
export async function openLiveStream(bff: Bff, token: string) {
  const response = await bff.app.request("/api/events", { headers: { authorization: `Bearer ${token}` } });
  if (response.status !== 200 || response.body === null) throw new Error(`GET /api/events answered ${response.status}`);
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return {
    /** The next `tandem` event, or null when the stream ends. */
    async next(): Promise<LiveEvent | null> {
      for (;;) {
        const match = /event: tandem\ndata: (.*)\n\n/.exec(buffer);
        if (match?.[1]) {
          buffer = buffer.slice(match.index + match[0].length);
          return z.parse(liveEvent, JSON.parse(match[1]));
        }
        const { value, done } = await reader.read();
        if (done) return null;
        buffer += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  };
}
