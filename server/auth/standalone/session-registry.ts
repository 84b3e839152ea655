import { createHash, randomBytes, randomUUID } from "node:crypto";
import * as z from "zod/mini";
import { APP_ERROR_CODES } from "#contract/app-api/errors.ts";
import { AppError } from "../../http/app-error.ts";
import type { StreamRevocation } from "../../events/stream-revocation.ts";
import type { Logger } from "../../logger.ts";
import type { StandaloneSessionRepository, StoredStandaloneSession } from "../../store/store.ts";
import type { CurrentProfile } from "./current-profile.ts";
import type { Sealer } from "./sealed-value.ts";
import { accessChanged, SESSION_LIFETIME_MS, standaloneProfile, type StandaloneProfile, type StandaloneSession } from "./standalone-session.ts";

// Server-side standalone sessions (ADR 0010 "sessions live on the server"). The
// browser's cookie carries a random secret; the store keeps its SHA-256 and
// what the service last said of the user. Sign-out revokes the row, so a
// copied cookie stops working at once in every BFF process. The user's roles
// and active status are re-checked with the service (its userinfo, with the
// access token of the sign-in) when the last check is older than
// REVERIFY_AFTER_MS and before every write: a user made inactive or given
// another role in the EHR loses what they may no longer do within minutes,
// and cannot change anything once the EHR has changed them. Whatever ends a
// session, or finds the user's access changed, is told (`onEnded`), so their
// open live-event streams end with it on every BFF process.

export const REVERIFY_AFTER_MS = 5 * 60 * 1000;
/** Ended sessions are kept this long for the user's own list, then purged. */
export const ENDED_RETENTION_MS = 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 10 * 60 * 1000;

/** What the service says of the user now: its userinfo, for the session's access token and user (current-profile.ts). */
export type CheckProfile = (accessToken: string, expectedSubject: string) => Promise<CurrentProfile>;

export interface SignInResult {
  sub: string;
  profile: StandaloneProfile;
  accessToken: string;
  /** Epoch ms; the session ends no later than this, since it can no longer be re-checked after. */
  accessTokenExpiresAt: number;
}

export interface SessionListEntry {
  id: string;
  createdAt: number;
  expiresAt: number;
  userAgent: string | null;
  current: boolean;
}

export interface StandaloneSessionRegistry {
  /** Records a new session and answers the secret for the browser's cookie. */
  open(signIn: SignInResult, userAgent: string | undefined): Promise<{ secret: string; session: StandaloneSession }>;
  /** The live session the cookie's secret names, or null (unknown, revoked, expired). */
  find(secret: string | undefined): Promise<StandaloneSession | null>;
  /**
   * The session with the service's current word on the user: re-checked when
   * `write` or when the last check is older than REVERIFY_AFTER_MS. Throws
   * 401 when the service no longer knows the sign-in (the session is
   * revoked), 503 when it cannot be asked.
   */
  confirmed(session: StandaloneSession, options: { write: boolean }): Promise<StandaloneSession>;
  selectOrganization(session: StandaloneSession, organizationId: string): Promise<boolean>;
  revoke(session: StandaloneSession, sessionId: string): Promise<boolean>;
  revokeOthers(session: StandaloneSession): Promise<number>;
  list(session: StandaloneSession): Promise<SessionListEntry[]>;
}

export interface SessionRegistryDeps {
  repository: StandaloneSessionRepository;
  /** Seals the access token at rest (a purpose of its own, from SESSION_SECRET). */
  accessTokens: Sealer<string>;
  checkProfile: CheckProfile;
  logger: Logger;
  now: () => number;
  /** Sessions signed out or revoked, or a user whose access changed: what they hold open ends. */
  onEnded?: (ended: SessionsEnded) => void;
}

/** The sessions whose live streams must end: one, or a user's (all, or all but one). */
export type SessionsEnded = Extract<StreamRevocation, { scope: "session" | "user" }>;

const hashOf = (secret: string) => createHash("sha256").update(secret).digest("hex");
/** A cookie's secret: 32 random bytes, base64url (43 characters). */
const SECRET_FORM = /^[A-Za-z0-9_-]{43}$/;
const MAX_USER_AGENT = 200;

