import { Hono, type Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { OAUTH_AUTHORIZE_PATH } from "#contract/clinic-api/oauth.ts";
import type { ServiceState } from "../service/service-state.ts";
import { findAccount, sandboxAccounts, type SandboxAccount } from "./accounts.ts";
import type { AuthorizationCodes } from "./authorization-codes.ts";
import { checkAuthorizeQuery, redirectTo, type AuthorizationRequest } from "./authorization-request.ts";
import { permissionFingerprint, type Consents } from "./consents.ts";
import { pageHeaders } from "./html.ts";
import { IDP_SESSION_COOKIE, type IdpSession, type IdpSessions } from "./idp-sessions.ts";
import type { OAuthClient } from "./oauth-client.ts";
import { consentPage, DECISION_PATH, errorPage, SIGN_IN_PATH, signInPage, type FormContext } from "./pages.ts";
import { BROWSER_COOKIE, newBrowserToken, type PendingAuthorization, type PendingAuthorizations } from "./pending-authorizations.ts";
import { shareableOrganizations } from "./shareable-organizations.ts";

// `/oauth/authorize` and its forms (seed 001 "Sign-in for standalone apps"
// 3-4; DESIGN.md "Standalone mode"): sign in at the sandbox identity
// provider, consent to the scopes and pick the organizations to share, then
// back to the app with a code and the original `state`. A remembered
// consent with unchanged permissions redirects at once; `prompt=consent` or
// changed permissions show the consent again.

export interface AuthorizeDeps {
  state: ServiceState;
  client: OAuthClient;
  sessions: IdpSessions;
  pending: PendingAuthorizations;
  codes: AuthorizationCodes;
  consents: Consents;
  /** Cookies get `Secure` when the emulator is served over https. */
  secureCookies: boolean;
}

type FormFields = Record<string, string | string[]>;

async function formFields(c: Context): Promise<FormFields> {
  const body = await c.req.parseBody({ all: true });
  const fields: FormFields = {};
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === "string") fields[name] = value;
    else if (Array.isArray(value)) fields[name] = value.filter((item): item is string => typeof item === "string");
  }
  return fields;
}

const text = (fields: FormFields, name: string): string => {
  const value = fields[name];
  return typeof value === "string" ? value : "";
};
const list = (fields: FormFields, name: string): string[] => {
  const value = fields[name];
  return value === undefined ? [] : typeof value === "string" ? [value] : value;
};

const appOrigin = (request: AuthorizationRequest) => new URL(request.redirectUri).origin;

/** The same request with `prompt=login`: the consent page's "Use another account". */
function switchAccountHref(request: AuthorizationRequest): string {
  const query = new URLSearchParams({
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    state: request.state,
    code_challenge: request.codeChallenge,
    code_challenge_method: "S256",
    prompt: "login",
  });
  if (request.nonce !== null) query.set("nonce", request.nonce);
  return `${OAUTH_AUTHORIZE_PATH}?${query.toString()}`;
}

