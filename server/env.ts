import * as z from "zod/mini";
import { parseDescribed } from "#contract/validation.ts";
import { DEFAULT_MAX_BODY_BYTES } from "./clinic/bounded-body.ts";
import { parseBenchDisable, type BenchMechanism } from "./clinic/bench-switches.ts";

// The only module that reads process.env (STYLE.md 7). Without
// CLINIC_API_BASE_URL the BFF runs against the sandbox emulator with its
// fixed identities; with it, every setting that has a sandbox default must be
// given explicitly: sandbox defaults are never used against a real service.

/** The sandbox identities of DESIGN.md, around the emulator's origin (default http://127.0.0.1:4010). */
function sandboxDefaults(emulatorUrl: string) {
  return {
    clinicApiBaseUrl: emulatorUrl,
    clinicApiKey: "svc_dev_ak_5a0d1e2f3a4b5c6d7e8f90a1b2c3d4e5",
    hostTokenIssuer: emulatorUrl,
    hostTokenJwksUrl: `${emulatorUrl}/.well-known/jwks.json`,
    allowedHostOrigins: [emulatorUrl],
    webhookSecrets: ["whsec_AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcY"],
    avatarOrigins: [emulatorUrl],
    sessionSecret: "tandem-sandbox-session-secret-never-for-a-real-service",
  };
}

const port = z.pipe(z.string().check(z.regex(/^\d{1,5}$/, "must be a port number")), z.transform(Number));
const origin = z.url().check(z.refine((value) => new URL(value).origin === value.replace(/\/$/, ""), "must be an origin (scheme://host[:port]) without a path"));
const originList = z.pipe(
  z.string(),
  z.transform((value) =>
    value
      .split(",")
      .map((part) => part.trim().replace(/\/$/, ""))
      .filter((part) => part !== ""),
  ),
);
const secretList = z.pipe(
  z.string(),
  z.transform((value) =>
    value
      .split(/[\s,]+/)
      .map((part) => part.trim())
      .filter((part) => part !== ""),
  ),
);

// ADR 0026: the processes share the upstream budget through Redis when it is set.
const redisUrl = z.string().check(z.regex(/^rediss?:\/\/[^\s]+$/, "must be a redis:// or rediss:// URL"));

// ADR 0017: upstream requests one user may make per 60 s, per process.
const USER_LIMIT_RULE = "must be a whole number of requests per 60 s, at least 1";
const userLimit = z.pipe(z.string().check(z.regex(/^[1-9]\d{0,6}$/, USER_LIMIT_RULE)), z.transform(Number));

// ADR 0018: how long a shutdown waits for the requests in flight.
const graceSeconds = z.pipe(z.string().check(z.regex(/^\d{1,3}$/, "must be a whole number of seconds, at most 999")), z.transform(Number));

/**
 * Default of SHUTDOWN_GRACE_SECONDS: a note save may take the upstream
 * timeout twice (its baseline read, then the write, 10 s each); 25 s covers
 * that and still ends within Kubernetes' default 30 s before SIGKILL.
 */
export const DEFAULT_SHUTDOWN_GRACE_SECONDS = 25;

// How long an idle keep-alive connection stays open (docs/deploy.md "Behind a
// TLS proxy"): longer than the proxy keeps its own idle connections to the
// BFF, so the proxy never sends a request on a connection the BFF is closing.
const keepAliveSeconds = z.pipe(
  z.string().check(z.regex(/^[1-9]\d{0,3}$/, "must be a whole number of seconds, from 1 to 9999")),
  z.transform(Number),
);

/**
 * Default of HTTP_KEEP_ALIVE_SECONDS: above the 60 s that nginx
 * (`keepalive_timeout` of an upstream) and the common cloud load balancers
 * keep an idle connection by default. Node's own 5 s is below them all: the
 * proxy then now and then sends a request on a connection the BFF has just
 * closed, and a POST sent that way fails with a 502 (a proxy does not send a
 * non-idempotent request again).
 */
export const DEFAULT_HTTP_KEEP_ALIVE_SECONDS = 65;

// Issue 34: the most of one upstream answer the BFF reads (bounded-body.ts says why the default).
const MAX_BODY_BYTES_RULE = "must be a whole number of bytes from 1048576 (1 MiB) to 1073741824 (1 GiB)";
const maxBodyBytes = z.pipe(
  z.string().check(z.regex(/^[1-9]\d{0,9}$/, MAX_BODY_BYTES_RULE)),
  z.pipe(z.transform(Number), z.number().check(z.refine((bytes) => bytes >= 1024 * 1024 && bytes <= 1024 * 1024 * 1024, MAX_BODY_BYTES_RULE))),
);

