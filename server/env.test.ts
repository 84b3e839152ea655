import { describe, expect, it } from "vitest";
import { ConfigError, readBffConfig, secretsOf } from "./env.ts";

describe("BFF configuration (server/env.ts)", () => {
  it("runs the sandbox with no configuration at all", () => {
    const config = readBffConfig({});
    expect(config).toMatchObject({ isSandbox: true, port: 8787, clinicApiBaseUrl: "http://127.0.0.1:4010", allowedHostOrigins: ["http://127.0.0.1:4010"], rateLimitScope: "key" });
  });

  it("names the session secret among the secrets the logger scrubs", () => {
    const config = readBffConfig({});
    if (!config.standalone) throw new Error("the sandbox has standalone sign-in");
    expect(secretsOf(config)).toEqual([config.clinicApiKey, ...config.webhookSecrets, config.standalone.sessionSecret]);
  });

  it("runs on real time unless the sandbox is told to take the emulator's clock", () => {
    expect(readBffConfig({}).clock).toBe("real");
    expect(readBffConfig({ SANDBOX_CLOCK: "emulator" }).clock).toBe("emulator");
  });

  it("serves no metrics unless METRICS_PORT is set, and then on 127.0.0.1 unless METRICS_HOST says otherwise", () => {
    expect(readBffConfig({}).metrics).toBeNull();
    expect(readBffConfig({ METRICS_PORT: "9464" }).metrics).toEqual({ host: "127.0.0.1", port: 9464 });
    expect(readBffConfig({ METRICS_PORT: "9464", METRICS_HOST: "0.0.0.0" }).metrics).toEqual({ host: "0.0.0.0", port: 9464 });
    expect(() => readBffConfig({ METRICS_HOST: "0.0.0.0" })).toThrow(/METRICS_HOST is set, so METRICS_PORT must be set too/);
    expect(() => readBffConfig({ METRICS_PORT: "8787" })).toThrow(/METRICS_PORT must differ from PORT/);
    expect(() => readBffConfig({ METRICS_PORT: "metrics" })).toThrow(/METRICS_PORT/);
  });

  it("waits 25 s for the requests in flight on SIGTERM unless told otherwise (ADR 0018)", () => {
    expect(readBffConfig({}).shutdownGraceSeconds).toBe(25);
    expect(readBffConfig({ SHUTDOWN_GRACE_SECONDS: "10" }).shutdownGraceSeconds).toBe(10);
    expect(() => readBffConfig({ SHUTDOWN_GRACE_SECONDS: "2.5" })).toThrow(/SHUTDOWN_GRACE_SECONDS.*whole number of seconds/);
  });

  it("keeps an idle connection 65 s unless told otherwise, longer than a proxy keeps its own", () => {
    expect(readBffConfig({}).keepAliveSeconds).toBe(65);
    expect(readBffConfig({ HTTP_KEEP_ALIVE_SECONDS: "120" }).keepAliveSeconds).toBe(120);
    for (const value of ["0", "2.5", "ten", "10000"]) expect(() => readBffConfig({ HTTP_KEEP_ALIVE_SECONDS: value })).toThrow(/HTTP_KEEP_ALIVE_SECONDS.*whole number of seconds, from 1 to 9999/);
  });

  it("keeps the audit trail six years, dead letters and untouched drafts 30 days, unless told otherwise (docs/security.md)", () => {
    expect(readBffConfig({}).retention).toEqual({ auditTrailDays: 2192, deadLetterDays: 30, noteDraftDays: 30 });
    expect(readBffConfig({ AUDIT_RETENTION_DAYS: "3653", WEBHOOK_DEAD_LETTER_RETENTION_DAYS: "14", NOTE_DRAFT_RETENTION_DAYS: "60" }).retention).toEqual({ auditTrailDays: 3653, deadLetterDays: 14, noteDraftDays: 60 });
    // Under a year the trail would not answer for a year's access to patient data.
    for (const value of ["364", "0", "-1", "6y", "2192.5", "40000"]) expect(() => readBffConfig({ AUDIT_RETENTION_DAYS: value })).toThrow(/AUDIT_RETENTION_DAYS.*whole number of days, from 365 to 36500/);
    for (const value of ["0", "ten", "3651"]) expect(() => readBffConfig({ WEBHOOK_DEAD_LETTER_RETENTION_DAYS: value })).toThrow(/WEBHOOK_DEAD_LETTER_RETENTION_DAYS.*whole number of days, from 1 to 3650/);
    for (const value of ["0", "", "1e3"]) expect(() => readBffConfig({ NOTE_DRAFT_RETENTION_DAYS: value })).toThrow(/NOTE_DRAFT_RETENTION_DAYS.*whole number of days, from 1 to 3650/);
  });

  it("turns no mechanism off unless the bench-only BENCH_DISABLE names some, refusing names it does not know", () => {
    expect(readBffConfig({}).benchDisable).toEqual([]);
    expect(readBffConfig({ BENCH_DISABLE: "refresh-ahead, intake-thread" }).benchDisable).toEqual(["refresh-ahead", "intake-thread"]);
    expect(() => readBffConfig({ BENCH_DISABLE: "refresh-ahead,gzip,warp" })).toThrow(/BENCH_DISABLE.*unknown mechanism "gzip", "warp": give some of refresh-ahead, intake-thread/);
  });

  it("reads at most 16 MiB of one upstream answer unless UPSTREAM_MAX_BODY_BYTES says otherwise, naming the variable when it is not a size", () => {
    expect(readBffConfig({}).upstreamMaxBodyBytes).toBe(16 * 1024 * 1024);
    expect(readBffConfig({ UPSTREAM_MAX_BODY_BYTES: "33554432" }).upstreamMaxBodyBytes).toBe(33_554_432);
    for (const value of ["0", "1000", "16MB", "2.5", "2147483648"]) expect(() => readBffConfig({ UPSTREAM_MAX_BODY_BYTES: value })).toThrow(/UPSTREAM_MAX_BODY_BYTES.*whole number of bytes from 1048576/);
  });

  it("follows the emulator's URL in the sandbox", () => {
    const config = readBffConfig({ SANDBOX_EMULATOR_URL: "http://127.0.0.1:5099" });
    expect(config.hostTokenJwksUrl).toBe("http://127.0.0.1:5099/.well-known/jwks.json");
  });

  it("never uses a sandbox default against a real service: it names what is missing", () => {
    expect(() => readBffConfig({ CLINIC_API_BASE_URL: "https://api.clinic.example", CLINIC_API_KEY: "svc_prd_ak_abc123" })).toThrow(
      /HOST_TOKEN_ISSUER, HOST_TOKEN_JWKS_URL, ALLOWED_HOST_ORIGINS, WEBHOOK_SECRET must be set too/,
    );
  });

  it("accepts a complete real-service configuration", () => {
    const config = readBffConfig({
      CLINIC_API_BASE_URL: "https://api.clinic.example",
      CLINIC_API_KEY: "svc_prd_ak_abc123",
      HOST_TOKEN_ISSUER: "https://platform.example",
      HOST_TOKEN_JWKS_URL: "https://platform.example/jwks.json",
      ALLOWED_HOST_ORIGINS: "https://ehr.example, https://ehr2.example/",
      WEBHOOK_SECRET: "whsec_abc whsec_def",
    });
    expect(config).toMatchObject({ isSandbox: false, allowedHostOrigins: ["https://ehr.example", "https://ehr2.example"], webhookSecrets: ["whsec_abc", "whsec_def"], avatarOrigins: ["https://api.clinic.example"] });
  });

  it.each([
    [{ PORT: "eighty" }, /PORT: must be a port number/],
    [{ CLINIC_API_KEY: "sk_live_123" }, /CLINIC_API_KEY: must be a data key/],
    [{ RATE_LIMIT_SCOPE: "app" }, /RATE_LIMIT_SCOPE/],
    [{ DATABASE_URL: "mysql://x" }, /DATABASE_URL: must be a postgres:\/\/ URL/],
    [{ REDIS_URL: "127.0.0.1:6379" }, /REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/],
    [{ UPSTREAM_RATE_SHARE: "0.5" }, /UPSTREAM_RATE_SHARE was removed: .*DATABASE_URL.*REDIS_URL/],
    [{ WEBHOOK_SECRET: "plain-secret" }, /WEBHOOK_SECRET/],
    [{ DATABASE_SCHEMA: "Drop Table" }, /DATABASE_SCHEMA: must be a PostgreSQL schema name/],
    [{ SESSION_SECRET: "short" }, /SESSION_SECRET: must be at least 32 characters/],
    [{ SANDBOX_CLOCK: "fast" }, /SANDBOX_CLOCK/],
    [{ CLINIC_API_BASE_URL: "https://api.clinic.example", CLINIC_API_KEY: "svc_prd_ak_abc123", HOST_TOKEN_ISSUER: "https://p", HOST_TOKEN_JWKS_URL: "https://p/jwks", ALLOWED_HOST_ORIGINS: "https://ehr.example", WEBHOOK_SECRET: "whsec_abc", SANDBOX_CLOCK: "emulator" }, /SANDBOX_CLOCK=emulator is for the sandbox only/],
    [{ CLINIC_API_BASE_URL: "https://api.clinic.example", CLINIC_API_KEY: "svc_prd_ak_abc123", HOST_TOKEN_ISSUER: "https://p", HOST_TOKEN_JWKS_URL: "https://p/jwks", ALLOWED_HOST_ORIGINS: "https://ehr.example", WEBHOOK_SECRET: "whsec_abc", OAUTH_AUTHORIZE_URL: "https://api.clinic.example/oauth/authorize" }, /SESSION_SECRET must be set too/],
  ])("refuses a malformed variable and names it: %j", (env, message) => {
    expect(() => readBffConfig(env)).toThrow(ConfigError);
    expect(() => readBffConfig(env)).toThrow(message);
  });

  describe("standalone sign-in (discovered under the issuer)", () => {
    const REAL = { CLINIC_API_BASE_URL: "https://api.clinic.example", CLINIC_API_KEY: "svc_prd_ak_abc123", HOST_TOKEN_ISSUER: "https://platform.example", HOST_TOKEN_JWKS_URL: "https://platform.example/jwks", ALLOWED_HOST_ORIGINS: "https://ehr.example", WEBHOOK_SECRET: "whsec_abc" };
    const SECRET = "s".repeat(32);

    it("signs in against the emulator in the sandbox, over plain http, with every endpoint discovered", () => {
      expect(readBffConfig({}).standalone).toMatchObject({ issuer: "http://127.0.0.1:4010", authorizeUrl: undefined, jwksUrl: undefined, allowInsecureRequests: true, redirectUri: "http://localhost:8787/auth/callback" });
    });

    it("is off against a real service until OAUTH_ISSUER (or OAUTH_AUTHORIZE_URL, as before) is set", () => {
      expect(readBffConfig(REAL).standalone).toBeNull();
      expect(readBffConfig({ ...REAL, OAUTH_ISSUER: "https://id.clinic.example", SESSION_SECRET: SECRET }).standalone).toMatchObject({ issuer: "https://id.clinic.example", authorizeUrl: undefined, allowInsecureRequests: false });
      // The configuration of before discovery still works: the issuer defaults to the host token's, the authorize page stays pinned.
      const pinned = readBffConfig({ ...REAL, OAUTH_AUTHORIZE_URL: "https://api.clinic.example/oauth/authorize", OAUTH_JWKS_URL: "https://api.clinic.example/jwks", SESSION_SECRET: SECRET }).standalone;
      expect(pinned).toMatchObject({ issuer: "https://platform.example", authorizeUrl: "https://api.clinic.example/oauth/authorize", jwksUrl: "https://api.clinic.example/jwks" });
    });

    it.each([
      [{ OAUTH_ISSUER: "https://id.clinic.example" }, /OAUTH_ISSUER is set, so SESSION_SECRET must be set too/],
      [{ OAUTH_ISSUER: "http://id.clinic.example", SESSION_SECRET: SECRET }, /must be an https URL \(plain http only for the sandbox or a loopback address\)/],
      [{ OAUTH_AUTHORIZE_URL: "https://api.clinic.example/oauth/authorize", HOST_TOKEN_ISSUER: "platform", SESSION_SECRET: SECRET }, /discovers its endpoints under the issuer, so it must be an https URL/],
    ])("refuses an issuer it cannot discover safely: %j", (env, message) => {
      expect(() => readBffConfig({ ...REAL, ...env })).toThrow(message);
    });

    it("allows plain http to an issuer on a loopback address only", () => {
      expect(readBffConfig({ ...REAL, OAUTH_ISSUER: "http://127.0.0.1:4010", SESSION_SECRET: SECRET }).standalone?.allowInsecureRequests).toBe(true);
      expect(readBffConfig({ ...REAL, OAUTH_ISSUER: "http://localhost:4010", SESSION_SECRET: SECRET }).standalone?.allowInsecureRequests).toBe(true);
    });
  });

  it("never puts a secret in its error message", () => {
    try {
      readBffConfig({ CLINIC_API_BASE_URL: "https://api.clinic.example", CLINIC_API_KEY: "svc_prd_ak_topsecret1" });
    } catch (error) {
      expect(String(error)).not.toContain("topsecret1");
    }
  });
});
