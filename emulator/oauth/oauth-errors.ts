import type { Context } from "hono";

// Errors of the OAuth endpoints in OAuth's own form, not the service's
// envelope: a JSON `{error, error_description}` (RFC 6749 5.2), and on a 401
// a Bearer challenge (RFC 6750 3) naming the error, with no description in
// the header (the body has it; the header's character set is narrow).

export const OAUTH_REALM = "Clinic Data Service";

/** RFC 6749 5.1: token responses, and so their errors, are never cached. */
export const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" } as const;

/** `Bearer realm="…"`, with `error="…"` when there is one (RFC 6750 3.1: none when the request carried no credentials). */
export function bearerChallenge(error: string | null): string {
  return error === null ? `Bearer realm="${OAUTH_REALM}"` : `Bearer realm="${OAUTH_REALM}", error="${error}"`;
}

export function oauthError(c: Context, status: 400 | 401, error: string, description: string, challenge?: string) {
  return c.json({ error, error_description: description }, status, { ...NO_STORE, ...(challenge === undefined ? {} : { "WWW-Authenticate": challenge }) });
}
