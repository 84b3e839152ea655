import type { Context, Hono } from "hono";
import { patientAppointmentsQuery, type ContextPatient, type PatientAppointment, type PatientAppointmentsResponse } from "#contract/app-api/patient.ts";
import { TERMINAL_APPOINTMENT_STATUSES, type Appointment } from "#contract/clinic-api/appointment.ts";
import { isSameId } from "#contract/ids.ts";
import { requireGrantedScope } from "../auth/scopes.ts";
import type { ClinicClient } from "../clinic/clinic-client.ts";
import type { AppEnv } from "../http/app-env.ts";
import { AppError } from "../http/app-error.ts";
import { parseQuery } from "../http/validate.ts";
import type { AuditTrail } from "../store/store.ts";
import { accessAudit } from "./access-audit.ts";

// GET /api/context/patient: the patient the host has in view, for the banner.
// GET /api/context/patient/appointments: that patient's upcoming appointments.
// The patient comes from the verified token's `patient_id`, never from the
// request. The banner needs `read:patients` (org B's installation does not
// grant it, and the banner says so); the list `read:appointments`. Both are
// PHI reads: audited.

/** One page is plenty for one patient's future; `meta.hasMore` says when it was not. */
const APPOINTMENTS_PAGE_SIZE = 100;
const DAY_MS = 86_400_000;
const TERMINAL_STATUSES: ReadonlySet<string> = new Set(TERMINAL_APPOINTMENT_STATUSES);

function contextPatientId(c: Context<AppEnv>): string {
  const { patientId } = c.get("session");
  if (!patientId) throw new AppError(404, "not_found", "No patient is in view in the EHR");
  return patientId;
}

/**
 * The service's `dateFrom` is the facility's local date, at most 12 hours
 * behind UTC: yesterday in UTC misses nothing that began in the last 12
 * hours, wherever the facility is; what has ended is dropped on the instant.
 */
const upcomingDateFrom = (nowMs: number) => new Date(nowMs - DAY_MS).toISOString().slice(0, 10);

/**
 * Not ended at `nowMs`, and not in a terminal status. The statuses are
 * filtered here rather than with the service's `statuses` filter: its
 * allowed values are not shown (seed 001), and a status nobody listed must
 * show up rather than vanish, since the point is not to double-book.
 */
function isUpcoming(record: Appointment, patientId: string, nowMs: number): boolean {
  return isSameId(record.patientId, patientId) && !TERMINAL_STATUSES.has(record.status) && Date.parse(record.scheduledEndDate) > nowMs;
}

const toPatientAppointment = (record: Appointment): PatientAppointment => ({
  id: record.id,
  startsAt: record.scheduledStartDate,
  endsAt: record.scheduledEndDate,
  status: record.status,
  isNewPatient: record.isNewPatient,
  providerId: record.providerId,
  providerName: `${record.providerFirstName} ${record.providerLastName}`.trim(),
  facilityId: record.facilityId,
  facilityName: record.facilityName,
});

export function registerContextRoutes(api: Hono<AppEnv>, clinic: ClinicClient, trail: AuditTrail, now: () => number): void {
  const audit = accessAudit(trail, now);
  api.get("/context/patient", async (c) => {
    const session = c.get("session");
    const patientId = contextPatientId(c);
    requireGrantedScope(c, "read:patients");
    const record = (await clinic.read("GET /v1/patients/{id}", { organizationId: session.organizationId, params: { id: patientId } })).data();
    await audit.read(c, "patient", record.id);
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

  api.get("/context/patient/appointments", async (c) => {
    parseQuery(c, patientAppointmentsQuery);
    const session = c.get("session");
    const patientId = contextPatientId(c);
    requireGrantedScope(c, "read:appointments");
    const nowMs = now();
    const data = (await clinic.read("GET /v1/appointments", {
      organizationId: session.organizationId,
      query: { patientId, dateFrom: upcomingDateFrom(nowMs), sortBy: "scheduledStartDate", sortOrder: "asc", page: 1, pageSize: APPOINTMENTS_PAGE_SIZE },
    })).data();
    await audit.read(c, "patient_appointments", patientId);
    const body: PatientAppointmentsResponse = {
      patientId,
      // Sorted again: the order is what the panel promises, whatever the page's.
      appointments: data.appointments
        .filter((record) => isUpcoming(record, patientId, nowMs))
        .sort((a, b) => Date.parse(a.scheduledStartDate) - Date.parse(b.scheduledStartDate))
        .map(toPatientAppointment),
      meta: { hasMore: data.pagination.totalPages > 1 },
    };
    return c.json(body);
  });
}
