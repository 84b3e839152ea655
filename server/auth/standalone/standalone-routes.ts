import type { Context } from "hono";
import { Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import * as z from "zod/mini";
import { standaloneSignInState, type StandaloneSignInError } from "../../../contract/app-api/standalone.ts";
import { oauthCallbackError, oauthCallbackSuccess } from "../../../contract/clinic-api/oauth.ts";
import { isRawUuid } from "../../../contract/ids.ts";
import type { ClinicClient } from "../../clinic/clinic-client.ts";
import type { StandaloneConfig } from "../../env.ts";
import type { AppEnv } from "../../http/app-env.ts";
import { AppError, badRequest } from "../../http/app-error.ts";
import { parseJsonBody } from "../../http/validate.ts";
import type { InstallationRegistry } from "../../installations/installation-registry.ts";
import type { Logger } from "../../logger.ts";
import { createIdTokenVerifier, InvalidIdToken, type IdTokenVerifier } from "./id-token-verifier.ts";
import { pkcePair, randomToken } from "./pkce.ts";
import { createSealer, type Sealer } from "./sealed-value.ts";
import { LOGIN_LIFETIME_MS, loginTransaction, safeReturnPath, sessionFromTokenResponse, standaloneSession, type LoginTransaction, type StandaloneSession } from "./standalone-session.ts";

// Standalone sign-in (DESIGN.md "Standalone mode"; seed 001 "Sign-in for
// standalone apps"): /auth/login sends the browser to the service's
// authorize page with an unpredictable `state` bound to this browser (a sealed
// __Host- cookie), PKCE S256 and a nonce; /auth/callback checks `state`,
// exchanges the code with the data key, verifies the id_token and sets the
// sealed __Host- session cookie. The organization is picked among the ones
// the user shared. Every failure ends on the SPA's sign-in page with a code
// saying what happened (never with text from the request).

const SESSION_COOKIE = "tandem-session";
const LOGIN_COOKIE = "tandem-login";
const cookieOptions = { path: "/", secure: true, httpOnly: true, sameSite: "Lax", prefix: "host" } as const;

export interface StandaloneAuth {
  /** The signed-in standalone session of this request, if any (expired or tampered cookies are ignored). */
  sessionOf(c: Context): StandaloneSession | null;
  /** Whether a cookie-authenticated write comes from this app's own pages (SameSite=Lax already stops cross-site ones). */
  isSameOriginWrite(c: Context): boolean;
  routes: Hono<AppEnv>;
}

export interface StandaloneDeps {
  config: StandaloneConfig;
  publicUrl: string;
  slug: string;
  clinic: ClinicClient;
  installations: InstallationRegistry;
  logger: Logger;
  now: () => number;
  /** The JWKS fetch; defaults to `fetch`. */
  fetch?: typeof fetch | undefined;
  verifyIdToken?: IdTokenVerifier;
}

const organizationChoice = z.strictObject({ organizationId: z.string().check(z.minLength(1)) });

export function createStandaloneAuth(deps: StandaloneDeps): StandaloneAuth {
  const { config, now } = deps;
  const sessions: Sealer<StandaloneSession> = createSealer(config.sessionSecret, "standalone-session", standaloneSession);
  const logins: Sealer<LoginTransaction> = createSealer(config.sessionSecret, "standalone-login", loginTransaction);
  const verifyIdToken = deps.verifyIdToken ?? createIdTokenVerifier({ issuer: config.issuer, jwksUrl: config.jwksUrl, audience: deps.slug, now, fetch: deps.fetch });
  const appOrigin = new URL(deps.publicUrl).origin;

  const sessionOf = (c: Context): StandaloneSession | null => {
    const session = sessions.unseal(getCookie(c, SESSION_COOKIE, "host"));
    return session && session.expiresAt > now() ? session : null;
  };
  const writeSession = (c: Context, session: StandaloneSession) => {
    setCookie(c, SESSION_COOKIE, sessions.seal(session), { ...cookieOptions, maxAge: Math.max(1, Math.floor((session.expiresAt - now()) / 1000)) });
  };
  const fail = (c: Context, error: StandaloneSignInError) => {
    deleteCookie(c, LOGIN_COOKIE, cookieOptions);
    return c.redirect(`/signin?error=${error}`, 302);
  };

  const routes = new Hono<AppEnv>();

  routes.get("/login", (c) => {
    const { verifier, challenge } = pkcePair();
    const transaction: LoginTransaction = {
      state: randomToken(),
      codeVerifier: verifier,
      nonce: randomToken(),
      returnTo: safeReturnPath(c.req.query("returnTo")),
      expiresAt: now() + LOGIN_LIFETIME_MS,
    };
    setCookie(c, LOGIN_COOKIE, logins.seal(transaction), { ...cookieOptions, maxAge: LOGIN_LIFETIME_MS / 1000 });
    const authorize = new URL(config.authorizeUrl);
    authorize.search = new URLSearchParams({
      response_type: "code",
      client_id: deps.slug,
      redirect_uri: config.redirectUri,
      state: transaction.state,
      code_challenge: challenge,
      code_challenge_method: "S256",
      nonce: transaction.nonce,
      // "Change organizations" asks for the consent screen again.
      ...(c.req.query("prompt") === "consent" ? { prompt: "consent" } : {}),
    }).toString();
    c.header("Cache-Control", "no-store");
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

    let data;
    try {
      data = await deps.clinic.request("POST /v3/oauth/token", {
        body: { grant_type: "authorization_code", code: approved.data.code, redirect_uri: config.redirectUri, code_verifier: transaction.codeVerifier, client_id: deps.slug },
      });
    } catch (error) {
      deps.logger.warn({ err: error }, "standalone sign-in: the code exchange failed");
      return fail(c, "code_rejected");
    }
    try {
      const claims = await verifyIdToken(data.id_token, transaction.nonce);
      if (claims.sub.toLowerCase() !== data.user.id.toLowerCase()) throw new InvalidIdToken("the id_token names another user than the profile");
    } catch (error) {
      deps.logger.warn({ reason: error instanceof Error ? error.message : "unknown" }, "standalone sign-in: id_token rejected");
      return fail(c, "identity_not_verified");
    }
    if (data.authorizedOrganizations.length === 0) return fail(c, "no_organization");
    deleteCookie(c, LOGIN_COOKIE, cookieOptions);
    writeSession(c, sessionFromTokenResponse(data, now()));
    return c.redirect(transaction.returnTo, 302);
  });

  routes.get("/session", (c) => {
    c.header("Cache-Control", "no-store");
    const session = sessionOf(c);
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
    if (!isSameOriginWrite(c)) throw new AppError(403, "forbidden", "This request did not come from Tandem's own page");
    const session = sessionOf(c);
    if (!session) throw new AppError(401, "invalid_token", "You are not signed in: sign in again");
    const { organizationId } = await parseJsonBody(c, organizationChoice);
    if (!isRawUuid(organizationId)) throw badRequest("organizationId: must be an organization id (a UUID)");
    const chosen = session.organizations.find((organization) => organization.organizationId.toLowerCase() === organizationId.toLowerCase());
    if (!chosen) throw new AppError(403, "forbidden", "You did not share this organization with Tandem when you signed in");
    const installation = await deps.installations.find(chosen.organizationId.toLowerCase());
    if (installation?.status !== "active") throw new AppError(403, "installation_inactive", `Tandem is not active for ${chosen.name}: ask an administrator to install it`);
    writeSession(c, { ...session, selectedOrganizationId: chosen.organizationId.toLowerCase() });
    return c.json({ selectedOrganizationId: chosen.organizationId.toLowerCase() });
  });

  routes.post("/logout", (c) => {
    if (!isSameOriginWrite(c)) throw new AppError(403, "forbidden", "This request did not come from Tandem's own page");
    deleteCookie(c, SESSION_COOKIE, cookieOptions);
    deleteCookie(c, LOGIN_COOKIE, cookieOptions);
    return c.json({ signedOut: true });
  });

  function isSameOriginWrite(c: Context): boolean {
    const origin = c.req.header("origin");
    if (origin !== undefined) return origin === appOrigin;
    return c.req.header("sec-fetch-site") === "same-origin";
  }

  return { sessionOf, isSameOriginWrite, routes };
}
