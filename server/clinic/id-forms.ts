import { isPrefixedId, isRawUuid, toPrefixedId, toRawUuid, type IdPrefix } from "#contract/ids.ts";
import type { ClinicApiRoute } from "#contract/clinic-api/responses.ts";

// DESIGN.md "The BFF's API": ids come in either form and only server/clinic/
// converts them, into the form each call documents (seed 000 "Conventions",
// seed 001 "Schedule"): v1 takes raw UUIDs, the schedule calls `fac_`,
// `prv_`, `atp_` ids. Anything not an id of the expected kind goes out as
// given, so the service's own 400 names the field.

type IdForm = { to: "raw"; kind: IdPrefix } | { to: "prefixed"; kind: IdPrefix };

const raw = (kind: IdPrefix): IdForm => ({ to: "raw", kind });
const prefixed = (kind: IdPrefix): IdForm => ({ to: "prefixed", kind });

type FieldForms = Readonly<Record<string, IdForm>>;

/** Path parameters with a prefixed form; every path accepts the raw UUID (v1 only that, v3 either). */
const PATH_FORMS: Partial<Record<ClinicApiRoute, FieldForms>> = {
  "GET /v1/facilities/{id}": { id: raw("fac") },
  "GET /v1/patients/{id}": { id: raw("pat") },
  "GET /v3/patients/{id}": { id: raw("pat") },
  "DELETE /v3/notes/{noteId}/images/{imageId}": { imageId: raw("img") },
};

const QUERY_FORMS: Partial<Record<ClinicApiRoute, FieldForms>> = {
  "GET /v1/appointments": { facilityId: raw("fac"), patientId: raw("pat") },
  "GET /v1/bills": { facilityId: raw("fac"), patientId: raw("pat"), providerId: raw("prv") },
  "GET /v1/inventory/changes/{id}": { facilityId: raw("fac") },
  "GET /v3/schedule/availability-templates": { facilityId: prefixed("fac"), providerId: prefixed("prv") },
  "GET /v2/schedule/slots": { appointmentTypeId: prefixed("atp"), facilityIds: prefixed("fac"), providerIds: prefixed("prv") },
};

/** Body fields of the assumed hold contract (DESIGN.md), in the schedule's prefixed form. */
const BODY_FORMS: Partial<Record<ClinicApiRoute, FieldForms>> = {
  "POST /v4/schedule/holds": { providerId: prefixed("prv"), facilityId: prefixed("fac"), appointmentTypeId: prefixed("atp") },
};

function convertId(value: string, form: IdForm): string {
  const trimmed = value.trim();
  if (!isRawUuid(trimmed) && !isPrefixedId(trimmed, form.kind)) return value;
  return form.to === "raw" ? toRawUuid(trimmed) : toPrefixedId(form.kind, trimmed);
}

function convertField(forms: FieldForms | undefined, name: string, value: string): string {
  const form = forms?.[name];
  return form ? convertId(value, form) : value;
}

export const pathIdForm = (route: ClinicApiRoute, name: string, value: string) => convertField(PATH_FORMS[route], name, value);
/** A query id or a list of them, converted item by item; a list goes out comma-separated (DESIGN.md "Upstream"), joined only here. */
export function queryIdForm(route: ClinicApiRoute, name: string, value: string | readonly string[]): string {
  const items = typeof value === "string" ? value.split(",") : value;
  const forms = QUERY_FORMS[route];
  if (!forms?.[name]) return typeof value === "string" ? value : items.join(",");
  return items
    .map((item) => item.trim())
    .filter((item) => item !== "")
    .map((item) => convertField(forms, name, item))
    .join(",");
}

/** A copy of a JSON object body with its id fields converted; other bodies are returned as they are. */
export function bodyIdForms(route: ClinicApiRoute, body: unknown): unknown {
  const forms = BODY_FORMS[route];
  if (!forms || typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const out: Record<string, unknown> = { ...body };
  for (const [name, value] of Object.entries(out)) if (typeof value === "string") out[name] = convertField(forms, name, value);
  return out;
}

/** `X-Organization-Id` needs a raw UUID (seed 001 "Errors"); organizations have no prefixed form. */
export function organizationHeaderValue(organizationId: string): string {
  if (!isRawUuid(organizationId)) throw new TypeError("organizationId must be a raw UUID");
  return organizationId.toLowerCase();
}

/** A hold's ids in the schedule calls' form: how Tandem keeps and answers a held slot. */
export const holdIdsInServiceForm = <T extends { providerId: string; facilityId: string; appointmentTypeId: string }>(fields: T): T => bodyIdForms("POST /v4/schedule/holds", fields) as T;

/** A patient id in the form the patient record gives (`GET /v1/patients/{id}`: a raw UUID). */
export const patientIdInServiceForm = (patientId: string) => convertId(patientId, raw("pat"));

/** Hold ids have one form, a UUID (docs/assumed-contracts.md); kept and compared in lower case. */
export const holdIdKey = (holdId: string) => (isRawUuid(holdId) ? holdId.toLowerCase() : holdId);