export function createSessionRegistry(deps: SessionRegistryDeps): StandaloneSessionRegistry {
  const { repository, now } = deps;
  // One re-check per session at a time in this process: a page's parallel reads share it.
  const inFlight = new Map<string, Promise<StandaloneSession>>();
  let lastPurge = 0;

  function toSession(stored: StoredStandaloneSession): StandaloneSession | null {
    const profile = z.safeParse(standaloneProfile, stored.profile);
    if (!profile.success) return null;
    return {
      ...profile.data,
      sessionId: stored.sessionId,
      sub: stored.userId,
      selectedOrganizationId: stored.selectedOrganizationId,
      sealedAccessToken: stored.sealedAccessToken,
      createdAt: stored.createdAt,
      expiresAt: stored.expiresAt,
      verifiedAt: stored.verifiedAt,
    };
  }

  function purgeNowAndThen(at: number): void {
    if (at - lastPurge < PURGE_EVERY_MS) return;
    lastPurge = at;
    repository.purgeEndedBefore(at - ENDED_RETENTION_MS).catch((error: unknown) => deps.logger.warn({ err: error }, "purging ended standalone sessions failed"));
  }

  async function recheck(session: StandaloneSession): Promise<StandaloneSession> {
    const accessToken = deps.accessTokens.unseal(session.sealedAccessToken ?? undefined);
    const check: CurrentProfile = accessToken === null ? { kind: "revoked" } : await deps.checkProfile(accessToken, session.sub);
    const at = now();
    switch (check.kind) {
      case "unavailable":
        throw new AppError(503, APP_ERROR_CODES.upstreamUnavailable, "Tandem could not confirm your access with the clinic data service: try again in a moment", { retry_after_seconds: 30 }, { "Retry-After": "30" });
      case "revoked":
        await repository.revoke(session.sub, session.sessionId, at);
        deps.onEnded?.({ scope: "session", sessionId: session.sessionId });
        deps.logger.info({ sessionId: session.sessionId }, "standalone session revoked: the service no longer confirms the sign-in");
        throw new AppError(401, APP_ERROR_CODES.invalidToken, "Your sign-in is no longer valid: sign in again");
      case "ok": {
        const profile: StandaloneProfile = { displayName: session.displayName, ...check.profile };
        if (!(await repository.recordVerified(session.sessionId, profile, at))) {
          throw new AppError(401, APP_ERROR_CODES.invalidToken, "You were signed out: sign in again");
        }
        if (accessChanged(session, profile)) {
          // Roles or organizations changed in the EHR: the user's streams reconnect under what the service says now.
          deps.onEnded?.({ scope: "user", userId: session.sub, exceptSessionId: null });
          deps.logger.info({ sessionId: session.sessionId }, "standalone user's access changed at the re-check; their live streams end");
        }
        return { ...session, ...profile, verifiedAt: at };
      }
    }
  }

  return {
    async open(signIn, userAgent) {
      const at = now();
      const secret = randomBytes(32).toString("base64url");
      const only = signIn.profile.organizations.length === 1 ? signIn.profile.organizations[0] : undefined;
      const stored: StoredStandaloneSession = {
        secretHash: hashOf(secret),
        sessionId: randomUUID(),
        userId: signIn.sub,
        profile: signIn.profile,
        // One shared organization needs no picking.
        selectedOrganizationId: only ? only.organizationId.toLowerCase() : null,
        sealedAccessToken: deps.accessTokens.seal(signIn.accessToken),
        userAgent: userAgent ? userAgent.slice(0, MAX_USER_AGENT) : null,
        createdAt: at,
        expiresAt: Math.min(at + SESSION_LIFETIME_MS, signIn.accessTokenExpiresAt),
        verifiedAt: at,
        revokedAt: null,
      };
      await repository.insert(stored);
      purgeNowAndThen(at);
      const session = toSession(stored);
      if (!session) throw new Error("a new standalone session did not match its own schema");
      return { secret, session };
    },

    async find(secret) {
      if (secret === undefined || !SECRET_FORM.test(secret)) return null;
      const stored = await repository.findBySecretHash(hashOf(secret));
      if (!stored || stored.revokedAt !== null || stored.expiresAt <= now()) return null;
      return toSession(stored);
    },

    async confirmed(session, { write }) {
      if (!write && now() - session.verifiedAt < REVERIFY_AFTER_MS) return session;
      const running = inFlight.get(session.sessionId);
      // A write waits for a check that started before it only if it is a fresh one: it is its own check.
      if (running && !write) return running;
      const check = recheck(session).finally(() => {
        if (inFlight.get(session.sessionId) === check) inFlight.delete(session.sessionId);
      });
      inFlight.set(session.sessionId, check);
      return check;
    },

    selectOrganization: (session, organizationId) => repository.selectOrganization(session.sessionId, organizationId),

    async revoke(session, sessionId) {
      // Only the user's own session is revoked, and only then are streams ended: another user's id changes nothing.
      const revoked = await repository.revoke(session.sub, sessionId, now());
      if (revoked) deps.onEnded?.({ scope: "session", sessionId });
      return revoked;
    },

    async revokeOthers(session) {
      const revoked = await repository.revokeAllOfUser(session.sub, now(), session.sessionId);
      if (revoked > 0) deps.onEnded?.({ scope: "user", userId: session.sub, exceptSessionId: session.sessionId });
      return revoked;
    },

    async list(session) {
      const live = await repository.listLive(session.sub, now());
      return live.map((stored) => ({ id: stored.sessionId, createdAt: stored.createdAt, expiresAt: stored.expiresAt, userAgent: stored.userAgent, current: stored.sessionId === session.sessionId }));
    },
  };
}
