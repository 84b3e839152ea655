import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Registry } from "prom-client";
import { createHostTokenVerifier, type HostTokenVerifier } from "./auth/host-token-verifier.ts";
import { createAccountAdoption } from "./auth/account-adoption.ts";
import { requireHostSession } from "./auth/require-host-session.ts";
import { createStandaloneAuth } from "./auth/standalone/standalone-routes.ts";
import { createClinicClient, UpstreamError, type ClinicClient, type ClinicClientOptions } from "./clinic/clinic-client.ts";
import { openSharedBudget } from "./upstream-budget/index.ts";
import { createRedisAnswerStore } from "./clinic/shared-answer-store.ts";
import type { BffConfig } from "./env.ts";
import { createLiveEventBus, type LiveEventBus } from "./events/live-event-bus.ts";
import { LiveEventHub } from "./events/live-event-hub.ts";
import { OpenStreams } from "./events/open-streams.ts";
import type { AppEnv } from "./http/app-env.ts";
import { AppError } from "./http/app-error.ts";
import { handleAppError } from "./http/error-handler.ts";
import { traceRequests, upstreamTraceparent } from "./http/request-trace.ts";
import { attributeUpstreamCalls, currentRequester } from "./http/upstream-requester.ts";
import { setResponseHeader } from "./http/set-response-header.ts";
import { InstallationRegistry } from "./installations/installation-registry.ts";
import { createStoreHealth, type StoreHealth } from "./lifecycle/store-health.ts";
import { LIVE_EVENT_RETRY_MS } from "./lifecycle/graceful-shutdown.ts";
import type { Logger } from "./logger.ts";
import { readAppManifest } from "./manifest.ts";
import { createMetricsRegistry, registerBffGauges } from "./metrics/bff-metrics.ts";
import { recordHttpRequests } from "./metrics/http-metrics.ts";
import { recordRetention } from "./metrics/retention-metrics.ts";
import { recordUpstreamAttempts } from "./metrics/upstream-metrics.ts";
import { registerDirectoryRoutes } from "./routes/directory-routes.ts";
import { registerAvailabilityRoutes } from "./routes/availability-routes.ts";
import { registerAvailabilityLoadRoutes } from "./routes/availability-load-routes.ts";
import { registerContextRoutes } from "./routes/context-routes.ts";
import { registerLastSlotSearchRoutes } from "./routes/last-slot-search-routes.ts";
import { registerLiveEventRoutes } from "./routes/live-event-routes.ts";
import { registerNoteChangesRoutes } from "./routes/note-changes-routes.ts";
import { registerNoteRoutes } from "./routes/note-routes.ts";
import { registerRecentNotesRoutes } from "./routes/recent-notes-routes.ts";
import { registerScheduleRoutes } from "./routes/schedule-routes.ts";
import { registerSessionRoutes } from "./routes/session-routes.ts";
import { registerWaitlistRoutes } from "./routes/waitlist-routes.ts";
import { createRetentionJob, type RetentionJob } from "./retention/retention-job.ts";
import { retentionRules } from "./retention/retention-rules.ts";
import { securityHeaders } from "./static/security-headers.ts";
import { registerSpaAssets } from "./static/spa-assets.ts";
import type { Store } from "./store/store.ts";
import { createWebhookReceiver } from "./webhooks/webhook-receiver.ts";
import { WebhookProcessor } from "./webhooks/webhook-processor.ts";
import { createWaitlistEventHandler } from "./waitlist/waitlist-event-handler.ts";
import { WaitlistMatcher } from "./waitlist/waitlist-matcher.ts";
import { createStrandedWriteAnnouncer, type StrandedWriteAnnouncer } from "./events/stranded-write-announcer.ts";

// Builds the BFF from explicit dependencies (STYLE.md 4): no port, no timer,
// no environment. `server/index.ts` binds and starts the background work.

