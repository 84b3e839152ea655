import { describe, expect, it } from "vitest";
import { ConfigError, readBffConfig, secretsOf } from "./env.ts";

describe("BFF configuration (server/env.ts)", () => {
  it("runs the sandbox with no configuration at all", () => {
    const config = readBffConfig({});
    expect(config).toMatchObject({ isSandbox: true, port: 8787, clinicApiBaseUrl: "http://127.0.0.1:4010", allowedHostOrigins: ["http://127.0.0.1:4010"], rateLimitScope: "key" });
  });

  it("names the session secret among the secrets the logger scrubs (issue 15 item 12)", () => {
    const config = readBffConfig({});
    if (!config.standalone) throw new Error("the sandbox has standalone sign-in");
    expect(secretsOf(config)).toEqual([config.clinicApiKey, ...config.webhookSecrets, config.standalone.sessionSecret]);
  });

  it("runs on real time unless the sandbox is told to take the emulator's clock", () => {
    expect(readBffConfig({}).clock).toBe("real");
    expect(readBffConfig({ SANDBOX_CLOCK: "emulator" }).clock).toBe("emulator");
  });

  it("waits 25 s for the requests in flight on SIGTERM unless told otherwise (issue 16 item 1)", () => {
    expect(readBffConfig({}).shutdownGraceSeconds).toBe(25);
    expect(readBffConfig({ SHUTDOWN_GRACE_SECONDS: "10" }).shutdownGraceSeconds).toBe(10);
    expect(() => readBffConfig({ SHUTDOWN_GRACE_SECONDS: "2.5" })).toThrow(/SHUTDOWN_GRACE_SECONDS.*whole number of seconds/);
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

  it("never puts a secret in its error message", () => {
    try {
      readBffConfig({ CLINIC_API_BASE_URL: "https://api.clinic.example", CLINIC_API_KEY: "svc_prd_ak_topsecret1" });
    } catch (error) {
      expect(String(error)).not.toContain("topsecret1");
    }
  });
});
