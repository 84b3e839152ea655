import * as z from "zod/mini";
import { rawUuid, utcTimestamp } from "./primitives.ts";

// Seed 000 "Appointment" and "States and transitions".

/** Statuses that appear in the seeds; the value space is open. */
export const APPOINTMENT_STATUSES = ["confirmed", "arrived", "cancelled", "no_show", "completed"] as const;
/** First sightings in these statuses emit cancelled/completed, not created (seed 001 events rule 2). */
export const TERMINAL_APPOINTMENT_STATUSES = ["cancelled", "no_show", "completed"] as const;

export const appointment = z.object({
  id: rawUuid,
  scheduledStartDate: utcTimestamp,
  scheduledEndDate: utcTimestamp,
  status: z.string(),
  isNewPatient: z.boolean(),
  patientId: z.string(),
  patientFirstName: z.string(),
  patientLastName: z.string(),
  patientMrn: z.string(),
  providerId: z.string(),
  providerFirstName: z.string(),
  providerLastName: z.string(),
  facilityId: z.string(),
  facilityName: z.string(),
  createdAt: utcTimestamp,
});
export type Appointment = z.infer<typeof appointment>;
