import { lte } from "drizzle-orm";
import type { UsedTokenIdRepository } from "./store.ts";
import type { StoreDatabase } from "./database.ts";
import { dateFromEpochMs } from "./instants.ts";
import { purgeBatch } from "./purge-batch.ts";
import { usedTokenIds } from "./schema.ts";

export function createUsedTokenIdRepository(db: StoreDatabase): UsedTokenIdRepository {
  return {
    async remember(jti, expiresAt) {
      const inserted = await db
        .insert(usedTokenIds)
        .values({ jti, expiresAt: dateFromEpochMs(expiresAt, "expiresAt") })
        .onConflictDoNothing({ target: usedTokenIds.jti })
        .returning({ jti: usedTokenIds.jti });
      return inserted.length > 0;
    },

    purgeExpired(now, limit) {
      return purgeBatch(db, usedTokenIds, lte(usedTokenIds.expiresAt, dateFromEpochMs(now, "now")), limit);
    },
  };
}
