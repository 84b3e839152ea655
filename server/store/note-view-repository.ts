import { and, eq, lt } from "drizzle-orm";
import * as z from "zod/mini";
import type { NoteView, NoteViewRepository } from "./store.ts";
import type { StoreDatabase } from "./database.ts";
import { dateFromEpochMs } from "./instants.ts";
import { purgeBatch } from "./purge-batch.ts";
import { noteViews } from "./schema.ts";

const textByName = z.record(z.string(), z.string());

function toView(row: typeof noteViews.$inferSelect): NoteView {
  return {
    organizationId: row.organizationId,
    userId: row.userId,
    noteId: row.noteId,
    fields: textByName.parse(row.fields),
    sectionDigests: textByName.parse(row.sectionDigests),
    noteUpdatedAt: row.noteUpdatedAt,
    seenAt: row.seenAt.getTime(),
  };
}

export function createNoteViewRepository(db: StoreDatabase): NoteViewRepository {
  const byKey = (organizationId: string, userId: string, noteId: string) =>
    and(eq(noteViews.organizationId, organizationId), eq(noteViews.userId, userId), eq(noteViews.noteId, noteId));
  return {
    async get(organizationId, userId, noteId) {
      const [row] = await db.select().from(noteViews).where(byKey(organizationId, userId, noteId));
      return row === undefined ? null : toView(row);
    },

    async put(view) {
      const values = {
        fields: view.fields,
        sectionDigests: view.sectionDigests,
        noteUpdatedAt: view.noteUpdatedAt,
        seenAt: dateFromEpochMs(view.seenAt, "seenAt"),
      };
      await db
        .insert(noteViews)
        .values({ organizationId: view.organizationId, userId: view.userId, noteId: view.noteId, ...values })
        .onConflictDoUpdate({ target: [noteViews.organizationId, noteViews.userId, noteViews.noteId], set: values });
    },

    purgeSeenBefore(at, limit) {
      return purgeBatch(db, noteViews, lt(noteViews.seenAt, dateFromEpochMs(at, "at")), limit);
    },
  };
}
