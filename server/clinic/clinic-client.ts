import { AsyncResource } from "node:async_hooks";
import type { Installation } from "#contract/clinic-api/installation.ts";
import { AnswerCache, scopeOf, type Invalidation } from "./answer-cache.ts";
import { BenchSwitches, type BenchMechanism } from "./bench-switches.ts";
import { DEFAULT_MAX_BODY_BYTES } from "./bounded-body.ts";
import { cacheExpiry, CALLER_BOUNDED_ROUTES, isSharedRoute, sourceSyncedAtOf, type SharedRoute } from "./cache-policy.ts";
import { InFlightReads, type Flight } from "./coalescing.ts";
import { createIntake, type IntakeWorker } from "./intake-hook.ts";
import { listAllPages, type ItemOf, type ItemsKey, type PaginatedRoute } from "./paging.ts";
import type { LimiterBudget, LimiterOptions } from "../upstream-budget/index.ts";
import { RefreshAhead } from "./refresh-ahead.ts";
import { readResponse, readSharedResponse, type ClinicData, type ReadOutcome } from "./response-reader.ts";
import { createRedactor } from "./secret-redaction.ts";
import { SharedAnswer } from "./shared-answer.ts";
import type { SharedAnswerStore } from "./shared-answer-store.ts";
import { noRefund, takeBudget } from "./take-budget.ts";
import { UpstreamError } from "./upstream-error.ts";
import { prepareRequest, type ClinicCall, type PreparedRequest, type ReadRoute, type WriteRoute } from "./upstream-request.ts";
import { createSender, type RetryOptions, type UpstreamAttempt } from "./upstream-send.ts";

// The BFF's only way to the Clinic Data Service (DESIGN.md "Upstream"). A
// read, one module per step:
//   build the request   upstream-request.ts (ids: id-forms.ts)
//   look in the cache   answer-cache.ts (what, how long: cache-policy.ts)
//   join one in flight  coalescing.ts
//   take budget         take-budget.ts (the budget: server/upstream-budget/)
//   send, retry         upstream-send.ts (the service's limit back to the budget)
//   read, check         response-reader.ts, bounded-body.ts, answer-intake.ts
//   keep                answer-cache.ts, as bytes (shared-answer.ts)
// With REDIS_URL, a miss of this process's cache looks in the answers every
// process keeps (shared-answer-store.ts) before the service, and what the
// service answers is kept there too.
// A write takes the same send, never cached, joined or retried once it may
// have reached the service. The two mechanisms that earned their place
// (ADR 0029, bench-switches.ts) hook in here: refresh-ahead.ts (`keep`,
// `fromCache`) and the intake thread (intake-hook.ts). The data key lives in
// this closure and the Authorization header only.

export { UpstreamError } from "./upstream-error.ts";
export type { UpstreamAttempt } from "./upstream-send.ts";
export type { LimiterOptions } from "../upstream-budget/index.ts";

export interface ClinicClientOptions {
  baseUrl: string;
  /** The data key: never in a log line, an error message or a thrown error's text. */
  apiKey: string;
  fetch?: typeof fetch;
  /** BENCH_DISABLE: mechanisms turned off for a load bench run. */
  benchDisable?: readonly BenchMechanism[];
  now?: () => number;
  limiter?: LimiterOptions;
  /** Per attempt; default 10 s (upstream-send.ts). */
  timeoutMs?: number;
  /** UPSTREAM_MAX_BODY_BYTES: larger answers fail with 502 `upstream_too_large`. */
  maxBodyBytes?: number;
  retry?: Partial<RetryOptions>;
  /** Lifetime of cached picker lists; default 60 s, 0 disables. */
  pickerTtlMs?: number;
  /** Who a call is for (organization and user): the per-user quota counts by it. */
  requester?: () => string | undefined;
  /** The W3C `traceparent` of the request a call is made for, sent on. */
  traceparent?: () => string | undefined;
  /** `true`: large shared answers are taken in on a worker thread (the BFF's server); tests may give one. */
  intakeThread?: boolean | IntakeWorker;
  intakeThreadMinBytes?: number;
  /** Answers shared with every BFF process (REDIS_URL); closed with the client. */
  sharedAnswers?: SharedAnswerStore;
  /** refresh-ahead.ts: how often at most an organization probes for a newer sync; 0: never. */
  syncProbeEveryMs?: number;
  /** Told of every attempt sent to the service. */
  onAttempt?: (attempt: UpstreamAttempt) => void;
  logger?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void; error?(obj: object, msg: string): void };
}

