import * as z from "zod/mini";
import { rawUuid, utcTimestamp } from "./primitives.ts";
import { pageQuery } from "./queries.ts";

// Assumed contracts (docs/assumed-contracts.md, "Patient documents"): seed 001
// names the patient documents list, its `updatedSince` filter and a refresh
// call without their paths or payloads; seed 000 shows the record only
// through its event payload (`patientDocumentEventData` in events.ts).

export const PATIENT_DOCUMENT_CREATED = "patient_document.created";

/** `GET /v1/patients/{patientId}/documents`: what the chart holds now. */
export const patientDocument = z.object({
  /** The same id the `patient_document.created` event carries. */
  id: rawUuid,
  patientId: rawUuid,
  kind: z.string(),
  sourceCategory: z.string(),
  title: z.string(),
  filename: z.string(),
  mimeType: z.string(),
  bytes: z.int().check(z.nonnegative()),
  /** As the EHR dates the document (it can be earlier than when it was filed). */
  createdAt: utcTimestamp,
  /** When the chart last gained or restored it: the `updatedSince` cursor. */
  updatedAt: utcTimestamp,
  /** Time-limited; read it fresh, never store it. Events carry none. */
  downloadUrl: z.url(),
});
export type PatientDocument = z.infer<typeof patientDocument>;

export const patientDocumentsQuery = z.object({
  /** Documents whose `updatedAt` is at or after this instant (the backstop of seed 001 "Delivery guarantees" 5). */
  updatedSince: z.optional(utcTimestamp),
  ...pageQuery,
});
export type PatientDocumentsQuery = z.infer<typeof patientDocumentsQuery>;

/** `POST /v1/patients/{patientId}/documents/refresh`: the chart was listed now. */
export const documentRefreshData = z.object({
  patientId: rawUuid,
  refreshedAt: utcTimestamp,
  /** How many `patient_document.created` events this listing emitted (0 on a baseline). */
  announced: z.int().check(z.nonnegative()),
});
export type DocumentRefreshData = z.infer<typeof documentRefreshData>;
