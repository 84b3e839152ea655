import * as z from "zod/mini";
import { localDate, patientId, rawUuid, textTimestamp, utcTimestamp } from "./primitives.ts";

// Seed 000 "Patient", "Facility", "Provider".

const facilityAddress = z.object({
  line1: z.string(),
  line2: z.string(),
  city: z.string(),
  state: z.string(),
  zipcode: z.string(),
});

const patientFields = {
  mrn: z.nullable(z.string()),
  firstName: z.string(),
  lastName: z.string(),
  middleName: z.optional(z.string()),
  gender: z.nullable(z.string()),
  dateOfBirth: z.nullable(localDate),
  email: z.string(),
  phone: z.string(),
  createdAt: utcTimestamp,
  updatedAt: utcTimestamp,
};

/** `/v1/patients`: raw UUID ids. */
export const patient = z.object({ id: rawUuid, ...patientFields });
export type Patient = z.infer<typeof patient>;

/** `/v3/patients`: `pat_` ids. */
export const patientV3 = z.object({ id: patientId, ...patientFields });
export type PatientV3 = z.infer<typeof patientV3>;

/** A patient embedded in a note carries a time-limited avatar URL. */
export const notePatient = z.object({
  id: rawUuid,
  ...patientFields,
  avatar: z.string(),
});

export const facility = z.object({
  id: rawUuid,
  name: z.string(),
  timezone: z.string(),
  address: facilityAddress,
  specialty: z.string(),
  isVisible: z.boolean(),
  organizationNpi: z.string(),
  createdAt: utcTimestamp,
  updatedAt: utcTimestamp,
});
export type Facility = z.infer<typeof facility>;

/** A facility embedded in a note has no address. */
export const noteFacility = z.object({
  id: rawUuid,
  name: z.string(),
  timezone: z.string(),
  specialty: z.string(),
  isVisible: z.boolean(),
  organizationNpi: z.string(),
  /** ISO 8601 like the embedded patient's: seed 000 names notes, tasks and their providers only as database-style text. */
  createdAt: utcTimestamp,
  updatedAt: utcTimestamp,
});

const providerCore = {
  id: rawUuid,
  firstName: z.string(),
  lastName: z.string(),
  displayFirstName: z.string(),
  displayLastName: z.string(),
  roles: z.array(z.string()),
  individualNpi: z.string(),
};

export const provider = z.object({
  ...providerCore,
  hidden: z.boolean(),
  /** Referenced by provider events; on kind B it comes from the provider's role. */
  title: z.string(),
  createdAt: utcTimestamp,
  updatedAt: utcTimestamp,
});
export type Provider = z.infer<typeof provider>;

/** Seed 000 "Task": the embedded provider fields, text timestamps. */
export const taskProvider = z.object({
  ...providerCore,
  username: z.string(),
  canFinalize: z.boolean(),
  canCosign: z.boolean(),
});
export type TaskProvider = z.infer<typeof taskProvider>;

/** A provider embedded in a note also has `hidden` and `roleType`. */
export const noteProvider = z.object({
  ...providerCore,
  username: z.string(),
  canFinalize: z.boolean(),
  canCosign: z.boolean(),
  hidden: z.boolean(),
  roleType: z.string(),
  createdAt: textTimestamp,
  updatedAt: textTimestamp,
});
export type NoteProvider = z.infer<typeof noteProvider>;
