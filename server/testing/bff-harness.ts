import type { Hono } from "hono";
import type { AppEnv } from "../http/app-env.ts";
import { EmulatorClock } from "../../emulator/clock.ts";
import { createTestEmulator, type TestEmulator } from "../../emulator/testing/emulator-client.ts";
import { ORG_A_ID } from "../../emulator/world/identities.ts";
import { createBffApp, type Bff } from "../app.ts";
import { readBffConfig, type BffConfig } from "../env.ts";
import { createLogger } from "../logger.ts";
import type { Store } from "../store/store.ts";

// The BFF in-process against the emulator in-process: the real upstream
// client calls the emulator's app, the emulator delivers webhooks to the
// BFF's app, and host tokens come from the emulator's platform issuer. Both
// clocks start at one pinned instant and run from there (DESIGN.md: tests
// never depend on the wall clock); moving the emulator's (`/_sandbox/clock`)
// leaves the BFF's alone, which is how tests probe the BFF's time checks.

/** Tuesday 2026-11-17 14:00 UTC (09:00 in New York): where every harness's clocks start. */
export const HARNESS_NOW = Date.parse("2026-11-17T14:00:00.000Z");

export interface BffHarness {
  bff: Bff;
  emulator: TestEmulator;
  config: BffConfig;
  /** The BFF's clock (epoch ms): pinned at {@link HARNESS_NOW} and running. */
  now(): number;
  /**
   * Moves the BFF's and the emulator's clocks forward together (host tokens
   * stay valid; holds expire on both sides). There is no way back: caches
   * and holds stamped later would outlive a clock moved backwards.
   */
  advanceClocks(seconds: number): void;
  /** Every log line the BFF wrote. */
  logLines: string[];
  /** Every response body and header block the harness saw, for secret scans. */
  transcript: string[];
  /** Every upstream request the BFF sent: "METHOD url". */
  upstreamRequests: string[];
  /** The `traceparent` header of each of those requests, in the same order (null without one). */
  upstreamTraceparents: (string | null)[];
  /** The bodies of upstream writes, in order: "METHOD path" and the JSON text. */
  upstreamWrites: { call: string; body: string }[];
  api(path: string, init?: { token?: string | null; method?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  hostToken(claims?: { organizationId?: string; userId?: string; noteId?: string; patientId?: string; facilityId?: string }): Promise<string>;
  userWithRole(role: string, organizationId?: string): string;
  close(): Promise<void>;
}

/** Stands between the BFF and the emulator: holds, fails or changes an upstream request (`forward` sends it on). */
export type UpstreamInterceptor = (request: Request, forward: (request: Request) => Promise<Response>) => Promise<Response>;

export async function createBffHarness(store: Store, options: { configOverrides?: Partial<BffConfig>; bootstrap?: boolean; interceptUpstream?: UpstreamInterceptor } = {}): Promise<BffHarness> {
  const target: { app?: Hono<AppEnv> } = {};
  const transcript: string[] = [];
  const upstreamRequests: string[] = [];
  const upstreamTraceparents: (string | null)[] = [];
  const upstreamWrites: { call: string; body: string }[] = [];
  const bffClock = new EmulatorClock(HARNESS_NOW, false);
  const emulator = createTestEmulator({
    clock: new EmulatorClock(HARNESS_NOW, false),
    fetch: (input, init) => {
      if (!target.app) return Promise.reject(new Error("BFF not ready"));
      return Promise.resolve(target.app.fetch(new Request(input, init)));
    },
  });
  emulator.emulator.dispatcher.configure({ url: "http://localhost:8787/webhooks/clinic", headerStyle: "standard", retrySchedule: [0.05, 0.1] });
  const config: BffConfig = { ...readBffConfig({}), distDir: "dist", ...options.configOverrides };
  const logLines: string[] = [];
  const logger = createLogger({ level: "debug", secrets: [config.clinicApiKey, ...config.webhookSecrets], destination: { write: (line: string) => void logLines.push(line) } });
  const bff = createBffApp({
    config,
    store,
    logger,
    now: () => bffClock.now(),
    fetch: async (input, init) => {
      const request = new Request(input, init);
      upstreamRequests.push(`${request.method} ${request.url}`);
      upstreamTraceparents.push(request.headers.get("traceparent"));
      if (request.method !== "GET") upstreamWrites.push({ call: `${request.method} ${new URL(request.url).pathname}`, body: await request.clone().text() });
      const forward = async (forwarded: Request) => emulator.emulator.app.fetch(forwarded);
      return options.interceptUpstream ? options.interceptUpstream(request, forward) : forward(request);
    },
  });
  target.app = bff.app;
  if (options.bootstrap !== false) await bff.installations.refresh();

  const record = async (response: Response) => {
    const text = await response.clone().text();
    transcript.push(`${JSON.stringify([...response.headers.entries()])}\n${text}`);
    return response;
  };

  function userWithRole(role: string, organizationId = ORG_A_ID): string {
    const user = emulator.emulator.state.org(organizationId)?.ehr.providers.find((provider) => provider.roles.includes(role) && !provider.hidden);
    if (!user) throw new Error(`no ${role} in ${organizationId}`);
    return user.id;
  }

  return {
    bff,
    now: () => bffClock.now(),
    advanceClocks(seconds) {
      if (!(seconds >= 0)) throw new RangeError("advanceClocks: seconds must be zero or more");
      bffClock.set({ advanceSeconds: seconds });
      emulator.emulator.clock.set({ advanceSeconds: seconds });
    },
    userWithRole,
    emulator,
    config,
    logLines,
    transcript,
    upstreamRequests,
    upstreamTraceparents,
    upstreamWrites,
    async api(path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (init.token) headers.authorization = `Bearer ${init.token}`;
      let body: string | undefined;
      if (init.body !== undefined) {
        headers["content-type"] = "application/json";
        body = JSON.stringify(init.body);
      }
      return record(await bff.app.request(path, { method: init.method ?? "GET", headers, body }));
    },
    async hostToken(claims = {}) {
      const organizationId = claims.organizationId ?? ORG_A_ID;
      const result = await emulator.sandbox("POST", "/host-token", { ...claims, organizationId, userId: claims.userId ?? userWithRole("Physician", organizationId) });
      const token = (result.body as { token?: string }).token;
      if (!token) throw new Error(`no host token: ${JSON.stringify(result.body)}`);
      return token;
    },
    async close() {
      await bff.close();
      emulator.emulator.close();
    },
  };
}
