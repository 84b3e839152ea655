import { and, eq, exists, isNull, lt, sql } from "drizzle-orm";
import * as z from "zod/mini";
import type { NoteDraft, NoteDraftRepository } from "./store.ts";
import type { StoreDatabase } from "./database.ts";
import { dateFromEpochMs } from "./instants.ts";
import { purgeBatch } from "./purge-batch.ts";
import { noteDrafts, noteStates } from "./schema.ts";

const textFields = z.record(z.string(), z.string());

function toDraft(row: typeof noteDrafts.$inferSelect): NoteDraft {
  return {
    organizationId: row.organizationId,
    userId: row.userId,
    noteId: row.noteId,
    fields: textFields.parse(row.fields),
    baseline: textFields.parse(row.baseline),
    noteVersion: row.noteVersion,
    updatedAt: row.updatedAt.getTime(),
  };
}

export function createNoteDraftRepository(db: StoreDatabase): NoteDraftRepository {
  const byKey = (organizationId: string, userId: string, noteId: string) =>
    and(eq(noteDrafts.organizationId, organizationId), eq(noteDrafts.userId, userId), eq(noteDrafts.noteId, noteId));

  return {
    async get(organizationId, userId, noteId) {
      const [row] = await db.select().from(noteDrafts).where(byKey(organizationId, userId, noteId));
      return row === undefined ? null : toDraft(row);
    },

    async put(draft, released = {}) {
      // The stored fields `released` names with the text still stored there; the same names go from the baseline.
      const releasedHere = sql`ARRAY(SELECT r.key FROM jsonb_each_text(${JSON.stringify(released)}::jsonb) AS r WHERE "note_drafts"."fields" ->> r.key = r.value)`;
      const [merged] = await db
        .insert(noteDrafts)
        .values({
          organizationId: draft.organizationId,
          userId: draft.userId,
          noteId: draft.noteId,
          fields: draft.fields,
          baseline: draft.baseline,
          noteVersion: draft.noteVersion,
          updatedAt: dateFromEpochMs(draft.updatedAt, "updatedAt"),
        })
        .onConflictDoUpdate({
          target: [noteDrafts.organizationId, noteDrafts.userId, noteDrafts.noteId],
          set: {
            fields: sql`("note_drafts"."fields" - ${releasedHere}) || excluded.fields`,
            baseline: sql`("note_drafts"."baseline" - ${releasedHere}) || excluded.baseline`,
            noteVersion: sql`excluded.note_version`,
            updatedAt: sql`excluded.updated_at`,
          },
        })
        .returning();
      if (merged === undefined) throw new Error("the draft upsert returned no row");
      const stored = toDraft(merged);
      if (Object.keys(stored.fields).length > 0) return stored;
      // Conditional on still being empty: a field another tab stored meanwhile keeps the row.
      await db.delete(noteDrafts).where(and(byKey(draft.organizationId, draft.userId, draft.noteId), eq(noteDrafts.fields, {})));
      return null;
    },

    async delete(organizationId, userId, noteId) {
      const deleted = await db
        .delete(noteDrafts)
        .where(byKey(organizationId, userId, noteId))
        .returning({ noteId: noteDrafts.noteId });
      return deleted.length > 0;
    },

    async replaceIfUnchanged(read, next) {
      // Compared by content, not by updated_at: two writes within one millisecond share it.
      // jsonb equality ignores key order, so the row matches however the engine stored the object.
      const unchanged = and(
        byKey(read.organizationId, read.userId, read.noteId),
        eq(noteDrafts.fields, read.fields),
        eq(noteDrafts.baseline, read.baseline),
        read.noteVersion === null ? isNull(noteDrafts.noteVersion) : eq(noteDrafts.noteVersion, read.noteVersion),
      );
      const changed =
        next === null
          ? await db.delete(noteDrafts).where(unchanged).returning({ noteId: noteDrafts.noteId })
          : await db
              .update(noteDrafts)
              .set({ fields: next.fields, baseline: next.baseline, noteVersion: next.noteVersion, updatedAt: dateFromEpochMs(next.updatedAt, "updatedAt") })
              .where(unchanged)
              .returning({ noteId: noteDrafts.noteId });
      return changed.length > 0;
    },

    purgeUntouchedBefore(at, limit) {
      return purgeBatch(db, noteDrafts, lt(noteDrafts.updatedAt, dateFromEpochMs(at, "at")), limit);
    },

    purgeOfSignedNotesBefore(at, limit) {
      const signed = db
        .select({ one: sql`1` })
        .from(noteStates)
        .where(and(eq(noteStates.organizationId, noteDrafts.organizationId), eq(noteStates.noteId, noteDrafts.noteId)));
      return purgeBatch(db, noteDrafts, and(lt(noteDrafts.updatedAt, dateFromEpochMs(at, "at")), exists(signed)), limit);
    },
  };
}