// Issue 37: for the load bench's ablation only (bench/ablation-bench.ts), never an operator setting.
const benchDisable = z.pipe(
  z.string(),
  z.transform((text: string, context) => {
    try {
      return parseBenchDisable(text);
    } catch (error) {
      context.issues.push({ code: "custom", message: error instanceof Error ? error.message : String(error), input: text });
      return z.NEVER;
    }
  }),
);

/** Default of UPSTREAM_USER_LIMIT: well above what the SPA asks per minute of its busiest user (ADR 0017). */
export const DEFAULT_UPSTREAM_USER_LIMIT = 200;

// Retention periods an operator may set (docs/security.md "What Tandem keeps, and for how long").
const retentionDays = (min: number, max: number) => {
  const rule = `must be a whole number of days, from ${min} to ${max}`;
  return z.pipe(z.string().check(z.regex(/^\d{1,5}$/, rule)), z.pipe(z.transform(Number), z.number().check(z.refine((days) => days >= min && days <= max, rule))));
};
/** Six years with their leap days: HIPAA's retention of required documentation (45 CFR 164.316(b)(2)(i)). */
export const DEFAULT_AUDIT_RETENTION_DAYS = 2192;
/** A month for a person to look at what the BFF could not read. */
export const DEFAULT_WEBHOOK_DEAD_LETTER_RETENTION_DAYS = 30;
/** A draft untouched this long is abandoned: medical records are to be complete within 30 days (42 CFR 482.24(c)(4)(viii)). */
export const DEFAULT_NOTE_DRAFT_RETENTION_DAYS = 30;

const rawEnv = z.object({
  PORT: z.optional(port),
  HOST: z.optional(z.string().check(z.minLength(1))),
  PUBLIC_URL: z.optional(origin),
  SANDBOX_EMULATOR_URL: z.optional(origin),
  CLINIC_API_BASE_URL: z.optional(z.url()),
  CLINIC_API_KEY: z.optional(z.string().check(z.regex(/^svc_(prd|dev)_ak_[A-Za-z0-9]+$/, "must be a data key (svc_prd_ak_… or svc_dev_ak_…)"))),
  HOST_TOKEN_ISSUER: z.optional(z.string().check(z.minLength(1))),
  HOST_TOKEN_JWKS_URL: z.optional(z.url()),
  ALLOWED_HOST_ORIGINS: z.optional(originList),
  WEBHOOK_SECRET: z.optional(secretList),
  AVATAR_ORIGINS: z.optional(originList),
  DATABASE_URL: z.optional(z.string().check(z.regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL"))),
  DATA_DIR: z.optional(z.string().check(z.minLength(1))),
  DATABASE_SCHEMA: z.optional(z.string().check(z.regex(/^[a-z_][a-z0-9_]{0,62}$/, "must be a PostgreSQL schema name (lower-case letters, digits, _)"))),
  RATE_LIMIT_SCOPE: z.optional(z.enum(["key", "organization"])),
  REDIS_URL: z.optional(redisUrl),
  UPSTREAM_USER_LIMIT: z.optional(userLimit),
  UPSTREAM_MAX_BODY_BYTES: z.optional(maxBodyBytes),
  LOG_LEVEL: z.optional(z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])),
  DIST_DIR: z.optional(z.string().check(z.minLength(1))),
  OAUTH_AUTHORIZE_URL: z.optional(z.url()),
  OAUTH_ISSUER: z.optional(z.string().check(z.minLength(1))),
  OAUTH_JWKS_URL: z.optional(z.url()),
  SESSION_SECRET: z.optional(z.string().check(z.minLength(32, "must be at least 32 characters"))),
  SANDBOX_CLOCK: z.optional(z.enum(["real", "emulator"])),
  METRICS_PORT: z.optional(port),
  METRICS_HOST: z.optional(z.string().check(z.minLength(1))),
  SHUTDOWN_GRACE_SECONDS: z.optional(graceSeconds),
  HTTP_KEEP_ALIVE_SECONDS: z.optional(keepAliveSeconds),
  // A year at least: a shorter trail would not answer for a year's access to patient data.
  AUDIT_RETENTION_DAYS: z.optional(retentionDays(365, 36500)),
  WEBHOOK_DEAD_LETTER_RETENTION_DAYS: z.optional(retentionDays(1, 3650)),
  NOTE_DRAFT_RETENTION_DAYS: z.optional(retentionDays(1, 3650)),
  BENCH_DISABLE: z.optional(benchDisable),
});

