import { AsyncResource } from "node:async_hooks";
import type { ClinicApiRoute } from "#contract/clinic-api/responses.ts";
import type { Installation } from "#contract/clinic-api/installation.ts";
import { AnswerCache, scopeOf, type Invalidation } from "./answer-cache.ts";
import { BenchSwitches, type BenchMechanism } from "./bench-switches.ts";
import { DEFAULT_MAX_BODY_BYTES } from "./bounded-body.ts";
import { cacheExpiry, CALLER_BOUNDED_ROUTES, isSharedRoute, sourceSyncedAtOf, type SharedRoute } from "./cache-policy.ts";
import { InFlightReads, type Flight } from "./coalescing.ts";
import { createIntake, type IntakeThreads } from "./intake-hook.ts";
import { listAllPages, type ItemOf, type ItemsKey, type PaginatedRoute } from "./paging.ts";
import type { LimiterBudget } from "./fair-share-limiter.ts";
import { createLimiter, limiterWindowMs, type LimiterOptions, type UpstreamLimiter } from "./budget/upstream-limiter.ts";
import { RefreshAhead } from "./refresh-ahead.ts";
import { readResponse, readSharedResponse, type ClinicData, type Intake, type ReadOutcome } from "./response-reader.ts";
import { DEFAULT_RETRY, type RetryOptions } from "./retry-policy.ts";
import { createRedactor } from "./secret-redaction.ts";
import { SharedAnswer } from "./shared-answer.ts";
import { UpstreamError } from "./upstream-error.ts";
import { prepareRequest, type ClinicCall, type PreparedRequest } from "./upstream-request.ts";
import { createSender, type UpstreamAttempt } from "./upstream-send.ts";
import { UserRequestQuota } from "./user-request-quota.ts";

// The BFF's only way to the Clinic Data Service (DESIGN.md "Upstream"). A
// read, one module per step: build the request (upstream-request.ts) → look
// in the cache (answer-cache.ts; cache-policy.ts says what and how long) →
// join an identical read in flight (coalescing.ts) → the per-user limit and
// the limiter's budget → send with a timeout and the one retry layer
// (upstream-send.ts) → read the answer, bounded and checked against the
// contract (response-reader.ts, bounded-body.ts) → keep it (answer-cache.ts).
// A write goes through the same send, never cached, joined or retried after
// it may have reached the service. The performance mechanisms under trial
// (bench-switches.ts) hook in at one point each: refresh-ahead (`keep` and
// `fromCache`) and the intake thread (intake-hook.ts). The data key lives in this closure and
// in the Authorization header only.

export { UpstreamError } from "./upstream-error.ts";
export type { ClinicCall } from "./upstream-request.ts";
export type { ClinicData } from "./response-reader.ts";
export type { LimiterBudget } from "./fair-share-limiter.ts";
export type { LimiterOptions } from "./budget/upstream-limiter.ts";
export type { SharedRoute } from "./cache-policy.ts";
export type { Invalidation } from "./answer-cache.ts";
export type { UpstreamAttempt } from "./upstream-send.ts";
export type { IntakeThreads } from "./intake-hook.ts";
export { SharedAnswer } from "./shared-answer.ts";
/** A read's answer: its bytes and its `data()` (shared-answer.ts). */
export type Answer<T extends object> = SharedAnswer<T>;

/** Routes that read; every other route is a write (`send`). */
export type ReadRoute = Extract<ClinicApiRoute, `GET ${string}`>;
export type WriteRoute = Exclude<ClinicApiRoute, ReadRoute>;

