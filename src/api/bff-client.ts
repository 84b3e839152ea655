import * as z from "zod/mini";
import { APP_ERROR_CODES, appErrorBody, type AppErrorBody } from "#contract/app-api/errors.ts";
import { displayTraceId, formatTraceparent, newTraceContext } from "#contract/app-api/trace-context.ts";
import type { AppLink } from "../bridge/app-link.ts";
import { reportBffAnswered, reportTandemInactive, tandemRetryDelayMs } from "./bff-reachability.ts";
import { currentCacheIdentity, sameIdentity } from "./cache-identity.ts";

// Calls to the BFF: the host token in the Authorization header (or, signed in
// outside the EHR, the session cookie alone), responses parsed with
// contract/app-api (STYLE.md 2), a 401 answered by one silent token refresh
// and retry, a fresh token before every write. Each call starts a W3C trace
// (`traceparent`): the BFF's logs, its error body and its calls to the
// service carry the same id, and an error made here names it too.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: AppErrorBody,
  ) {
    super(body.message);
  }
}

/**
 * An answer that arrived after the organization or user signed in changed, for the one before: dropped
 * unread, so nothing of the previous identity reaches the new one's screen or cache (ADR 0025).
 */
export class AnswerForPreviousIdentity extends Error {
  constructor() {
    super("Tandem dropped an answer meant for the organization or user signed in before");
  }
}

let bridge: AppLink | null = null;

/** What authorises calls: the host bridge once the handshake succeeds, or a standalone sign-in. */
export function setApiBridge(next: AppLink | null): void {
  bridge = next;
}

/**
 * Whether calls can be made yet: not before the EHR handshake or the
 * standalone sign-in (a call then would fail as unauthorised). The router
 * renders, and runs loaders, only after them (main.tsx), so a loader may call.
 */
export function canCallBff(): boolean {
  return bridge !== null;
}

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** What a call reads of an answer: a fetch `Response`, or one read off the page's main thread (slot-search-reader.ts). */
export interface BffAnswer {
  readonly ok: boolean;
  readonly status: number;
  json(): Promise<unknown>;
  /** The schema the body was already checked against where it was read: not checked again. */
  readonly checkedWith?: z.ZodMiniType;
}

/** How a call goes out: `fetch`, or a reader that sends it from elsewhere. */
export type BffFetch = (path: string, init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal }) => Promise<BffAnswer>;

interface Sent {
  response: BffAnswer;
  /** The trace id the BFF logs this call under. */
  traceId: string;
}

async function send(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal; fetchWith?: BffFetch }, token: string | null): Promise<Sent> {
  const trace = newTraceContext();
  const headers: Record<string, string> = { accept: "application/json", traceparent: formatTraceparent(trace) };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const fetchWith = init.fetchWith ?? fetch;
  const response = await fetchWith(path, { method: init.method ?? "GET", headers, body: init.body === undefined ? undefined : JSON.stringify(init.body), signal: init.signal });
  return { response, traceId: displayTraceId(trace) };
}

async function errorOf({ response, traceId }: Sent): Promise<ApiError> {
  let json: unknown = null;
  try {
    json = await response.json();
  } catch {
    // not JSON: described below
  }
  const parsed = z.safeParse(appErrorBody, json);
  return new ApiError(
    response.status,
    parsed.success ? parsed.data : { code: "unexpected_response", message: `Tandem's server answered ${response.status} without an explanation`, trace_id: traceId },
  );
}

interface CallInit {
  method?: string;
  body?: unknown;
  signal?: AbortSignal;
  /** A read sent as POST (its body is what is read, the slot check): the BFF does not spend its token, so the one held serves. */
  isRead?: boolean;
  /** A write usually follows this call (a slot's hold after its check): its token is asked for now, beside it. */
  writeFollows?: boolean;
  /** Sends it otherwise than with the page's `fetch` (a slot search, off the main thread). */
  fetchWith?: BffFetch;
}