export interface BffConfig {
  /** Sandbox: the emulator with its fixed identities. */
  isSandbox: boolean;
  port: number;
  host: string;
  /** The BFF's own origin (webhook registration, OAuth redirect). */
  publicUrl: string;
  clinicApiBaseUrl: string;
  clinicApiKey: string;
  hostTokenIssuer: string;
  hostTokenJwksUrl: string;
  allowedHostOrigins: string[];
  webhookSecrets: string[];
  avatarOrigins: string[];
  databaseUrl: string | undefined;
  /** The PostgreSQL schema of the tables (and the live-event channel); `public` by default. */
  databaseSchema: string;
  dataDir: string;
  rateLimitScope: "key" | "organization";
  /** Where every process shares the upstream budget (ADR 0026); without it, DATABASE_URL's PostgreSQL, else this process alone. */
  redisUrl: string | undefined;
  /** Requests one user's session may have reach the service per 60 s in this process. */
  upstreamUserLimit: number;
  /** The most of one upstream answer read (UPSTREAM_MAX_BODY_BYTES); past it, the answer is refused unread. */
  upstreamMaxBodyBytes: number;
  logLevel: string;
  distDir: string;
  /** Standalone sign-in (OAuth 2.0 authorization code); null when not configured. */
  standalone: StandaloneConfig | null;
  /**
   * Sandbox only: `emulator` runs the BFF on the emulator's clock (read once at
   * start-up, then running), so a sandbox pinned with EMULATOR_CLOCK_START
   * issues and verifies tokens on one timeline. Real time otherwise.
   */
  clock: "real" | "emulator";
  /**
   * Where `GET /metrics` is served (docs/operations.md), a listener of its own
   * (never the public port); null, the default, serves no metrics.
   */
  metrics: { host: string; port: number } | null;
  /** On SIGTERM: how long the requests in flight may take before their connections are cut. */
  shutdownGraceSeconds: number;
  /** How long an idle keep-alive connection stays open (HTTP_KEEP_ALIVE_SECONDS). */
  keepAliveSeconds: number;
  /** The retention periods an operator may set; the others are fixed (server/retention/retention-rules.ts). */
  retention: RetentionConfig;
  /**
   * BENCH_DISABLE: performance mechanisms of the upstream client turned off
   * for a load bench run (bench/ablation-bench.ts); bench-only, not an
   * operator setting. Empty by default.
   */
  benchDisable: readonly BenchMechanism[];
}

export interface RetentionConfig {
  /** AUDIT_RETENTION_DAYS: the audit trail's entries are purged this many days after they were written. */
  auditTrailDays: number;
  /** WEBHOOK_DEAD_LETTER_RETENTION_DAYS: a dead letter (raw body and reason) is purged this many days after it was kept. */
  deadLetterDays: number;
  /** NOTE_DRAFT_RETENTION_DAYS: a note draft no one has written to for this many days is purged. */
  noteDraftDays: number;
}

export interface StandaloneConfig {
  /** The id_token's pinned issuer; the endpoints are discovered under it (OIDC Discovery 1.0). */
  issuer: string;
  /** Pinned in place of the discovered `authorization_endpoint` (OAUTH_AUTHORIZE_URL); usually unset. */
  authorizeUrl: string | undefined;
  /** Pinned in place of the discovered `jwks_uri` (OAUTH_JWKS_URL); usually unset. */
  jwksUrl: string | undefined;
  /** Plain http to the service: only for the sandbox or an issuer on a loopback address. */
  allowInsecureRequests: boolean;
  /** Seals the session and sign-in cookies. */
  sessionSecret: string;
  /** `${publicUrl}/auth/callback`, registered in the manifest. */
  redirectUri: string;
}

export class ConfigError extends Error {}

/** Every secret of the configuration: the logger scrubs each from every line it writes. */
export function secretsOf(config: Pick<BffConfig, "clinicApiKey" | "webhookSecrets" | "standalone">): string[] {
  return [config.clinicApiKey, ...config.webhookSecrets, ...(config.standalone ? [config.standalone.sessionSecret] : [])];
}

