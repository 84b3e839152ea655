import { and, desc, eq, gt, isNull, lt, ne, or } from "drizzle-orm";
import type { StandaloneSessionRepository, StoredStandaloneSession } from "./store.ts";
import type { StoreDatabase } from "./database.ts";
import { dateFromEpochMs } from "./instants.ts";
import { purgeBatch } from "./purge-batch.ts";
import { standaloneSessions } from "./schema.ts";

function toSession(row: typeof standaloneSessions.$inferSelect): StoredStandaloneSession {
  return {
    secretHash: row.secretHash,
    sessionId: row.sessionId,
    userId: row.userId,
    profile: row.profile,
    selectedOrganizationId: row.selectedOrganizationId,
    sealedAccessToken: row.sealedAccessToken,
    userAgent: row.userAgent,
    createdAt: row.createdAt.getTime(),
    expiresAt: row.expiresAt.getTime(),
    verifiedAt: row.verifiedAt.getTime(),
    revokedAt: row.revokedAt?.getTime() ?? null,
  };
}

export function createStandaloneSessionRepository(db: StoreDatabase): StandaloneSessionRepository {
  const live = (sessionId: string) => and(eq(standaloneSessions.sessionId, sessionId), isNull(standaloneSessions.revokedAt));
  return {
    async insert(session) {
      await db.insert(standaloneSessions).values({
        secretHash: session.secretHash,
        sessionId: session.sessionId,
        userId: session.userId,
        profile: session.profile,
        selectedOrganizationId: session.selectedOrganizationId,
        sealedAccessToken: session.sealedAccessToken,
        userAgent: session.userAgent,
        createdAt: dateFromEpochMs(session.createdAt, "createdAt"),
        expiresAt: dateFromEpochMs(session.expiresAt, "expiresAt"),
        verifiedAt: dateFromEpochMs(session.verifiedAt, "verifiedAt"),
        revokedAt: session.revokedAt === null ? null : dateFromEpochMs(session.revokedAt, "revokedAt"),
      });
    },

    async findBySecretHash(secretHash) {
      const [row] = await db.select().from(standaloneSessions).where(eq(standaloneSessions.secretHash, secretHash));
      return row === undefined ? null : toSession(row);
    },

    async recordVerified(sessionId, profile, verifiedAt) {
      const updated = await db
        .update(standaloneSessions)
        .set({ profile, verifiedAt: dateFromEpochMs(verifiedAt, "verifiedAt") })
        .where(live(sessionId))
        .returning({ sessionId: standaloneSessions.sessionId });
      return updated.length > 0;
    },

    async selectOrganization(sessionId, organizationId) {
      const updated = await db
        .update(standaloneSessions)
        .set({ selectedOrganizationId: organizationId })
        .where(live(sessionId))
        .returning({ sessionId: standaloneSessions.sessionId });
      return updated.length > 0;
    },

    async revoke(userId, sessionId, at) {
      const revoked = await db
        .update(standaloneSessions)
        .set({ revokedAt: dateFromEpochMs(at, "at") })
        .where(and(live(sessionId), eq(standaloneSessions.userId, userId)))
        .returning({ sessionId: standaloneSessions.sessionId });
      return revoked.length > 0;
    },

    async revokeAllOfUser(userId, at, exceptSessionId) {
      const revoked = await db
        .update(standaloneSessions)
        .set({ revokedAt: dateFromEpochMs(at, "at") })
        .where(
          and(
            eq(standaloneSessions.userId, userId),
            isNull(standaloneSessions.revokedAt),
            exceptSessionId === undefined ? undefined : ne(standaloneSessions.sessionId, exceptSessionId),
          ),
        )
        .returning({ sessionId: standaloneSessions.sessionId });
      return revoked.length;
    },

    async listLive(userId, now) {
      const rows = await db
        .select()
        .from(standaloneSessions)
        .where(and(eq(standaloneSessions.userId, userId), isNull(standaloneSessions.revokedAt), gt(standaloneSessions.expiresAt, dateFromEpochMs(now, "now"))))
        .orderBy(desc(standaloneSessions.createdAt), desc(standaloneSessions.sessionId));
      return rows.map(toSession);
    },

    purgeEndedBefore(at, limit) {
      const before = dateFromEpochMs(at, "at");
      return purgeBatch(db, standaloneSessions, or(lt(standaloneSessions.expiresAt, before), lt(standaloneSessions.revokedAt, before)), limit);
    },
  };
}