export interface BffDeps {
  config: BffConfig;
  store: Store;
  logger: Logger;
  /** The upstream fetch (tests run the real client against the emulator's app). */
  fetch?: typeof fetch;
  /** The JWKS fetch; defaults to `fetch`. */
  jwksFetch?: typeof fetch;
  /** Real time by default: the BFF runs on real time, as in production. */
  now?: () => number;
  /** Overrides of the upstream client's tuning (benchmarks, tests). */
  clinicOptions?: Partial<Pick<ClinicClientOptions, "limiter" | "pickerTtlMs" | "timeoutMs" | "retry" | "intakeThread">>;
}

export interface Bff {
  app: Hono<AppEnv>;
  clinic: ClinicClient;
  installations: InstallationRegistry;
  processor: WebhookProcessor;
  /** Matches freed slots to the waitlist beside the inbox (issue 38). */
  waitlistMatcher: WaitlistMatcher;
  /** This process's fan-out to its own `GET /api/events` streams. */
  hub: LiveEventHub;
  /** Live events, cache invalidations and installation changes for every process sharing the store. */
  bus: LiveEventBus;
  /** This process's open `GET /api/events` streams: a shutdown ends them with a reconnection hint. */
  streams: OpenStreams;
  verifyHostToken: HostTokenVerifier;
  /** What an operator watches; served by `server/index.ts` on METRICS_PORT, never by `app`. */
  metrics: Registry;
  /** Tells the user's tabs of a write its process left pending once it reads as unknown, from `start()` on. */
  strandedWrites: StrandedWriteAnnouncer;
  /** Purges what is past its retention period (docs/security.md), from `start()` on, every minute. */
  retention: RetentionJob;
  /** The store's state as last checked, for `/healthz` and `/readyz` (which never wait on the store). */
  health: StoreHealth;
  /** Checks the store, starts listening on the bus, bootstraps installations, processes the inbox left from a previous run, starts the timers. */
  start(): Promise<void>;
  /** Stops the timers and the bus once the webhook processing and the retention batch under way have finished; the store stays open. */
  close(): Promise<void>;
}

/** The note's text routes: four fields of up to 100,000 characters each, and their baselines, as JSON. */
const MAX_NOTE_TEXT_BODY_BYTES = 4 * 1024 * 1024;
/** Every other /api body (a hold, a task, a choice): a few hundred bytes in practice. */
const MAX_API_BODY_BYTES = 64 * 1024;

const tooLarge = (maxSize: number): MiddlewareHandler<AppEnv> => {
  const limit = bodyLimit({
    maxSize,
    onError: () => {
      throw new AppError(413, "payload_too_large", `The request body must be at most ${maxSize >= 1024 * 1024 ? `${maxSize / 1024 / 1024} MB` : `${maxSize / 1024} KB`}`);
    },
  });
  // A GET or HEAD has no body to limit, and asking the request for one makes
  // the Node adapter build a whole fetch Request (about a tenth of the BFF's
  // time under the load benchmark, whose requests are mostly reads).
  return (c, next) => (c.req.method === "GET" || c.req.method === "HEAD" ? next() : limit(c, next));
};
const NOTE_TEXT_ROUTE = /^\/api\/notes\/[^/]+(\/draft)?$/;

/**
 * Answers shared by every process through Redis (issue 37 item 5), per service and data key. An outage is said once
 * (reads go to the service meanwhile), and its end once.
 */
function openSharedAnswers(url: string, config: BffConfig, logger: BffDeps["logger"]) {
  let failureSaid = false;
  return createRedisAnswerStore({
    url,
    namespace: `${config.clinicApiBaseUrl} ${config.clinicApiKey}`,
    onError: (error) => {
      if (failureSaid) return;
      failureSaid = true;
      logger.warn({ reason: error instanceof Error ? error.message : String(error) }, "shared answers: Redis failed; reads go to the service until it is back");
    },
    onRecovered: () => {
      if (failureSaid) logger.info({}, "shared answers: Redis answers again; the processes share their answers again");
      failureSaid = false;
    },
  });
}

