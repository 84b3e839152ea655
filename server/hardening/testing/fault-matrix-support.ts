import * as z from "zod/mini";
import { appErrorBody, type AppErrorBody } from "../../../contract/app-api/errors.ts";
import { liveEvent, type LiveEvent } from "../../../contract/app-api/live-events.ts";
import { EmulatorClock } from "../../../emulator/clock.ts";
import type { FaultSpec } from "../../../emulator/http/faults.ts";
import type { EmulatorSettings } from "../../../emulator/routes/route-deps.ts";
import { createTestEmulator, type TestEmulator } from "../../../emulator/testing/emulator-client.ts";
import { ORG_A_ID, ORG_B_ID, ORG_C_ID } from "../../../emulator/world/identities.ts";
import { createBffApp, type Bff, type BffDeps } from "../../app.ts";
import { readBffConfig, type BffConfig } from "../../env.ts";
import { createLogger } from "../../logger.ts";
import type { Store } from "../../store/store.ts";
import { HARNESS_NOW } from "../../testing/bff-harness.ts";
import type { VirtualTimeouts } from "./virtual-timeouts.ts";

// The fault matrix's test bed (docs/fault-matrix.md): the real BFF in-process against the
// emulator in-process, like `server/testing/bff-harness.ts`, plus what
// the matrix needs to inject faults and observe their effect without waiting
// in real time: both clocks start at the pinned HARNESS_NOW (ADR 0011), the
// BFF's clock, upstream tuning and the service's latency are injectable, every
// upstream call is logged with its answer, webhook deliveries can be dropped
// on their way (a network between the service and the BFF), and a second BFF
// can be started on the same store (a restart).

/** Where the emulator delivers webhooks when the BFF is the target; any other URL is unreachable. */
export const BFF_WEBHOOK_URL = "http://localhost:8787/webhooks/clinic";
/** An address nothing listens on: deliveries there fail like a BFF that is down. */
export const UNREACHABLE_WEBHOOK_URL = "http://127.0.0.1:9/webhooks/clinic";
/** Fast emulator retries so a lost first attempt is retried within the test. */
export const SHORT_RETRY_SCHEDULE = [0.05, 0.1];

