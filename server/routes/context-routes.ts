import type { Hono } from "hono";
import type { ContextPatient } from "../../contract/app-api/patient.ts";
import { requireGrantedScope } from "../auth/scopes.ts";
import type { ClinicClient } from "../clinic/clinic-client.ts";
import type { AppEnv } from "../http/app-env.ts";
import { AppError } from "../http/app-error.ts";
import type { AuditTrail } from "../store/store.ts";

// GET /api/context/patient: the patient the host has in view, for the banner.
// The patient comes from the verified token's `patient_id`, never from the
// request. Needs `read:patients` (org B's installation does not grant it, and
// the banner says so). A PHI read: audited.

export function registerContextRoutes(api: Hono<AppEnv>, clinic: ClinicClient, audit: AuditTrail, now: () => number): void {
  api.get("/context/patient", async (c) => {
    const session = c.get("session");
    if (!session.patientId) throw new AppError(404, "not_found", "No patient is in view in the EHR");
    requireGrantedScope(c, "read:patients");
    const record = await clinic.request("GET /v1/patients/{id}", { organizationId: session.organizationId, params: { id: session.patientId } });
    audit.record({ at: now(), organizationId: session.organizationId, userId: session.userId, action: "read", resourceType: "patient", resourceId: record.id, traceId: c.get("traceId") });
    const patient: ContextPatient = {
      id: record.id,
      firstName: record.firstName,
      lastName: record.lastName,
      middleName: record.middleName ?? null,
      mrn: record.mrn,
      dateOfBirth: record.dateOfBirth,
      gender: record.gender,
    };
    return c.json({ patient });
  });
}
