import { randomBytes } from "node:crypto";
import type { Clock } from "../clock.ts";
import type { AuthorizationRequest } from "./authorization-request.ts";
import { constantTimeEqual } from "./pkce.ts";

// Authorize requests waiting for the user (sign-in, consent). Each is bound
// to the browser that opened it by a cookie whose value the forms repeat as
// their CSRF token: a form posted from elsewhere, or with another browser's
// request id, is refused (this also stops login CSRF).

export const BROWSER_COOKIE = "svc_oauth_browser";
const PENDING_LIFETIME_MS = 60 * 60 * 1000;

export interface PendingAuthorization {
  id: string;
  /** The browser cookie's value, also the forms' CSRF token. */
  browser: string;
  request: AuthorizationRequest;
  /** Set once the consent page was shown to this account. */
  accountId: string | null;
  expiresAt: number;
}

export const newBrowserToken = () => randomBytes(24).toString("base64url");

export class PendingAuthorizations {
  private pending = new Map<string, PendingAuthorization>();

  constructor(private readonly clock: Clock) {}

  create(browser: string, request: AuthorizationRequest): PendingAuthorization {
    const now = this.clock.now();
    for (const [id, entry] of this.pending) if (entry.expiresAt <= now) this.pending.delete(id);
    const entry = { id: randomBytes(18).toString("base64url"), browser, request, accountId: null, expiresAt: now + PENDING_LIFETIME_MS };
    this.pending.set(entry.id, entry);
    return entry;
  }

  /** The request, when it exists, is unexpired, and both the cookie and the form's token are this browser's. */
  find(id: string, browserCookie: string | undefined, csrfToken: string): PendingAuthorization | undefined {
    const entry = this.pending.get(id);
    if (!entry || entry.expiresAt <= this.clock.now()) return undefined;
    return browserCookie !== undefined && constantTimeEqual(browserCookie, entry.browser) && constantTimeEqual(csrfToken, entry.browser) ? entry : undefined;
  }

  delete(id: string): void {
    this.pending.delete(id);
  }

  clear(): void {
    this.pending.clear();
  }
}
