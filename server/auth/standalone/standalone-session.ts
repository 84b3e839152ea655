import * as z from "zod/mini";
import type { AuthorizedOrganization, OAuthTokenProfile, OAuthUserInfo, OAuthUserProvider } from "../../../contract/clinic-api/oauth.ts";
import { rawUuid } from "../../../contract/clinic-api/primitives.ts";
import { toRawUuid } from "../../../contract/ids.ts";

// What a standalone sign-in leaves in the browser's sealed session cookie
// (DESIGN.md "Standalone mode"): who the id_token said the user is, the
// organizations they shared with their facilities, their provider in each,
// and the organization picked. Nothing here comes from the client unsealed.
// Ids are kept as raw UUIDs, the form a host token's claims have, whatever
// form the service sent (v3's `prv_` and `fac_` in the token response).

/** Absolute lifetime of a standalone session; the user signs in again after it. */
export const SESSION_LIFETIME_MS = 8 * 60 * 60 * 1000;
/** A sign-in must come back within this long (the authorization code itself lives 10 minutes). */
export const LOGIN_LIFETIME_MS = 10 * 60 * 1000;

export const sessionProvider = z.object({ organizationId: rawUuid, providerId: rawUuid, roles: z.array(z.string()) });
export type SessionProvider = z.infer<typeof sessionProvider>;

export const sessionOrganization = z.object({
  organizationId: rawUuid,
  name: z.string(),
  facilities: z.array(z.object({ id: rawUuid, name: z.string(), timezone: z.string() })),
});
export type SessionOrganization = z.infer<typeof sessionOrganization>;

export const standaloneSession = z.object({
  v: z.literal(1),
  /** The id_token's `sub`: the account. */
  sub: z.string(),
  displayName: z.string(),
  email: z.string(),
  providers: z.array(sessionProvider),
  organizations: z.array(sessionOrganization),
  selectedOrganizationId: z.nullable(z.string()),
  issuedAt: z.number(),
  expiresAt: z.number(),
});
export type StandaloneSession = z.infer<typeof standaloneSession>;

/** The sign-in in progress, bound to the browser that started it. */
export const loginTransaction = z.object({
  state: z.string(),
  codeVerifier: z.string(),
  nonce: z.string(),
  /** A path of this app to land on afterwards. */
  returnTo: z.string(),
  expiresAt: z.number(),
});
export type LoginTransaction = z.infer<typeof loginTransaction>;

const toSessionProvider = (provider: OAuthUserProvider): SessionProvider => ({
  organizationId: provider.organizationId.toLowerCase(),
  providerId: toRawUuid(provider.providerId),
  roles: [...provider.roles],
});

const toSessionOrganization = (organization: AuthorizedOrganization): SessionOrganization => ({
  organizationId: organization.organizationId.toLowerCase(),
  name: organization.name,
  facilities: organization.facilities.map((facility) => ({ id: toRawUuid(facility.id), name: facility.name, timezone: facility.timezone })),
});

export function sessionFromTokenResponse(profile: OAuthTokenProfile, now: number): StandaloneSession {
  const organizations = profile.authorizedOrganizations.map(toSessionOrganization);
  const only = organizations.length === 1 ? organizations[0] : undefined;
  return {
    v: 1,
    sub: profile.user.id,
    displayName: profile.user.displayName,
    email: profile.user.email,
    providers: profile.user.providers.map(toSessionProvider),
    organizations,
    // One shared organization needs no picking.
    selectedOrganizationId: only ? only.organizationId : null,
    issuedAt: now,
    expiresAt: now + SESSION_LIFETIME_MS,
  };
}

/** The user as the service says they are now (userinfo), in the session's terms. */
export interface CurrentProfileData {
  sub: string;
  email: string;
  name: string;
  providers: SessionProvider[];
  organizations: SessionOrganization[];
}

export function profileFromUserInfo(info: OAuthUserInfo): CurrentProfileData {
  return {
    sub: info.sub,
    email: info.email,
    name: info.name,
    providers: info.providers.map(toSessionProvider),
    organizations: info.authorizedOrganizations.map(toSessionOrganization),
  };
}

/** The SPA's own routes (src/routes/): the only places a sign-in returns to. */
const APP_ROUTES: ReadonlySet<string> = new Set(["/", "/slots", "/availability", "/note"]);
// C0 controls and DEL: browsers drop tabs and newlines from URLs, so "/\t/host" becomes "//host", another site.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * Only a path of one of this app's routes, with its query (`/slots?x=1`);
 * anything else (another origin, a scheme-relative or backslashed URL,
 * control characters, `//` anywhere, an unknown path) returns to `/`.
 */
export function safeReturnPath(value: string | undefined): string {
  if (!value || value.length > 512 || !value.startsWith("/") || CONTROL_CHARACTERS.test(value) || value.includes("\\")) return "/";
  const queryAt = value.search(/[?#]/);
  const path = queryAt === -1 ? value : value.slice(0, queryAt);
  if (path.includes("//") || !APP_ROUTES.has(path)) return "/";
  const base = "http://tandem.invalid";
  const parsed = new URL(value, base);
  if (parsed.origin !== base || parsed.pathname !== path) return "/";
  return `${parsed.pathname}${parsed.search}`;
}
