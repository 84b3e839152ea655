import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { openIdConfiguration } from "#contract/clinic-api/oauth.ts";
import { createTestEmulator } from "../testing/emulator-client.ts";

// OIDC Discovery 1.0: what a standard client reads before it signs in; each
// endpoint it names answers on the emulator.

describe("GET /.well-known/openid-configuration", () => {
  const { emulator } = createTestEmulator({ settings: { publicUrl: "http://127.0.0.1:4123" } });

  it("publishes the issuer of the id_token and the endpoints of the code flow", async () => {
    const response = await emulator.app.request("/.well-known/openid-configuration");
    expect(response.status).toBe(200);
    const document = z.parse(openIdConfiguration, await response.json());
    expect(document).toEqual({
      issuer: "http://127.0.0.1:4123",
      authorization_endpoint: "http://127.0.0.1:4123/oauth/authorize",
      token_endpoint: "http://127.0.0.1:4123/v3/oauth/token",
      userinfo_endpoint: "http://127.0.0.1:4123/v3/oauth/userinfo",
      jwks_uri: "http://127.0.0.1:4123/.well-known/jwks.json",
      scopes_supported: ["openid"],
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["ES256"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["api_key_bearer"],
      claims_supported: ["iss", "sub", "aud", "exp", "iat", "nbf", "auth_time", "nonce", "email", "email_verified", "name", "given_name", "family_name", "providers", "authorizedOrganizations"],
      prompt_values_supported: ["none", "login", "consent", "select_account"],
    });
  });

  it("names endpoints that answer: the JWKS, the authorize page, the token endpoint and userinfo", async () => {
    const document = z.parse(openIdConfiguration, await (await emulator.app.request("/.well-known/openid-configuration")).json());
    const at = (url: string, init?: RequestInit) => emulator.app.request(new URL(url).pathname, init);
    expect((await at(document.jwks_uri)).status).toBe(200);
    // Without parameters: the authorize page's own error page, not a 404.
    const authorize = await at(document.authorization_endpoint);
    expect(authorize.status).toBe(400);
    expect(await authorize.text()).toMatch(/client_id is required/);
    expect((await at(document.token_endpoint, { method: "POST" })).headers.get("www-authenticate")).toMatch(/^Bearer realm=/);
    expect((await at(document.userinfo_endpoint)).headers.get("www-authenticate")).toMatch(/^Bearer realm=/);
  });
});
