import * as z from "zod/mini";
import { appointment } from "./appointment.ts";
import { bill, billDetail, claimV1, claimV2, eraServiceLine } from "./billing.ts";
import { documentRefreshData, patientDocument } from "./documents.ts";
import { errorBody, paginatedData, successEnvelope } from "./envelope.ts";
import { fax, faxData } from "./faxes.ts";
import { installation } from "./installation.ts";
import { inventoryChange, inventoryChangeItem, inventoryProduct } from "./inventory.ts";
import { note, noteImage, task } from "./note.ts";
import { facility, patient, patientV3, provider } from "./people.ts";
import { appointmentType, availabilityTemplatesData, holdData, holdReleaseData, slotsData } from "./schedule.ts";
import { syncRequestData } from "./sync-requests.ts";

// The response of each endpoint, enveloped, as a client parses it. Keys are
// the paths as the seeds write them. The OAuth endpoints answer OAuth's own
// top-level JSON instead (contract/clinic-api/oauth.ts).

export const clinicApiResponses = {
  "GET /v1/appointments": successEnvelope(paginatedData("appointments", appointment)),
  "GET /v1/appointments/{id}": successEnvelope(appointment),
  "GET /v1/facilities": successEnvelope(paginatedData("facilities", facility)),
  "GET /v1/facilities/{id}": successEnvelope(facility),
  "GET /v1/patients": successEnvelope(paginatedData("patients", patient)),
  "GET /v1/patients/{id}": successEnvelope(patient),
  "GET /v3/patients": successEnvelope(paginatedData("patients", patientV3)),
  "GET /v3/patients/{id}": successEnvelope(patientV3),
  "GET /v1/patients/{patientId}/documents": successEnvelope(paginatedData("documents", patientDocument)),
  "POST /v1/patients/{patientId}/documents/refresh": successEnvelope(documentRefreshData),
  "GET /v1/providers": successEnvelope(paginatedData("providers", provider)),
  "GET /v3/appointment-types": successEnvelope(paginatedData("appointmentTypes", appointmentType)),
  "GET /v3/schedule/availability-templates": successEnvelope(availabilityTemplatesData),
  "GET /v2/schedule/slots": successEnvelope(slotsData),
  "POST /v4/schedule/holds": successEnvelope(holdData),
  "DELETE /v4/schedule/holds/{holdId}": successEnvelope(holdReleaseData),
  "GET /v1/notes/{noteId}": successEnvelope(note),
  "PATCH /v1/notes/{noteId}": successEnvelope(note),
  "GET /v3/notes/{noteId}/images": successEnvelope(z.object({ images: z.array(noteImage) })),
  "DELETE /v3/notes/{noteId}/images/{imageId}": successEnvelope(noteImage),
  "POST /v2/tasks": successEnvelope(task),
  "GET /v1/installations": successEnvelope(paginatedData("installations", installation)),
  "GET /v1/bills": successEnvelope(paginatedData("bills", bill)),
  "GET /v1/bills/{id}": successEnvelope(billDetail),
  "GET /v1/claims/{id}": successEnvelope(claimV1),
  "GET /v2/claims/{id}": successEnvelope(claimV2),
  "GET /v1/era-service-lines": successEnvelope(paginatedData("eraServiceLines", eraServiceLine)),
  "GET /v1/era-service-lines/{id}": successEnvelope(eraServiceLine),
  "GET /v1/inventory/products": successEnvelope(z.object({ products: z.array(inventoryProduct) })),
  "GET /v1/inventory/products/{id}": successEnvelope(z.object({ product: inventoryProduct })),
  "GET /v1/inventory/changes/{id}": successEnvelope(z.object({ change: inventoryChange })),
  "GET /v1/inventory/changes/{id}/products": successEnvelope(z.object({ items: z.array(inventoryChangeItem) })),
  "POST /v1/faxes": successEnvelope(faxData),
  "GET /v1/faxes": successEnvelope(paginatedData("faxes", fax)),
  "GET /v1/faxes/{id}": successEnvelope(faxData),
  "POST /v1/sync-requests": successEnvelope(syncRequestData),
  "GET /v1/sync-requests/{id}": successEnvelope(syncRequestData),
} as const;
export type ClinicApiRoute = keyof typeof clinicApiResponses;

export { errorBody };
