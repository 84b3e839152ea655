import { AsyncResource } from "node:async_hooks";
import { nodeHttpFetch } from "./node-http-fetch.ts";
import type { ClinicApiRoute } from "#contract/clinic-api/responses.ts";
import type { Installation } from "#contract/clinic-api/installation.ts";
import { cacheExpiry, CALLER_BOUNDED_ROUTES, isSharedRoute, sourceSyncedAtOf, type SharedRoute } from "./cache-policy.ts";
import { deepFreeze } from "./deep-freeze.ts";
import { listAllPages, type ItemOf, type ItemsKey, type PaginatedRoute } from "./paging.ts";
import type { LimiterBudget } from "./fair-share-limiter.ts";
import { createLimiter, limiterWindowMs, type LimiterOptions } from "./budget/upstream-limiter.ts";
import { takeIn } from "./answer-intake.ts";
import { DEFAULT_MAX_BODY_BYTES } from "./bounded-body.ts";
import { IntakeThread, IntakeThreadError } from "./intake-thread.ts";
import { readResponse, readSharedResponse, type ClinicData, type Intake, type ReadOutcome } from "./response-reader.ts";
import { RefreshAhead } from "./refresh-ahead.ts";
import { ResponseCache } from "./response-cache.ts";
import type { SharedAnswer } from "./shared-answer.ts";
import { backoffDelayMs, DEFAULT_RETRY, sleep, type RetryOptions } from "./retry-policy.ts";
import { createRedactor } from "./secret-redaction.ts";
import { readServiceLimit } from "./service-limit-report.ts";
import { rateLimitedError, UpstreamError } from "./upstream-error.ts";
import { prepareRequest, type ClinicCall, type PreparedRequest } from "./upstream-request.ts";
import { UserRequestQuota } from "./user-request-quota.ts";

// The BFF's only way to the Clinic Data Service (DESIGN.md "Upstream"). Every
// call goes: cache (schedule reads and pickers only) → coalescing of identical
// in-flight reads → the per-user limit → the rate limiter → fetch with a
// timeout → the contract parse → retries (reads on 5xx/network, anything on
// 429). The data key lives in this closure and in the Authorization header
// only.

export { UpstreamError } from "./upstream-error.ts";
export type { ClinicCall } from "./upstream-request.ts";
export type { ClinicData } from "./response-reader.ts";
export type { LimiterBudget } from "./fair-share-limiter.ts";
export type { LimiterOptions } from "./budget/upstream-limiter.ts";
export type { SharedRoute } from "./cache-policy.ts";
export { SharedAnswer } from "./shared-answer.ts";

/** One attempt that was sent to the service, for the operator's figures. */
export interface UpstreamAttempt {
  route: ClinicApiRoute;
  /** The HTTP status, or what kept the attempt from getting one. */
  status: number | "timeout" | "unreachable";
  /** From sending to the body read. */
  seconds: number;
}

