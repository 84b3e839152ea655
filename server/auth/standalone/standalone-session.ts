import * as z from "zod/mini";
import type { AuthorizedOrganization, OAuthTokenProfile, OAuthUserInfo, OAuthUserProvider } from "#contract/clinic-api/oauth.ts";
import { rawUuid } from "#contract/clinic-api/primitives.ts";
import { toRawUuid } from "#contract/ids.ts";

// A standalone sign-in's session (DESIGN.md "Standalone mode"; ADR
// 0010): who the id_token said the user is, the organizations they shared
// with their facilities, their provider and roles in each as the service last
// confirmed them, and the organization picked. Kept server-side
// (session-registry.ts); the browser holds only a random secret. Ids are kept
// as raw UUIDs, the form a host token's claims have, whatever form the
// service sent (v3's `prv_` and `fac_` in the token response).

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

/** What the service says of the user: at sign-in (the token response) and at each re-check (userinfo). */
export const standaloneProfile = z.object({
  displayName: z.string(),
  email: z.string(),
  providers: z.array(sessionProvider),
  organizations: z.array(sessionOrganization),
});
export type StandaloneProfile = z.infer<typeof standaloneProfile>;

export interface StandaloneSession extends StandaloneProfile {
  /** What the user's session list shows; not a credential. */
  sessionId: string;
  /** The id_token's `sub`: the account. */
  sub: string;
  selectedOrganizationId: string | null;
  /** The service's access token, sealed: the re-check's credential. */
  sealedAccessToken: string | null;
  createdAt: number;
  expiresAt: number;
  /** When the service last confirmed the profile. */
  verifiedAt: number;
}

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

export function profileFromTokenResponse(profile: OAuthTokenProfile): StandaloneProfile {
  return {
    displayName: profile.user.displayName,
    email: profile.user.email,
    providers: profile.user.providers.map(toSessionProvider),
    organizations: profile.authorizedOrganizations.map(toSessionOrganization),
  };
}

/** What a re-check can change: the name shown stays the sign-in's (userinfo's `name` is a plainer form of it). */
export type RecheckedProfile = Omit<StandaloneProfile, "displayName">;

/** The user as the service says they are now (userinfo), in the session's terms. */
export function profileFromUserInfo(info: OAuthUserInfo): { sub: string; profile: RecheckedProfile } {
  return {
    sub: info.sub,
    profile: {
      email: info.email,
      providers: info.providers.map(toSessionProvider),
      organizations: info.authorizedOrganizations.map(toSessionOrganization),
    },
  };
}

/** One organization's access as a comparable text: the provider and its roles, in any order. */
const accessKeys = (profile: Pick<StandaloneProfile, "providers" | "organizations">): string[] =>
  [
    ...profile.providers.map((provider) => `provider ${provider.organizationId.toLowerCase()} ${provider.providerId.toLowerCase()} ${[...provider.roles].sort().join(",")}`),
    ...profile.organizations.map((organization) => `organization ${organization.organizationId.toLowerCase()}`),
  ].sort();

/** Whether a re-check found other roles, providers or shared organizations than the session held. */
export function accessChanged(before: Pick<StandaloneProfile, "providers" | "organizations">, after: Pick<StandaloneProfile, "providers" | "organizations">): boolean {
  const [was, is] = [accessKeys(before), accessKeys(after)];
  return was.length !== is.length || was.some((key, index) => key !== is[index]);
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