export async function callBff<T extends z.ZodMiniType>(path: string, schema: T, init: CallInit = {}): Promise<z.infer<T>> {
  if (!bridge) throw new ApiError(401, { code: "invalid_token", message: "No EHR session yet", trace_id: "" });
  const askedAs = currentCacheIdentity();
  const isWrite = WRITE_METHODS.has(init.method ?? "GET") && init.isRead !== true;
  if (init.writeFollows === true) bridge.askWriteTokenAhead();
  let sent = await send(path, init, isWrite ? await bridge.writeToken() : await bridge.token());
  if (sent.response.status === 401 && bridge.mode === "embedded") {
    sent = await send(path, init, isWrite ? await bridge.writeToken() : await bridge.freshToken());
  }
  const dropIfForPreviousIdentity = () => {
    if (!sameIdentity(askedAs, currentCacheIdentity())) throw new AnswerForPreviousIdentity();
  };
  dropIfForPreviousIdentity();
  if (sent.response.status === 401) bridge.signInEnded();
  if (!sent.response.ok) {
    const error = await errorOf(sent);
    if (error.body.code === APP_ERROR_CODES.installationInactive) reportTandemInactive();
    throw error;
  }
  reportBffAnswered();
  const json: unknown = await sent.response.json();
  dropIfForPreviousIdentity();
  if (sent.response.checkedWith === schema) return json as z.infer<T>;
  const parsed = z.safeParse(schema, json);
  if (!parsed.success) {
    throw new ApiError(502, { code: "unexpected_response", message: "Tandem's server answered in an unexpected shape", trace_id: sent.traceId });
  }
  return parsed.data;
}

/** Gets a write ready to go while the page is being left (see {@link sendWhileLeaving}): a token kept aside inside the EHR. */
export function prepareWriteWhileLeaving(): void {
  bridge?.prepareSpareWriteToken();
}

/**
 * Sends a write as the page goes (pagehide): `keepalive`, so the request outlives the page, with the token got
 * ready ahead (nothing can wait for the EHR then); its answer is never read. False when it could not be sent (no
 * token ready, or the browser refused: a keepalive body is capped at 64 KB).
 */
export function sendWhileLeaving(path: string, method: "PUT", body: unknown): boolean {
  const spare = bridge?.takeSpareWriteToken() ?? null;
  if (spare === null) return false;
  const headers: Record<string, string> = { accept: "application/json", "content-type": "application/json", traceparent: formatTraceparent(newTraceContext()) };
  if (spare.token !== null) headers.authorization = `Bearer ${spare.token}`;
  try {
    fetch(path, { method, headers, body: JSON.stringify(body), keepalive: true }).catch(() => undefined);
    return true;
  } catch {
    return false;
  }
}

/** The public configuration (no token): which EHR origins may host the app. */
export const appConfig = z.object({ allowedHostOrigins: z.array(z.string()), slug: z.string() });

export async function fetchAppConfig(): Promise<z.infer<typeof appConfig>> {
  const response = await fetch("/app-config", { headers: { accept: "application/json" } });
  if (!response.ok) throw new Error(`Tandem's configuration could not be loaded (${response.status})`);
  return z.parse(appConfig, await response.json());
}

/**
 * The configuration, asked for again on Tandem's backoff (bff-reachability.ts) until its server gives it: the app
 * opened while the server restarts (from the shell worker's kept page, src/offline/) waits here, `onWaiting` told
 * of each failure, instead of failing. Stops, throwing the last failure, once `isWanted` says no.
 */
export async function fetchAppConfigOnceAnswered(onWaiting: () => void, isWanted: () => boolean): Promise<z.infer<typeof appConfig>> {
  for (let failures = 1; ; failures += 1) {
    try {
      return await fetchAppConfig();
    } catch (error) {
      if (!isWanted()) throw error;
      onWaiting();
      await new Promise((resolve) => setTimeout(resolve, tandemRetryDelayMs(failures)));
    }
  }
}
