import * as z from "zod/mini";
import { isoTimestamp } from "./primitives.ts";

// Seed 001 "Events": the envelope and the payloads it shows. Payloads it does
// not show are open objects (looseObject) and say so. Seed 001 calls their
// timestamps "ISO 8601" and nothing more: every form with a zone is read
// (isoTimestamp), and ordered as instants (contract/time/timestamp.ts).

export const webhookEnvelope = z.object({
  type: z.string(),
  data: z.looseObject({}),
  /** When the change was recorded, not when the message was sent. */
  timestamp: isoTimestamp,
});
export type WebhookEnvelope = z.infer<typeof webhookEnvelope>;

export const APPOINTMENT_EVENT_TYPES = ["appointment.created", "appointment.updated", "appointment.cancelled", "appointment.completed"] as const;
export const LIFECYCLE_EVENT_TYPES = ["app.installed", "app.uninstalled", "app.suspended", "app.reactivated", "installation.permissions_updated"] as const;

export const appointmentEventData = z.object({
  id: z.string(),
  organizationId: z.string(),
  integrationAppointmentId: z.string(),
  patientId: z.string(),
  /** The provider's id in the EHR, not the service's provider id. */
  providerUsersEhrId: z.string(),
  facilityId: z.string(),
  status: z.string(),
  integrationStatus: z.string(),
  /** null on a first sighting: a possibly historical appointment (events rule 2). */
  previousStatus: z.nullable(z.string()),
  cancelReasonName: z.nullable(z.string()),
  scheduledStartDate: isoTimestamp,
  scheduledEndDate: isoTimestamp,
  updatedAt: isoTimestamp,
});
export type AppointmentEventData = z.infer<typeof appointmentEventData>;

export const patientDocumentEventData = z.object({
  id: z.string(),
  organizationId: z.string(),
  patientId: z.string(),
  kind: z.string(),
  sourceCategory: z.string(),
  title: z.string(),
  filename: z.string(),
  mimeType: z.string(),
  bytes: z.int(),
  createdAt: isoTimestamp,
});

export const FAX_ERROR_KINDS = [
  "invalid_request",
  "transmission_failed",
  "not_found_in_outbox",
  "ambiguous_outbox_match",
  "patient_unresolvable",
  "still_processing",
  "send_interrupted",
  "outbox_unreadable",
  "unknown_status",
] as const;

/** The remaining fax payload fields are not shown. */
export const faxEventData = z.looseObject({
  status: z.enum(["delivered", "failed"]),
  errorKind: z.optional(z.nullable(z.string())),
  occurredAt: isoTimestamp,
});

export const appInstalledEventData = z.object({
  organizationId: z.string(),
  grantedPermissions: z.array(z.string()),
  settings: z.record(z.string(), z.unknown()),
  /** Always null at present; do not use it. */
  installedBy: z.null(),
});

/** Lifecycle payloads other than `app.installed` are not shown; `organizationId` is assumed as the routing key. */
export const lifecycleEventData = z.looseObject({ organizationId: z.string() });

/** Facility, provider and sync-request payloads are not shown; compact payloads are assumed. */
export const compactEventData = z.looseObject({ id: z.string(), organizationId: z.string() });