interface ClinicClientStats {
  upstreamRequests: number;
  cacheHits: number;
  coalesced: number;
  retries: number;
  refreshedAhead: number;
  queuedForLimiter: number;
  rejectedByLimiter: number;
  rejectedByUserLimit: number;
  /** Reads failed with 503 `intake_failed`: the intake thread died or failed, or did not answer in time. */
  intakeFailures: number;
  intakeTimeouts: number;
  /** Reads answered from the answers another process kept (shared-answer-store.ts). */
  sharedAnswerHits: number;
  benchMechanisms: ReturnType<BenchSwitches["report"]>;
}

/** Where a read that must go to the service waits its turn (a route's own gate); not cache hits or joined reads. */
type ReadQueue = <T>(start: () => Promise<T>) => Promise<T>;

export interface ClinicClient {
  /**
   * A read: its answer's bytes and `data()`. Shared routes' answers
   * (cache-policy.ts) are kept and shared, and frozen: copy before changing.
   * Fails with `UpstreamError` only.
   */
  read<R extends ReadRoute>(route: R, call?: ClinicCall, queue?: ReadQueue): Promise<SharedAnswer<ClinicData<R>>>;
  /** A write: sent once (retried only after a 429, which the service did not process). */
  send<R extends WriteRoute>(route: R, call?: ClinicCall): Promise<ClinicData<R>>;
  /** Every item of a paginated list, fetched at pageSize 100. */
  listAll<R extends PaginatedRoute, K extends ItemsKey<R>>(route: R, key: K, call?: ClinicCall): Promise<ItemOf<R, K>[]>;
  /** The app's installations, uninstalled ones included (no `X-Organization-Id`). */
  listAllInstallations(): Promise<Installation[]>;
  /**
   * Drops the organization's kept answers and reads in flight the change touches (all of them without `change`),
   * and the answers it shares with the other processes unless `learntFrom` is another process (which dropped them).
   */
  invalidate(organizationId: string, change?: Invalidation, learntFrom?: "the service" | "another process"): void;
  stats(): ClinicClientStats;
  /** The budget in the limiter's window now, per organization (`app` for calls made for none). */
  budget(): LimiterBudget;
  close(): void;
}

/** A refresh ahead goes only while the organization has used less than this part of its allowance: users come first. */
const REFRESH_AHEAD_MAX_BUDGET_USE = 0.8;

type Prepared<R extends ReadRoute | WriteRoute = ReadRoute | WriteRoute> = PreparedRequest & { route: R };