export function createAuthorizeRoutes(deps: AuthorizeDeps): Hono {
  const { state, client, sessions, pending, codes, consents } = deps;
  const cookieOptions = { httpOnly: true, sameSite: "Lax", path: "/oauth", secure: deps.secureCookies } as const;
  const app = new Hono();

  const rejectPage = (c: Context, title: string, message: string) => c.html(errorPage(title, message), 400, pageHeaders(null));
  const expiredRequest = (c: Context) =>
    rejectPage(c, "This sign-in request has expired", "The sign-in request is unknown, expired or was opened in another browser window. Go back to the app and sign in again.");

  function formContext(entry: PendingAuthorization): FormContext {
    return { transaction: entry.id, csrf: entry.browser, appOrigin: appOrigin(entry.request) };
  }

  function pendingFor(c: Context, request: AuthorizationRequest): PendingAuthorization {
    const browser = getCookie(c, BROWSER_COOKIE) ?? newBrowserToken();
    setCookie(c, BROWSER_COOKIE, browser, cookieOptions);
    return pending.create(browser, request);
  }

  function redirectBack(c: Context, request: AuthorizationRequest, params: Record<string, string | null>, status: 302 | 303) {
    c.header("Cache-Control", "no-store");
    return c.redirect(redirectTo(request.redirectUri, { ...params, state: request.state }), status);
  }

  function showSignIn(c: Context, entry: PendingAuthorization, error: string | null, status: 200 | 400 = 200) {
    return c.html(signInPage(client, sandboxAccounts(state), formContext(entry), error), status, pageHeaders(appOrigin(entry.request)));
  }

  function showConsent(c: Context, entry: PendingAuthorization, account: SandboxAccount, checked: ReadonlySet<string>, error: string | null) {
    entry.accountId = account.id;
    const organizations = shareableOrganizations(state, account);
    const html = consentPage({ client, account, organizations, checked, form: formContext(entry), switchAccountHref: switchAccountHref(entry.request), error });
    return c.html(html, error === null ? 200 : 400, pageHeaders(appOrigin(entry.request)));
  }

  function approve(c: Context, request: AuthorizationRequest, session: IdpSession, account: SandboxAccount, organizationIds: string[], status: 302 | 303) {
    const code = codes.issue({
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      nonce: request.nonce,
      accountId: account.id,
      organizationIds,
      authTime: session.authTime,
    });
    return redirectBack(c, request, { code }, status);
  }

  /** Signed in: redirect at once on a remembered, unchanged consent; otherwise the consent page. */
  function afterSignIn(c: Context, request: AuthorizationRequest, session: IdpSession, account: SandboxAccount, entry: PendingAuthorization | null, status: 302 | 303) {
    const shareable = new Set(shareableOrganizations(state, account).map((organization) => organization.org.ehr.id));
    const remembered = consents.get(account.id, request.clientId);
    const unchanged =
      remembered !== undefined &&
      remembered.organizationIds.every((organizationId) => shareable.has(organizationId)) &&
      permissionFingerprint(client, state, remembered.organizationIds) === remembered.fingerprint;
    if (unchanged && !request.prompts.has("consent")) {
      if (entry) pending.delete(entry.id);
      return approve(c, request, session, account, remembered.organizationIds, status);
    }
    if (request.prompts.has("none")) return redirectBack(c, request, { error: "consent_required", error_description: "The user has to consent again" }, status);
    // A first consent ticks every organization; a repeated one starts from the previous choice.
    const checked = remembered ? new Set(remembered.organizationIds.filter((organizationId) => shareable.has(organizationId))) : shareable;
    return showConsent(c, entry ?? pendingFor(c, request), account, checked, null);
  }

  app.get(OAUTH_AUTHORIZE_PATH, (c) => {
    const check = checkAuthorizeQuery(c.req.queries(), client);
    if (check.kind === "reject") return rejectPage(c, "Sign-in request rejected", check.message);
    if (check.kind === "redirect") {
      c.header("Cache-Control", "no-store");
      return c.redirect(redirectTo(check.redirectUri, { error: check.error, error_description: check.description, state: check.state }), 302);
    }
    const { request } = check;
    const session = sessions.get(getCookie(c, IDP_SESSION_COOKIE));
    const account = session ? findAccount(state, session.accountId) : undefined;
    const forceLogin = request.prompts.has("login") || request.prompts.has("select_account");
    if (!session || !account || forceLogin) {
      if (request.prompts.has("none")) return redirectBack(c, request, { error: "login_required", error_description: "The user is not signed in" }, 302);
      return showSignIn(c, pendingFor(c, request), null);
    }
    return afterSignIn(c, request, session, account, null, 302);
  });

  app.post(SIGN_IN_PATH, async (c) => {
    const fields = await formFields(c);
    const entry = pending.find(text(fields, "transaction"), getCookie(c, BROWSER_COOKIE), text(fields, "csrf"));
    if (!entry) return expiredRequest(c);
    const account = findAccount(state, text(fields, "accountId"));
    if (!account) return showSignIn(c, entry, "Choose one of the listed accounts.", 400);
    // A new session id at every sign-in (no fixation); the previous one ends.
    sessions.end(getCookie(c, IDP_SESSION_COOKIE));
    const session = sessions.start(account.id);
    setCookie(c, IDP_SESSION_COOKIE, session.id, cookieOptions);
    return afterSignIn(c, entry.request, session, account, entry, 303);
  });

  app.post(DECISION_PATH, async (c) => {
    const fields = await formFields(c);
    const entry = pending.find(text(fields, "transaction"), getCookie(c, BROWSER_COOKIE), text(fields, "csrf"));
    if (!entry) return expiredRequest(c);
    const decision = text(fields, "decision");
    if (decision === "deny") {
      pending.delete(entry.id);
      return redirectBack(c, entry.request, { error: "access_denied", error_description: "The user denied the request" }, 303);
    }
    if (decision !== "allow") return rejectPage(c, "Sign-in request rejected", "decision must be allow or deny.");
    const session = sessions.get(getCookie(c, IDP_SESSION_COOKIE));
    const account = session ? findAccount(state, session.accountId) : undefined;
    if (!session || !account || entry.accountId !== account.id) return showSignIn(c, entry, "Your sign-in changed. Sign in again to continue.", 400);
    const shareable = shareableOrganizations(state, account).map((organization) => organization.org.ehr.id);
    const chosen = new Set(list(fields, "organizationId").map((organizationId) => organizationId.toLowerCase()));
    const allowed = shareable.filter((organizationId) => chosen.has(organizationId));
    if (chosen.size === 0) return showConsent(c, entry, account, new Set(), "Choose at least one organization to share.");
    if (allowed.length !== chosen.size) return showConsent(c, entry, account, new Set(allowed), "An organization you chose can no longer be shared. Check your choice again.");
    consents.remember(account.id, entry.request.clientId, { organizationIds: allowed, fingerprint: permissionFingerprint(client, state, allowed) });
    pending.delete(entry.id);
    return approve(c, entry.request, session, account, allowed, 303);
  });

  return app;
}
