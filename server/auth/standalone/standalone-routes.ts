import type { Context } from "hono";
import { Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import * as oidc from "openid-client";
import * as z from "zod/mini";
import { organizationChoice, signedOutResponse, standaloneSessionId, standaloneSessionList, standaloneSignInState, type StandaloneSignInError } from "#contract/app-api/standalone.ts";
import { oauthCallbackError, oauthCallbackSuccess } from "#contract/clinic-api/oauth.ts";
import type { StandaloneConfig } from "../../env.ts";
import type { AppEnv } from "../../http/app-env.ts";
import { AppError } from "../../http/app-error.ts";
import { parseJsonBody, parsePathParam } from "../../http/validate.ts";
import type { InstallationRegistry } from "../../installations/installation-registry.ts";
import type { Logger } from "../../logger.ts";
import type { StandaloneSessionRepository } from "../../store/store.ts";
import { exchangeCode } from "./code-exchange.ts";
import { fetchCurrentProfile, type CurrentProfile } from "./current-profile.ts";
import { createOidcClient } from "./oidc-client.ts";
import { createSealer, type Sealer } from "./sealed-value.ts";
import { createSessionRegistry, type SessionsEnded, type SignInResult } from "./session-registry.ts";
import { LOGIN_LIFETIME_MS, loginTransaction, profileFromTokenResponse, safeReturnPath, SESSION_LIFETIME_MS, type LoginTransaction, type StandaloneSession } from "./standalone-session.ts";

// Standalone sign-in (DESIGN.md "Standalone mode"; seed 001 "Sign-in for
// standalone apps"), an OpenID Connect client by openid-client
// (oidc-client.ts): /auth/login sends the browser to the discovered
// authorize page with an unpredictable `state` bound to this browser (a
// sealed __Host- cookie), PKCE S256 and a nonce; /auth/callback checks
// `state`, exchanges the code with the data key, verifies the id_token
// (code-exchange.ts) and opens a server-side session (session-registry.ts)
// whose random secret is the __Host- session cookie. The
// organization is picked among the ones the user shared. Every failure ends
// on the SPA's sign-in page with a code saying what happened (never with
// text from the request).

const SESSION_COOKIE = "tandem-session";
const LOGIN_COOKIE = "tandem-login";
const cookieOptions = { path: "/", secure: true, httpOnly: true, sameSite: "Lax", prefix: "host" } as const;

export interface StandaloneAuth {
  /** The signed-in standalone session of this request, if any (unknown, revoked or expired sessions are ignored). */
  sessionOf(c: Context): Promise<StandaloneSession | null>;
  /** The session as the service confirms it now (see session-registry.ts): before every write and every 5 minutes. */
  confirmed(session: StandaloneSession, options: { write: boolean }): Promise<StandaloneSession>;
  /** Whether a cookie-authenticated write comes from this app's own pages (SameSite=Lax already stops cross-site ones). */
  isSameOriginWrite(c: Context): boolean;
  /** Who the service says the holder of a sign-in's access token is now (userinfo); `expectedSubject` is the session's `sub`. */
  fetchCurrentProfile(accessToken: string, expectedSubject?: string): Promise<CurrentProfile>;
  routes: Hono<AppEnv>;
}

export interface StandaloneDeps {
  config: StandaloneConfig;
  publicUrl: string;
  slug: string;
  /** The data key: the token endpoint's client authentication. */
  dataKey: string;
  installations: InstallationRegistry;
  logger: Logger;
  now: () => number;
  /** Every request to the service (discovery, token, JWKS, userinfo); defaults to `fetch`. */
  fetch?: typeof fetch | undefined;
  sessions: StandaloneSessionRepository;
  /** Sessions signed out or revoked, or a user whose access changed (session-registry.ts): their live streams end. */
  onSessionsEnded?: (ended: SessionsEnded) => void;
}

export function createStandaloneAuth(deps: StandaloneDeps): StandaloneAuth {
  const { config, now } = deps;
  const logins: Sealer<LoginTransaction> = createSealer(config.sessionSecret, "standalone-login", loginTransaction);
  const client = createOidcClient({
    issuer: config.issuer,
    clientId: deps.slug,
    dataKey: deps.dataKey,
    allowInsecureRequests: config.allowInsecureRequests,
    authorizationEndpoint: config.authorizeUrl,
    jwksUri: config.jwksUrl,
    fetch: deps.fetch,
    now,
  });
  const appOrigin = new URL(deps.publicUrl).origin;
  const registry = createSessionRegistry({
    repository: deps.sessions,
    accessTokens: createSealer(config.sessionSecret, "standalone-access-token", z.string()),
    checkProfile: (accessToken, expectedSubject) => fetchCurrentProfile(client, deps.logger, accessToken, expectedSubject),
    logger: deps.logger,
    now,
    onEnded: deps.onSessionsEnded,
  });

  const sessionOf = (c: Context) => registry.find(getCookie(c, SESSION_COOKIE, "host"));
  const openSession = async (c: Context, signIn: SignInResult) => {
    const { secret, session } = await registry.open(signIn, c.req.header("user-agent"));
    setCookie(c, SESSION_COOKIE, secret, { ...cookieOptions, maxAge: Math.max(1, Math.floor((session.expiresAt - now()) / 1000)) });
  };
  const requireSession = async (c: Context) => {
    if (!isSameOriginWrite(c)) throw new AppError(403, "forbidden", "This request did not come from Tandem's own page");
    const session = await sessionOf(c);
    if (!session) throw new AppError(401, "invalid_token", "You are not signed in: sign in again");
    return session;
  };
  const fail = (c: Context, error: StandaloneSignInError) => {
    deleteCookie(c, LOGIN_COOKIE, cookieOptions);
    return c.redirect(`/signin?error=${error}`, 302);
  };

  const routes = new Hono<AppEnv>();

  routes.get("/login", async (c) => {
    c.header("Cache-Control", "no-store");
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const transaction: LoginTransaction = {
      state: oidc.randomState(),
      codeVerifier,
      nonce: oidc.randomNonce(),
      returnTo: safeReturnPath(c.req.query("returnTo")),
      expiresAt: now() + LOGIN_LIFETIME_MS,
    };
    let authorize: URL;
    try {
      const challenge = await oidc.calculatePKCECodeChallenge(codeVerifier);
      authorize = await client.run((oidcConfig) =>
        Promise.resolve(oidc.buildAuthorizationUrl(oidcConfig, {
          response_type: "code",
          scope: "openid",
          redirect_uri: config.redirectUri,
          state: transaction.state,
          code_challenge: challenge,
          code_challenge_method: "S256",
          nonce: transaction.nonce,
          // "Change organizations" asks for the consent screen again.
          ...(c.req.query("prompt") === "consent" ? { prompt: "consent" } : {}),
        })),
      );
    } catch (error) {
      deps.logger.warn({ reason: error instanceof Error ? `${error.name}: ${error.message}` : "unknown" }, "standalone sign-in: the service's discovery document could not be read");
      return fail(c, "sign_in_refused");
    }
    setCookie(c, LOGIN_COOKIE, logins.seal(transaction), { ...cookieOptions, maxAge: LOGIN_LIFETIME_MS / 1000 });
    return c.redirect(authorize.toString(), 302);
  });

  routes.get("/callback", async (c) => {
    c.header("Cache-Control", "no-store");
    const transaction = logins.unseal(getCookie(c, LOGIN_COOKIE, "host"));
    const query = c.req.query();
    if (!transaction || transaction.expiresAt <= now()) return fail(c, "sign_in_expired");
    if (typeof query.state !== "string" || query.state !== transaction.state) return fail(c, "state_mismatch");
    const denied = z.safeParse(oauthCallbackError, query);
    if (denied.success) return fail(c, denied.data.error === "access_denied" ? "access_denied" : "sign_in_refused");
    const approved = z.safeParse(oauthCallbackSuccess, query);
    if (!approved.success) return fail(c, "sign_in_refused");

    // The registered redirect URI, not the URL this process was reached at (a proxy may sit in front).
    const callbackUrl = new URL(config.redirectUri);
    callbackUrl.search = new URL(c.req.url).search;
    const exchange = await exchangeCode(client, { callbackUrl, state: transaction.state, nonce: transaction.nonce, codeVerifier: transaction.codeVerifier, now: now() });
    if (exchange.kind === "failed") {
      deps.logger.warn({ reason: exchange.reason }, exchange.error === "code_rejected" ? "standalone sign-in: the code exchange failed" : "standalone sign-in: id_token rejected");
      return fail(c, exchange.error);
    }
    if (exchange.profile.authorizedOrganizations.length === 0) return fail(c, "no_organization");
    deleteCookie(c, LOGIN_COOKIE, cookieOptions);
    // The access token stays on the server (sealed in the session's row): it re-checks the session through userinfo, never reaches the browser.
    await openSession(c, {
      sub: exchange.profile.user.id,
      profile: profileFromTokenResponse(exchange.profile),
      accessToken: exchange.accessToken.value,
      accessTokenExpiresAt: exchange.accessToken.expiresAt ?? now() + SESSION_LIFETIME_MS,
    });
    return c.redirect(transaction.returnTo, 302);
  });

  routes.get("/session", async (c) => {
    c.header("Cache-Control", "no-store");
    const session = await sessionOf(c);
    if (!session) return c.json(z.parse(standaloneSignInState, { signedIn: false }));
    return c.json(
      z.parse(standaloneSignInState, {
        signedIn: true,
        user: { displayName: session.displayName, email: session.email },
        organizations: session.organizations.map((organization) => ({ id: organization.organizationId, name: organization.name, facilityCount: organization.facilities.length })),
        selectedOrganizationId: session.selectedOrganizationId,
        expiresAt: new Date(session.expiresAt).toISOString(),
      }),
    );
  });

  routes.post("/organization", async (c) => {
    const session = await requireSession(c);
    const { organizationId } = await parseJsonBody(c, organizationChoice);
    const chosen = session.organizations.find((organization) => organization.organizationId.toLowerCase() === organizationId.toLowerCase());
    if (!chosen) throw new AppError(403, "forbidden", "You did not share this organization with Tandem when you signed in");
    const installation = await deps.installations.find(chosen.organizationId.toLowerCase());
    if (installation?.status !== "active") throw new AppError(403, "installation_inactive", `Tandem is not active for ${chosen.name}: ask an administrator to install it`);
    if (!(await registry.selectOrganization(session, chosen.organizationId.toLowerCase()))) throw new AppError(401, "invalid_token", "You were signed out: sign in again");
    return c.json({ selectedOrganizationId: chosen.organizationId.toLowerCase() });
  });

  routes.post("/logout", async (c) => {
    if (!isSameOriginWrite(c)) throw new AppError(403, "forbidden", "This request did not come from Tandem's own page");
    const session = await sessionOf(c);
    if (session) await registry.revoke(session, session.sessionId);
    deleteCookie(c, SESSION_COOKIE, cookieOptions);
    deleteCookie(c, LOGIN_COOKIE, cookieOptions);
    return c.json(z.parse(signedOutResponse, { signedOut: true }));
  });

  // The user's own sessions (ADR 0010 "sessions live on the server"): where they are signed in, and ending any of them.
  routes.get("/sessions", async (c) => {
    c.header("Cache-Control", "no-store");
    const session = await sessionOf(c);
    if (!session) throw new AppError(401, "invalid_token", "You are not signed in: sign in again");
    const sessions = await registry.list(session);
    return c.json(
      z.parse(standaloneSessionList, {
        sessions: sessions.map((entry) => ({ ...entry, createdAt: new Date(entry.createdAt).toISOString(), expiresAt: new Date(entry.expiresAt).toISOString() })),
      }),
    );
  });

  routes.delete("/sessions/:sessionId", async (c) => {
    const session = await requireSession(c);
    // Checked before the store sees it: PostgreSQL refuses a NUL in text (issue 34 item 5). Minted lower-case; either case names it.
    const sessionId = parsePathParam(c, "sessionId", standaloneSessionId).toLowerCase();
    if (!(await registry.revoke(session, sessionId))) throw new AppError(404, "not_found", "No such session of yours is signed in");
    if (sessionId === session.sessionId) deleteCookie(c, SESSION_COOKIE, cookieOptions);
    return c.json({ revoked: 1 });
  });

  routes.delete("/sessions", async (c) => {
    const session = await requireSession(c);
    return c.json({ revoked: await registry.revokeOthers(session) });
  });

  function isSameOriginWrite(c: Context): boolean {
    const origin = c.req.header("origin");
    if (origin !== undefined) return origin === appOrigin;
    return c.req.header("sec-fetch-site") === "same-origin";
  }

  return {
    sessionOf,
    confirmed: (session, options) => registry.confirmed(session, options),
    isSameOriginWrite,
    fetchCurrentProfile: (accessToken, expectedSubject) => fetchCurrentProfile(client, deps.logger, accessToken, expectedSubject),
    routes,
  };
}
