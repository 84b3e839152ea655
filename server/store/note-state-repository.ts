import { and, eq, lt } from "drizzle-orm";
import * as z from "zod/mini";
import type { NoteStateRecord, NoteStateRepository } from "./store.ts";
import type { StoreDatabase } from "./database.ts";
import { dateFromEpochMs } from "./instants.ts";
import { purgeBatch } from "./purge-batch.ts";
import { noteStates } from "./schema.ts";

const source = z.enum(["write_conflict", "read"]);
const status = z.literal("signed");

function toRecord(row: typeof noteStates.$inferSelect): NoteStateRecord {
  return {
    organizationId: row.organizationId,
    noteId: row.noteId,
    status: status.parse(row.status),
    source: source.parse(row.source),
    learnedAt: row.learnedAt.getTime(),
  };
}

export function createNoteStateRepository(db: StoreDatabase): NoteStateRepository {
  const byKey = (organizationId: string, noteId: string) => and(eq(noteStates.organizationId, organizationId), eq(noteStates.noteId, noteId));
  return {
    async recordSigned(organizationId, noteId, learnedFrom, at) {
      // The first word stands: signing happens once, and when Tandem first learned it is what the docs quote.
      const inserted = await db
        .insert(noteStates)
        .values({ organizationId, noteId, status: "signed", source: learnedFrom, learnedAt: dateFromEpochMs(at, "at") })
        .onConflictDoNothing()
        .returning({ noteId: noteStates.noteId });
      return inserted.length > 0;
    },

    async get(organizationId, noteId) {
      const [row] = await db.select().from(noteStates).where(byKey(organizationId, noteId));
      return row === undefined ? null : toRecord(row);
    },

    purgeLearnedBefore(at, limit) {
      return purgeBatch(db, noteStates, lt(noteStates.learnedAt, dateFromEpochMs(at, "at")), limit);
    },
  };
}
