import { and, asc, count, eq, gte, inArray, isNotNull, isNull, lt, lte, or, sql } from "drizzle-orm";
import * as z from "zod/mini";
import { isSamePreferences, waitlistEndReason, waitlistPreferences } from "#contract/app-api/waitlist.ts";
import { idKey } from "#contract/ids.ts";
import type { StoreDatabase } from "./database.ts";
import { dateFromEpochMs } from "./instants.ts";
import { purgeBatch } from "./purge-batch.ts";
import { waitlistEntries, waitlistOffers } from "./schema.ts";
import type { OfferedSlot, StoredOfferMatch, StoredWaitlistEntry, StoredWaitlistOffer, WaitlistOfferStatus, WaitlistRepository } from "./store.ts";

// The waitlist's entries and offers (issue 38; ADR 0030). The JSON columns are
// parsed on the way out, as anything else read from outside would be: a row an
// older version wrote in another shape fails loudly here, not in a route.

const MAX_ERROR_LENGTH = 2000;

const storedMatches = z.array(z.object({ entryId: z.string(), patientId: z.string(), patientName: z.nullable(z.string()), waitingSince: z.number() }));
const OFFER_STATUSES: readonly WaitlistOfferStatus[] = ["matching", "offered", "unmatched", "abandoned"];

function toEntry(row: typeof waitlistEntries.$inferSelect): StoredWaitlistEntry {
  return {
    id: row.id,
    organizationId: row.organizationId,
    patientId: row.patientId,
    patientName: row.patientName,
    preferences: z.parse(waitlistPreferences, row.preferences),
    createdBy: row.createdBy,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
    endedAt: row.endedAt?.getTime() ?? null,
    endReason: row.endReason === null ? null : z.parse(waitlistEndReason, row.endReason),
  };
}

function offeredOf(row: typeof waitlistOffers.$inferSelect): OfferedSlot | null {
  const { providerId, startsAt, endsAt, appointmentTypeId, slotLengthMinutes, isNewPatient, matches } = row;
  if (providerId === null || startsAt === null || endsAt === null || appointmentTypeId === null || slotLengthMinutes === null || isNewPatient === null || matches === null) return null;
  return { providerId, facilityId: row.facilityId, startsAt, endsAt, appointmentTypeId, slotLengthMinutes, isNewPatient, matches: z.parse(storedMatches, matches) satisfies StoredOfferMatch[] };
}

function toOffer(row: typeof waitlistOffers.$inferSelect): StoredWaitlistOffer {
  const status = OFFER_STATUSES.find((value) => value === row.status);
  if (status === undefined) throw new Error(`store: waitlist offer ${row.id} has an unknown status ${row.status}`);
  return {
    id: row.id,
    organizationId: row.organizationId,
    freedKey: row.freedKey,
    appointmentId: row.appointmentId,
    facilityId: row.facilityId,
    slotStartsAt: row.slotStartsAt.getTime(),
    freedAt: row.freedAt.getTime(),
    status,
    attempts: row.attempts,
    lastError: row.lastError,
    offered: offeredOf(row),
    taken: row.takenBy !== null && row.takenEntryId !== null && row.takenAt !== null ? { userId: row.takenBy, entryId: row.takenEntryId, at: row.takenAt.getTime() } : null,
  };
}

