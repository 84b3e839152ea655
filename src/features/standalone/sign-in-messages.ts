import { STANDALONE_SIGN_IN_ERRORS, type StandaloneSignInError } from "#contract/app-api/standalone.ts";

// What the sign-in page says when a sign-in came back without a session
// (/signin?error=…). Only known codes are shown; the query's text never is.

const MESSAGES: Record<StandaloneSignInError, { title: string; detail: string }> = {
  access_denied: { title: "You did not allow Tandem", detail: "Nothing was shared. Sign in again and choose Allow to use Tandem." },
  state_mismatch: { title: "This sign-in did not start here", detail: "Tandem stopped it because it did not begin in this browser. Sign in again from this page." },
  sign_in_expired: { title: "The sign-in took too long", detail: "Sign-ins must finish within 10 minutes. Sign in again." },
  sign_in_refused: { title: "The sign-in service refused the request", detail: "Sign in again. If it keeps happening, contact support." },
  code_rejected: { title: "The sign-in code was expired or already used", detail: "A code works once, for 10 minutes. Sign in again." },
  identity_not_verified: { title: "Tandem could not verify who signed in", detail: "The identity token did not check out, so you were not signed in. Sign in again." },
  no_organization: { title: "No organization was shared with Tandem", detail: "Sign in again and choose at least one organization." },
};

export function signInErrorMessage(code: string | null): { title: string; detail: string } | null {
  if (code === null) return null;
  return (STANDALONE_SIGN_IN_ERRORS as readonly string[]).includes(code) ? MESSAGES[code as StandaloneSignInError] : MESSAGES.sign_in_refused;
}
