import type { ClinicApiRoute } from "#contract/clinic-api/responses.ts";
import type { ReadOutcome } from "./response-reader.ts";
import { rateLimitedError, UpstreamError } from "./upstream-error.ts";
import type { ClinicClientOptions } from "./clinic-client.ts";
import type { ClientBudget } from "./take-budget.ts";
import type { PreparedRequest } from "./upstream-request.ts";

// Sends one prepared request: budget (take-budget.ts), fetch with a timeout,
// what the answer said of the service's limit back to the budget, and the
// client's one retry layer (DESIGN.md "Upstream"): any method after a 429
// (not processed) once its Retry-After allows; reads only after a 5xx, a
// timeout or a network failure (a failed write may have reached the EHR).

export interface UpstreamAttempt {
  route: ClinicApiRoute;
  /** The HTTP status, or what kept the attempt from getting one. */
  status: number | "timeout" | "unreachable";
  /** From sending to the body read. */
  seconds: number;
}

export interface RetryOptions {
  /** Retries of a read after a 5xx (not 501), a timeout or a network error. */
  reads: number;
  baseDelayMs: number;
  /** The longest `Retry-After` waited out; a longer one fails at once with `rate_limited`. */
  maxRetryAfterMs: number;
  /** Retries after a 429. */
  rateLimited: number;
}

export const DEFAULT_RETRY: RetryOptions = { reads: 2, baseDelayMs: 100, maxRetryAfterMs: 5_000, rateLimited: 2 };

/** What the client made for the sender: its options come as they were given. */
interface SenderDeps {
  budget: ClientBudget;
  now: () => number;
  redact: (text: string) => string;
  warn: (obj: object, msg: string) => void;
  info: (obj: object, msg: string) => void;
  counters: { upstreamRequests: number; retries: number };
}

/** Failures of the connection itself: the request never reached the service. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function errorCodeOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  // fetch (undici) puts the code on the error's cause, node:net on the error itself.
  if ("code" in error && typeof error.code === "string") return error.code;
  const cause = "cause" in error ? error.cause : undefined;
  return typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string" ? cause.code : undefined;
}

function failureOf(error: unknown, write: boolean, redact: (text: string) => string): UpstreamError {
  const name = typeof error === "object" && error !== null && "name" in error ? error.name : undefined;
  const unknownOutcome = write ? "; whether the change was applied is unknown" : "";
  if (name === "TimeoutError") {
    return new UpstreamError({ status: 504, code: "upstream_timeout", message: `The Clinic Data Service did not answer in time${unknownOutcome}`, answerLost: true });
  }
  const code = errorCodeOf(error);
  const reason = code === undefined ? "" : ` (${redact(code)})`;
  const answerLost = code === undefined || !NOT_SENT_CODES.has(code);
  return new UpstreamError({ status: 503, code: "upstream_unavailable", message: `The Clinic Data Service could not be reached${reason}${answerLost ? unknownOutcome : ""}`, answerLost });
}

type Read<V> = (response: Response) => Promise<ReadOutcome<V>>;

export function createSender(options: ClinicClientOptions, { budget, now, redact, warn, info, counters }: SenderDeps) {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const authorization = `Bearer ${options.apiKey}`;
  const headersFor = (prepared: PreparedRequest): Record<string, string> => {
    const headers: Record<string, string> = { authorization, accept: "application/json" };
    if (prepared.organizationId !== null) headers["x-organization-id"] = prepared.organizationId;
    if (prepared.bodyText !== undefined) headers["content-type"] = "application/json";
    if (prepared.idempotencyKey !== undefined) headers["idempotency-key"] = prepared.idempotencyKey;
    const traceparent = options.traceparent?.();
    if (traceparent !== undefined) headers.traceparent = traceparent;
    return headers;
  };

  async function attempt<V>(prepared: PreparedRequest, read: Read<V>, onSend: () => void): Promise<ReadOutcome<V>> {
    await budget.acquire(prepared.organization);
    onSend();
    counters.upstreamRequests += 1;
    const sentAt = performance.now();
    const observe = (status: UpstreamAttempt["status"]) => options.onAttempt?.({ route: prepared.route, status, seconds: (performance.now() - sentAt) / 1000 });
    let status: number | null = null;
    try {
      const response = await fetchImpl(`${baseUrl}${prepared.target}`, { method: prepared.method, headers: headersFor(prepared), body: prepared.bodyText, signal: AbortSignal.timeout(timeoutMs) });
      status = response.status;
      // Before anything else, so that other callers learn it too.
      budget.learn(prepared.organization, status, response.headers, now());
      const outcome = await read(response);
      observe(status);
      return outcome;
    } catch (error) {
      // The BFF's own failure to read the answer (its intake thread): named as it is, and not retried.
      if (error instanceof UpstreamError) {
        observe(status ?? "unreachable");
        return { kind: "error", error, retryableRead: false };
      }
      const failure = failureOf(error, prepared.method !== "GET", redact);
      // A body that failed to arrive after its status still has that status.
      observe(status ?? (failure.code === "upstream_timeout" ? "timeout" : "unreachable"));
      return { kind: "error", error: failure, retryableRead: true };
    }
  }

  return async function send<V>(prepared: PreparedRequest, read: Read<V>, onSend: () => void): Promise<V> {
    let readRetries = 0;
    let rateLimitRetries = 0;
    for (;;) {
      const outcome = await attempt(prepared, read, onSend);
      if (outcome.kind === "ok") return outcome.value;
      const log = { route: prepared.route, organizationId: prepared.organizationId };
      if (outcome.kind === "rate_limited") {
        // The budget now holds the whole scope until the service's Retry-After.
        const waitMs = Math.max(0, budget.resumesAt(prepared.organization) - now());
        if (waitMs > retry.maxRetryAfterMs || rateLimitRetries >= retry.rateLimited) {
          warn({ ...log, upstreamStatus: 429, upstreamTraceId: outcome.traceId, retryAfterMs: waitMs }, "clinic: rate limited by the service");
          throw rateLimitedError(waitMs / 1000, `The Clinic Data Service is busy; try again in ${Math.max(1, Math.ceil(waitMs / 1000))} s`, { status: 429, traceId: outcome.traceId });
        }
        rateLimitRetries += 1;
        counters.retries += 1;
        info({ ...log, upstreamStatus: 429, upstreamTraceId: outcome.traceId, waitMs }, "clinic: waiting out Retry-After");
        await sleep(waitMs);
        continue;
      }
      if (prepared.method === "GET" && outcome.retryableRead && readRetries < retry.reads) {
        readRetries += 1;
        counters.retries += 1;
        // Equal jitter: half the exponential step fixed, half random, so many callers' retries spread out.
        const step = retry.baseDelayMs * 2 ** (readRetries - 1);
        const waitMs = step / 2 + Math.random() * (step / 2);
        info({ ...log, code: outcome.error.code, upstreamStatus: outcome.error.upstreamStatus, upstreamTraceId: outcome.error.upstreamTraceId, retry: readRetries, waitMs }, "clinic: retrying a read");
        await sleep(waitMs);
        continue;
      }
      throw outcome.error;
    }
  };
}
