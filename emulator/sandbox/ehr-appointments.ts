import { parseV3PathId } from "#contract/ids.ts";
import { recordAppointmentChange } from "../service/ehr-appointment-changes.ts";
import type { OrgState } from "../service/service-state.ts";
import type { EhrAppointment } from "../world/types.ts";
import { SandboxError } from "./sandbox-error.ts";

// Changes to the EHR behind the service (book, move, cancel, complete). The
// service sees them at its next sync, which emits the events.

const INTEGRATION_STATUS: Record<string, string> = {
  confirmed: "Scheduled",
  arrived: "Checked In",
  completed: "Checked Out",
  cancelled: "Cancelled",
  no_show: "No Show",
};

export interface AppointmentInput {
  patientId?: string;
  providerId?: string;
  facilityId?: string;
  startsAt?: string;
  endsAt?: string;
  appointmentTypeId?: string;
  status?: string;
  isNewPatient?: boolean;
  reason?: string | null;
  cancelReasonName?: string | null;
}

function lookup<T extends { id: string }>(list: readonly T[], value: string, prefix: "pat" | "prv" | "fac" | "atp", field: string): T {
  const raw = parseV3PathId(value, prefix);
  const found = raw ? list.find((item) => parseV3PathId(item.id, prefix) === raw) : undefined;
  if (!found) throw new SandboxError(400, `${field}: ${value} is not known in this organization`);
  return found;
}

function applyInput(org: OrgState, appointment: EhrAppointment, input: AppointmentInput): void {
  if (input.patientId !== undefined) {
    const patient = lookup(org.ehr.patients, input.patientId, "pat", "patientId");
    Object.assign(appointment, { patientId: patient.id, patientFirstName: patient.firstName, patientLastName: patient.lastName, patientMrn: patient.mrn ?? "" });
  }
  if (input.providerId !== undefined) {
    const provider = lookup(org.ehr.providers, input.providerId, "prv", "providerId");
    Object.assign(appointment, { providerId: provider.id, providerFirstName: provider.firstName, providerLastName: provider.lastName });
  }
  if (input.facilityId !== undefined) {
    const facility = lookup(org.ehr.facilities, input.facilityId, "fac", "facilityId");
    Object.assign(appointment, { facilityId: facility.id, facilityName: facility.name });
  }
  if (input.appointmentTypeId !== undefined) appointment.appointmentTypeId = lookup(org.ehr.appointmentTypes, input.appointmentTypeId, "atp", "appointmentTypeId").id;
  if (input.startsAt !== undefined) appointment.scheduledStartDate = new Date(Date.parse(input.startsAt)).toISOString();
  if (input.endsAt !== undefined) appointment.scheduledEndDate = new Date(Date.parse(input.endsAt)).toISOString();
  if (input.status !== undefined) {
    appointment.status = input.status;
    appointment.integrationStatus = INTEGRATION_STATUS[input.status] ?? input.status;
  }
  if (input.isNewPatient !== undefined) appointment.isNewPatient = input.isNewPatient;
  if (input.reason !== undefined) appointment.reason = input.reason;
  if (input.cancelReasonName !== undefined) appointment.cancelReasonName = input.cancelReasonName;
  if (Date.parse(appointment.scheduledEndDate) <= Date.parse(appointment.scheduledStartDate)) throw new SandboxError(400, "endsAt: must be after startsAt");
}

export function createEhrAppointment(org: OrgState, input: Required<Pick<AppointmentInput, "patientId" | "providerId" | "facilityId" | "startsAt" | "endsAt">> & AppointmentInput, now: number, id: string): EhrAppointment {
  const stamp = new Date(now).toISOString();
  const defaultType = org.ehr.appointmentTypes[0];
  if (!defaultType) throw new SandboxError(400, "the organization has no appointment types");
  const appointment: EhrAppointment = {
    id,
    integrationAppointmentId: `EHR-${id.slice(0, 8).toUpperCase()}`,
    scheduledStartDate: stamp,
    scheduledEndDate: stamp,
    status: "confirmed",
    integrationStatus: INTEGRATION_STATUS.confirmed ?? "Scheduled",
    isNewPatient: false,
    patientId: "",
    patientFirstName: "",
    patientLastName: "",
    patientMrn: "",
    providerId: "",
    providerFirstName: "",
    providerLastName: "",
    facilityId: "",
    facilityName: "",
    appointmentTypeId: defaultType.id,
    reason: null,
    cancelReasonName: null,
    createdAt: stamp,
    updatedAt: stamp,
  };
  applyInput(org, appointment, input);
  org.ehr.appointments.push(appointment);
  recordAppointmentChange(org.ehr);
  return appointment;
}

export function patchEhrAppointment(org: OrgState, appointment: EhrAppointment, input: AppointmentInput, now: number): void {
  const draft = structuredClone(appointment);
  applyInput(org, draft, input);
  Object.assign(appointment, draft, { updatedAt: new Date(now).toISOString() });
  recordAppointmentChange(org.ehr);
}
