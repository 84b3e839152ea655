import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { JWKS_PATH, OAUTH_TOKEN_PATH, OAUTH_USERINFO_PATH, OPENID_CONFIGURATION_PATH } from "#contract/clinic-api/oauth.ts";
import type { SeededWorld } from "./world/types.ts";
import { EmulatorClock } from "./clock.ts";
import { FaultRegistry } from "./http/faults.ts";
import { idempotentWrites } from "./http/idempotent-writes.ts";
import type { ServiceEnv } from "./http/env.ts";
import { RateLimiter } from "./http/rate-limiter.ts";
import { ServiceError } from "./http/service-error.ts";
import { assignTraceId, authenticateKey, errorResponse, injectFaults, rateLimit, resolveOrganization } from "./http/service-middleware.ts";
import type { DomainDeps, EmulatorDomain } from "./domains/domain.ts";
import { createBillingDomain } from "./domains/billing/billing-domain.ts";
import { createDocumentsDomain } from "./domains/documents/documents-domain.ts";
import { createFaxesDomain } from "./domains/faxes/faxes-domain.ts";
import { createInventoryDomain } from "./domains/inventory/inventory-domain.ts";
import { createSyncRequestsDomain } from "./domains/sync-requests/sync-requests-domain.ts";
import { authenticateOAuthClient } from "./oauth/client-authentication.ts";
import { createOAuthProvider } from "./oauth/oauth-provider.ts";
import { registerAppointmentRoutes } from "./routes/appointment-routes.ts";
import { registerInstallationRoutes } from "./routes/installation-routes.ts";
import { registerNoteRoutes } from "./routes/note-routes.ts";
import { registerPeopleRoutes } from "./routes/people-routes.ts";
import type { EmulatorSettings, RouteDeps } from "./routes/route-deps.ts";
import { registerScheduleRoutes } from "./routes/schedule-routes.ts";
import { createSandboxRoutes } from "./sandbox/sandbox-routes.ts";
import { generateWorld } from "./seed/generate-world.ts";
import { ServiceState } from "./service/service-state.ts";
import { createSigningKeys } from "./tokens/signing-keys.ts";
import { createWebhookDispatcher, type WebhookDispatcher } from "./webhooks/webhook-dispatcher.ts";
import { WEBHOOK_SIGNING_SECRET } from "./world/identities.ts";

// The Clinic Data Service emulator (DESIGN.md "The emulator"). Building it
// has no side effects: no port, no timer; `emulator/index.ts` binds and
// starts the background sync.

export interface EmulatorOptions {
  seed?: number;
  clock?: EmulatorClock;
  scale?: "default" | "large";
  settings?: Partial<EmulatorSettings>;
  /** Webhook delivery's fetch (tests inject one). */
  fetch?: typeof fetch;
  /** Replaces the seeded world (tests with hand-made data). */
  generate?: (now: number) => SeededWorld;
  /** How an injected fault's `latencyMs` is waited out; real time by default (tests inject one, ADR 0011). */
  faultDelay?: (ms: number) => Promise<void>;
}

export interface Emulator {
  app: Hono;
  state: ServiceState;
  clock: EmulatorClock;
  faults: FaultRegistry;
  dispatcher: WebhookDispatcher;
  settings: EmulatorSettings;
  close(): void;
}

/** How often the emulator looks for a sync that is due (`npm run emulator`, emulator/index.ts). */
export const SYNC_CHECK_INTERVAL_MS = 1000;

/**
 * The least margin the mirror's stated bound needs (route-deps.ts
 * `stalenessMarginSeconds`): a due sync runs at the next check, one second
 * at most, and a busy event loop can hold that check up to about another
 * second (the large world's full collections take 0.6-1 s).
 */
export const DEFAULT_STALENESS_MARGIN_SECONDS = SYNC_CHECK_INTERVAL_MS / 1000 + 1;

export const DEFAULT_SETTINGS: EmulatorSettings = {
  syncIntervalSeconds: 60,
  stalenessMarginSeconds: DEFAULT_STALENESS_MARGIN_SECONDS,
  holdTtlSeconds: 600,
  strongReadLatencyMs: 40,
  faxOutcomeSeconds: 30,
  syncRequestSeconds: 10,
  rateLimit: 1000,
  rateLimitWindowSeconds: 60,
  publicUrl: "http://127.0.0.1:4010",
  appUrl: "http://localhost:8787",
  honourIdempotencyKey: true,
  benchAnswerMemo: false,
};

/** Seed 001 does not show a maximum body size; 1 MB is assumed. */
const MAX_BODY_BYTES = 1024 * 1024;
const DATA_PATH = /^\/v\d+\//;
/** App-level calls: the installations list, and the code exchange (the code encodes the organizations). */
const WITHOUT_ORGANIZATION = new Set(["/v1/installations", OAUTH_TOKEN_PATH]);

