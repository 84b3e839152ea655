import type { HeldSlot, HoldRequest } from "#contract/app-api/slots.ts";
import type { Hold } from "#contract/clinic-api/schedule.ts";
import { isSameId } from "#contract/ids.ts";
import { holdIdKey, holdIdsInServiceForm, patientIdInServiceForm } from "../clinic/id-forms.ts";
import type { HostSession } from "../auth/host-token-verifier.ts";
import type { StoredSlotHold } from "../store/store.ts";

// The record Tandem keeps of a hold it made (DESIGN.md "Rules": a hold
// belongs to the user, not to a view) and the answer the SPA reads from it.

/**
 * The patient the hold is for: the token's whenever it names one (what the
 * EHR has open is authoritative, a body can name anyone); the body's only
 * when the token names none (standalone use, or no chart open); else none.
 */
export function holdPatientId(session: Pick<HostSession, "patientId">, requested: string | undefined): string | null {
  const patientId = session.patientId ?? requested ?? null;
  return patientId === null ? null : patientIdInServiceForm(patientId);
}

const minutesBetween = (startsAt: string, endsAt: string) => Math.round((Date.parse(endsAt) - Date.parse(startsAt)) / 60_000);

/** The hold as the user's basket shows it, whatever the service answers: the slot, what it is held as, and for whom. */
export type HeldRequest = Omit<StoredSlotHold, "organizationId" | "holdId" | "userId" | "patientName" | "expiresAt" | "heldAt">;

export function heldRequestOf(session: Pick<HostSession, "patientId">, request: HoldRequest): HeldRequest {
  const ids = holdIdsInServiceForm(request);
  return {
    patientId: holdPatientId(session, request.patientId),
    providerId: ids.providerId,
    facilityId: ids.facilityId,
    startsAt: request.startsAt,
    endsAt: request.endsAt,
    appointmentTypeId: ids.appointmentTypeId,
    slotLengthMinutes: request.slotLengthMinutes ?? minutesBetween(request.startsAt, request.endsAt),
    isNewPatient: request.isNewPatient ?? false,
  };
}

/** `patientName`: as the EHR named the hold's patient when it was made, or null. */
export function slotHoldRecord(options: { session: Pick<HostSession, "organizationId" | "userId" | "patientId">; request: HoldRequest; hold: Hold; heldAt: number; patientName: string | null }): StoredSlotHold {
  const { session, request, hold, heldAt, patientName } = options;
  return {
    organizationId: session.organizationId,
    holdId: holdIdKey(hold.id),
    userId: session.userId,
    ...heldRequestOf(session, request),
    patientName,
    expiresAt: Date.parse(hold.expiresAt),
    heldAt,
  };
}

export function heldSlotOf(record: StoredSlotHold): HeldSlot {
  return {
    id: record.holdId,
    slot: { providerId: record.providerId, facilityId: record.facilityId, startsAt: record.startsAt, endsAt: record.endsAt },
    appointmentTypeId: record.appointmentTypeId,
    slotLengthMinutes: record.slotLengthMinutes,
    isNewPatient: record.isNewPatient,
    patientId: record.patientId,
    patientName: record.patientName,
    expiresAt: new Date(record.expiresAt).toISOString(),
    heldAt: new Date(record.heldAt).toISOString(),
  };
}

/** The stored hold is of the very slot asked for (provider, facility, start and end instants), whatever it is held as. */
export function isHoldOfSlot(stored: Pick<StoredSlotHold, "providerId" | "facilityId" | "startsAt" | "endsAt">, slot: Pick<HoldRequest, "providerId" | "facilityId" | "startsAt" | "endsAt">): boolean {
  return (
    isSameId(stored.providerId, slot.providerId, "prv") &&
    isSameId(stored.facilityId, slot.facilityId, "fac") &&
    Date.parse(stored.startsAt) === Date.parse(slot.startsAt) &&
    Date.parse(stored.endsAt) === Date.parse(slot.endsAt)
  );
}
