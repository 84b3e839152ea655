import { randomBytes } from "node:crypto";
import { OAUTH_AUTHORIZE_PATH } from "#contract/clinic-api/oauth.ts";
import { s256Challenge } from "../pkce.ts";
import { checkedValues, readForm } from "./html-forms.ts";
import type { BrowserPage, TestBrowser } from "./test-browser.ts";

// Steps of the sign-in flow for tests (the emulator's own, and the BFF's
// with an emulator in-process or on a port): build the authorize URL, pick
// an account, allow or deny, read the callback.

export interface PkcePair {
  verifier: string;
  challenge: string;
}

export function pkcePair(): PkcePair {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: s256Challenge(verifier) };
}

export interface AuthorizeParams {
  clientId?: string;
  redirectUri: string;
  state?: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
  nonce?: string;
  prompt?: string;
}

/** `/oauth/authorize?…`; an undefined value leaves the parameter out. */
export function authorizePath(params: AuthorizeParams): string {
  const query = new URLSearchParams();
  const entries: [string, string | undefined][] = [
    ["client_id", params.clientId ?? "tandem"],
    ["redirect_uri", params.redirectUri],
    ["state", params.state],
    ["code_challenge", params.codeChallenge],
    ["code_challenge_method", params.codeChallengeMethod ?? "S256"],
    ["nonce", params.nonce],
    ["prompt", params.prompt],
  ];
  for (const [name, value] of entries) if (value !== undefined) query.set(name, value);
  return `${OAUTH_AUTHORIZE_PATH}?${query.toString()}`;
}

/** The query the app's callback receives, from a redirect's `Location`. */
export function callbackOf(page: BrowserPage): URLSearchParams {
  if (page.location === null) throw new Error(`expected a redirect, got ${page.status}`);
  return new URL(page.location).searchParams;
}

export const isSignInPage = (page: BrowserPage) => page.status === 200 && page.html.includes('id="oauth-sign-in-form"');
export const isConsentPage = (page: BrowserPage) => page.html.includes('id="oauth-consent-form"');

export function signIn(browser: TestBrowser, page: BrowserPage, accountId: string): Promise<BrowserPage> {
  const form = readForm(page.html, "oauth-sign-in-form");
  return browser.post(form.action, [...Object.entries(form.hidden), ["accountId", accountId]]);
}

/** Allow with the given organizations (default: those ticked on the page), or deny. */
export function decide(browser: TestBrowser, page: BrowserPage, decision: "allow" | "deny", organizationIds?: readonly string[]): Promise<BrowserPage> {
  const form = readForm(page.html, "oauth-consent-form");
  const chosen = decision === "deny" ? [] : (organizationIds ?? checkedValues(page.html, "organizationId"));
  return browser.post(form.action, [...Object.entries(form.hidden), ["decision", decision], ...chosen.map((id) => ["organizationId", id] as const)]);
}

export interface ObtainCodeOptions extends AuthorizeParams {
  accountId: string;
  /** Organizations to tick if the consent page is shown (default: as the page ticks them). */
  organizationIds?: readonly string[];
}

/** The whole browser side: authorize, sign in if asked, allow if asked; returns the callback's query. */
export async function obtainAuthorizationCode(browser: TestBrowser, options: ObtainCodeOptions): Promise<{ code: string; state: string }> {
  let page = await browser.get(authorizePath(options));
  if (isSignInPage(page)) page = await signIn(browser, page, options.accountId);
  if (isConsentPage(page)) page = await decide(browser, page, "allow", options.organizationIds);
  const callback = callbackOf(page);
  const code = callback.get("code");
  if (code === null) throw new Error(`no code in the callback: ${page.location ?? ""}`);
  return { code, state: callback.get("state") ?? "" };
}
