import * as z from "zod/mini";
import { EmulatorClock } from "../../emulator/clock.ts";
import type { FaultSpec } from "../../emulator/http/faults.ts";
import type { EmulatorSettings } from "../../emulator/routes/route-deps.ts";
import { createTestEmulator, type TestEmulator } from "../../emulator/testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID, ORG_C_ID } from "../../emulator/world/identities.ts";
import { createBffApp, type Bff, type BffDeps } from "../app.ts";
import { readBffConfig, type BffConfig } from "../env.ts";
import { createLogger } from "../logger.ts";
import type { Store } from "../store/store.ts";
import type { VirtualTimeouts } from "./virtual-timeouts.ts";

// The one test bed of a BFF in-process against the emulator in-process: the
// real upstream client calls the emulator's app, the emulator delivers
// webhooks to the BFF's app, and host tokens come from the emulator's
// platform issuer. Both clocks start at one pinned instant and run from there
// (DESIGN.md: tests never depend on the wall clock, ADR 0011); moving the
// emulator's (`/_sandbox/clock`) leaves the BFF's alone, which is how tests
// probe the BFF's time checks.
//
// Between the two sits what the route tests and the fault matrix
// (docs/fault-matrix.md) observe and break: every upstream call is recorded
// with its answer and may be intercepted, faults and latency are injected
// through the emulator's sandbox (latency on virtual time with
// `virtualTimeouts`), every webhook delivery is recorded and can be dropped on
// its way (a network between the service and the BFF) or sent to another
// receiver, and a second BFF can be started on the same store (a restart).

/** Tuesday 2026-11-17 14:00 UTC (09:00 in New York): where every harness's clocks start. */
export const HARNESS_NOW = Date.parse("2026-11-17T14:00:00.000Z");
/** Where the emulator delivers webhooks when the BFF is the target; any other URL is unreachable. */
export const BFF_WEBHOOK_URL = "http://localhost:8787/webhooks/clinic";
/** An address nothing listens on: deliveries there fail like a BFF that is down. */
export const UNREACHABLE_WEBHOOK_URL = "http://127.0.0.1:9/webhooks/clinic";
/** Fast emulator retries so a lost first attempt is retried within the test. */
export const SHORT_RETRY_SCHEDULE = [0.05, 0.1];

/** Stands between the BFF and the emulator: holds, fails or changes an upstream request (`forward` sends it on). */
export type UpstreamInterceptor = (request: Request, forward: (request: Request) => Promise<Response>) => Promise<Response>;

export interface UpstreamCall {
  method: string;
  /** The whole URL, query included. */
  url: string;
  /** The path without the query, e.g. `/v2/schedule/slots`. */
  path: string;
  /** The request's `traceparent` header, null without one. */
  traceparent: string | null;
  /** A write's JSON text; null for a read. */
  body: string | null;
  /** Null while no answer came (or none ever did: the BFF's timeout). */
  status: number | null;
  /** The service's `trace_id` when it answered with an error body. */
  traceId: string | null;
}

export interface WebhookDelivery {
  messageId: string;
  eventType: string;
  /** The BFF's status, or null when the delivery was dropped before it reached the BFF. */
  status: number | null;
  /** The BFF said it already had this hook-id. */
  duplicate: boolean;
}

/** Anything that answers a delivery like the BFF's app does. */
export interface WebhookReceiver {
  fetch(request: Request): Response | Promise<Response>;
}

/** Decides, per delivery attempt, whether it reaches the BFF (true) or is lost on the way (false). */
export type WebhookGate = (delivery: { messageId: string; eventType: string }) => boolean;

export interface BffHarnessOptions {
  /** Laid over the BFF's default configuration. */
  configOverrides?: Partial<BffConfig>;
  /** False: the BFF has not read the installations yet when the harness is handed over (a cold start). */
  bootstrap?: boolean;
  /** The BFF's clock instead of its own (pinned at {@link HARNESS_NOW} and running); `advanceClocks` is then refused. */
  now?: () => number;
  clinicOptions?: BffDeps["clinicOptions"];
  emulatorSettings?: Partial<EmulatorSettings>;
  /** Injected latency and the client's timeouts on one virtual timeline (`virtual-timeouts.ts`); real time without. */
  virtualTimeouts?: VirtualTimeouts;
  interceptUpstream?: UpstreamInterceptor;
}

