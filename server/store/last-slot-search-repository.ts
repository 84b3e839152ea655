import { and, eq, lt } from "drizzle-orm";
import * as z from "zod/mini";
import type { LastSlotSearch, LastSlotSearchRepository } from "./store.ts";
import type { StoreDatabase } from "./database.ts";
import { dateFromEpochMs } from "./instants.ts";
import { purgeBatch } from "./purge-batch.ts";
import { lastSlotSearches } from "./schema.ts";

const searchObject = z.record(z.string(), z.unknown());

function toSearch(row: typeof lastSlotSearches.$inferSelect): LastSlotSearch {
  return { organizationId: row.organizationId, userId: row.userId, search: searchObject.parse(row.search), savedAt: row.savedAt.getTime() };
}

export function createLastSlotSearchRepository(db: StoreDatabase): LastSlotSearchRepository {
  const byUser = (organizationId: string, userId: string) => and(eq(lastSlotSearches.organizationId, organizationId), eq(lastSlotSearches.userId, userId));
  return {
    async get(organizationId, userId) {
      const [row] = await db.select().from(lastSlotSearches).where(byUser(organizationId, userId));
      return row === undefined ? null : toSearch(row);
    },

    async delete(organizationId, userId) {
      await db.delete(lastSlotSearches).where(byUser(organizationId, userId));
    },

    async put(search) {
      const values = { search: search.search, savedAt: dateFromEpochMs(search.savedAt, "savedAt") };
      await db
        .insert(lastSlotSearches)
        .values({ organizationId: search.organizationId, userId: search.userId, ...values })
        .onConflictDoUpdate({ target: [lastSlotSearches.organizationId, lastSlotSearches.userId], set: values });
    },

    purgeSavedBefore(at, limit) {
      return purgeBatch(db, lastSlotSearches, lt(lastSlotSearches.savedAt, dateFromEpochMs(at, "at")), limit);
    },
  };
}
