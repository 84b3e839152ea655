import { and, asc, eq, gte, inArray, lt, type SQL } from "drizzle-orm";
import type { StoreDatabase } from "./database.ts";
import { dateFromEpochMs } from "./instants.ts";
import { purgeBatch } from "./purge-batch.ts";
import { writeIntents } from "./schema.ts";
import type { WriteIntent, WriteIntentKind, WriteIntentRepository, WriteOutcome } from "./store.ts";

const KINDS: readonly WriteIntentKind[] = ["task", "hold", "note_patch", "image_delete"];
const OUTCOMES: readonly WriteOutcome[] = ["pending", "done", "refused", "unknown"];

function oneOf<T extends string>(values: readonly T[], value: string, column: string): T {
  const found = values.find((candidate) => candidate === value);
  if (found === undefined) throw new Error(`write_intents.${column} holds an unknown value: ${value}`);
  return found;
}

function toIntent(row: typeof writeIntents.$inferSelect): WriteIntent {
  return {
    id: row.id,
    organizationId: row.organizationId,
    userId: row.userId,
    kind: oneOf(KINDS, row.kind, "kind"),
    subjectId: row.subjectId,
    request: row.request,
    outcome: oneOf(OUTCOMES, row.outcome, "outcome"),
    resultId: row.resultId,
    createdAt: row.createdAt.getTime(),
    settledAt: row.settledAt === null ? null : row.settledAt.getTime(),
  };
}

export function createWriteIntentRepository(db: StoreDatabase): WriteIntentRepository {
  return {
    async record(intent) {
      await db.insert(writeIntents).values({
        id: intent.id,
        organizationId: intent.organizationId,
        userId: intent.userId,
        kind: intent.kind,
        subjectId: intent.subjectId,
        request: intent.request,
        outcome: "pending",
        createdAt: dateFromEpochMs(intent.createdAt, "createdAt"),
      });
    },

    async settle(organizationId, id, { outcome, resultId = null, at, sentAt }) {
      const settled = await db
        .update(writeIntents)
        .set({ outcome, resultId, settledAt: dateFromEpochMs(at, "at"), ...(sentAt !== undefined && { createdAt: dateFromEpochMs(sentAt, "sentAt") }) })
        .where(and(eq(writeIntents.organizationId, organizationId), eq(writeIntents.id, id), inArray(writeIntents.outcome, ["pending", "unknown"])))
        .returning({ id: writeIntents.id });
      return settled.length > 0;
    },

    async resend(organizationId, id, { sentAt, at }) {
      const [resent] = await db
        .update(writeIntents)
        .set({ outcome: "pending", createdAt: dateFromEpochMs(at, "at"), settledAt: null })
        .where(
          and(
            eq(writeIntents.organizationId, organizationId),
            eq(writeIntents.id, id),
            inArray(writeIntents.outcome, ["pending", "unknown"]),
            eq(writeIntents.createdAt, dateFromEpochMs(sentAt, "sentAt")),
          ),
        )
        .returning();
      return resent === undefined ? null : toIntent(resent);
    },

    async get(organizationId, id) {
      const [row] = await db
        .select()
        .from(writeIntents)
        .where(and(eq(writeIntents.organizationId, organizationId), eq(writeIntents.id, id)));
      return row === undefined ? null : toIntent(row);
    },

    async listUnsettled(organizationId, kind, filter = {}) {
      const conditions: SQL[] = [eq(writeIntents.organizationId, organizationId), eq(writeIntents.kind, kind), inArray(writeIntents.outcome, ["pending", "unknown"])];
      if (filter.userId !== undefined) conditions.push(eq(writeIntents.userId, filter.userId));
      if (filter.subjectId !== undefined) conditions.push(eq(writeIntents.subjectId, filter.subjectId));
      const rows = await db
        .select()
        .from(writeIntents)
        .where(and(...conditions))
        .orderBy(asc(writeIntents.createdAt), asc(writeIntents.id));
      return rows.map(toIntent);
    },

    async listPendingRecordedBetween(from, to) {
      const rows = await db
        .select()
        .from(writeIntents)
        .where(and(gte(writeIntents.createdAt, dateFromEpochMs(from, "from")), lt(writeIntents.createdAt, dateFromEpochMs(to, "to")), eq(writeIntents.outcome, "pending")))
        .orderBy(asc(writeIntents.createdAt), asc(writeIntents.id));
      return rows.map(toIntent);
    },

    purgeCreatedBefore(at, limit) {
      return purgeBatch(db, writeIntents, lt(writeIntents.createdAt, dateFromEpochMs(at, "at")), limit);
    },
  };
}
