import * as z from "zod/mini";
import { anyId, rawUuid, utcTimestamp } from "./primitives.ts";

// Assumed contract of the on-demand sync request (seed 001 "Gaps": "the
// on-demand sync request call" is referred to without a contract; the event
// catalogue gives `sync_request.completed`, gated on "the read scope of the
// re-synced resource"). See docs/assumed-contracts.md, "On-demand sync requests".

export const SYNC_REQUEST_RESOURCES = ["appointments", "facilities", "providers", "patients", "patient_documents"] as const;
export type SyncRequestResource = (typeof SYNC_REQUEST_RESOURCES)[number];

/** The read scope of each resource: needed to request, to read the request, and to receive its completion event. */
export const SYNC_REQUEST_RESOURCE_SCOPES: Readonly<Record<SyncRequestResource, string>> = {
  appointments: "read:appointments",
  facilities: "read:facilities",
  providers: "read:providers",
  patients: "read:patients",
  patient_documents: "read:patient_documents",
};

/** Resources that can be narrowed to one patient's chart. */
export const PATIENT_SCOPED_RESOURCES: readonly SyncRequestResource[] = ["appointments", "patients", "patient_documents"];

export const SYNC_REQUEST_STATUSES = ["pending", "completed", "failed"] as const;
export const SYNC_REQUEST_TERMINAL_STATUSES = ["completed", "failed"] as const;

/** A failed re-sync carries the seed's code for "the EHR sync failed". */
export const SYNC_REQUEST_FAILURE_CODE = "unexpected_integration_error";

export const syncRequestCreateBody = z.strictObject({
  resource: z.enum(SYNC_REQUEST_RESOURCES),
  /** Only with a patient-scoped resource; a `pat_` id or a UUID. */
  patientId: z.optional(anyId),
});
export type SyncRequestCreateBody = z.infer<typeof syncRequestCreateBody>;

/** `completedAt` is set on either terminal status; `errorCode` only on `failed`. */
export const syncRequest = z
  .object({
    id: rawUuid,
    resource: z.enum(SYNC_REQUEST_RESOURCES),
    patientId: z.nullable(rawUuid),
    status: z.enum(SYNC_REQUEST_STATUSES),
    requestedAt: utcTimestamp,
    completedAt: z.nullable(utcTimestamp),
    errorCode: z.nullable(z.string()),
  })
  .check(
    z.refine((record) => (record.status === "pending") === (record.completedAt === null), { message: "completedAt: must be set exactly when the request is terminal", path: ["completedAt"] }),
    z.refine((record) => (record.status === "failed") === (record.errorCode !== null), { message: "errorCode: must be set exactly when status is failed", path: ["errorCode"] }),
  );
export type SyncRequest = z.infer<typeof syncRequest>;

/** `data` of the create and of the read. */
export const syncRequestData = z.object({ syncRequest });

/** `sync_request.completed` data (payload not shown by the seeds; assumed). */
export const syncRequestCompletedData = z.object({
  id: rawUuid,
  organizationId: rawUuid,
  resource: z.enum(SYNC_REQUEST_RESOURCES),
  patientId: z.nullable(rawUuid),
  status: z.enum(SYNC_REQUEST_TERMINAL_STATUSES),
  requestedAt: utcTimestamp,
  completedAt: utcTimestamp,
  errorCode: z.nullable(z.string()),
});
export type SyncRequestCompletedData = z.infer<typeof syncRequestCompletedData>;
