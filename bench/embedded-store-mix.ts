import type { Store } from "../server/store/store.ts";

// A representative mix of the BFF's store operations, as a clinic's day makes
// them: per round one host token spent, an appointment event received,
// claimed and applied, a draft saved and read, a note viewed, a hold made,
// listed and released, a task created and listed, and audit entries; every
// 50 rounds the trail's recent resources and what changed, and the purges.
// Deterministic: two runs issue the same operations.

const ORGS = ["3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61", "8c4e2d19-7a36-4b5f-a0e1-9d8c7b6a5f42"] as const;
const BASE = Date.parse("2026-03-02T13:00:00.000Z");
const USERS = 20;
const NOTES = 60;

const iso = (ms: number) => new Date(ms).toISOString();
const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
const uuid = (n: number) => `${hex(n, 8)}-0000-4000-8000-${hex(n, 12)}`;

export interface MixResult {
  rounds: number;
  operations: number;
  ms: number;
}

export async function runStoreMix(store: Store, rounds: number): Promise<MixResult> {
  const started = performance.now();
  let operations = 0;
  const op = async <T>(promise: Promise<T>): Promise<T> => {
    operations += 1;
    return promise;
  };
  for (const organizationId of ORGS) {
    await op(store.installations.upsertIfNewer({ organizationId, status: "active", grantedPermissions: ["read:patients"], settings: { label: "Clinic" }, installedAt: iso(BASE), updatedAt: iso(BASE) }));
  }
  for (let round = 0; round < rounds; round += 1) {
    const organizationId = ORGS[round % ORGS.length] ?? ORGS[0];
    const userId = `user-${round % USERS}`;
    const noteId = `note-${round % NOTES}`;
    const now = BASE + round * 1_000;

    await op(store.installations.get(organizationId));
    await op(store.usedTokenIds.remember(`jti-${round}`, now + 300_000));

    const hookId = `msg_${hex(round, 12)}`;
    const appointmentId = `appt-${round % 200}`;
    const state = { organizationId, appointmentId, status: round % 7 === 0 ? "cancelled" : "confirmed", updatedAt: iso(now), facilityId: "fac_decb7415a45c4b13859361ec146879bf", scheduledStartDate: iso(now + 86_400_000), scheduledEndDate: iso(now + 88_200_000) };
    await op(store.inbox.insert({ hookId, eventType: "appointment.updated", payload: { data: state }, receivedAt: now }));
    for (const entry of await op(store.inbox.claimUnprocessed({ limit: 10, leaseMs: 30_000, now, maxAttempts: 5 }))) {
      await op(store.appointmentStates.applyIfNewer(state));
      await op(store.inbox.markProcessed(entry.hookId, now));
    }

    const fields = { subjective: `Patient reports ${round} things. `.repeat(8), plan: `Follow up in ${round % 14} days.` };
    await op(store.noteDrafts.put({ organizationId, userId, noteId, fields, baseline: { subjective: "", plan: "" }, noteVersion: round % 5, updatedAt: now }));
    await op(store.noteDrafts.get(organizationId, userId, noteId));
    await op(store.noteViews.put({ organizationId, userId, noteId, fields, sectionDigests: { subjective: hex(round, 16), plan: hex(round * 7, 16) }, noteUpdatedAt: iso(now), seenAt: now }));
    await op(store.noteViews.get(organizationId, userId, noteId));
    await op(store.noteStates.get(organizationId, noteId));

    const holdId = uuid(round + 1);
    const hold = { organizationId, holdId, userId, patientId: uuid(round % 500), patientName: null, providerId: "prv_9c1a6f98f0fb4012a8008dcbd76bd1c9", facilityId: "fac_decb7415a45c4b13859361ec146879bf", startsAt: iso(now + 3_600_000), endsAt: iso(now + 4_800_000), appointmentTypeId: "atp_a378f9f991a9266eb094d4a92c343856", slotLengthMinutes: 20, isNewPatient: round % 3 === 0, expiresAt: now + 600_000, heldAt: now };
    if (await op(store.holds.insertWithinLimit(hold, 3, now))) {
      await op(store.holds.listActive(organizationId, userId, now));
      await op(store.holds.delete(organizationId, holdId));
    }

    if (round % 10 === 0) {
      await op(store.tasks.insert({ organizationId, noteId, taskId: `task-${round}`, createdBy: userId, task: { title: "Call the patient back", due: iso(now + 172_800_000) }, createdAt: now }));
      await op(store.tasks.listByNote(organizationId, noteId));
    }
    for (const resourceType of ["note", "patient", "note_image"]) {
      await op(store.audit.record({ at: now, organizationId, userId, accountId: userId, action: resourceType === "note" && round % 4 === 0 ? "write" : "read", resourceType, resourceId: noteId, traceId: `trace-${round}` }));
    }
    if (round % 50 === 49) {
      await op(store.audit.recentResources(organizationId, { userId, accountId: userId }, ["note"], 15));
      await op(store.audit.writesSince(organizationId, "note", [noteId], now - 60_000));
      await op(store.usedTokenIds.purgeExpired(now));
      await op(store.holds.purgeExpired(now));
      await op(store.noteViews.purgeSeenBefore(now - 3_600_000));
    }
  }
  await op(store.audit.flush());
  return { rounds, operations, ms: Math.round(performance.now() - started) };
}