export function createWaitlistRepository(db: StoreDatabase): WaitlistRepository {
  const entryKey = (organizationId: string, id: string) => and(eq(waitlistEntries.organizationId, organizationId), eq(waitlistEntries.id, id));
  const offerKey = (organizationId: string, id: string) => and(eq(waitlistOffers.organizationId, organizationId), eq(waitlistOffers.id, id));
  const waitingOf = (organizationId: string) => and(eq(waitlistEntries.organizationId, organizationId), isNull(waitlistEntries.endedAt));
  const longestWaitingFirst = [asc(waitlistEntries.createdAt), asc(waitlistEntries.id)];

  return {
    async add(entry, limit) {
      return db.transaction(async (tx) => {
        // The look, the count and the insert are one step for every process: two adds at once cannot both be new, nor both the limit's last.
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`waitlist_entries:${entry.organizationId}`}))`);
        const patientsWaiting = await tx
          .select()
          .from(waitlistEntries)
          .where(and(waitingOf(entry.organizationId), eq(waitlistEntries.patientKey, idKey(entry.patientId))));
        const same = patientsWaiting.map(toEntry).find((waiting) => isSamePreferences(waiting.preferences, entry.preferences));
        if (same !== undefined) return { kind: "alreadyWaiting", entry: same };
        const [row] = await tx.select({ n: count() }).from(waitlistEntries).where(waitingOf(entry.organizationId));
        if ((row?.n ?? 0) >= limit) return { kind: "full" };
        await tx.insert(waitlistEntries).values({
          id: entry.id,
          organizationId: entry.organizationId,
          patientId: entry.patientId,
          patientKey: idKey(entry.patientId),
          patientName: entry.patientName,
          preferences: entry.preferences,
          startDate: entry.preferences.startDate,
          endDate: entry.preferences.endDate,
          createdBy: entry.createdBy,
          createdAt: dateFromEpochMs(entry.createdAt, "createdAt"),
          updatedAt: dateFromEpochMs(entry.updatedAt, "updatedAt"),
          endedAt: entry.endedAt === null ? null : dateFromEpochMs(entry.endedAt, "endedAt"),
          endReason: entry.endReason,
        });
        return { kind: "added", entry };
      });
    },

    async get(organizationId, id) {
      const [row] = await db.select().from(waitlistEntries).where(entryKey(organizationId, id));
      return row === undefined ? null : toEntry(row);
    },

    async listWaiting(organizationId, limit) {
      const rows = await db.select().from(waitlistEntries).where(waitingOf(organizationId)).orderBy(...longestWaitingFirst).limit(Math.max(0, Math.floor(limit)));
      return rows.map(toEntry);
    },

    async listWaitingOverlapping(organizationId, from, to, limit) {
      const rows = await db
        .select()
        .from(waitlistEntries)
        .where(and(waitingOf(organizationId), lte(waitlistEntries.startDate, to), gte(waitlistEntries.endDate, from)))
        .orderBy(...longestWaitingFirst)
        .limit(Math.max(0, Math.floor(limit)));
      return rows.map(toEntry);
    },

    async listWaitingOfPatient(organizationId, patientId) {
      const rows = await db
        .select()
        .from(waitlistEntries)
        .where(and(waitingOf(organizationId), eq(waitlistEntries.patientKey, idKey(patientId))))
        .orderBy(...longestWaitingFirst);
      return rows.map(toEntry);
    },

    async replacePreferences(organizationId, id, preferences, at) {
      const [row] = await db
        .update(waitlistEntries)
        .set({ preferences, startDate: preferences.startDate, endDate: preferences.endDate, updatedAt: dateFromEpochMs(at, "at") })
        .where(and(entryKey(organizationId, id), isNull(waitlistEntries.endedAt)))
        .returning();
      return row === undefined ? null : toEntry(row);
    },

    async end(organizationId, ids, reason, at) {
      if (ids.length === 0) return [];
      const rows = await db
        .update(waitlistEntries)
        .set({ endedAt: dateFromEpochMs(at, "at"), endReason: reason, updatedAt: dateFromEpochMs(at, "at") })
        .where(and(waitingOf(organizationId), inArray(waitlistEntries.id, [...ids])))
        .returning({ id: waitlistEntries.id });
      return rows.map((row) => row.id);
    },

    async endRangesBefore(date, at, limit = 500) {
      const doomed = db
        .select({ id: waitlistEntries.id })
        .from(waitlistEntries)
        .where(and(isNull(waitlistEntries.endedAt), lt(waitlistEntries.endDate, date)))
        .limit(Math.max(0, Math.floor(limit)))
        .for("update", { skipLocked: true });
      const rows = await db
        .update(waitlistEntries)
        .set({ endedAt: dateFromEpochMs(at, "at"), endReason: "range_passed", updatedAt: dateFromEpochMs(at, "at") })
        .where(and(inArray(waitlistEntries.id, doomed), isNull(waitlistEntries.endedAt)))
        .returning({ organizationId: waitlistEntries.organizationId, id: waitlistEntries.id });
      return rows;
    },

    purgeEndedBefore(at, limit) {
      return purgeBatch(db, waitlistEntries, and(isNotNull(waitlistEntries.endedAt), lt(waitlistEntries.endedAt, dateFromEpochMs(at, "at"))), limit);
    },

    async recordFreedSlot(slot) {
      const inserted = await db
        .insert(waitlistOffers)
        .values({
          id: slot.id,
          organizationId: slot.organizationId,
          freedKey: slot.freedKey,
          appointmentId: slot.appointmentId,
          facilityId: slot.facilityId,
          slotStartsAt: dateFromEpochMs(slot.slotStartsAt, "slotStartsAt"),
          freedAt: dateFromEpochMs(slot.freedAt, "freedAt"),
          status: "matching",
        })
        .onConflictDoNothing({ target: [waitlistOffers.organizationId, waitlistOffers.freedKey] })
        .returning({ id: waitlistOffers.id });
      return inserted.length > 0;
    },

    async claimFreedSlots({ limit, leaseMs, now }) {
      const at = dateFromEpochMs(now, "now");
      const claimable = db
        .select({ id: waitlistOffers.id })
        .from(waitlistOffers)
        .where(and(eq(waitlistOffers.status, "matching"), or(isNull(waitlistOffers.claimedUntil), lte(waitlistOffers.claimedUntil, at))))
        .orderBy(asc(waitlistOffers.freedAt), asc(waitlistOffers.id))
        .limit(Math.max(0, Math.floor(limit)))
        .for("update", { skipLocked: true });
      const rows = await db
        .update(waitlistOffers)
        .set({ claimedUntil: dateFromEpochMs(now + leaseMs, "claimedUntil") })
        .where(and(inArray(waitlistOffers.id, claimable), eq(waitlistOffers.status, "matching")))
        .returning();
      return rows.map(toOffer).sort((a, b) => a.freedAt - b.freedAt || a.id.localeCompare(b.id));
    },

    async settleOffered(organizationId, id, offered) {
      const rows = await db
        .update(waitlistOffers)
        .set({
          status: "offered",
          claimedUntil: null,
          // The slot's own form (`fac_`, as the service's slots give it), which the offer answers.
          facilityId: offered.facilityId,
          providerId: offered.providerId,
          startsAt: offered.startsAt,
          endsAt: offered.endsAt,
          appointmentTypeId: offered.appointmentTypeId,
          slotLengthMinutes: offered.slotLengthMinutes,
          isNewPatient: offered.isNewPatient,
          matches: offered.matches,
        })
        .where(and(offerKey(organizationId, id), eq(waitlistOffers.status, "matching")))
        .returning({ id: waitlistOffers.id });
      return rows.length > 0;
    },

    async settleUnoffered(organizationId, id, status, reason) {
      const rows = await db
        .update(waitlistOffers)
        .set({ status, claimedUntil: null, lastError: reason?.slice(0, MAX_ERROR_LENGTH) ?? null })
        .where(and(offerKey(organizationId, id), eq(waitlistOffers.status, "matching")))
        .returning({ id: waitlistOffers.id });
      return rows.length > 0;
    },

    async retryFreedSlot(organizationId, id, error, retryAt) {
      await db
        .update(waitlistOffers)
        .set({ attempts: sql`${waitlistOffers.attempts} + 1`, lastError: error.slice(0, MAX_ERROR_LENGTH), claimedUntil: dateFromEpochMs(retryAt, "retryAt") })
        .where(and(offerKey(organizationId, id), eq(waitlistOffers.status, "matching")));
    },

    async getOffer(organizationId, id) {
      const [row] = await db.select().from(waitlistOffers).where(offerKey(organizationId, id));
      return row === undefined ? null : toOffer(row);
    },

    async listOpenOffers(organizationId, now, limit) {
      const rows = await db
        .select()
        .from(waitlistOffers)
        .where(
          and(
            eq(waitlistOffers.organizationId, organizationId),
            eq(waitlistOffers.status, "offered"),
            isNull(waitlistOffers.takenBy),
            sql`${waitlistOffers.slotStartsAt} > ${dateFromEpochMs(now, "now").toISOString()}::timestamptz`,
          ),
        )
        .orderBy(asc(waitlistOffers.slotStartsAt), asc(waitlistOffers.id))
        .limit(Math.max(0, Math.floor(limit)));
      return rows.map(toOffer);
    },

    async takeOffer(organizationId, id, taken) {
      // One statement: of two users clicking at once, exactly one finds `taken_by` still null.
      const rows = await db
        .update(waitlistOffers)
        .set({ takenBy: taken.userId, takenEntryId: taken.entryId, takenAt: dateFromEpochMs(taken.at, "at") })
        .where(and(offerKey(organizationId, id), eq(waitlistOffers.status, "offered"), isNull(waitlistOffers.takenBy)))
        .returning({ id: waitlistOffers.id });
      return rows.length > 0;
    },

    async releaseOffer(organizationId, id, taken) {
      const rows = await db
        .update(waitlistOffers)
        .set({ takenBy: null, takenEntryId: null, takenAt: null })
        .where(and(offerKey(organizationId, id), eq(waitlistOffers.takenBy, taken.userId), eq(waitlistOffers.takenAt, dateFromEpochMs(taken.at, "at"))))
        .returning({ id: waitlistOffers.id });
      return rows.length > 0;
    },

    purgeOffersBefore(at, limit) {
      return purgeBatch(db, waitlistOffers, lt(waitlistOffers.slotStartsAt, dateFromEpochMs(at, "at")), limit);
    },
  };
}