export interface ClinicLogger {
  warn(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
  error?(obj: object, msg: string): void;
}

export interface ClinicClientOptions {
  /** e.g. http://127.0.0.1:4010 */
  baseUrl: string;
  /** The data key: never in a log line, an error message or a thrown error's text. */
  apiKey: string;
  /** Node's global fetch by default. */
  fetch?: typeof fetch;
  /** Performance mechanisms turned off for a load bench run (BENCH_DISABLE, bench-switches.ts); none by default. */
  benchDisable?: readonly BenchMechanism[];
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
  /** Bytes of answers kept across organizations; default 16 MiB (answer-cache.ts). */
  maxCacheBytes?: number;
  /** Answers kept for one organization; default 1000. */
  maxCacheEntriesPerOrganization?: number;
  /** Who the call being made is for (organization and user), if anyone: the per-user limit counts by it. */
  requester?: () => string | undefined;
  /** The W3C `traceparent` of the request a call is made for, if any: sent on, so the service's side of a call can be found from the BFF's trace id. */
  traceparent?: () => string | undefined;
  /** Take in large shared answers on worker threads (intake-hook.ts); default false. The BFF's server turns it on; tests may give threads of their own. */
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
  /** Each mechanism of bench-switches.ts: on or off, and how often it did its work. */
  benchMechanisms: ReturnType<BenchSwitches["report"]>;
}

/** Where a read that must go to the service waits its turn: a route's own gate (e.g. the slot search gate); not for cache hits or joined reads. */
export type ReadQueue = <T>(start: () => Promise<T>) => Promise<T>;

export interface ClinicClient {
  /**
   * A read, typed by its route key (`contract/clinic-api/responses.ts`): its
   * answer's bytes and `data()`. Answers of shared routes (cache-policy.ts)
   * are kept and shared between callers, and frozen: copy before changing.
   * `queue`: where a read that goes to the service waits its turn. Fails
   * with `UpstreamError` only.
   */
  read<R extends ReadRoute>(route: R, call?: ClinicCall, queue?: ReadQueue): Promise<Answer<ClinicData<R>>>;
  /** A write: sent once (retried only after a 429, which the service did not process); its parsed `data`. */
  send<R extends WriteRoute>(route: R, call?: ClinicCall): Promise<ClinicData<R>>;
  /** Every item of a paginated list, fetched at pageSize 100. */
  listAll<R extends PaginatedRoute, K extends ItemsKey<R>>(route: R, key: K, call?: ClinicCall): Promise<ItemOf<R, K>[]>;
  /** The app's installations, uninstalled ones included (no `X-Organization-Id`). */
  listAllInstallations(): Promise<Installation[]>;
  /** Drops the organization's kept answers the change touches, and cuts loose its reads in flight that it touches (all without `change`). */
  invalidate(organizationId: string, change?: Invalidation): void;
  stats(): ClinicClientStats;
  /** The key's budget in the limiter's window now, per organization (`app` for calls made for none). */
  budget(): LimiterBudget;
  /** Which performance mechanisms are on (BENCH_DISABLE); each counts its uses here. */
  readonly switches: BenchSwitches;
  close(): void;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_PICKER_TTL_MS = 60_000;

const noRefund = () => undefined;

/** A refresh ahead is sent only while the organization has used less than this part of its allowance in the window: users' own reads come first. */
const REFRESH_AHEAD_MAX_BUDGET_USE = 0.8;
/** Only entries a user read this recently are refreshed ahead. */
const REFRESH_AHEAD_RECENT_READ_MS = 30_000;

type Prepared<R extends ClinicApiRoute = ClinicApiRoute> = PreparedRequest & { route: R };

export function createClinicClient(options: ClinicClientOptions): ClinicClient {
  const now = options.now ?? Date.now;
  const switches = new BenchSwitches(options.benchDisable);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const pickerTtlMs = options.pickerTtlMs ?? DEFAULT_PICKER_TTL_MS;
  const logger = options.logger;
  // Called as methods: pino's need their `this`.
  const warn = (obj: object, msg: string) => logger?.warn(obj, msg);
  const info = (obj: object, msg: string) => logger?.info?.(obj, msg);
  const logError = (obj: object, msg: string) => (logger?.error ? logger.error(obj, msg) : warn(obj, msg));
  const redact = createRedactor(options.apiKey);
  // Both scopes count per organization: `key` shares one window fairly among them, `organization` gives each its own.
  const limiter: UpstreamLimiter = createLimiter(options.limiter, now);
  const perUser = options.limiter?.perUser;
  const windowMs = limiterWindowMs(options.limiter);
  const userQuota = perUser === undefined ? null : new UserRequestQuota({ limit: perUser, windowMs, now });
  const cache = new AnswerCache({ now, maxBytes: options.maxCacheBytes, maxEntriesPerOrganization: options.maxCacheEntriesPerOrganization });
  const inFlight = new InFlightReads();
  const counters = { upstreamRequests: 0, cacheHits: 0, retries: 0, refreshedAhead: 0, intakeFailures: 0, intakeTimeouts: 0 };
  const sendRequest = createSender(
    {
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      apiKey: options.apiKey,
      fetch: fetchImpl,
      limiter,
      now,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      retry: { ...DEFAULT_RETRY, ...options.retry },
      windowMs,
      redact,
      warn,
      info,
      traceparent: options.traceparent,
      onAttempt: options.onAttempt,
    },
    counters,
  );
  let closed = false;
  const readContext = { redact, warn, maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES };
  const intakes = createIntake({ option: switches.isOn("intake-thread") ? options.intakeThread : false, minBytes: options.intakeThreadMinBytes, switches, counters, logError });

  // Refresh ahead (bench-switched): made here, outside any request, so refreshes run in this context, not in that of the user whose read started them (their trace id, their quota).
  const refreshAheadOn = switches.isOn("refresh-ahead");
  const background = new AsyncResource("tandem-refresh-ahead");
  const refreshAhead = new RefreshAhead<Prepared<SharedRoute>>({
    now,
    recentReadMs: REFRESH_AHEAD_RECENT_READ_MS,
    maxEntriesPerOrganization: options.maxCacheEntriesPerOrganization ?? 1000,
    ...(options.syncProbeEveryMs !== undefined && { syncProbeEveryMs: options.syncProbeEveryMs }),
    refresh: (organization, prepared) => background.runInAsyncScope(() => refreshInBackground(organization, prepared)),
  });

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

  /** Sends with the refund given back when the request never reached the service. */
  async function sendCharged<V>(prepared: PreparedRequest, refund: () => void, read: (response: Response) => Promise<ReadOutcome<V>>): Promise<V> {
    let reachedService = false;
    try {
      return await sendRequest(prepared, read, () => {
        reachedService = true;
      });
    } catch (error) {
      if (!reachedService) refund();
      throw error;
    }
  }

  /** A read of a route whose answers are never kept: the parsed data, for its callers alone. */
  async function fetchOwn<R extends ReadRoute>(prepared: Prepared<R>, refund: () => void): Promise<Answer<ClinicData<R>>> {
    const data = await sendCharged(prepared, refund, (response) => readResponse(prepared.route, response, readContext));
    return SharedAnswer.ofData(data);
  }

  /** A shared route's read: fetched, taken in as bytes, and kept when its policy allows and no change touched it on its way (`flight`). */
  async function fetchShared<R extends SharedRoute>(prepared: Prepared<R>, flight: Flight | null, refund: () => void, intake: Intake): Promise<Answer<ClinicData<R>>> {
    const requestStartedAt = now();
    const { answer, meta } = await sendCharged(prepared, refund, (response) => readSharedResponse(prepared.route, response, { ...readContext, intake }));
    if (flight !== null && !flight.touched) keep(prepared, answer, meta, requestStartedAt);
    return answer;
  }

  function keep<R extends SharedRoute>(prepared: Prepared<R>, answer: Answer<ClinicData<R>>, meta: unknown, requestStartedAt: number): void {
    const expiresAt = cacheExpiry({ route: prepared.route, data: { meta }, strong: prepared.strong, requestStartedAt, now: now(), pickerTtlMs, cacheUntil: prepared.cacheUntil });
    if (expiresAt === null) return;
    const organization = prepared.organizationId ?? "-";
    cache.set(organization, prepared.key, prepared.route, scopeOf(prepared.target), answer, expiresAt);
    const syncedAt = sourceSyncedAtOf(prepared.route, { meta });
    if (refreshAheadOn && syncedAt !== null && cache.get(organization, prepared.key) === answer) {
      refreshAhead.stored(organization, prepared.key, { request: prepared, route: prepared.route, syncedAt, expiresAt });
    }
  }

  /** A non-strong shared read's fresh kept answer, counted as a hit and as a read for refresh ahead. */
  function fromCache<R extends SharedRoute>(prepared: Prepared<R>): Answer<ClinicData<R>> | undefined {
    // A caller-bounded read asked without a bound wants the service's answer now.
    if (CALLER_BOUNDED_ROUTES.has(prepared.route) && prepared.cacheUntil === undefined) return undefined;
    // Entries are stored under a key that names the route: each is that route's answer (ours, not outside data).
    const organization = prepared.organizationId ?? "-";
    const cached = cache.get(organization, prepared.key) as Answer<ClinicData<R>> | undefined;
    if (cached === undefined) return undefined;
    counters.cacheHits += 1;
    if (refreshAheadOn) refreshAhead.read(organization, prepared.key);
    return cached;
  }

  /** Whether the organization's part of the upstream budget leaves room for a read no user is waiting for. */
  function hasRoomForBackgroundRead(organizationId: string | null): boolean {
    if (limiter.resumesAt(organizationId ?? "app") > now()) return false;
    const use = limiter.budget().organizations.find((entry) => entry.organization === (organizationId ?? "app"));
    return use === undefined || use.sent < use.allowance * REFRESH_AHEAD_MAX_BUDGET_USE;
  }

  /** A kept schedule read, read again for nobody in particular (refresh-ahead.ts); false when it was not made or failed. */
  async function refreshInBackground(organization: string, prepared: Prepared<SharedRoute>): Promise<boolean> {
    if (closed || inFlight.has(prepared.key) || !hasRoomForBackgroundRead(prepared.organizationId)) return false;
    counters.refreshedAhead += 1;
    switches.used("refresh-ahead");
    // Users asking for it meanwhile (their entry expired) join it, and its answer is then taken in as theirs.
    const about = { organization, route: prepared.route, scope: scopeOf(prepared.target), waitedFor: false };
    try {
      await inFlight.start(prepared.key, about, (flight) => fetchShared(prepared, flight, noRefund, (route, body) => (flight.waitedFor ? intakes.waitedFor : intakes.background)(route, body)));
      return true;
    } catch {
      return false;
    }
  }

  /** A read that may join one in flight: from the cache, else joining, else started (through `queue`). */
  function readShared<R extends SharedRoute>(prepared: Prepared<R>, queue: ReadQueue | undefined): Promise<Answer<ClinicData<R>>> {
    const cached = fromCache(prepared);
    if (cached !== undefined) return Promise.resolve(cached);
    return joinOrStart(prepared, queue, (flight, refund) => fetchShared(prepared, flight, refund, intakes.waitedFor));
  }

  function joinOrStart<T>(prepared: Prepared, queue: ReadQueue | undefined, start: (flight: Flight, refund: () => void) => Promise<T>): Promise<T> {
    const joined = inFlight.join<T>(prepared.key);
    if (joined !== undefined) return joined;
    const begin = () => {
      // Another caller may have started it while this one queued.
      const pending = inFlight.join<T>(prepared.key);
      if (pending !== undefined) return pending;
      const refund = chargeUser();
      const about = { organization: prepared.organizationId ?? "-", route: prepared.route, scope: scopeOf(prepared.target), waitedFor: true };
      return inFlight.start(prepared.key, about, (flight) => start(flight, refund));
    };
    return queue ? queue(begin) : begin();
  }

  async function read<R extends ReadRoute>(route: R, call: ClinicCall = {}, queue?: ReadQueue): Promise<Answer<ClinicData<R>>> {
    checkOpen();
    const prepared: Prepared<R> = { ...prepareRequest(route, call), route };
    if (prepared.method !== "GET") throw new TypeError(`${route} is a write: send it with ClinicClient.send`);
    const run = queue ?? ((start) => start());
    if (isSharedRoute(route)) {
      const shared: Prepared<SharedRoute> = { ...prepared, route };
      // A strong read is the final check before a write: it must reflect the moment it was asked, so it neither uses nor joins anything earlier.
      return shared.strong ? run(() => fetchShared(shared, null, chargeUser(), intakes.waitedFor)) : readShared(shared, queue);
    }
    if (prepared.strong) return run(() => fetchOwn(prepared, chargeUser()));
    return joinOrStart(prepared, queue, (_flight, refund) => fetchOwn(prepared, refund));
  }

  async function send<R extends WriteRoute>(route: R, call: ClinicCall = {}): Promise<ClinicData<R>> {
    checkOpen();
    const prepared: Prepared<R> = { ...prepareRequest(route, call), route };
    return sendCharged(prepared, chargeUser(), (response) => readResponse(route, response, readContext));
  }

  function checkOpen(): void {
    if (closed) throw new UpstreamError({ status: 503, code: "upstream_unavailable", message: "The clinic client is closed" });
  }

  const client: ClinicClient = {
    read,
    send,
    listAll: (route, key, call) => listAllPages(client, route, key, call),
    listAllInstallations: () => listAllPages(client, "GET /v1/installations", "installations"),
    invalidate(organizationId, change = {}) {
      const organization = organizationId.toLowerCase();
      cache.invalidate(organization, change);
      refreshAhead.forget(organization, change.routePrefix);
      // Reads already on their way may predate the change: later callers start their own.
      inFlight.invalidate(organization, change);
    },
    stats() {
      const limiterStats = limiter.stats();
      return {
        ...counters,
        coalesced: inFlight.joined,
        queuedForLimiter: limiterStats.queued,
        rejectedByLimiter: limiterStats.rejected,
        rejectedByUserLimit: userQuota?.rejected() ?? 0,
        benchMechanisms: switches.report(),
      };
    },
    budget: () => limiter.budget(),
    switches,
    close() {
      closed = true;
      limiter.close();
      intakes.close();
      cache.clear();
      inFlight.clear();
    },
  };
  return client;
}
