import * as z from "zod/mini";

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
