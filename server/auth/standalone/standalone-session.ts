import * as z from "zod/mini";
import { authorizedOrganization, oauthUserProvider, type OAuthTokenData } from "../../../contract/clinic-api/oauth.ts";

// What a standalone sign-in leaves in the browser's sealed session cookie
// (DESIGN.md "Standalone mode"): who the id_token said the user is, the
// organizations they shared with their facilities, their provider in each,
// and the organization picked. Nothing here comes from the client unsealed.

/** Absolute lifetime of a standalone session; the user signs in again after it. */
export const SESSION_LIFETIME_MS = 8 * 60 * 60 * 1000;
/** A sign-in must come back within this long (the authorization code itself lives 10 minutes). */
export const LOGIN_LIFETIME_MS = 10 * 60 * 1000;

export const standaloneSession = z.object({
  v: z.literal(1),
  /** The id_token's `sub`: the account. */
  sub: z.string(),
  displayName: z.string(),
  email: z.string(),
  providers: z.array(oauthUserProvider),
  organizations: z.array(authorizedOrganization),
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

export function sessionFromTokenResponse(data: OAuthTokenData, now: number): StandaloneSession {
  const only = data.authorizedOrganizations.length === 1 ? data.authorizedOrganizations[0] : undefined;
  return {
    v: 1,
    sub: data.user.id,
    displayName: data.user.displayName,
    email: data.user.email,
    providers: data.user.providers,
    organizations: data.authorizedOrganizations,
    // One shared organization needs no picking.
    selectedOrganizationId: only ? only.organizationId.toLowerCase() : null,
    issuedAt: now,
    expiresAt: now + SESSION_LIFETIME_MS,
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
