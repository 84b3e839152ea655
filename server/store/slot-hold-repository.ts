import { and, asc, count, eq, gt, lte, sql } from "drizzle-orm";
import type { SlotHoldRepository, StoredSlotHold } from "./store.ts";
import type { StoreDatabase } from "./database.ts";
import { dateFromEpochMs } from "./instants.ts";
import { purgeBatch } from "./purge-batch.ts";
import { slotHolds } from "./schema.ts";

function toHold(row: typeof slotHolds.$inferSelect): StoredSlotHold {
  return {
    organizationId: row.organizationId,
    holdId: row.holdId,
    userId: row.userId,
    patientId: row.patientId,
    patientName: row.patientName,
    providerId: row.providerId,
    facilityId: row.facilityId,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    appointmentTypeId: row.appointmentTypeId,
    slotLengthMinutes: row.slotLengthMinutes,
    isNewPatient: row.isNewPatient,
    expiresAt: row.expiresAt.getTime(),
    heldAt: row.heldAt.getTime(),
  };
}

export function createSlotHoldRepository(db: StoreDatabase): SlotHoldRepository {
  const byKey = (organizationId: string, holdId: string) => and(eq(slotHolds.organizationId, organizationId), eq(slotHolds.holdId, holdId));
  // Expired at the instant itself, as the service counts it.
  const activeFor = (organizationId: string, userId: string, now: number) =>
    and(eq(slotHolds.organizationId, organizationId), eq(slotHolds.userId, userId), gt(slotHolds.expiresAt, dateFromEpochMs(now, "now")));

  const valuesOf = (hold: StoredSlotHold): typeof slotHolds.$inferInsert => ({
    organizationId: hold.organizationId,
    holdId: hold.holdId,
    userId: hold.userId,
    patientId: hold.patientId,
    patientName: hold.patientName,
    providerId: hold.providerId,
    facilityId: hold.facilityId,
    startsAt: hold.startsAt,
    endsAt: hold.endsAt,
    appointmentTypeId: hold.appointmentTypeId,
    slotLengthMinutes: hold.slotLengthMinutes,
    isNewPatient: hold.isNewPatient,
    expiresAt: dateFromEpochMs(hold.expiresAt, "expiresAt"),
    heldAt: dateFromEpochMs(hold.heldAt, "heldAt"),
  });

  return {
    async insert(hold) {
      await db.insert(slotHolds).values(valuesOf(hold));
    },

    async insertWithinLimit(hold, limit, now) {
      return db.transaction(async (tx) => {
        // A count then an insert decide nothing under concurrency by themselves: the user's
        // lock (released at commit) makes the pair one step for every process on the database.
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`slot_holds:${hold.organizationId}:${hold.userId}`}))`);
        const [row] = await tx.select({ n: count() }).from(slotHolds).where(activeFor(hold.organizationId, hold.userId, now));
        if ((row?.n ?? 0) >= limit) return false;
        await tx.insert(slotHolds).values(valuesOf(hold));
        return true;
      });
    },

    async listActive(organizationId, userId, now) {
      const rows = await db
        .select()
        .from(slotHolds)
        .where(activeFor(organizationId, userId, now))
        .orderBy(asc(slotHolds.expiresAt), asc(slotHolds.heldAt), asc(slotHolds.holdId));
      return rows.map(toHold);
    },

    async countActive(organizationId, userId, now) {
      const [row] = await db.select({ n: count() }).from(slotHolds).where(activeFor(organizationId, userId, now));
      return row?.n ?? 0;
    },

    async get(organizationId, holdId) {
      const [row] = await db.select().from(slotHolds).where(byKey(organizationId, holdId));
      return row === undefined ? null : toHold(row);
    },

    async delete(organizationId, holdId) {
      const deleted = await db.delete(slotHolds).where(byKey(organizationId, holdId)).returning({ holdId: slotHolds.holdId });
      return deleted.length > 0;
    },

    purgeExpired(now, limit) {
      return purgeBatch(db, slotHolds, lte(slotHolds.expiresAt, dateFromEpochMs(now, "now")), limit);
    },
  };
}
