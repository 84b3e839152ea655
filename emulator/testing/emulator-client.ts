import * as z from "zod/mini";
import { clinicApiResponses, type ClinicApiRoute } from "#contract/clinic-api/responses.ts";
import { errorBody } from "#contract/clinic-api/envelope.ts";
import { EmulatorClock } from "../clock.ts";
import { createEmulator, type Emulator, type EmulatorOptions } from "../app.ts";
import { DATA_KEYS, ORG_A_ID } from "../world/identities.ts";

// Test access to the emulator in-process. Every answer is parsed with the
// contract's schema for its route (or the error body), so the emulator cannot
// drift from the contract without a test failing.

export const FULL_KEY = DATA_KEYS[0]?.key ?? "";
export const ERAS_ONLY_KEY = DATA_KEYS[1]?.key ?? "";
export const REVOKED_KEY = DATA_KEYS[2]?.key ?? "";

/** A fixed instant: Monday 2026-11-23 14:00 UTC (09:00 in New York). */
export const TEST_NOW = Date.parse("2026-11-23T14:00:00.000Z");

export interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  organizationId?: string | null;
  authorization?: string | null;
  headers?: Record<string, string>;
}

type Success<R extends ClinicApiRoute> = z.infer<(typeof clinicApiResponses)[R]>;

export interface CallResult<R extends ClinicApiRoute> {
  ok: boolean;
  status: number;
  headers: Headers;
  body: Success<R> | z.infer<typeof errorBody>;
  /** The parsed success envelope's `data`, when the answer was 200. */
  data: Success<R>["data"] | undefined;
  /** The parsed error body, when it was not. */
  error: z.infer<typeof errorBody> | undefined;
}

export interface TestEmulator {
  emulator: Emulator;
  call: <R extends ClinicApiRoute>(route: R, options?: CallOptions) => Promise<CallResult<R>>;
  /** Like `call`, but fails the test unless the answer is a success. */
  get: <R extends ClinicApiRoute>(route: R, options?: CallOptions) => Promise<Success<R>["data"]>;
  sandbox: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: unknown }>;
}

export function createTestEmulator(options: EmulatorOptions = {}): TestEmulator {
  const emulator = createEmulator({ clock: new EmulatorClock(TEST_NOW, true), settings: { strongReadLatencyMs: 0 }, ...options });

  async function call<R extends ClinicApiRoute>(route: R, callOptions: CallOptions = {}): Promise<CallResult<R>> {
    const [method = "GET", template = "/"] = route.split(" ");
    const path = template.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(callOptions.params?.[name] ?? ""));
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(callOptions.query ?? {})) if (value !== undefined) search.set(name, String(value));
    const headers: Record<string, string> = { ...callOptions.headers };
    if (callOptions.authorization !== null) headers.authorization = callOptions.authorization ?? `Bearer ${FULL_KEY}`;
    if (callOptions.organizationId !== null) headers["x-organization-id"] = callOptions.organizationId ?? ORG_A_ID;
    let body: string | undefined;
    if (callOptions.body !== undefined) {
      headers["content-type"] ??= "application/json";
      body = typeof callOptions.body === "string" ? callOptions.body : JSON.stringify(callOptions.body);
    }
    const query = search.toString();
    const response = await emulator.app.request(`${path}${query ? `?${query}` : ""}`, { method, headers, body });
    const json: unknown = await response.json();
    if (response.status === 200) {
      // Parsed by the route's own schema; the cast only names the type TypeScript cannot index generically.
      const body = z.parse(clinicApiResponses[route], json) as Success<R>;
      return { ok: true, status: response.status, headers: response.headers, body, data: body.data, error: undefined };
    }
    const error = z.parse(errorBody, json);
    return { ok: false, status: response.status, headers: response.headers, body: error, data: undefined, error };
  }

  return {
    emulator,
    call,
    async get(route, callOptions) {
      const result = await call(route, callOptions);
      if (result.data === undefined) throw new Error(`${route} answered ${result.status}: ${JSON.stringify(result.body)}`);
      return result.data;
    },
    async sandbox(method, path, body) {
      const response = await emulator.app.request(`/_sandbox${path}`, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    },
  };
}