export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const settings: EmulatorSettings = { ...DEFAULT_SETTINGS, ...options.settings };
  const clock = options.clock ?? new EmulatorClock();
  const seed = options.seed ?? 20261122;
  const scale = options.scale ?? "default";
  const signingSecrets = { current: [WEBHOOK_SIGNING_SECRET], initial: [WEBHOOK_SIGNING_SECRET] };
  const dispatcher = createWebhookDispatcher({ clock, signingSecrets: () => signingSecrets.current, fetch: options.fetch });
  const state = new ServiceState({
    clock,
    dispatcher,
    syncIntervalSeconds: settings.syncIntervalSeconds,
    staggerSyncs: scale === "large",
    generate: options.generate ?? ((now) => generateWorld({ seed, now, scale, avatarBaseUrl: `${settings.publicUrl}/_sandbox/avatars` })),
  });
  const faults = new FaultRegistry();
  const limiter = new RateLimiter(clock, settings.rateLimit, settings.rateLimitWindowSeconds);
  const signingKey = createSigningKeys();
  const deps: RouteDeps = { state, clock, settings };
  const oauth = createOAuthProvider({ state, clock, settings, signingKey, faults });

  const service = new Hono<ServiceEnv>();
  service.use(assignTraceId);
  service.use(bodyLimit({ maxSize: MAX_BODY_BYTES, onError: () => { throw ServiceError.of("bad_request", "body must be at most 1 MB"); } }));
  // The code exchange authenticates its client the OAuth way (RFC 6749 5.2 invalid_client); every other call its data key.
  service.use(async (c, next) => (c.req.path === OAUTH_TOKEN_PATH ? authenticateOAuthClient(c, next) : authenticateKey(c, next)));
  const withOrganization = resolveOrganization(state);
  service.use(async (c, next) => (WITHOUT_ORGANIZATION.has(c.req.path) ? next() : withOrganization(c, next)));
  service.use(rateLimit(limiter));
  service.use(injectFaults(faults, settings.rateLimitWindowSeconds, () => clock.now(), options.faultDelay));
  // After the faults: a request a fault answered was never carried out, so its key keeps no answer.
  if (settings.honourIdempotencyKey) service.use(idempotentWrites(() => clock.now()));
  service.use(async (_c, next) => {
    state.syncIfDue();
    await next();
  });
  registerInstallationRoutes(service, deps);
  oauth.registerTokenRoute(service);
  registerPeopleRoutes(service, deps);
  registerAppointmentRoutes(service, deps);
  registerScheduleRoutes(service, deps);
  registerNoteRoutes(service, deps);
  const domainDeps: DomainDeps = { state, clock, settings, seed, scale };
  const domains: EmulatorDomain[] = [
    // Parts of the service beside the core, one line each (emulator/domains/).
    createDocumentsDomain(domainDeps),
    createFaxesDomain(domainDeps),
    createSyncRequestsDomain(domainDeps),
    createInventoryDomain(domainDeps),
    createBillingDomain(domainDeps),
  ];
  for (const domain of domains) {
    state.addDomain(domain);
    domain.registerRoutes(service);
  }
  service.notFound((c) => errorResponse(c, ServiceError.of("not_found", `No endpoint ${c.req.method} ${c.req.path}`)));
  service.onError((error, c) => {
    if (error instanceof ServiceError) return errorResponse(c, error);
    console.error("emulator: unexpected error", error);
    return errorResponse(c, ServiceError.of("internal_error", "Internal error"));
  });

  const app = new Hono();
  const domainSandbox = new Hono();
  for (const domain of domains) domain.registerSandbox?.(domainSandbox);
  app.route("/_sandbox", domainSandbox);
  app.route("/_sandbox", createSandboxRoutes({ state, clock, faults, limiter, dispatcher, signingKey, settings, signingSecrets, onReset: oauth.reset }));
  app.route("/", oauth.routes);
  app.route(OAUTH_USERINFO_PATH, oauth.userinfo);
  app.get(OPENID_CONFIGURATION_PATH, (c) => c.json(oauth.discovery, 200, { "Cache-Control": "public, max-age=300" }));
  app.get(JWKS_PATH, async (c) => c.json({ keys: [(await signingKey()).publicJwk] }, 200, { "Cache-Control": "public, max-age=300" }));
  app.get("/healthz", (c) => c.json({ ok: true }));
  app.all("*", async (c) => {
    if (!DATA_PATH.test(c.req.path)) return c.json({ code: "not_found", message: `No route ${c.req.method} ${c.req.path}` }, 404);
    // The connection's bindings go along: a fault may destroy the socket after acting.
    return service.fetch(c.req.raw, c.env);
  });

  return { app, state, clock, faults, dispatcher, settings, close: () => dispatcher.close() };
}
