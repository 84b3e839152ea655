import type { MiddlewareHandler } from "hono";
import { APP_ERROR_CODES } from "#contract/app-api/errors.ts";
import { AppError } from "../http/app-error.ts";
import type { AppEnv } from "../http/app-env.ts";
import type { InstallationRegistry } from "../installations/installation-registry.ts";
import type { UsedTokenIdRepository } from "../store/store.ts";
import type { AccountAdoption } from "./account-adoption.ts";
import { personKeyOf } from "./person-key.ts";
import { InvalidHostToken, acceptedUntilMs, type HostSession, type HostTokenVerifier } from "./host-token-verifier.ts";
import type { StandaloneAuth } from "./standalone/standalone-routes.ts";
import type { StandaloneSession } from "./standalone/standalone-session.ts";

// DESIGN.md "The host bridge" 3: every /api request carries a verified host
// token; the organization comes from `org_id` and nothing else; it must have
// an active installation; a write's token is spent (its jti is remembered
// until exp). Mounted on /api/* so no route can forget it. Outside the EHR,
// a standalone sign-in's sealed session cookie stands in for the token: the
// organization is the one the user picked among those they shared, and a
// cookie-authenticated write must come from this app's own pages.

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/**
 * Reads sent as POST because they carry a body: they change nothing, so their token is not spent (the SPA sends
 * them with the token it holds, not one fresh from the EHR: the check before a hold is on the click's path).
 */
const READS_SENT_AS_POST = new Set(["/api/slots/check"]);

/** Whether the request is a write, whose token is spent (DESIGN.md "The host bridge" 3). */
function isWriteRequest(method: string, path: string): boolean {
  return !READ_METHODS.has(method) && !(method === "POST" && READS_SENT_AS_POST.has(path));
}

/**
 * The standalone session as the routes see a host session. The service's
 * latest word decides: an organization where it no longer names the user as
 * an active provider (made inactive, or no longer shared) is refused.
 */
function standaloneHostSession(session: StandaloneSession, organizationId: string): HostSession {
  const organization = session.organizations.find((candidate) => candidate.organizationId.toLowerCase() === organizationId);
  const provider = session.providers.find((candidate) => candidate.organizationId.toLowerCase() === organizationId);
  if (!organization || !provider) {
    throw new AppError(403, APP_ERROR_CODES.accountInactive, "Your account is not active in this organization: ask its administrator, or sign in again to choose another");
  }
  const providerId = provider.providerId.toLowerCase();
  return {
    kind: "standalone",
    userId: personKeyOf({ providerId, accountId: session.sub }),
    accountId: session.sub,
    displayName: session.displayName,
    sessionId: session.sessionId,
    providerId,
    organizationId,
    roles: provider.roles,
    facilityId: null,
    patientId: null,
    noteId: null,
    jti: "",
    expiresAt: Math.floor(session.expiresAt / 1000),
  };
}

export function requireHostSession(deps: {
  verify: HostTokenVerifier;
  installations: InstallationRegistry;
  usedTokenIds: UsedTokenIdRepository;
  standalone?: StandaloneAuth | null;
  /** Files the account's rows from before person keys under its person (ADR 0024), before any route reads them. */
  adoptAccountRows?: AccountAdoption;
}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization");
    let session: HostSession;
    const standalone = header === undefined ? (deps.standalone ?? null) : null;
    const signedIn = standalone ? await standalone.sessionOf(c) : null;
    if (standalone && signedIn) {
      if (signedIn.selectedOrganizationId === null) throw new AppError(403, "organization_not_chosen", "Choose an organization first");
      const write = !READ_METHODS.has(c.req.method);
      if (write && !standalone.isSameOriginWrite(c)) throw new AppError(403, "forbidden", "This change did not come from Tandem's own page");
      session = standaloneHostSession(await standalone.confirmed(signedIn, { write }), signedIn.selectedOrganizationId);
    } else {
      if (!header?.startsWith("Bearer ")) {
        throw new AppError(401, APP_ERROR_CODES.invalidToken, "Your EHR session token is missing: open Tandem from inside your EHR, or sign in");
      }
      try {
        session = await deps.verify(header.slice("Bearer ".length).trim());
      } catch (error) {
        if (error instanceof InvalidHostToken) throw new AppError(401, APP_ERROR_CODES.invalidToken, `Your EHR session could not be verified: ${error.message}`);
        throw error;
      }
    }

    const claimedOrganization = c.req.header("x-organization-id");
    if (claimedOrganization !== undefined && claimedOrganization.toLowerCase() !== session.organizationId) {
      throw new AppError(403, "forbidden", "X-Organization-Id does not match the organization of your EHR session");
    }

    const installation = await deps.installations.find(session.organizationId);
    if (!installation) {
      throw new AppError(403, APP_ERROR_CODES.installationInactive, "Tandem is not installed for this organization: ask an administrator to install it");
    }
    if (installation.status !== "active") {
      throw new AppError(403, APP_ERROR_CODES.installationInactive, `Tandem's installation for this organization is ${installation.status}: ask an administrator to reactivate it`);
    }

    if (session.kind === "host" && isWriteRequest(c.req.method, c.req.path) && !(await deps.usedTokenIds.remember(session.jti, acceptedUntilMs(session)))) {
      throw new AppError(401, APP_ERROR_CODES.tokenReplayed, "This EHR session token was already used for a change: the app asks the EHR for a fresh one before each change");
    }

    await deps.adoptAccountRows?.(session, c.get("logger"));
    c.set("session", session);
    c.set("installation", installation);
    c.set("grantedScopes", deps.installations.grantedScopes(installation));
    await next();
  };
}
