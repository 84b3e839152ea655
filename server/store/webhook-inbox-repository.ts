import { and, asc, count, eq, gte, inArray, isNotNull, isNull, lt, min, or, sql } from "drizzle-orm";
import type { InboxEntry, WebhookInboxRepository } from "./store.ts";
import type { StoreDatabase } from "./database.ts";
import { dateFromEpochMs } from "./instants.ts";
import { purgeBatch } from "./purge-batch.ts";
import { webhookInbox } from "./schema.ts";

// An exception's text can be long (stack-like upstream bodies); the row keeps enough to diagnose.
const MAX_ERROR_LENGTH = 2000;

const exhaustedReason = (maxAttempts: number, lastError: string) => `gave up after ${maxAttempts} attempts: ${lastError}`.slice(0, MAX_ERROR_LENGTH);

function toEntry(row: typeof webhookInbox.$inferSelect): InboxEntry {
  return {
    hookId: row.hookId,
    eventType: row.eventType,
    payload: row.payload,
    receivedAt: row.receivedAt.getTime(),
    processedAt: row.processedAt?.getTime() ?? null,
    attempts: row.attempts,
    lastError: row.lastError,
    deadLetterReason: row.deadLetterReason,
  };
}

export function createWebhookInboxRepository(db: StoreDatabase): WebhookInboxRepository {
  return {
    async insert(entry) {
      const inserted = await db
        .insert(webhookInbox)
        .values({
          hookId: entry.hookId,
          eventType: entry.eventType,
          payload: entry.payload,
          receivedAt: dateFromEpochMs(entry.receivedAt, "receivedAt"),
        })
        .onConflictDoNothing({ target: webhookInbox.hookId })
        .returning({ hookId: webhookInbox.hookId });
      return inserted.length > 0;
    },

    async insertDeadLetter(entry) {
      // Stored as processed: no processor ever takes it; the reason says why.
      const receivedAt = dateFromEpochMs(entry.receivedAt, "receivedAt");
      const inserted = await db
        .insert(webhookInbox)
        .values({ hookId: entry.hookId, eventType: entry.eventType, payload: entry.payload, receivedAt, processedAt: receivedAt, deadLetterReason: entry.reason.slice(0, MAX_ERROR_LENGTH) })
        .onConflictDoNothing({ target: webhookInbox.hookId })
        .returning({ hookId: webhookInbox.hookId });
      return inserted.length > 0;
    },

    async countDeadLetters() {
      const [row] = await db.select({ n: count() }).from(webhookInbox).where(isNotNull(webhookInbox.deadLetterReason));
      return row?.n ?? 0;
    },

    async backlog() {
      // The processor's partial index covers exactly these rows.
      const [row] = await db.select({ n: count(), oldest: min(webhookInbox.receivedAt) }).from(webhookInbox).where(isNull(webhookInbox.processedAt));
      return { unprocessed: row?.n ?? 0, oldestReceivedAt: row?.oldest?.getTime() ?? null };
    },

    async listUnprocessed(limit) {
      const rows = await db
        .select()
        .from(webhookInbox)
        .where(isNull(webhookInbox.processedAt))
        .orderBy(asc(webhookInbox.receivedAt), asc(webhookInbox.hookId))
        .limit(Math.max(0, Math.floor(limit)));
      return rows.map(toEntry);
    },

    async claimUnprocessed({ limit, leaseMs, now, maxAttempts }) {
      const at = dateFromEpochMs(now, "now");
      // SKIP LOCKED: a row another process is claiming at this instant is left to it, not waited on.
      const claimable = db
        .select({ hookId: webhookInbox.hookId })
        .from(webhookInbox)
        .where(
          and(
            isNull(webhookInbox.processedAt),
            lt(webhookInbox.attempts, maxAttempts),
            or(isNull(webhookInbox.claimedUntil), lt(webhookInbox.claimedUntil, at)),
          ),
        )
        .orderBy(asc(webhookInbox.receivedAt), asc(webhookInbox.hookId))
        .limit(Math.max(0, Math.floor(limit)))
        .for("update", { skipLocked: true });
      const rows = await db
        .update(webhookInbox)
        .set({ claimedUntil: dateFromEpochMs(now + leaseMs, "claimedUntil") })
        .where(inArray(webhookInbox.hookId, claimable))
        .returning();
      // RETURNING follows no order.
      return rows.map(toEntry).sort((a, b) => a.receivedAt - b.receivedAt || a.hookId.localeCompare(b.hookId));
    },

    async markProcessed(hookId, at) {
      await db
        .update(webhookInbox)
        .set({ processedAt: dateFromEpochMs(at, "processedAt"), attempts: sql`${webhookInbox.attempts} + 1`, claimedUntil: null })
        .where(eq(webhookInbox.hookId, hookId));
    },

    async markFailed(hookId, error, { maxAttempts, at }) {
      const lastError = error.slice(0, MAX_ERROR_LENGTH);
      const exhausted = sql`${webhookInbox.attempts} + 1 >= ${maxAttempts}`;
      // One statement: the count and the dead letter cannot be split by another process's failure of the same row.
      const [row] = await db
        .update(webhookInbox)
        .set({
          lastError,
          attempts: sql`${webhookInbox.attempts} + 1`,
          claimedUntil: null,
          processedAt: sql`CASE WHEN ${exhausted} THEN ${dateFromEpochMs(at, "at").toISOString()}::timestamptz ELSE NULL END`,
          deadLetterReason: sql`CASE WHEN ${exhausted} THEN ${exhaustedReason(maxAttempts, lastError)}::text ELSE NULL END`,
        })
        .where(and(eq(webhookInbox.hookId, hookId), isNull(webhookInbox.processedAt)))
        .returning({ deadLetterReason: webhookInbox.deadLetterReason });
      return { deadLetter: row !== undefined && row.deadLetterReason !== null };
    },

    async markDeadLetter(hookId, reason, at) {
      await db
        .update(webhookInbox)
        .set({ deadLetterReason: reason.slice(0, MAX_ERROR_LENGTH), processedAt: dateFromEpochMs(at, "at"), attempts: sql`${webhookInbox.attempts} + 1`, claimedUntil: null })
        .where(and(eq(webhookInbox.hookId, hookId), isNull(webhookInbox.processedAt)));
    },

    async deadLetterExhausted({ maxAttempts, at }) {
      const rows = await db
        .update(webhookInbox)
        .set({
          processedAt: dateFromEpochMs(at, "at"),
          claimedUntil: null,
          deadLetterReason: sql`left(${`gave up after ${maxAttempts} attempts: `}::text || coalesce(${webhookInbox.lastError}, 'no error was recorded'), ${MAX_ERROR_LENGTH})`,
        })
        .where(and(isNull(webhookInbox.processedAt), gte(webhookInbox.attempts, maxAttempts)))
        .returning({ hookId: webhookInbox.hookId });
      return rows.length;
    },

    async get(hookId) {
      const [row] = await db.select().from(webhookInbox).where(eq(webhookInbox.hookId, hookId));
      return row === undefined ? null : toEntry(row);
    },

    purgeProcessedBefore(at, limit) {
      return purgeBatch(db, webhookInbox, and(lt(webhookInbox.processedAt, dateFromEpochMs(at, "at")), isNull(webhookInbox.deadLetterReason)), limit);
    },

    purgeDeadLettersBefore(at, limit) {
      // A dead letter is stored processed when it became one (at arrival, or at its last failure), so `processed_at` dates it.
      return purgeBatch(db, webhookInbox, and(lt(webhookInbox.processedAt, dateFromEpochMs(at, "at")), isNotNull(webhookInbox.deadLetterReason)), limit);
    },
  };
}
