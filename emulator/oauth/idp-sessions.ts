import { randomBytes } from "node:crypto";
import type { Clock } from "../clock.ts";

// The sandbox identity provider's sign-in sessions, one per browser: an
// HttpOnly cookie on the emulator's origin (SameSite=Lax, Path=/oauth) names
// one. Times are the emulator's clock.

export const IDP_SESSION_COOKIE = "svc_idp_session";
export const IDP_SESSION_LIFETIME_SECONDS = 12 * 3600;

export interface IdpSession {
  id: string;
  accountId: string;
  /** Epoch ms of the sign-in: the id_token's `auth_time`. */
  authTime: number;
  expiresAt: number;
}

export class IdpSessions {
  private sessions = new Map<string, IdpSession>();

  constructor(private readonly clock: Clock) {}

  start(accountId: string): IdpSession {
    const now = this.clock.now();
    for (const [id, session] of this.sessions) if (session.expiresAt <= now) this.sessions.delete(id);
    const session = { id: randomBytes(24).toString("base64url"), accountId, authTime: now, expiresAt: now + IDP_SESSION_LIFETIME_SECONDS * 1000 };
    this.sessions.set(session.id, session);
    return session;
  }

  get(id: string | undefined): IdpSession | undefined {
    const session = id === undefined ? undefined : this.sessions.get(id);
    return session && session.expiresAt > this.clock.now() ? session : undefined;
  }

  end(id: string | undefined): void {
    if (id !== undefined) this.sessions.delete(id);
  }

  clear(): void {
    this.sessions.clear();
  }
}
