import * as z from "zod/mini";
import { utcTimestamp } from "../clinic-api/primitives.ts";

// GET /api/context/patient: the patient in the token's context, for the banner.

export const contextPatientResponse = z.object({
  patient: z.object({
    id: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    middleName: z.nullable(z.string()),
    mrn: z.nullable(z.string()),
    dateOfBirth: z.nullable(z.string()),
    gender: z.nullable(z.string()),
  }),
});
export type ContextPatient = z.infer<typeof contextPatientResponse>["patient"];

// GET /api/context/patient/appointments: the upcoming appointments of the
// patient in the token's context, so the front desk does not double-book.
// Built from the service's appointment (seed 000 "Appointment"), which names
// no appointment type and no reason, so neither is here.

/** The route serves only the token's patient: a `patientId` (or anything else) in the query is refused, never used. */
export const patientAppointmentsQuery = z.strictObject({
  patientId: z.optional(z.never({ error: "this call lists only the patient open in the EHR; it takes no patientId" })),
});

export const patientAppointment = z.object({
  /** The service's appointment id, in the form it gives (v1: raw UUID). */
  id: z.string(),
  /** The service's `scheduledStartDate` and `scheduledEndDate`. */
  startsAt: utcTimestamp,
  endsAt: utcTimestamp,
  /** Never `cancelled`, `no_show` or `completed`; the value space is open, so other values are shown as they come. */
  status: z.string(),
  isNewPatient: z.boolean(),
  providerId: z.string(),
  /** "First Last" as the service has it; for a provider the pickers leave out (hidden). */
  providerName: z.string(),
  facilityId: z.string(),
  facilityName: z.string(),
});
export type PatientAppointment = z.infer<typeof patientAppointment>;

export const patientAppointmentsResponse = z.object({
  /** The token's patient the list belongs to (the SPA checks it against the patient it shows). */
  patientId: z.string(),
  /** Not yet ended, not cancelled, no-show or completed; earliest start first. */
  appointments: z.array(patientAppointment),
  meta: z.object({
    /** The service had more than one page from yesterday on: the latest ones are missing here (the EHR has them all). */
    hasMore: z.boolean(),
  }),
});
export type PatientAppointmentsResponse = z.infer<typeof patientAppointmentsResponse>;
