import * as z from "zod/mini";

// GET /api/session, GET /api/providers, /api/facilities, /api/appointment-types.

export const CLINICAL_ROLES = ["Physician", "Nurse Practitioner", "Medical Assistant"] as const;

export function isClinicalRole(roles: readonly string[]): boolean {
  return roles.some((role) => (CLINICAL_ROLES as readonly string[]).includes(role));
}

export const sessionUser = z.object({
  /** The provider's id (raw UUID, as v1 gives it). */
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  displayName: z.string(),
  title: z.string(),
  roles: z.array(z.string()),
});

export const sessionFacility = z.object({
  id: z.string(),
  name: z.string(),
  timezone: z.string(),
});
export type SessionFacility = z.infer<typeof sessionFacility>;

export const session = z.object({
  user: sessionUser,
  organization: z.object({
    id: z.string(),
    installationStatus: z.string(),
    settings: z.record(z.string(), z.unknown()),
  }),
  facilities: z.array(sessionFacility),
  /** The manifest's required scopes plus the installation's grants. */
  grantedScopes: z.array(z.string()),
  /** From the verified token: what the host has in view. */
  context: z.object({
    facilityId: z.nullable(z.string()),
    patientId: z.nullable(z.string()),
    noteId: z.nullable(z.string()),
  }),
  capabilities: z.object({
    /** Front desk and schedulers read schedules and hold slots. */
    canHoldSlots: z.boolean(),
    /** Clinical roles, with a note in context. */
    canEditNotes: z.boolean(),
    canReadPatients: z.boolean(),
  }),
  /** When the host token expires (ISO 8601). */
  tokenExpiresAt: z.string(),
});
export type Session = z.infer<typeof session>;

export const pickerProvider = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  displayName: z.string(),
  title: z.string(),
  roles: z.array(z.string()),
});
export type PickerProvider = z.infer<typeof pickerProvider>;

export const providersResponse = z.object({ providers: z.array(pickerProvider) });

export const pickerFacility = z.object({
  id: z.string(),
  name: z.string(),
  timezone: z.string(),
  specialty: z.string(),
  city: z.string(),
});
export type PickerFacility = z.infer<typeof pickerFacility>;

export const facilitiesResponse = z.object({ facilities: z.array(pickerFacility) });

export const pickerAppointmentType = z.object({
  id: z.string(),
  name: z.string(),
  abbreviation: z.string(),
  defaultDurationMinutes: z.int(),
  newPatientDurationMinutes: z.int(),
});
export type PickerAppointmentType = z.infer<typeof pickerAppointmentType>;

export const appointmentTypesResponse = z.object({ appointmentTypes: z.array(pickerAppointmentType) });

export const pickerQuery = z.object({
  search: z.optional(z.string().check(z.maxLength(100, "must be at most 100 characters"))),
});