export function createClinicClient(options: ClinicClientOptions): ClinicClient {
  const now = options.now ?? Date.now;
  const switches = new BenchSwitches(options.benchDisable);
  const pickerTtlMs = options.pickerTtlMs ?? 60_000;
  const { logger } = options;
  // Called as methods: pino's need their `this`.
  const warn = (obj: object, msg: string) => logger?.warn(obj, msg);
  const redact = createRedactor(options.apiKey);
  const budget = takeBudget(options.limiter, options.requester, now);
  const cache = new AnswerCache({ now });
  const inFlight = new InFlightReads();
  const counters = { upstreamRequests: 0, cacheHits: 0, retries: 0, intakeFailures: 0, intakeTimeouts: 0, sharedAnswerHits: 0 };
  const sendRequest = createSender(options, { budget, now, redact, warn, info: (obj, msg) => logger?.info?.(obj, msg), counters });
  let closed = false;
  const readContext = { redact, warn, maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES };
  const intake = createIntake(options, switches, counters, (obj, msg) => (logger?.error ? logger.error(obj, msg) : warn(obj, msg)));

  const refreshAheadOn = switches.isOn("refresh-ahead");
  const sharedAnswers = switches.isOn("shared-answers") ? options.sharedAnswers : undefined;
  // Made outside any request, so refreshes run in no user's context (their trace id, their quota).
  const background = new AsyncResource("tandem-refresh-ahead");
  const refreshAhead = new RefreshAhead<Prepared<SharedRoute>>({
    now,
    ...(options.syncProbeEveryMs !== undefined && { syncProbeEveryMs: options.syncProbeEveryMs }),
    refresh: (organization, prepared) => background.runInAsyncScope(() => refreshInBackground(organization, prepared)),
  });

  /** Sends, refunding the user's quota when the request never reached the service. */
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

  async function fetchOwn<R extends ReadRoute>(prepared: Prepared<R>, refund: () => void): Promise<SharedAnswer<ClinicData<R>>> {
    return SharedAnswer.ofData(await sendCharged(prepared, refund, (response) => readResponse(prepared.route, response, readContext)));
  }

  /**
   * A shared route's read, kept when its policy allows and no change touched it on its way (`flight`). With
   * shared answers, one another process kept is used first (`elsewhere: "use"`; a refresh ahead only replaces it).
   */
  async function fetchShared<R extends SharedRoute>(prepared: Prepared<R>, flight: Flight | null, refund: () => void, elsewhere: "use" | "replace" = "use"): Promise<SharedAnswer<ClinicData<R>>> {
    // Not for a strong read (flight null) nor a caller-bounded one (its bound is the caller's).
    const shared = sharedAnswers && flight !== null && !CALLER_BOUNDED_ROUTES.has(prepared.route) ? await sharedAnswers.look(prepared.organization, prepared.key) : undefined;
    if (elsewhere === "use" && shared?.kept && flight !== null && !flight.touched && shared.kept.expiresAt > now()) {
      refund();
      counters.sharedAnswerHits += 1;
      switches.used("shared-answers");
      const answer = SharedAnswer.fromBytes<ClinicData<R>>(shared.kept);
      cache.set(prepared.organization, prepared.key, prepared.route, scopeOf(prepared.target), answer, shared.kept.expiresAt);
      return answer;
    }
    const requestStartedAt = now();
    const { answer, meta } = await sendCharged(prepared, refund, (response) => readSharedResponse(prepared.route, response, { ...readContext, intake: intake.takeIn }));
    if (flight !== null && !flight.touched) {
      const expiresAt = keep(prepared, answer, meta, requestStartedAt);
      if (expiresAt !== null && shared !== undefined) void sharedAnswers?.keep(prepared.organization, prepared.key, shared.generation, { body: answer.body, encoding: answer.encoding, expiresAt }, now());
    }
    return answer;
  }

  /** Keeps the answer in this process's cache; when until (null: not kept). */
  function keep(prepared: Prepared<SharedRoute>, answer: SharedAnswer<object>, meta: unknown, requestStartedAt: number): number | null {
    const expiresAt = cacheExpiry({ route: prepared.route, data: { meta }, strong: prepared.strong, requestStartedAt, now: now(), pickerTtlMs, cacheUntil: prepared.cacheUntil });
    if (expiresAt === null) return null;
    cache.set(prepared.organization, prepared.key, prepared.route, scopeOf(prepared.target), answer, expiresAt);
    const syncedAt = sourceSyncedAtOf(prepared.route, { meta });
    if (refreshAheadOn && syncedAt !== null && cache.get(prepared.organization, prepared.key) === answer) {
      refreshAhead.stored(prepared.organization, prepared.key, { request: prepared, route: prepared.route, syncedAt, expiresAt });
    }
    return expiresAt;
  }

  function fromCache<R extends SharedRoute>(prepared: Prepared<R>): SharedAnswer<ClinicData<R>> | undefined {
    // A caller-bounded read asked without a bound wants the service's answer now.
    if (CALLER_BOUNDED_ROUTES.has(prepared.route) && prepared.cacheUntil === undefined) return undefined;
    // Kept under a key that names the route: the entry is that route's answer.
    const cached = cache.get(prepared.organization, prepared.key) as SharedAnswer<ClinicData<R>> | undefined;
    if (cached === undefined) return undefined;
    counters.cacheHits += 1;
    if (refreshAheadOn) refreshAhead.read(prepared.organization, prepared.key);
    return cached;
  }

  function hasRoomForBackgroundRead(organization: string): boolean {
    if (budget.resumesAt(organization) > now()) return false;
    const use = budget.budget().organizations.find((entry) => entry.organization === organization);
    return use === undefined || use.sent < use.allowance * REFRESH_AHEAD_MAX_BUDGET_USE;
  }

  /** A kept schedule read read again for nobody in particular; false when not made or failed. */
  async function refreshInBackground(organization: string, prepared: Prepared<SharedRoute>): Promise<boolean> {
    if (closed || inFlight.has(prepared.key) || !hasRoomForBackgroundRead(organization)) return false;
    switches.used("refresh-ahead");
    // Users who join it meanwhile (their entry expired) wait for it.
    const about = { organization, route: prepared.route, scope: scopeOf(prepared.target) };
    try {
      await inFlight.start(prepared.key, about, (flight) => fetchShared(prepared, flight, noRefund, "replace"));
      return true;
    } catch {
      return false;
    }
  }

  function joinOrStart<T>(prepared: Prepared, queue: ReadQueue | undefined, start: (flight: Flight, refund: () => void) => Promise<T>): Promise<T> {
    const joined = inFlight.join<T>(prepared.key);
    if (joined !== undefined) return joined;
    const begin = () => {
      // Another caller may have started it while this one queued.
      const pending = inFlight.join<T>(prepared.key);
      if (pending !== undefined) return pending;
      // Charged before the read is registered in flight, so nobody joins a refused read.
      const refund = budget.chargeUser();
      const about = { organization: prepared.organization, route: prepared.route, scope: scopeOf(prepared.target) };
      return inFlight.start(prepared.key, about, (flight) => start(flight, refund));
    };
    return queue ? queue(begin) : begin();
  }

  async function read<R extends ReadRoute>(route: R, call: ClinicCall = {}, queue?: ReadQueue): Promise<SharedAnswer<ClinicData<R>>> {
    checkOpen();
    const prepared: Prepared<R> = { ...prepareRequest(route, call), route };
    if (prepared.method !== "GET") throw new TypeError(`${route} is a write: send it with ClinicClient.send`);
    const run = queue ?? ((start) => start());
    if (isSharedRoute(route)) {
      const shared: Prepared<SharedRoute> = { ...prepared, route };
      // A strong read is the final check before a write: it neither uses nor joins anything earlier.
      if (shared.strong) return run(() => fetchShared(shared, null, budget.chargeUser()));
      const cached = fromCache(shared);
      return cached ?? joinOrStart(shared, queue, (flight, refund) => fetchShared(shared, flight, refund));
    }
    if (prepared.strong) return run(() => fetchOwn(prepared, budget.chargeUser()));
    return joinOrStart(prepared, queue, (_flight, refund) => fetchOwn(prepared, refund));
  }

  async function send<R extends WriteRoute>(route: R, call: ClinicCall = {}): Promise<ClinicData<R>> {
    checkOpen();
    const prepared: Prepared<R> = { ...prepareRequest(route, call), route };
    return sendCharged(prepared, budget.chargeUser(), (response) => readResponse(route, response, readContext));
  }

  function checkOpen(): void {
    if (closed) throw new UpstreamError({ status: 503, code: "upstream_unavailable", message: "The clinic client is closed" });
  }

  const client: ClinicClient = {
    read,
    send,
    listAll: (route, key, call) => listAllPages(client, route, key, call),
    listAllInstallations: () => listAllPages(client, "GET /v1/installations", "installations"),
    invalidate(organizationId, change = {}, learntFrom = "the service") {
      const organization = organizationId.toLowerCase();
      cache.invalidate(organization, change);
      if (learntFrom === "the service") void sharedAnswers?.dropAll(organization);
      refreshAhead.forget(organization, change.routePrefix);
      // Reads already on their way may predate the change: later callers start their own.
      inFlight.invalidate(organization, change);
    },
    stats() {
      const budgetStats = budget.stats();
      const benchMechanisms = switches.report();
      return {
        ...counters,
        refreshedAhead: benchMechanisms["refresh-ahead"].uses,
        coalesced: inFlight.joined,
        queuedForLimiter: budgetStats.queued,
        rejectedByLimiter: budgetStats.rejected,
        rejectedByUserLimit: budgetStats.rejectedByUser,
        benchMechanisms,
      };
    },
    budget: () => budget.budget(),
    close() {
      closed = true;
      budget.close();
      intake.close();
      options.sharedAnswers?.close();
      cache.clear();
      inFlight.clear();
    },
  };
  return client;
}
