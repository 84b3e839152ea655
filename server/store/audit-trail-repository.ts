import { and, asc, desc, eq, gt, inArray, isNull, lt, max, or, sql } from "drizzle-orm";
import * as z from "zod/mini";
import type { AuditEntry, PersonOfEntries, RecentResource } from "./store.ts";
import type { StoreDatabase } from "./database.ts";
import { dateFromEpochMs } from "./instants.ts";
import { purgeBatch } from "./purge-batch.ts";
import { auditTrail } from "./schema.ts";

export interface AuditTrailRepository {
  /** One multi-row insert. */
  insertMany(entries: readonly AuditEntry[]): Promise<void>;
  list(organizationId: string): Promise<AuditEntry[]>;
  recentResources(organizationId: string, user: PersonOfEntries, resourceTypes: readonly string[], limit: number): Promise<RecentResource[]>;
  writesSince(organizationId: string, resourceType: string, resourceIds: readonly string[], after: number): Promise<AuditEntry[]>;
  purgeBefore(at: number, limit?: number): Promise<number>;
}

const action = z.enum(["read", "write", "delete"]);

function toEntry(row: typeof auditTrail.$inferSelect): AuditEntry {
  return {
    at: row.at.getTime(),
    organizationId: row.organizationId,
    userId: row.userId,
    accountId: row.accountId,
    action: action.parse(row.action),
    resourceType: row.resourceType,
    resourceId: row.resourceId,
    traceId: row.traceId,
  };
}

export function createAuditTrailRepository(db: StoreDatabase): AuditTrailRepository {
  return {
    async insertMany(entries) {
      if (entries.length === 0) return;
      await db.insert(auditTrail).values(
        entries.map((entry) => ({
          at: dateFromEpochMs(entry.at, "at"),
          organizationId: entry.organizationId,
          userId: entry.userId,
          accountId: entry.accountId,
          action: entry.action,
          resourceType: entry.resourceType,
          resourceId: entry.resourceId,
          traceId: entry.traceId,
        })),
      );
    },

    async recentResources(organizationId, user, resourceTypes, limit) {
      if (resourceTypes.length === 0 || limit <= 0) return [];
      const lastAt = max(auditTrail.at);
      const rows = await db
        .select({
          resourceId: auditTrail.resourceId,
          lastAt,
          changed: sql<boolean>`bool_or(${auditTrail.action} <> 'read')`,
        })
        .from(auditTrail)
        .where(
          and(
            eq(auditTrail.organizationId, organizationId),
            // Both halves are served by the (organization, user, at) index.
            or(eq(auditTrail.userId, user.userId), and(eq(auditTrail.userId, user.accountId), isNull(auditTrail.accountId))),
            inArray(auditTrail.resourceType, [...resourceTypes]),
          ),
        )
        .groupBy(auditTrail.resourceId)
        .orderBy(desc(lastAt), asc(auditTrail.resourceId))
        .limit(limit);
      return rows.flatMap((row) => (row.lastAt === null ? [] : [{ resourceId: row.resourceId, lastAt: row.lastAt.getTime(), changed: row.changed === true }]));
    },

    async writesSince(organizationId, resourceType, resourceIds, after) {
      if (resourceIds.length === 0) return [];
      const rows = await db
        .select()
        .from(auditTrail)
        .where(
          and(
            eq(auditTrail.organizationId, organizationId),
            gt(auditTrail.at, dateFromEpochMs(after, "after")),
            eq(auditTrail.resourceType, resourceType),
            inArray(auditTrail.resourceId, [...resourceIds]),
            inArray(auditTrail.action, ["write", "delete"]),
          ),
        )
        .orderBy(asc(auditTrail.at), asc(auditTrail.id));
      return rows.map(toEntry);
    },

    purgeBefore(at, limit) {
      return purgeBatch(db, auditTrail, lt(auditTrail.at, dateFromEpochMs(at, "at")), limit);
    },

    async list(organizationId) {
      const rows = await db
        .select()
        .from(auditTrail)
        .where(eq(auditTrail.organizationId, organizationId))
        .orderBy(asc(auditTrail.at), asc(auditTrail.id));
      return rows.map(toEntry);
    },
  };
}