/** Reads and validates the configuration; throws ConfigError naming every problem. */
export function readBffConfig(source: Record<string, string | undefined> = process.env): BffConfig {
  // Failing beats ignoring: a deployment that set it expects a split that no longer exists (ADR 0026).
  if (source.UPSTREAM_RATE_SHARE !== undefined) {
    throw new ConfigError(
      "Configuration is invalid: UPSTREAM_RATE_SHARE was removed: the BFF processes now share the upstream budget through DATABASE_URL's PostgreSQL (or REDIS_URL when set); unset UPSTREAM_RATE_SHARE",
    );
  }
  const parsed = parseDescribed(rawEnv, source);
  if (!parsed.success) throw new ConfigError(`Configuration is invalid: ${parsed.message}`);
  const env = parsed.data;
  const isSandbox = env.CLINIC_API_BASE_URL === undefined;
  if (!isSandbox) {
    const missing = (
      [
        ["CLINIC_API_KEY", env.CLINIC_API_KEY],
        ["HOST_TOKEN_ISSUER", env.HOST_TOKEN_ISSUER],
        ["HOST_TOKEN_JWKS_URL", env.HOST_TOKEN_JWKS_URL],
        ["ALLOWED_HOST_ORIGINS", env.ALLOWED_HOST_ORIGINS?.length ? env.ALLOWED_HOST_ORIGINS : undefined],
        ["WEBHOOK_SECRET", env.WEBHOOK_SECRET?.length ? env.WEBHOOK_SECRET : undefined],
      ] as const
    )
      .filter(([, value]) => value === undefined)
      .map(([name]) => name);
    if (missing.length > 0) {
      throw new ConfigError(`Configuration is invalid: CLINIC_API_BASE_URL is set, so ${missing.join(", ")} must be set too (sandbox defaults are never used against a real service)`);
    }
  }
  for (const secret of env.WEBHOOK_SECRET ?? []) {
    if (!/^whsec_[A-Za-z0-9+/=]+$/.test(secret)) throw new ConfigError("Configuration is invalid: WEBHOOK_SECRET: must be whsec_ secrets separated by commas or spaces");
  }
  for (const allowed of [...(env.ALLOWED_HOST_ORIGINS ?? []), ...(env.AVATAR_ORIGINS ?? [])]) {
    if (!z.safeParse(origin, allowed).success) throw new ConfigError(`Configuration is invalid: ALLOWED_HOST_ORIGINS/AVATAR_ORIGINS: ${allowed} is not an origin`);
  }
  if (!isSandbox && env.SANDBOX_CLOCK === "emulator") {
    throw new ConfigError("Configuration is invalid: SANDBOX_CLOCK=emulator is for the sandbox only; against a real service (CLINIC_API_BASE_URL) the BFF runs on real time");
  }
  const standaloneSwitch = env.OAUTH_ISSUER !== undefined ? "OAUTH_ISSUER" : env.OAUTH_AUTHORIZE_URL !== undefined ? "OAUTH_AUTHORIZE_URL" : null;
  if (!isSandbox && standaloneSwitch !== null && env.SESSION_SECRET === undefined) {
    throw new ConfigError(`Configuration is invalid: ${standaloneSwitch} is set, so SESSION_SECRET must be set too (at least 32 characters; sandbox defaults are never used against a real service)`);
  }
  const portNumber = env.PORT ?? 8787;
  if (env.METRICS_HOST !== undefined && env.METRICS_PORT === undefined) {
    throw new ConfigError("Configuration is invalid: METRICS_HOST is set, so METRICS_PORT must be set too (metrics are served only on a port of their own)");
  }
  if (env.METRICS_PORT !== undefined && env.METRICS_PORT !== 0 && env.METRICS_PORT === portNumber) {
    throw new ConfigError("Configuration is invalid: METRICS_PORT must differ from PORT (metrics are never served on the public port)");
  }
  const sandbox = sandboxDefaults((env.SANDBOX_EMULATOR_URL ?? "http://127.0.0.1:4010").replace(/\/$/, ""));
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${portNumber}`).replace(/\/$/, "");
  return {
    isSandbox,
    port: portNumber,
    host: env.HOST ?? "127.0.0.1",
    publicUrl,
    clinicApiBaseUrl: env.CLINIC_API_BASE_URL ?? sandbox.clinicApiBaseUrl,
    clinicApiKey: env.CLINIC_API_KEY ?? sandbox.clinicApiKey,
    hostTokenIssuer: env.HOST_TOKEN_ISSUER ?? sandbox.hostTokenIssuer,
    hostTokenJwksUrl: env.HOST_TOKEN_JWKS_URL ?? sandbox.hostTokenJwksUrl,
    allowedHostOrigins: env.ALLOWED_HOST_ORIGINS ?? sandbox.allowedHostOrigins,
    webhookSecrets: env.WEBHOOK_SECRET ?? sandbox.webhookSecrets,
    avatarOrigins: env.AVATAR_ORIGINS ?? (isSandbox ? sandbox.avatarOrigins : [new URL(env.CLINIC_API_BASE_URL ?? sandbox.clinicApiBaseUrl).origin]),
    databaseUrl: env.DATABASE_URL,
    databaseSchema: env.DATABASE_SCHEMA ?? "public",
    dataDir: env.DATA_DIR ?? ".data/pglite",
    rateLimitScope: env.RATE_LIMIT_SCOPE ?? "key",
    redisUrl: env.REDIS_URL,
    upstreamUserLimit: env.UPSTREAM_USER_LIMIT ?? DEFAULT_UPSTREAM_USER_LIMIT,
    upstreamMaxBodyBytes: env.UPSTREAM_MAX_BODY_BYTES ?? DEFAULT_MAX_BODY_BYTES,
    logLevel: env.LOG_LEVEL ?? "info",
    distDir: env.DIST_DIR ?? "dist",
    standalone: standaloneConfig(env, isSandbox, sandbox, publicUrl),
    clock: env.SANDBOX_CLOCK ?? "real",
    metrics: env.METRICS_PORT === undefined ? null : { host: env.METRICS_HOST ?? "127.0.0.1", port: env.METRICS_PORT },
    shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS ?? DEFAULT_SHUTDOWN_GRACE_SECONDS,
    keepAliveSeconds: env.HTTP_KEEP_ALIVE_SECONDS ?? DEFAULT_HTTP_KEEP_ALIVE_SECONDS,
    retention: {
      auditTrailDays: env.AUDIT_RETENTION_DAYS ?? DEFAULT_AUDIT_RETENTION_DAYS,
      deadLetterDays: env.WEBHOOK_DEAD_LETTER_RETENTION_DAYS ?? DEFAULT_WEBHOOK_DEAD_LETTER_RETENTION_DAYS,
      noteDraftDays: env.NOTE_DRAFT_RETENTION_DAYS ?? DEFAULT_NOTE_DRAFT_RETENTION_DAYS,
    },
    benchDisable: env.BENCH_DISABLE ?? [],
  };
}

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * Sandbox: the emulator's sign-in. Against a real service: only when
 * OAUTH_ISSUER (or, as before discovery, OAUTH_AUTHORIZE_URL) is set; the
 * issuer defaults to the host token's platform. Endpoints come from the
 * issuer's discovery document; OAUTH_AUTHORIZE_URL and OAUTH_JWKS_URL, when
 * set, take the place of the discovered ones.
 */
function standaloneConfig(env: z.infer<typeof rawEnv>, isSandbox: boolean, sandbox: ReturnType<typeof sandboxDefaults>, publicUrl: string): StandaloneConfig | null {
  const enabled = isSandbox || env.OAUTH_ISSUER !== undefined || env.OAUTH_AUTHORIZE_URL !== undefined;
  const sessionSecret = env.SESSION_SECRET ?? (isSandbox ? sandbox.sessionSecret : undefined);
  if (!enabled || sessionSecret === undefined) return null;
  const issuer = env.OAUTH_ISSUER ?? env.HOST_TOKEN_ISSUER ?? sandbox.hostTokenIssuer;
  let issuerUrl: URL;
  try {
    issuerUrl = new URL(issuer);
  } catch {
    throw new ConfigError(`Configuration is invalid: OAUTH_ISSUER (or HOST_TOKEN_ISSUER, its default): standalone sign-in discovers its endpoints under the issuer, so it must be an https URL, not "${issuer}"`);
  }
  const isLoopback = LOOPBACK_HOSTS.test(issuerUrl.hostname);
  if (issuerUrl.protocol !== "https:" && !(issuerUrl.protocol === "http:" && (isSandbox || isLoopback))) {
    throw new ConfigError("Configuration is invalid: OAUTH_ISSUER (or HOST_TOKEN_ISSUER, its default): must be an https URL (plain http only for the sandbox or a loopback address)");
  }
  return {
    issuer,
    authorizeUrl: env.OAUTH_AUTHORIZE_URL,
    jwksUrl: env.OAUTH_JWKS_URL,
    allowInsecureRequests: issuerUrl.protocol === "http:",
    sessionSecret,
    redirectUri: `${publicUrl}/auth/callback`,
  };
}
