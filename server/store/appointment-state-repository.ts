import { and, asc, eq, lt, lte } from "drizzle-orm";
import type { AppointmentState, AppointmentStateRepository } from "./store.ts";
import type { StoreDatabase } from "./database.ts";
import { dateFromEpochMs, timestamptzFromIso } from "./instants.ts";
import { purgeBatch } from "./purge-batch.ts";
import { appointmentStates } from "./schema.ts";

/** On equal `updatedAt` these statuses replace what is stored: a cancellation is never undone by a tie. */
const TIE_WINNING_STATUSES: ReadonlySet<string> = new Set(["cancelled", "no_show"]);

function toState(row: typeof appointmentStates.$inferSelect): AppointmentState {
  return {
    organizationId: row.organizationId,
    appointmentId: row.appointmentId,
    status: row.status,
    updatedAt: row.updatedAt.toISOString(),
    facilityId: row.facilityId,
    scheduledStartDate: row.scheduledStartDate,
    scheduledEndDate: row.scheduledEndDate,
  };
}

export function createAppointmentStateRepository(db: StoreDatabase): AppointmentStateRepository {
  const byKey = (organizationId: string, appointmentId: string) =>
    and(eq(appointmentStates.organizationId, organizationId), eq(appointmentStates.appointmentId, appointmentId));

  return {
    async get(organizationId, appointmentId) {
      const [row] = await db.select().from(appointmentStates).where(byKey(organizationId, appointmentId));
      return row === undefined ? null : toState(row);
    },

    async applyIfNewer(state) {
      // To the microsecond: two changes of one appointment within a millisecond still order.
      const updatedAt = timestamptzFromIso(state.updatedAt, "updatedAt");
      const values = {
        organizationId: state.organizationId,
        appointmentId: state.appointmentId,
        status: state.status,
        updatedAt,
        facilityId: state.facilityId,
        scheduledStartDate: state.scheduledStartDate,
        scheduledEndDate: state.scheduledEndDate,
      };
      const storedIsOlder = TIE_WINNING_STATUSES.has(state.status)
        ? lte(appointmentStates.updatedAt, updatedAt)
        : lt(appointmentStates.updatedAt, updatedAt);

      // The row lock makes `previous` exactly what the comparison ran against; a single upsert
      // would decide atomically too but cannot report the row it replaced (RETURNING old needs PG 18).
      return db.transaction(async (tx) => {
        // Two rounds at most: a concurrent first event can win the insert, then the row exists and is locked.
        for (let round = 0; round < 2; round += 1) {
          const [locked] = await tx.select().from(appointmentStates).where(byKey(state.organizationId, state.appointmentId)).for("update");
          if (locked === undefined) {
            const inserted = await tx
              .insert(appointmentStates)
              .values(values)
              .onConflictDoNothing()
              .returning({ appointmentId: appointmentStates.appointmentId });
            if (inserted.length > 0) return { applied: true, previous: null };
            continue;
          }
          const updated = await tx
            .update(appointmentStates)
            .set(values)
            .where(and(byKey(state.organizationId, state.appointmentId), storedIsOlder))
            .returning({ appointmentId: appointmentStates.appointmentId });
          return { applied: updated.length > 0, previous: toState(locked) };
        }
        throw new Error("store: appointment state neither inserted nor found");
      });
    },

    async list(organizationId) {
      const rows = await db
        .select()
        .from(appointmentStates)
        .where(eq(appointmentStates.organizationId, organizationId))
        .orderBy(asc(appointmentStates.scheduledStartDate), asc(appointmentStates.appointmentId));
      return rows.map(toState);
    },

    purgeEndedBefore(at, limit) {
      const before = dateFromEpochMs(at, "at");
      // The payload's text, compared as text: any end on an earlier day sorts before the bare date.
      const day = before.toISOString().slice(0, 10);
      return purgeBatch(db, appointmentStates, and(lt(appointmentStates.scheduledEndDate, day), lt(appointmentStates.updatedAt, before)), limit);
    },
  };
}
