import * as z from "zod/mini";
import type { HoldRequest, MaybeHeldSlot } from "#contract/app-api/slots.ts";
import { idKey } from "#contract/ids.ts";
import { UpstreamError } from "../clinic/upstream-error.ts";
import type { WriteIntent } from "../store/store.ts";

// A hold asked of the service is recorded as a write intent (kind `hold`)
// before it is sent, and settled from the answer (issue 35 item 4; ADR 0012
// addendum). One whose answer was lost (`unknown`, or `pending` past the
// request's deadline: its process died mid-call) may be a hold the EHR made
// for the user: it stays theirs, listed and counted, until a hold made by
// that request would have run out by itself.

/**
 * How long one `POST /v4/schedule/holds` of the BFF can last, from the intent
 * to the last moment the service can receive it: the limiter's queue (2 s),
 * the attempt's timeout (10 s), and two retries after a 429 (each at most a
 * 5 s Retry-After and a 10 s attempt): 42 s, rounded up. A `pending` intent
 * older than this belongs to a process that died mid-call.
 */
export const HOLD_REQUEST_DEADLINE_MS = 60_000;

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
 * Whether the service refused the hold before acting on it: it answered a
 * 4xx (a 409 `conflict`, a 400, a 403...), or the request never left the
 * BFF (its limiter or the user's quota refused it; a 429 the client could
 * not wait out was not processed). Anything else (no answer, a timeout, a
 * 5xx, an answer the BFF could not read) may have followed the service's act.
 */
export function isRefusedBeforeActing(error: unknown): boolean {
  if (!(error instanceof UpstreamError)) return false;
  if (error.code === "rate_limited") return true;
  return error.upstreamStatus !== null && error.upstreamStatus >= 400 && error.upstreamStatus < 500;
}

/** The latest instant a hold made by this request can last until. */
export const freesAtOf = (intent: Pick<WriteIntent, "createdAt">) => intent.createdAt + HOLD_REQUEST_DEADLINE_MS + SERVICE_HOLD_LIFETIME_MS;

/**
 * The intent as a hold the EHR may have made for the user, or null: settled
 * (`done`: a recorded hold; `refused`), still in flight (`pending` within its
 * deadline), run out by `now`, or a request the BFF cannot read back.
 */
export function maybeHeldOf(intent: WriteIntent, now: number): MaybeHeldSlot | null {
  if (intent.kind !== "hold") return null;
  const isUnknown = intent.outcome === "unknown" || (intent.outcome === "pending" && now - intent.createdAt >= HOLD_REQUEST_DEADLINE_MS);
  const freesAt = freesAtOf(intent);
  if (!isUnknown || now >= freesAt) return null;
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