export interface BffHarness {
  /** The BFF the harness's `api` calls and the webhooks reach (replaced by `restart`). */
  bff: Bff;
  emulator: TestEmulator;
  store: Store;
  config: BffConfig;
  /** The BFF's clock (epoch ms): pinned at {@link HARNESS_NOW} and running, unless `now` was given. */
  now(): number;
  /**
   * Moves the BFF's and the emulator's clocks forward together (host tokens
   * stay valid; holds expire on both sides). There is no way back: caches
   * and holds stamped later would outlive a clock moved backwards.
   */
  advanceClocks(seconds: number): void;
  /** Every log line the BFF wrote. */
  logLines: string[];
  /** Every response body and header block `api` answered (event streams, which do not end, aside), for secret scans. */
  transcript: string[];
  /** Every upstream call the BFF sent, with its answer once there is one. */
  upstream: UpstreamCall[];
  /** Read from `upstream`: every upstream request the BFF sent, "METHOD url". */
  readonly upstreamRequests: string[];
  /** Read from `upstream`: the `traceparent` header of each of those requests, in the same order (null without one). */
  readonly upstreamTraceparents: (string | null)[];
  /** Read from `upstream`: the bodies of upstream writes, in order: "METHOD path" and the JSON text. */
  readonly upstreamWrites: { call: string; body: string }[];
  /** Every webhook delivery attempt the emulator made to the BFF's address. */
  deliveries: WebhookDelivery[];
  /** Null: every delivery reaches the receiver. */
  webhookGate: WebhookGate | null;
  api(path: string, init?: { token?: string | null; method?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  hostToken(claims?: { organizationId?: string; userId?: string; noteId?: string; patientId?: string; facilityId?: string }): Promise<string>;
  userWithRole(role: string, organizationId?: string): string;
  /** Upstream calls of a method whose path starts with `pathPrefix`. */
  upstreamCount(method: string, pathPrefix: string): number;
  /** `POST /_sandbox/faults`. */
  fault(spec: FaultSpec): Promise<void>;
  /** `POST /_sandbox/webhooks`, over the default target (the BFF, standard headers, {@link SHORT_RETRY_SCHEDULE}). */
  webhooks(target: { url?: string; headerStyle?: "standard" | "prefixed"; duplicate?: boolean; shuffle?: boolean; retrySchedule?: number[] }): Promise<void>;
  /** Waits until the emulator has carried out every request the BFF sent it, those the BFF gave up on (a timeout) included. */
  upstreamSettled(): Promise<void>;
  /** Waits until the emulator has nothing left to deliver, then drains the BFF's inbox. */
  settle(): Promise<void>;
  /** Webhook deliveries go to this receiver instead of the BFF's app (one that stores and then dies); null: back to the BFF. */
  receiveWith(app: WebhookReceiver | null): void;
  /** A new BFF on the same store and emulator (not started), which then receives the webhooks and serves `api`. */
  restart(): Bff;
  /** `POST /_sandbox/reset`, faults cleared, webhooks back to the BFF, the BFF's cached reads and every record emptied. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

const connectionRefused = () => new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) });

const deliveryHeaders = z.object({ "webhook-id": z.optional(z.string()), "svix-id": z.optional(z.string()) });
const deliveryBody = z.object({ type: z.string() });
const receiverAnswer = z.object({ duplicate: z.optional(z.boolean()) });
const traced = z.object({ trace_id: z.string() });

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function untilAborted<T>(answer: Promise<T>, signal: AbortSignal | null): Promise<T> {
  if (!signal) return answer;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    void answer.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

export async function createBffHarness(store: Store, options: BffHarnessOptions = {}): Promise<BffHarness> {
  const logLines: string[] = [];
  const transcript: string[] = [];
  const upstream: UpstreamCall[] = [];
  const deliveries: WebhookDelivery[] = [];
  const receiver: { app: WebhookReceiver | null; override: WebhookReceiver | null } = { app: null, override: null };
  const inFlight = new Set<Promise<unknown>>();

  const bffClock = new EmulatorClock(HARNESS_NOW, false);
  const now = options.now ?? (() => bffClock.now());
  const emulator = createTestEmulator({
    clock: new EmulatorClock(HARNESS_NOW, false),
    faultDelay: options.virtualTimeouts?.delay,
    settings: { strongReadLatencyMs: 0, ...options.emulatorSettings },
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      if (`${url.origin}${url.pathname}` !== BFF_WEBHOOK_URL) throw connectionRefused();
      const body = await request.clone().text();
      const headers = z.safeParse(deliveryHeaders, Object.fromEntries(request.headers.entries()));
      const messageId = (headers.success ? (headers.data["webhook-id"] ?? headers.data["svix-id"]) : undefined) ?? "";
      const parsed = z.safeParse(deliveryBody, safeJson(body));
      const eventType = parsed.success ? parsed.data.type : "";
      if (harness.webhookGate && !harness.webhookGate({ messageId, eventType })) {
        deliveries.push({ messageId, eventType, status: null, duplicate: false });
        throw connectionRefused();
      }
      const target = receiver.override ?? receiver.app;
      if (!target) throw connectionRefused();
      const response = await target.fetch(request);
      const answer = z.safeParse(receiverAnswer, safeJson(await response.clone().text()));
      deliveries.push({ messageId, eventType, status: response.status, duplicate: answer.success && answer.data.duplicate === true });
      return response;
    },
  });
  const config: BffConfig = { ...readBffConfig({}), distDir: "dist", ...options.configOverrides };
  const logger = createLogger({ level: "debug", secrets: [config.clinicApiKey, ...config.webhookSecrets], destination: { write: (line: string) => void logLines.push(line) } });

  const forward = async (request: Request) => emulator.emulator.app.fetch(request);
  const upstreamFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    const body = request.method === "GET" ? null : await request.clone().text();
    const call: UpstreamCall = { method: request.method, url: request.url, path, traceparent: request.headers.get("traceparent"), body, status: null, traceId: null };
    upstream.push(call);
    // In-process, the emulator's app ignores the abort signal; a real socket does not: honour it, so the BFF's timeout fires.
    const carriedOut = options.interceptUpstream ? options.interceptUpstream(request, forward) : forward(request);
    inFlight.add(carriedOut);
    void carriedOut.then(
      () => inFlight.delete(carriedOut),
      () => inFlight.delete(carriedOut),
    );
    let response: Response;
    try {
      response = await untilAborted(carriedOut, init?.signal ?? null);
    } finally {
      options.virtualTimeouts?.finished(init?.signal);
    }
    call.status = response.status;
    if (response.status >= 400) {
      const body = z.safeParse(traced, safeJson(await response.clone().text()));
      call.traceId = body.success ? body.data.trace_id : null;
    }
    return response;
  };

  const newBff = () => createBffApp({ config, store, logger, now, fetch: upstreamFetch, clinicOptions: options.clinicOptions });

  async function configureWebhooks(target: Parameters<BffHarness["webhooks"]>[0]): Promise<void> {
    const result = await emulator.sandbox("POST", "/webhooks", { url: BFF_WEBHOOK_URL, headerStyle: "standard", retrySchedule: SHORT_RETRY_SCHEDULE, ...target });
    if (result.status !== 200) throw new Error(`webhooks: ${JSON.stringify(result.body)}`);
  }

  const record = async (response: Response) => {
    // An open event stream has no end to wait for.
    if (response.headers.get("content-type")?.startsWith("text/event-stream")) return response;
    const text = await response.clone().text();
    transcript.push(`${JSON.stringify([...response.headers.entries()])}\n${text}`);
    return response;
  };

  function userWithRole(role: string, organizationId = ORG_A_ID): string {
    const user = emulator.emulator.state.org(organizationId)?.ehr.providers.find((provider) => provider.roles.includes(role) && !provider.hidden);
    if (!user) throw new Error(`no ${role} in ${organizationId}`);
    return user.id;
  }

  const harness: BffHarness = {
    bff: newBff(),
    emulator,
    store,
    config,
    now,
    advanceClocks(seconds) {
      if (options.now) throw new Error("advanceClocks: the BFF's clock was given to the harness; move it there");
      if (!(seconds >= 0)) throw new RangeError("advanceClocks: seconds must be zero or more");
      bffClock.set({ advanceSeconds: seconds });
      emulator.emulator.clock.set({ advanceSeconds: seconds });
    },
    logLines,
    transcript,
    upstream,
    get upstreamRequests() {
      return upstream.map((call) => `${call.method} ${call.url}`);
    },
    get upstreamTraceparents() {
      return upstream.map((call) => call.traceparent);
    },
    get upstreamWrites() {
      return upstream.flatMap((call) => (call.body === null ? [] : [{ call: `${call.method} ${call.path}`, body: call.body }]));
    },
    deliveries,
    webhookGate: null,
    userWithRole,
    async api(path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (init.token) headers.authorization = `Bearer ${init.token}`;
      let body: string | undefined;
      if (init.body !== undefined) {
        headers["content-type"] = "application/json";
        body = JSON.stringify(init.body);
      }
      return record(await harness.bff.app.request(path, { method: init.method ?? "GET", headers, body }));
    },
    async hostToken(claims = {}) {
      const organizationId = claims.organizationId ?? ORG_A_ID;
      const result = await emulator.sandbox("POST", "/host-token", { ...claims, organizationId, userId: claims.userId ?? userWithRole("Physician", organizationId) });
      const token = z.safeParse(z.object({ token: z.string() }), result.body);
      if (!token.success) throw new Error(`no host token: ${JSON.stringify(result.body)}`);
      return token.data.token;
    },
    upstreamCount: (method, pathPrefix) => upstream.filter((call) => call.method === method && call.path.startsWith(pathPrefix)).length,
    async fault(spec) {
      const result = await emulator.sandbox("POST", "/faults", spec);
      if (result.status !== 200 && result.status !== 201) throw new Error(`fault: ${JSON.stringify(result.body)}`);
    },
    webhooks: configureWebhooks,
    async upstreamSettled() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async settle() {
      await emulator.emulator.dispatcher.idle();
      await harness.bff.processor.drain();
    },
    receiveWith(app) {
      receiver.override = app;
    },
    restart() {
      harness.bff = newBff();
      receiver.app = harness.bff.app;
      return harness.bff;
    },
    async reset() {
      harness.webhookGate = null;
      receiver.override = null;
      await emulator.sandbox("POST", "/reset", {});
      await configureWebhooks({});
      // The BFF's cached reads would outlive the emulator's reset and hide the next fault.
      for (const organizationId of [ORG_A_ID, ORG_B_ID, ORG_C_ID]) harness.bff.clinic.invalidate(organizationId);
      for (const records of [logLines, transcript, upstream, deliveries]) records.length = 0;
    },
    async close() {
      await harness.bff.close();
      emulator.emulator.close();
    },
  };
  receiver.app = harness.bff.app;
  await configureWebhooks({});
  if (options.bootstrap !== false) await harness.bff.installations.refresh();
  return harness;
}

/** A clock pinned at {@link HARNESS_NOW} that runs and can be moved ahead and back (for the harness's `now`). */
export function createMovableClock(): { now: () => number; advance(ms: number): void; reset(): void } {
  const pinned = new EmulatorClock(HARNESS_NOW, false);
  let offsetMs = 0;
  return {
    now: () => pinned.now() + offsetMs,
    advance(ms) {
      offsetMs += ms;
    },
    reset() {
      offsetMs = 0;
    },
  };
}