export interface UpstreamCall {
  method: string;
  /** The path without the query, e.g. `/v2/schedule/slots`. */
  path: string;
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

export interface FaultHarnessOptions {
  /** The BFF's clock (by default its own clock, pinned at HARNESS_NOW and running). */
  now?: () => number;
  /** Injected latency and the client's timeouts on one virtual timeline (`virtual-timeouts.ts`); real time without. */
  virtualTimeouts?: VirtualTimeouts;
  clinicOptions?: BffDeps["clinicOptions"];
  emulatorSettings?: Partial<EmulatorSettings>;
}

export interface FaultHarness {
  /** The BFF the harness's `api` calls (replaced by `restart`). */
  bff: Bff;
  emulator: TestEmulator;
  store: Store;
  config: BffConfig;
  upstream: UpstreamCall[];
  deliveries: WebhookDelivery[];
  logLines: string[];
  /** Null: every delivery reaches the receiver. */
  webhookGate: WebhookGate | null;
  api(path: string, init?: { token?: string | null; method?: string; body?: unknown }): Promise<Response>;
  hostToken(claims?: { organizationId?: string; userId?: string; noteId?: string; patientId?: string; facilityId?: string }): Promise<string>;
  userWithRole(role: string, organizationId?: string): string;
  /** Upstream calls of a method whose path starts with `pathPrefix`. */
  upstreamCount(method: string, pathPrefix: string): number;
  fault(spec: FaultSpec): Promise<void>;
  /** `POST /_sandbox/webhooks`. */
  webhooks(target: { url?: string; headerStyle?: "standard" | "prefixed"; duplicate?: boolean; shuffle?: boolean; retrySchedule?: number[] }): Promise<void>;
  /** Waits until the emulator has carried out every request the BFF sent it, those the BFF gave up on (a timeout) included. */
  upstreamSettled(): Promise<void>;
  /** Waits until the emulator has nothing left to deliver, then drains the BFF's inbox. */
  settle(): Promise<void>;
  /** Webhook deliveries go to this receiver instead of the BFF's app (one that stores and then dies); null: back to the BFF. */
  receiveWith(app: WebhookReceiver | null): void;
  /** A new BFF on the same store and emulator (not started), which then receives the webhooks and serves `api`. */
  restart(): Bff;
  /** `POST /_sandbox/reset`, faults cleared, webhooks back to the BFF, logs emptied. */
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

export async function createFaultHarness(store: Store, options: FaultHarnessOptions = {}): Promise<FaultHarness> {
  const upstream: UpstreamCall[] = [];
  const deliveries: WebhookDelivery[] = [];
  const logLines: string[] = [];
  const receiver: { app: WebhookReceiver | null; override: WebhookReceiver | null } = { app: null, override: null };

  const inFlight = new Set<Promise<unknown>>();
  const bffClock = new EmulatorClock(HARNESS_NOW, false);
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
  const config: BffConfig = { ...readBffConfig({}), distDir: "dist" };
  const logger = createLogger({ level: "debug", secrets: [config.clinicApiKey, ...config.webhookSecrets], destination: { write: (line: string) => void logLines.push(line) } });

  const upstreamFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const call: UpstreamCall = { method: request.method, path: new URL(request.url).pathname, status: null, traceId: null };
    upstream.push(call);
    // In-process, the emulator's app ignores the abort signal; a real socket does not: honour it, so the BFF's timeout fires.
    const carriedOut = Promise.resolve(emulator.emulator.app.fetch(request));
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

  const newBff = () => createBffApp({ config, store, logger, fetch: upstreamFetch, now: options.now ?? (() => bffClock.now()), clinicOptions: options.clinicOptions });

  async function configureWebhooks(target: Parameters<FaultHarness["webhooks"]>[0]): Promise<void> {
    const result = await emulator.sandbox("POST", "/webhooks", { url: BFF_WEBHOOK_URL, headerStyle: "standard", retrySchedule: SHORT_RETRY_SCHEDULE, ...target });
    if (result.status !== 200) throw new Error(`webhooks: ${JSON.stringify(result.body)}`);
  }

  function userWithRole(role: string, organizationId = ORG_A_ID): string {
    const user = emulator.emulator.state.org(organizationId)?.ehr.providers.find((provider) => provider.roles.includes(role) && !provider.hidden);
    if (!user) throw new Error(`no ${role} in ${organizationId}`);
    return user.id;
  }

  const harness: FaultHarness = {
    bff: newBff(),
    emulator,
    store,
    config,
    upstream,
    deliveries,
    logLines,
    webhookGate: null,
    userWithRole,
    async api(path, init = {}) {
      const headers: Record<string, string> = {};
      if (init.token) headers.authorization = `Bearer ${init.token}`;
      let body: string | undefined;
      if (init.body !== undefined) {
        headers["content-type"] = "application/json";
        body = JSON.stringify(init.body);
      }
      return harness.bff.app.request(path, { method: init.method ?? "GET", headers, body });
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
      upstream.length = 0;
      deliveries.length = 0;
      logLines.length = 0;
    },
    async close() {
      await harness.bff.close();
      emulator.emulator.close();
    },
  };
  receiver.app = harness.bff.app;
  await configureWebhooks({});
  await harness.bff.installations.refresh();
  return harness;
}

/** A clock pinned at HARNESS_NOW that runs and can be moved ahead (the BFF's `now`). */
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

/** The BFF's error body, parsed with the app contract; the raw text too, for leak checks. */
export async function errorOf(response: Response): Promise<AppErrorBody & { text: string }> {
  const text = await response.text();
  return { ...z.parse(appErrorBody, JSON.parse(text)), text };
}

/** An open `GET /api/events` stream, read frame by frame. */
export interface LiveStream {
  /** The next `tandem` event, or null when the stream ended. */
  next(): Promise<LiveEvent | null>;
  cancel(): Promise<void>;
}

export async function openLiveStream(harness: FaultHarness, token: string): Promise<LiveStream> {
  const response = await harness.api("/api/events", { token });
  if (response.status !== 200 || !response.body) throw new Error(`events answered ${response.status}`);
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return {
    async next() {
      for (;;) {
        const match = /event: tandem\ndata: (.*)\n\n/.exec(buffer);
        if (match?.[1] !== undefined) {
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

/** Local dates from the day after the harness's pinned instant for `days` days (UTC dates; the facilities are in the Americas). */
export function dateWindow(days = 7, from = HARNESS_NOW): { startDate: string; endDate: string } {
  const day = 86_400_000;
  return { startDate: new Date(from + day).toISOString().slice(0, 10), endDate: new Date(from + days * day).toISOString().slice(0, 10) };
}

/** A follow-up appointment type and a visible facility of the seed: what the slot searches of the matrix ask for. */
export async function seededSearchTarget(harness: FaultHarness): Promise<{ typeId: string; facilityId: string }> {
  const { appointmentTypes } = await harness.emulator.get("GET /v3/appointment-types");
  const { facilities } = await harness.emulator.get("GET /v1/facilities");
  const type = appointmentTypes.find((candidate) => candidate.abbreviation === "FU") ?? appointmentTypes[0];
  const facility = facilities.find((candidate) => candidate.isVisible);
  if (!type || !facility) throw new Error("no appointment type or facility in the seed");
  return { typeId: type.id, facilityId: facility.id };
}
