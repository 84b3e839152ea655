import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { oauthCallbackError } from "#contract/clinic-api/oauth.ts";
import { createTestEmulator } from "../testing/emulator-client.ts";
import { findMultiOrgAccount } from "./accounts.ts";
import { pageTitle, textOf } from "./testing/html-forms.ts";
import { authorizePath, callbackOf, isSignInPage, obtainAuthorizationCode, pkcePair } from "./testing/oauth-flow.ts";
import { TestBrowser } from "./testing/test-browser.ts";

// Seed 001 "Sign-in for standalone apps" 2: redirect URIs match exactly, no
// wildcards. A bad client or redirect URI gets an error page and is never
// redirected to; other problems go back to the app with `error` and `state`.

const REDIRECT_URI = "http://localhost:8787/auth/callback";
const APP_URL = "http://localhost:53117";

describe("GET /oauth/authorize: the request's checks", () => {
  const { emulator } = createTestEmulator({ settings: { appUrl: APP_URL } });
  const request = (path: string) => emulator.app.request(path);
  const challenge = pkcePair().challenge;

  it.each([
    ["a trailing slash", `${REDIRECT_URI}/`],
    ["another port", "http://localhost:8788/auth/callback"],
    ["another scheme", "https://localhost:8787/auth/callback"],
    ["another host for the same machine", "http://127.0.0.1:8787/auth/callback"],
    ["another path", "http://localhost:8787/auth/Callback"],
    ["an added query", `${REDIRECT_URI}?next=/`],
    ["a fragment", `${REDIRECT_URI}#x`],
    ["a foreign site", "https://attacker.example/auth/callback"],
  ])("shows an error page for a redirect_uri with %s, and redirects nowhere", async (_case, redirectUri) => {
    const response = await request(authorizePath({ redirectUri, state: "s", codeChallenge: challenge }));
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    const html = await response.text();
    expect(pageTitle(html)).toBe("Sign-in request rejected");
    expect(textOf(html, "oauth-error")).toContain(`redirect_uri "${redirectUri}" is not registered for Tandem`);
  });

  it.each([
    ["missing", undefined, "client_id is required."],
    ["unknown", "other-app", 'client_id "other-app" is not a registered app.'],
  ])("shows an error page for a %s client_id", async (_case, clientId, message) => {
    const path = authorizePath({ redirectUri: REDIRECT_URI, state: "s", codeChallenge: challenge }).replace("client_id=tandem&", clientId === undefined ? "" : `client_id=${clientId}&`);
    const response = await request(path);
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(textOf(await response.text(), "oauth-error")).toBe(message);
  });

  it("shows an error page for a missing or repeated redirect_uri", async () => {
    const missing = await request(`/oauth/authorize?client_id=tandem&state=s&code_challenge=${challenge}&code_challenge_method=S256`);
    expect(missing.status).toBe(400);
    expect(textOf(await missing.text(), "oauth-error")).toBe("redirect_uri is required.");
    const repeated = await request(`${authorizePath({ redirectUri: REDIRECT_URI, state: "s", codeChallenge: challenge })}&redirect_uri=${encodeURIComponent(REDIRECT_URI)}`);
    expect(repeated.status).toBe(400);
    expect(repeated.headers.get("location")).toBeNull();
  });

  it("escapes what the request carries on the error page", async () => {
    const response = await request(authorizePath({ redirectUri: 'http://x/"><script>alert(1)</script>', state: "s", codeChallenge: challenge }));
    const html = await response.text();
    expect(html).not.toContain("<script>");
    expect(html).toContain("&#60;script&#62;alert(1)&#60;/script&#62;");
    expect(response.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
  });

  it("accepts the manifest's redirect URI and the sandbox app's callback (EMULATOR_APP_URL)", async () => {
    for (const redirectUri of [REDIRECT_URI, `${APP_URL}/auth/callback`]) {
      const page = await new TestBrowser(request).get(authorizePath({ redirectUri, state: "s", codeChallenge: challenge }));
      expect(isSignInPage(page)).toBe(true);
    }
  });

  it("redirects the code to the exact URI of the request", async () => {
    const browser = new TestBrowser((path, init) => emulator.app.request(path, init));
    const redirectUri = `${APP_URL}/auth/callback`;
    const { code } = await obtainAuthorizationCode(browser, { redirectUri, state: "s", codeChallenge: challenge, accountId: findMultiOrgAccount(emulator.state).id });
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it.each([
    ["state is missing", { state: undefined }, "invalid_request", /^state is required$/],
    ["code_challenge_method is plain", { codeChallengeMethod: "plain" }, "invalid_request", /code_challenge_method "plain" is not supported; use S256/],
    ["code_challenge is missing", { codeChallenge: undefined }, "invalid_request", /code_challenge is required/],
    ["code_challenge is not a SHA-256", { codeChallenge: "abc" }, "invalid_request", /code_challenge must be/],
    ["prompt is unknown", { prompt: "sometimes" }, "invalid_request", /prompt: unknown value "sometimes"/],
    ["prompt none is combined", { prompt: "none consent" }, "invalid_request", /prompt: none cannot be combined/],
  ] as const)("redirects back with an error when %s", async (_case, change, error, description) => {
    const params = { redirectUri: REDIRECT_URI, state: "xyz", codeChallenge: challenge, ...change };
    const response = await request(authorizePath(params));
    expect(response.status).toBe(302);
    const location = response.headers.get("location") ?? "";
    expect(location.startsWith(`${REDIRECT_URI}?`)).toBe(true);
    const callback = z.parse(oauthCallbackError, Object.fromEntries(new URL(location).searchParams));
    expect(callback.error).toBe(error);
    expect(callback.error_description).toMatch(description);
    expect(callback.state).toBe(params.state);
  });

  it("accepts response_type=code and sends anything else back as unsupported_response_type", async () => {
    const base = authorizePath({ redirectUri: REDIRECT_URI, state: "s", codeChallenge: challenge });
    const code = await new TestBrowser(request).get(`${base}&response_type=code`);
    expect(isSignInPage(code)).toBe(true);
    const token = await new TestBrowser(request).get(`${base}&response_type=token`);
    expect(callbackOf(token).get("error")).toBe("unsupported_response_type");
    expect(callbackOf(token).get("state")).toBe("s");
  });
});
