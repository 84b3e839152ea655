import { inspect } from "node:util";
import { expect } from "vitest";
import * as z from "zod/mini";
import { createEmulator, type Emulator } from "../../../emulator/app.ts";
import type { EmulatorSettings } from "../../../emulator/routes/route-deps.ts";
import { EmulatorClock } from "../../../emulator/clock.ts";
import { createClinicClient, type ClinicClient, type ClinicClientOptions } from "../clinic-client.ts";

// The sandbox identities of DESIGN.md, and an emulator wired to the client
// through an injected fetch that records every request reaching it.

export const ORG_A = "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61";
export const ORG_C = "d5a7c3b1-2e4f-4a6b-8c9d-0e1f2a3b4c53";
export const DATA_KEY = "svc_dev_ak_5a0d1e2f3a4b5c6d7e8f90a1b2c3d4e5";
export const REVOKED_KEY = "svc_dev_ak_dead0000dead0000dead0000dead0000";
export const BASE_URL = "http://clinic.test";
/** Monday 2026-11-23 14:00 UTC, as the emulator's own tests use. */
export const TEST_NOW = Date.parse("2026-11-23T14:00:00.000Z");

const sandboxNotes = z.object({ notes: z.array(z.object({ id: z.string(), status: z.string() })) });

export interface RecordedCall {
  method: string;
  path: string;
  search: URLSearchParams;
  headers: Headers;
  body: string;
  /** `Date.now()` when the request reached the emulator (fake under fake timers). */
  at: number;
}

export interface LogLine {
  level: "warn" | "info" | "error";
  obj: object;
  msg: string;
}

export type Rewrite = (request: Request, response: Response) => Response | Promise<Response>;

export interface Harness {
  emulator: Emulator;
  calls: RecordedCall[];
  logs: LogLine[];
  errors: unknown[];
  /** Replaces the emulator's answer (contract-violation tests); null to stop. */
  rewrite: Rewrite | null;
  /** Replaces the whole exchange (network failure tests); null to stop. */
  transport: ((request: Request) => Promise<Response>) | null;
  fetch: typeof fetch;
  count(method: string, path: string): number;
  sandbox(method: string, path: string, body?: unknown): Promise<unknown>;
  /** The host page's note picker list (DESIGN.md `GET /_sandbox/ehr/{organizationId}/notes`). */
  sandboxNotes(organizationId: string): Promise<{ id: string; status: string }[]>;
  fault(spec: { method: string; path: string; status?: number; code?: string; count?: number; latencyMs?: number }): Promise<void>;
  /** Forgets recorded calls and clears faults. */
  reset(): Promise<void>;
  /** A client on this emulator whose errors and log lines are kept for the key check. */
  client(options?: Partial<ClinicClientOptions>): ClinicClient;
}

/** `clock`: the emulator's, frozen at {@link TEST_NOW} by default (one that follows faked timers lets its rate-limit windows pass with them). */
export function createHarness(settings: Partial<EmulatorSettings> = {}, clock: EmulatorClock = new EmulatorClock(TEST_NOW, true)): Harness {
  const emulator = createEmulator({ clock, settings: { strongReadLatencyMs: 0, ...settings } });
  const harness: Harness = {
    emulator,
    calls: [],
    logs: [],
    errors: [],
    rewrite: null,
    transport: null,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      harness.calls.push({
        method: request.method,
        path: url.pathname,
        search: url.searchParams,
        headers: request.headers,
        body: await request.clone().text(),
        at: Date.now(),
      });
      if (harness.transport) return harness.transport(request);
      const response = await emulator.app.fetch(request);
      return harness.rewrite ? harness.rewrite(request, response) : response;
    },
    count: (method, path) => harness.calls.filter((call) => call.method === method && call.path === path).length,
    async sandbox(method, path, body) {
      const response = await emulator.app.request(`/_sandbox${path}`, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json: unknown = await response.json();
      if (!response.ok) throw new Error(`sandbox ${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
      return json;
    },
    async sandboxNotes(organizationId) {
      return z.parse(sandboxNotes, await harness.sandbox("GET", `/ehr/${organizationId}/notes`)).notes;
    },
    async fault(spec) {
      await harness.sandbox("POST", "/faults", spec);
    },
    async reset() {
      await harness.sandbox("DELETE", "/faults");
      harness.calls.length = 0;
      harness.rewrite = null;
      harness.transport = null;
    },
    client(options = {}) {
      const client = createClinicClient({
        baseUrl: BASE_URL,
        apiKey: DATA_KEY,
        fetch: harness.fetch,
        logger: {
          warn: (obj, msg) => harness.logs.push({ level: "warn", obj, msg }),
          info: (obj, msg) => harness.logs.push({ level: "info", obj, msg }),
          error: (obj, msg) => harness.logs.push({ level: "error", obj, msg }),
        },
        ...options,
        retry: { baseDelayMs: 1, ...options.retry },
      });
      const recorded = async <T>(call: () => Promise<T>): Promise<T> => {
        try {
          return await call();
        } catch (error) {
          harness.errors.push(error);
          throw error;
        }
      };
      const wrapped: ClinicClient = {
        ...client,
        read: (route, call, queue) => recorded(() => client.read(route, call, queue)),
        send: (route, call) => recorded(() => client.send(route, call)),
      };
      return wrapped;
    },
  };
  return harness;
}

/** Every text of these errors and log lines (message, stack, JSON, inspected form) that holds one of the keys. */
export function keyLeaks(kept: { errors: readonly unknown[]; logs: readonly LogLine[] }, keys: readonly string[] = [DATA_KEY, REVOKED_KEY]): string[] {
  const texts = [
    ...kept.errors.flatMap((error) => [String(error), error instanceof Error ? (error.stack ?? "") : "", JSON.stringify(error) ?? "", inspect(error, { depth: 6 })]),
    ...kept.logs.map((line) => `${line.msg} ${JSON.stringify(line.obj)} ${inspect(line.obj, { depth: 6 })}`),
  ];
  return texts.filter((text) => keys.some((key) => text.includes(key) || text.includes(key.slice("svc_dev_ak_".length))));
}

/**
 * DESIGN.md: the data key never reaches a log line or an error message.
 * Checks every error the harness's clients threw and every line they logged;
 * each test file runs it after all its tests.
 */
export function expectNoKeyLeak(harness: Harness): void {
  expect(keyLeaks(harness)).toEqual([]);
}

/** Settles state of a promise without awaiting it. */
export function track<T>(promise: Promise<T>): { settled: () => boolean; promise: Promise<T> } {
  let done = false;
  const tracked = promise.finally(() => {
    done = true;
  });
  // The caller awaits `promise`; a rejection seen only here must not be reported as unhandled.
  tracked.catch(() => undefined);
  return { settled: () => done, promise };
}