export function createBffApp(deps: BffDeps): Bff {
  const { config, store, logger } = deps;
  const now = deps.now ?? Date.now;
  const manifest = readAppManifest();
  const metrics = createMetricsRegistry();
  const clinic = createClinicClient({
    baseUrl: config.clinicApiBaseUrl,
    apiKey: config.clinicApiKey,
    fetch: deps.fetch,
    now,
    limiter: { scope: config.rateLimitScope, perUser: config.upstreamUserLimit, shared: openSharedBudget(config, logger) },
    ...(config.redisUrl !== undefined && { sharedAnswers: openSharedAnswers(config.redisUrl, config, logger) }),
    maxBodyBytes: config.upstreamMaxBodyBytes,
    benchDisable: config.benchDisable,
    requester: currentRequester,
    traceparent: upstreamTraceparent,
    onAttempt: recordUpstreamAttempts(metrics),
    logger,
    ...deps.clinicOptions,
  });
  const installations = new InstallationRegistry({
    repository: store.installations,
    fetchInstallations: () => clinic.listAllInstallations(),
    requiredScopes: manifest.scopes.required,
    logger,
    now,
    onChanged: (installation) => {
      const { organizationId, status } = installation;
      bus.installationChanged(organizationId);
      if (status === "active") return;
      // Uninstalled or suspended, by a lifecycle event or learnt from the list: its users' streams are told, then end, on every process.
      bus.publish(organizationId, { type: "installation.changed", status, grantedScopes: [...installations.grantedScopes(installation)] });
      bus.revokeStreams({ scope: "organization", organizationId });
    },
  });
  const hub = new LiveEventHub();
  const streams = new OpenStreams();
  const bus = createLiveEventBus({
    notifications: store.notifications,
    hub,
    invalidateCache: (organizationId, change, learntFrom) => clinic.invalidate(organizationId, change, learntFrom),
    forgetInstallation: (organizationId) => installations.forget(organizationId),
    revokeStreams: (revocation) => {
      const ended = streams.revoke(revocation);
      if (ended > 0) logger.info({ revocation, ended }, "live-event streams ended: their session or access was revoked");
    },
    reopenStreams: () => void streams.reopenAll(LIVE_EVENT_RETRY_MS),
    logger,
  });
  const waitlistMatcher = new WaitlistMatcher({ store, clinic, live: bus, logger, now });
  const processor = new WebhookProcessor({
    store,
    installations,
    live: bus,
    waitlist: createWaitlistEventHandler({ store, clinic, live: bus, matcher: waitlistMatcher, now }),
    invalidate: (organizationId, change) => bus.invalidate(organizationId, change),
    logger,
    now,
  });
  const verifyHostToken = createHostTokenVerifier({
    issuer: config.hostTokenIssuer,
    jwksUrl: config.hostTokenJwksUrl,
    audience: manifest.slug,
    fetch: deps.jwksFetch ?? deps.fetch,
    now,
  });

  const standalone = config.standalone
    ? createStandaloneAuth({
        config: config.standalone,
        publicUrl: config.publicUrl,
        slug: manifest.slug,
        dataKey: config.clinicApiKey,
        installations,
        logger,
        now,
        fetch: deps.fetch,
        sessions: store.standaloneSessions,
        onSessionsEnded: (ended) => bus.revokeStreams(ended),
      })
    : null;

  registerBffGauges(metrics, { clinic, store, hub, now, logger });
  const retention = createRetentionJob({ rules: retentionRules(store, config.retention), reclaimSpace: store.reclaimSpace, logger, now, ...recordRetention(metrics) });
  const health = createStoreHealth({ store, logger });
  const strandedWrites = createStrandedWriteAnnouncer({ intents: store.writeIntents, live: bus, logger, now });

  const app = new Hono<AppEnv>();
  app.use(recordHttpRequests(metrics));
  app.use(traceRequests());
  app.use(async (c, next) => {
    c.set("logger", logger);
    await next();
  });
  app.use(securityHeaders(config));
  app.onError((error, c) => {
    if (error instanceof UpstreamError && error.upstreamStatus === 403) installations.reconcileSoon();
    return handleAppError(error, c);
  });

  // Liveness: from memory, never a query (a locked table or a full pool must not make the process look dead).
  app.get("/healthz", (c) => {
    const { store: storeState, deadLetters } = health.current();
    // deadLetters: verified deliveries the BFF could not read, kept for a person to look at.
    return c.json({ ok: storeState !== "unavailable", store: storeState, webhooks: { deadLetters } }, storeState === "unavailable" ? 503 : 200);
  });

  // Public: what the SPA needs before it has a token (which EHR origins may host it).
  app.get("/app-config", (c) => c.json({ allowedHostOrigins: config.allowedHostOrigins, slug: manifest.slug }, 200, { "Cache-Control": "no-cache" }));

  app.route(
    "/webhooks/clinic",
    createWebhookReceiver({
      inbox: store.inbox,
      secrets: config.webhookSecrets,
      logger,
      now,
      onStored: () => {
        processor.drain().catch((error: unknown) => logger.error({ err: error }, "webhook processing failed"));
      },
    }),
  );

  const api = new Hono<AppEnv>();
  // Every answer under /api is one user's, and many carry patient data: never kept by a browser or a proxy.
  api.use(async (c, next) => {
    await next();
    setResponseHeader(c, "Cache-Control", "no-store");
  });
  // Authenticated first: a body is read (and, chunked, held in memory to be measured) only for a verified session.
  api.use(requireHostSession({ verify: verifyHostToken, installations, usedTokenIds: store.usedTokenIds, standalone, adoptAccountRows: createAccountAdoption(store.accountRows) }));
  const noteTextLimit = tooLarge(MAX_NOTE_TEXT_BODY_BYTES);
  const apiLimit = tooLarge(MAX_API_BODY_BYTES);
  api.use((c, next) => (NOTE_TEXT_ROUTE.test(c.req.path) ? noteTextLimit(c, next) : apiLimit(c, next)));
  api.use(attributeUpstreamCalls());
  registerSessionRoutes(api, clinic);
  registerDirectoryRoutes(api, clinic);
  registerLiveEventRoutes(api, hub, {
    now,
    streams,
    stillAllowed: async (c) => {
      const session = c.get("session");
      if ((await installations.find(session.organizationId))?.status !== "active") return false;
      if (session.kind !== "standalone") return true;
      return standalone !== null && (await standalone.sessionOf(c)) !== null;
    },
  });
  registerContextRoutes(api, clinic, store.audit, now);
  registerLastSlotSearchRoutes(api, { store, now });
  registerScheduleRoutes(api, { clinic, holds: store.holds, waitlist: store.waitlist, intents: store.writeIntents, audit: store.audit, live: bus, now });
  registerWaitlistRoutes(api, { clinic, waitlist: store.waitlist, audit: store.audit, live: bus, now });
  registerAvailabilityRoutes(api, clinic);
  registerAvailabilityLoadRoutes(api, { clinic, now });
  // Before the note routes: `/notes/:id` would otherwise take "recent" for a note id.
  registerRecentNotesRoutes(api, { clinic, store, now });
  registerNoteRoutes(api, { clinic, store, live: bus, now });
  registerNoteChangesRoutes(api, { clinic, store, now });
  api.all("*", (c) => {
    throw new AppError(404, "not_found", `No API route ${c.req.method} ${c.req.path}`);
  });
  app.route("/api", api);

  if (standalone) app.route("/auth", standalone.routes);
  registerSpaAssets(app, config.distDir);

  const stops: (() => void)[] = [];
  return {
    app,
    clinic,
    installations,
    processor,
    waitlistMatcher,
    hub,
    bus,
    streams,
    verifyHostToken,
    metrics,
    retention,
    health,
    strandedWrites,
    async start() {
      // Known before the first request: at most a second.
      await health.refresh();
      stops.push(health.start());
      await bus.start();
      try {
        await installations.refresh();
      } catch (error) {
        logger.warn({ err: error }, "installations bootstrap failed; will retry when a token names an organization");
      }
      stops.push(processor.start(), waitlistMatcher.start(), installations.startNightlyReconcile(), retention.start(), strandedWrites.start());
    },
    async close() {
      for (const stop of stops) stop();
      await Promise.all([processor.idle(), waitlistMatcher.idle(), retention.idle()]);
      clinic.close();
      await bus.close();
    },
  };
}
