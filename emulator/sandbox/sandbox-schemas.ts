import * as z from "zod/mini";
import { INSTALLATION_STATUSES } from "#contract/clinic-api/installation.ts";
import { soapNote } from "#contract/clinic-api/note.ts";
import { anyId, offsetDateTime, rawUuid } from "#contract/clinic-api/primitives.ts";

// Bodies of the `/_sandbox/` controls (DESIGN.md "Its controls").

export const hostTokenRequest = z.object({
  organizationId: rawUuid,
  userId: anyId,
  patientId: z.optional(anyId),
  noteId: z.optional(rawUuid),
  facilityId: z.optional(anyId),
});

export const clockRequest = z.object({
  now: z.optional(z.union([z.string().check(z.refine((value) => !Number.isNaN(Date.parse(value)), "must be an ISO 8601 date-time")), z.number()])),
  frozen: z.optional(z.boolean()),
  advanceSeconds: z.optional(z.number()),
});

export const faultRequest = z.object({
  method: z.string().check(z.regex(/^(GET|POST|PUT|PATCH|DELETE|\*)$/i, "must be an HTTP method or *")),
  path: z.string().check(z.regex(/^\//, "must start with /")),
  status: z.optional(z.int().check(z.minimum(100), z.maximum(599))),
  code: z.optional(z.string().check(z.minLength(1))),
  latencyMs: z.optional(z.int().check(z.nonnegative(), z.maximum(120_000))),
  probability: z.optional(z.number().check(z.minimum(0), z.maximum(1))),
  count: z.optional(z.int().check(z.positive())),
  /** `reset`: the request is carried out, then its connection destroyed before the answer (over a real socket only). */
  afterAction: z.optional(z.enum(["reset"])),
});

export const webhookTargetRequest = z.object({
  url: z.url(),
  headerStyle: z.enum(["standard", "prefixed"]),
  duplicate: z.optional(z.boolean()),
  shuffle: z.optional(z.boolean()),
  retrySchedule: z.optional(z.array(z.number().check(z.nonnegative())).check(z.maxLength(20))),
});

export const webhookSecretsRequest = z.object({
  secrets: z.array(z.string().check(z.regex(/^whsec_[A-Za-z0-9+/=]+$/, "must be a whsec_ secret"))).check(z.minLength(1)),
});

export const ehrAppointmentCreate = z.object({
  patientId: anyId,
  providerId: anyId,
  facilityId: anyId,
  startsAt: offsetDateTime,
  endsAt: offsetDateTime,
  appointmentTypeId: z.optional(anyId),
  status: z.optional(z.string().check(z.minLength(1))),
  isNewPatient: z.optional(z.boolean()),
  reason: z.optional(z.nullable(z.string())),
});

export const ehrAppointmentPatch = z.object({
  startsAt: z.optional(offsetDateTime),
  endsAt: z.optional(offsetDateTime),
  status: z.optional(z.string().check(z.minLength(1))),
  providerId: z.optional(anyId),
  facilityId: z.optional(anyId),
  patientId: z.optional(anyId),
  appointmentTypeId: z.optional(anyId),
  reason: z.optional(z.nullable(z.string())),
  cancelReasonName: z.optional(z.nullable(z.string())),
});

export const ehrProviderPatch = z.object({
  firstName: z.optional(z.string().check(z.minLength(1))),
  lastName: z.optional(z.string().check(z.minLength(1))),
  /** The name the EHR shows ("Dr. Ada", "Brooks, MD"): the providers list's display fields. */
  displayFirstName: z.optional(z.string().check(z.minLength(1))),
  displayLastName: z.optional(z.string().check(z.minLength(1))),
  title: z.optional(z.string()),
  roles: z.optional(z.array(z.string())),
  active: z.optional(z.boolean()),
});

/** Sections of a note changed in the EHR itself (any section, as a clinician there would), replacing each one given whole. */
export const ehrNotePatch = z.strictObject({ soapNote: z.partial(soapNote) });

export const ehrFacilityPatch = z.object({
  name: z.optional(z.string().check(z.minLength(1))),
  specialty: z.optional(z.string()),
  isVisible: z.optional(z.boolean()),
  address: z.optional(
    z.object({ line1: z.string(), line2: z.string(), city: z.string(), state: z.string(), zipcode: z.string() }),
  ),
});

export const installationRequest = z.object({
  status: z.enum(INSTALLATION_STATUSES),
  grantedPermissions: z.optional(z.array(z.string())),
  settings: z.optional(z.record(z.string(), z.unknown())),
});

export const syncRequest = z.object({ organizationId: z.optional(rawUuid) });
