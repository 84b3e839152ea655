import * as z from "zod/mini";
import type { HoldRequest, MaybeHeldSlot } from "#contract/app-api/slots.ts";
import { idKey } from "#contract/ids.ts";
import { readsAsUnknown, WRITE_IN_FLIGHT_MS } from "../clinic/write-outcome.ts";
import type { WriteIntent } from "../store/store.ts";
import type { HeldRequest } from "./held-slots.ts";

// A hold asked of the service is recorded as a write intent (kind `hold`)
// before it is sent, and settled from the answer (issue 35 item 4; ADR 0012
// addendum). One whose answer was lost (`unknown`, or `pending` past the
// request's deadline: its process died mid-call) may be a hold the EHR made
// for the user: it stays theirs, listed and counted, until a hold made by
// that request would have run out by itself.

/**
 * The service's hold lifetime. The contract gives none (the hold's record is
 * not shown, seed 000); the service's holds answer `expiresAt` 10 minutes
 * after they are made (the sandbox; docs/assumed-contracts.md).
 */
export const SERVICE_HOLD_LIFETIME_MS = 10 * 60_000;

/** What the intent keeps of the request (`heldRequestOf`), read back where it leaves the store. */
const heldRequest = z.object({
  providerId: z.string(),
  facilityId: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  appointmentTypeId: z.string(),
  slotLengthMinutes: z.int(),
  isNewPatient: z.boolean(),
  patientId: z.nullable(z.string()),
});

/**
 * The intent's subject: the slot (provider, facility, start and end instants),
 * whatever it is held as, since a hold takes the slot's capacity from every
 * type and length. Either id form and any offset give the same key.
 */
export function holdSubjectOf(slot: Pick<HoldRequest, "providerId" | "facilityId" | "startsAt" | "endsAt">): string {
  return [idKey(slot.providerId), idKey(slot.facilityId), new Date(slot.startsAt).toISOString(), new Date(slot.endsAt).toISOString()].join("|");
}

/**
 * The hold the EHR may have made is the one `request` asks for: the same slot
 * as the same kind for the same patient, so the same body reaches the service
 * and the attempt's idempotency key may be used again.
 */
export function isSameHoldAsked(maybe: MaybeHeldSlot, request: HeldRequest): boolean {
  const samePatient = maybe.patientId === null || request.patientId === null ? maybe.patientId === request.patientId : idKey(maybe.patientId) === idKey(request.patientId);
  return (
    samePatient &&
    holdSubjectOf(maybe.slot) === holdSubjectOf(request) &&
    idKey(maybe.appointmentTypeId) === idKey(request.appointmentTypeId) &&
    maybe.slotLengthMinutes === request.slotLengthMinutes &&
    maybe.isNewPatient === request.isNewPatient
  );
}

/** The latest instant a hold made by this request can last until. */
export const freesAtOf = (intent: Pick<WriteIntent, "createdAt">) => intent.createdAt + WRITE_IN_FLIGHT_MS + SERVICE_HOLD_LIFETIME_MS;

/**
 * The intent as a hold the EHR may have made for the user, or null: settled
 * (`done`: a recorded hold; `refused`), still in flight (`pending` within its
 * deadline), run out by `now`, or a request the BFF cannot read back.
 */
export function maybeHeldOf(intent: WriteIntent, now: number): MaybeHeldSlot | null {
  if (intent.kind !== "hold") return null;
  const freesAt = freesAtOf(intent);
  if (!readsAsUnknown(intent, now) || now >= freesAt) return null;
  const request = z.safeParse(heldRequest, intent.request);
  if (!request.success) return null;
  const { providerId, facilityId, startsAt, endsAt, ...kind } = request.data;
  return {
    id: intent.id,
    slot: { providerId, facilityId, startsAt, endsAt },
    ...kind,
    triedAt: new Date(intent.createdAt).toISOString(),
    freesAt: new Date(freesAt).toISOString(),
    canRelease: intent.resultId !== null,
  };
}