export interface ClinicLogger {
  warn(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
  error?(obj: object, msg: string): void;
}

type IntakeWorker = Pick<IntakeThread, "takeIn" | "close">;

/** Where answers are taken in: `waitedFor` for a read a user waits for, `background` for a refresh ahead nobody has joined. */
export interface IntakeThreads {
  waitedFor: IntakeWorker;
  background: IntakeWorker;
}

/** A read on its way to the service; `waitedFor` once a user waits for it (a refresh ahead has nobody until one joins it). */
interface InFlightRead {
  organization: string;
  route: ClinicApiRoute;
  promise: Promise<unknown>;
  waitedFor: boolean;
}

export interface ClinicClientOptions {
  /** e.g. http://127.0.0.1:4010 */
  baseUrl: string;
  /** The data key: never in a log line, an error message or a thrown error's text. */
  apiKey: string;
  /** Defaults to Node's global fetch, whose dispatcher keeps connections alive. */
  fetch?: typeof fetch;
  /** Real time by default (the BFF runs on real time). */
  now?: () => number;
  limiter?: LimiterOptions;
  /** Per attempt; default 10 s. */
  timeoutMs?: number;
  /** Answers past this many bytes are cut off unread: 502 `upstream_too_large` (default `DEFAULT_MAX_BODY_BYTES`, UPSTREAM_MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  retry?: Partial<RetryOptions>;
  /** Lifetime of cached picker lists (providers, facilities, appointment types); default 60 s, 0 disables. */
  pickerTtlMs?: number;
  /** Cached reads kept across organizations; default 5000. */
  maxCacheEntries?: number;
  /** Cached reads kept for one organization; default a fifth of `maxCacheEntries`. */
  maxCacheEntriesPerOrganization?: number;
  /** Who the call being made is for (organization and user), if anyone: the per-user limit counts by it. */
  requester?: () => string | undefined;
  /** The W3C `traceparent` of the request a call is made for, if any: sent on, so the service's side of a call can be found from the BFF's trace id. */
  traceparent?: () => string | undefined;
  /**
   * Take in the answers of shared routes (parse, check, serialize, compress:
   * answer-intake.ts) on worker threads instead of the event loop; default
   * false. `true`: two threads, one at the event loop's priority for answers
   * a user waits for, one below it for refreshes nobody waits for (ADR 0022).
   * The BFF's server turns it on; tests may give threads of their own.
   */
  intakeThread?: boolean | IntakeThreads;
  /** Answers smaller than this are taken in on the event loop even with a thread (default `INTAKE_THREAD_MIN_BYTES`). */
  intakeThreadMinBytes?: number;
  /**
   * How often at most a read entry near its expiry is read again, per
   * organization, to find a newer sync nothing else showed (refresh-ahead.ts;
   * default 2 s, 0: never).
   */
  syncProbeEveryMs?: number;
  /** Told of every attempt sent to the service (not of cache hits, joined reads or refusals by the limiters). */
  onAttempt?: (attempt: UpstreamAttempt) => void;
  logger?: ClinicLogger;
}

export interface ClinicClientStats {
  upstreamRequests: number;
  cacheHits: number;
  coalesced: number;
  retries: number;
  /** Cached schedule reads read again in the background: after a newer sync of their mirror showed, or near their bound to find one (refresh-ahead.ts). */
  refreshedAhead: number;
  queuedForLimiter: number;
  rejectedByLimiter: number;
  rejectedByUserLimit: number;
  /** Answers the intake thread could not take in (its worker died or failed), and those it did not hand back in time: each failed its read with 503 `intake_failed`. */
  intakeFailures: number;
  intakeTimeouts: number;
}

export interface ClinicClient {
  /**
   * One call, typed by its route key (`contract/clinic-api/responses.ts`);
   * answers the parsed `data`. Answers of GETs may be shared between callers
   * and are frozen: copy before changing. Fails with `UpstreamError` only.
   */
  request<R extends ClinicApiRoute>(route: R, call?: ClinicCall): Promise<ClinicData<R>>;
  /**
   * A cacheable read's answer as kept for everyone it is shared with: its
   * compressed JSON, for a route that passes it to the browser unchanged
   * (parsing it is left to whoever asks for `data()`).
   */
  requestShared<R extends SharedRoute>(route: R, call?: ClinicCall): Promise<SharedAnswer<ClinicData<R>>>;
  /**
   * The cached answer of a cacheable read while it is fresh, else undefined:
   * never goes to the service. For a caller that can make its answer from a
   * broader read already kept (one provider's availability from the
   * facility's: server/schedule/availability-reads.ts). A hit counts as a
   * read of the entry (refresh ahead keeps it).
   */
  cachedShared<R extends SharedRoute>(route: R, call?: ClinicCall): SharedAnswer<ClinicData<R>> | undefined;
  /** Every item of a paginated list, fetched at pageSize 100. */
  listAll<R extends PaginatedRoute, K extends ItemsKey<R>>(route: R, key: K, call?: ClinicCall): Promise<ItemOf<R, K>[]>;
  /** The app's installations, uninstalled ones included (no `X-Organization-Id`). */
  listAllInstallations(): Promise<Installation[]>;
  /** Drops cached reads of an organization (all, or routes starting with `prefix`, e.g. "GET /v2/schedule/slots"). */
  invalidate(organizationId: string, prefix?: string): void;
  stats(): ClinicClientStats;
  /** The key's budget in the limiter's window now, per organization (`app` for calls made for none). */
  budget(): LimiterBudget;
  close(): void;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const utf8Decoder = new TextDecoder();
const DEFAULT_PICKER_TTL_MS = 60_000;
/**
 * Intake costs about 16 µs per KB (a 64 KiB slot search: about 1 ms; 3 MB:
 * about 45 ms), so only larger answers are worth the copy to the thread and
 * back, and a BFF that never sees one never starts the thread.
 */
export const INTAKE_THREAD_MIN_BYTES = 64 * 1024;

/** Failures of the connection itself: the request never reached the service. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

function errorCodeOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  // node:http puts the code on the error itself, fetch (undici) on its cause.
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

/** The limiter's bucket of a call: calls made for no organization (the installations list) share the key as one more member. */
const bucketOf = (prepared: PreparedRequest) => prepared.organizationId ?? "app";

const noRefund = () => undefined;

/** A refresh ahead is sent only while the organization has used less than this part of its allowance in the window: users' own reads come first. */
const REFRESH_AHEAD_MAX_BUDGET_USE = 0.8;
/** Only entries a user read this recently are refreshed ahead. */
const REFRESH_AHEAD_RECENT_READ_MS = 30_000;

export function createClinicClient(options: ClinicClientOptions): ClinicClient {
  const now = options.now ?? Date.now;
  const fetchImpl: typeof fetch = options.fetch ?? nodeHttpFetch;
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retry: RetryOptions = { ...DEFAULT_RETRY, ...options.retry };
  const pickerTtlMs = options.pickerTtlMs ?? DEFAULT_PICKER_TTL_MS;
  const logger = options.logger;
  // Called as methods: pino's need their `this`.
  const warn = (obj: object, msg: string) => logger?.warn(obj, msg);
  const info = (obj: object, msg: string) => logger?.info?.(obj, msg);
  const logError = (obj: object, msg: string) => (logger?.error ? logger.error(obj, msg) : warn(obj, msg));
  const redact = createRedactor(options.apiKey);
  // Both scopes count per organization: `key` shares one window fairly among them, `organization` gives each its own.
  const limiter = createLimiter(options.limiter, now);
  const perUser = options.limiter?.perUser;
  const windowMs = limiterWindowMs(options.limiter);
  const userQuota = perUser === undefined ? null : new UserRequestQuota({ limit: perUser, windowMs, now });
  const cache = new ResponseCache({ now, maxEntries: options.maxCacheEntries, maxEntriesPerOrganization: options.maxCacheEntriesPerOrganization });
  const inFlight = new Map<string, InFlightRead>();
  const counters = { upstreamRequests: 0, cacheHits: 0, coalesced: 0, retries: 0, refreshedAhead: 0, intakeFailures: 0, intakeTimeouts: 0 };
  let closed = false;
  // Made here, outside any request: refreshes run in this context, not in that of the user whose read started them (their trace id, their quota).
  const background = new AsyncResource("tandem-refresh-ahead");
  const refreshAhead = new RefreshAhead<PreparedRequest & { route: SharedRoute }>({
    now,
    recentReadMs: REFRESH_AHEAD_RECENT_READ_MS,
    maxEntriesPerOrganization: cache.maxPerOrganization,
    ...(options.syncProbeEveryMs !== undefined && { syncProbeEveryMs: options.syncProbeEveryMs }),
    refresh: (organization, prepared) => background.runInAsyncScope(() => refreshInBackground(organization, prepared)),
  });

  const readContext = { redact, warn, maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES };
  const intakeThreads: IntakeThreads | null =
    options.intakeThread === true ? { waitedFor: new IntakeThread(), background: new IntakeThread({ lowPriority: true }) } : options.intakeThread || null;
  const takeInHere: Intake = (route, body) => Promise.resolve(takeIn(route, utf8Decoder.decode(body)));
  const threadMinBytes = options.intakeThreadMinBytes ?? INTAKE_THREAD_MIN_BYTES;
  /**
   * An answer the thread could not take in (its heap ran out, it hung) is
   * not taken in on the event loop instead: at the large scale one slot
   * search did that after the thread died, and the process ran out of heap
   * with it, cutting every user (issue 34). The read fails, logged and
   * counted (`tandem_upstream_intake_failures_total`).
   */
  const takeInOnThread = async (thread: IntakeWorker, route: SharedRoute, body: Uint8Array<ArrayBuffer>) => {
    const bytes = body.byteLength;
    try {
      return await thread.takeIn(route, body);
    } catch (error) {
      const reason = error instanceof IntakeThreadError ? error.reason : "failed";
      if (reason === "timeout") counters.intakeTimeouts += 1;
      else counters.intakeFailures += 1;
      logError({ route, bytes, reason, err: error }, "clinic: the intake thread could not take in an answer; it is not taken in on the event loop");
      const what = reason === "timeout" ? "in time" : `(${Math.ceil(bytes / 1024)} KB)`;
      throw new UpstreamError({ status: 503, code: "intake_failed", message: `Tandem could not read the Clinic Data Service's answer ${what}: try again, or ask for less` });
    }
  };
  const intakeOn = (thread: IntakeWorker | undefined): Intake =>
    thread ? (route, body) => (body.byteLength < threadMinBytes ? takeInHere(route, body) : takeInOnThread(thread, route, body)) : takeInHere;
  const intake = intakeOn(intakeThreads?.waitedFor);
  const backgroundIntake = intakeOn(intakeThreads?.background);

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

  /** One attempt; `read` makes the outcome of the service's response. */
  async function attempt<V>(prepared: PreparedRequest, onSend: () => void, read: (response: Response) => Promise<ReadOutcome<V>>): Promise<ReadOutcome<V>> {
    await limiter.acquire(bucketOf(prepared));
    onSend();
    counters.upstreamRequests += 1;
    const sentAt = performance.now();
    const observe = (status: UpstreamAttempt["status"]) => options.onAttempt?.({ route: prepared.route, status, seconds: (performance.now() - sentAt) / 1000 });
    let status: number | null = null;
    try {
      const response = await fetchImpl(`${baseUrl}${prepared.target}`, {
        method: prepared.method,
        headers: headersFor(prepared),
        body: prepared.bodyText,
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.status;
      // What the service says of its limit goes back to the limiter before anything else: other callers learn it too.
      limiter.learn(bucketOf(prepared), readServiceLimit(status, response.headers, now(), windowMs));
      const outcome = await read(response);
      observe(status);
      return outcome;
    } catch (error) {
      // The BFF's own failure to read the answer (its intake thread): named as it is, not as the service's, and not retried.
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

  /**
   * Counts a request about to go upstream against its user's limit (throws
   * 429 past it); the refund gives it back if it never reaches the service.
   * Taken before a read is registered as in flight, so nobody joins a read
   * refused for its user.
   */
  function chargeUser(): () => void {
    const user = userQuota ? options.requester?.() : undefined;
    return userQuota && user !== undefined ? userQuota.take(user) : noRefund;
  }

  /** The call with its retries, its outcome made by `read` (the parsed data by default); no cache, no coalescing. */
  async function execute<R extends ClinicApiRoute, V = ClinicData<R>>(
    prepared: PreparedRequest & { route: R },
    refund: () => void,
    read: (response: Response) => Promise<ReadOutcome<V>> = (response) => readResponse(prepared.route, response, readContext) as Promise<ReadOutcome<V>>,
  ): Promise<V> {
    let reachedService = false;
    try {
      return await executeWithRetries(
        prepared,
        () => {
          reachedService = true;
        },
        read,
      );
    } catch (error) {
      if (!reachedService) refund();
      throw error;
    }
  }

  async function executeWithRetries<V>(prepared: PreparedRequest, onSend: () => void, read: (response: Response) => Promise<ReadOutcome<V>>): Promise<V> {
    const isRead = prepared.method === "GET";
    let readRetries = 0;
    let rateLimitRetries = 0;
    for (;;) {
      const outcome = await attempt(prepared, onSend, read);
      if (outcome.kind === "ok") return outcome.value;
      const log = { route: prepared.route, organizationId: prepared.organizationId };
      if (outcome.kind === "rate_limited") {
        // The limiter now holds the whole scope until the service's Retry-After (bounded: service-limit-report.ts).
        const waitMs = Math.max(0, limiter.resumesAt(bucketOf(prepared)) - now());
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
      // Only idempotent reads are retried: a failed write may have reached the EHR.
      if (isRead && outcome.retryableRead && readRetries < retry.reads) {
        readRetries += 1;
        counters.retries += 1;
        const waitMs = backoffDelayMs(readRetries, retry.baseDelayMs);
        info({ ...log, code: outcome.error.code, upstreamStatus: outcome.error.upstreamStatus, upstreamTraceId: outcome.error.upstreamTraceId, retry: readRetries, waitMs }, "clinic: retrying a read");
        await sleep(waitMs);
        continue;
      }
      throw outcome.error;
    }
  }

  /** A read of a route whose answers are never cached, or a strong read: the parsed data, for its callers alone. */
  async function readOwn<R extends ClinicApiRoute>(prepared: PreparedRequest & { route: R }, refund: () => void): Promise<ClinicData<R>> {
    return deepFreeze(await execute(prepared, refund));
  }

  /** A shared route's read: fetched, serialized once, and cached when its policy allows. */
  async function readShared<R extends SharedRoute>(
    prepared: PreparedRequest & { route: R },
    generation: number,
    keepParsed: boolean,
    refund: () => void,
    intakeOfRead: Intake = intake,
  ): Promise<SharedAnswer<ClinicData<R>>> {
    const requestStartedAt = now();
    const { answer, meta } = await execute(prepared, refund, (response) => readSharedResponse(prepared.route, response, { ...readContext, intake: intakeOfRead, keepParsed }));
    const organization = prepared.organizationId ?? "-";
    const expiresAt = cacheExpiry({ route: prepared.route, data: { meta }, strong: prepared.strong, requestStartedAt, now: now(), pickerTtlMs, cacheUntil: prepared.cacheUntil });
    if (expiresAt !== null) {
      cache.set(organization, prepared.key, prepared.route, answer, expiresAt, generation, answer.weight);
      const syncedAt = sourceSyncedAtOf(prepared.route, { meta });
      if (syncedAt !== null && cache.get(organization, prepared.key) === answer) refreshAhead.stored(organization, prepared.key, { request: prepared, route: prepared.route, syncedAt, expiresAt });
    }
    return answer;
  }

  /** Whether the organization's part of the upstream budget leaves room for a read no user is waiting for. */
  function hasRoomForBackgroundRead(organizationId: string | null): boolean {
    if (limiter.resumesAt(organizationId ?? "app") > now()) return false;
    const use = limiter.budget().organizations.find((entry) => entry.organization === (organizationId ?? "app"));
    return use === undefined || use.sent < use.allowance * REFRESH_AHEAD_MAX_BUDGET_USE;
  }

  /** A cached schedule read, read again for nobody in particular (refresh-ahead.ts); false when it was not made or failed. */
  async function refreshInBackground(organization: string, prepared: PreparedRequest & { route: SharedRoute }): Promise<boolean> {
    if (closed || inFlight.has(prepared.key) || !hasRoomForBackgroundRead(prepared.organizationId)) return false;
    counters.refreshedAhead += 1;
    // Users asking for it meanwhile (their entry expired) join it, and its answer is then taken in as theirs.
    const flight: InFlightRead = { organization, route: prepared.route, promise: Promise.resolve(), waitedFor: false };
    const started = readShared(prepared, cache.generation(organization), false, noRefund, (route, body) => (flight.waitedFor ? intake : backgroundIntake)(route, body)).finally(() => {
      if (inFlight.get(prepared.key)?.promise === started) inFlight.delete(prepared.key);
    });
    flight.promise = started;
    inFlight.set(prepared.key, flight);
    try {
      await started;
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Joins an identical read in flight, else starts one. Keys name the route,
   * so what a key's promise resolves to is what `start` gives for that route.
   * The user is charged before the read is registered, so nobody joins a
   * read refused for its user.
   */
  function joinOrStart<T>(prepared: PreparedRequest & { route: ClinicApiRoute }, start: (refund: () => void) => Promise<T>): Promise<T> {
    const pending = inFlight.get(prepared.key);
    if (pending) {
      counters.coalesced += 1;
      pending.waitedFor = true;
      return pending.promise as Promise<T>;
    }
    const refund = chargeUser();
    const started = start(refund).finally(() => {
      if (inFlight.get(prepared.key)?.promise === started) inFlight.delete(prepared.key);
    });
    inFlight.set(prepared.key, { organization: prepared.organizationId ?? "-", route: prepared.route, promise: started, waitedFor: true });
    return started;
  }

  /**
   * A shared route's answer: from the cache, else joining an identical read
   * in flight, else a read of its own. `keepParsed`: the caller wants the
   * objects (`request`), not only the bytes.
   */
  function answerOf<R extends SharedRoute>(prepared: PreparedRequest & { route: R }, keepParsed: boolean): Promise<SharedAnswer<ClinicData<R>>> {
    const organization = prepared.organizationId ?? "-";
    // A strong read is the final check before a write: it must reflect the
    // moment it was asked, so it neither uses nor joins anything earlier.
    if (prepared.strong) return readShared(prepared, cache.generation(organization), keepParsed, chargeUser());
    const cached = fromCache(prepared);
    if (cached !== undefined) return Promise.resolve(cached);
    const generation = cache.generation(organization);
    return joinOrStart(prepared, (refund) => readShared(prepared, generation, keepParsed, refund));
  }

  /** A non-strong shared read's fresh cached answer, counted as a hit and as a read for refresh ahead. */
  function fromCache<R extends SharedRoute>(prepared: PreparedRequest & { route: R }): SharedAnswer<ClinicData<R>> | undefined {
    // A caller-bounded read asked without a bound wants the service's answer now.
    if (prepared.strong || (CALLER_BOUNDED_ROUTES.has(prepared.route) && prepared.cacheUntil === undefined)) return undefined;
    const organization = prepared.organizationId ?? "-";
    // Entries are stored under a key that names the route: each is that route's answer (ours, not outside data).
    const cached = cache.get(organization, prepared.key) as SharedAnswer<ClinicData<R>> | undefined;
    if (cached === undefined) return undefined;
    counters.cacheHits += 1;
    refreshAhead.read(organization, prepared.key);
    return cached;
  }

  async function request<R extends ClinicApiRoute>(route: R, call: ClinicCall = {}): Promise<ClinicData<R>> {
    checkOpen();
    const prepared = { ...prepareRequest(route, call), route };
    if (prepared.method !== "GET") return execute(prepared, chargeUser());
    if (prepared.strong) return readOwn(prepared, chargeUser());
    if (!isSharedRoute(prepared.route)) return joinOrStart(prepared, (refund) => readOwn(prepared, refund));
    const answer: SharedAnswer<object> = await answerOf({ ...prepared, route: prepared.route }, true);
    // `prepared.route` is `route`: the answer is this route's data.
    return answer.data() as ClinicData<R>;
  }

  async function requestShared<R extends SharedRoute>(route: R, call: ClinicCall = {}): Promise<SharedAnswer<ClinicData<R>>> {
    checkOpen();
    return answerOf({ ...prepareRequest(route, call), route }, false);
  }

  function cachedShared<R extends SharedRoute>(route: R, call: ClinicCall = {}): SharedAnswer<ClinicData<R>> | undefined {
    checkOpen();
    return fromCache({ ...prepareRequest(route, call), route });
  }

  function checkOpen(): void {
    if (closed) throw new UpstreamError({ status: 503, code: "upstream_unavailable", message: "The clinic client is closed" });
  }

  const client: ClinicClient = {
    request,
    requestShared,
    cachedShared,
    listAll: (route, key, call) => listAllPages(client, route, key, call),
    listAllInstallations: () => listAllPages(client, "GET /v1/installations", "installations"),
    invalidate(organizationId, prefix) {
      const organization = organizationId.toLowerCase();
      cache.invalidate(organization, prefix);
      refreshAhead.forget(organization, prefix);
      // Reads already on their way may predate the change: later callers start their own.
      for (const [key, entry] of inFlight) {
        if (entry.organization === organization && (prefix === undefined || entry.route.startsWith(prefix))) inFlight.delete(key);
      }
    },
    stats() {
      const limiterStats = limiter.stats();
      return { ...counters, queuedForLimiter: limiterStats.queued, rejectedByLimiter: limiterStats.rejected, rejectedByUserLimit: userQuota?.rejected() ?? 0 };
    },
    budget: () => limiter.budget(),
    close() {
      closed = true;
      limiter.close();
      intakeThreads?.waitedFor.close();
      intakeThreads?.background.close();
      cache.clear();
      inFlight.clear();
    },
  };
  return client;
}
