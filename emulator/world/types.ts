import type { Appointment } from "#contract/clinic-api/appointment.ts";
import type { InstallationStatus } from "#contract/clinic-api/installation.ts";
import type { Note, NoteImage } from "#contract/clinic-api/note.ts";
import type { Facility, Patient, Provider } from "#contract/clinic-api/people.ts";
import type { AppointmentType, AvailabilityTemplate } from "#contract/clinic-api/schedule.ts";

// The emulator's model of one organization's EHR, the source of truth behind
// the service (DESIGN.md "The emulator"). Ids are stored raw (UUID); the
// routes render them in the form each endpoint gives.

export type EhrKind = "A" | "B";

/** The sandbox roles; the first three are clinical (contract/app-api/session.ts CLINICAL_ROLES; DESIGN.md "The sandbox identities"). */
export const SANDBOX_ROLES = ["Physician", "Nurse Practitioner", "Medical Assistant", "Front Desk", "Scheduler"] as const;

export interface EhrProvider extends Provider {
  /** The provider's id in the EHR; appointment events carry it as `providerUsersEhrId`. */
  ehrUserId: string;
  username: string;
  canFinalize: boolean;
  canCosign: boolean;
  roleType: string;
  active: boolean;
}

export interface EhrPatient extends Patient {
  /** Time-limited avatar URL, shown only when the patient is embedded in a note. */
  avatar: string;
}

export interface EhrAppointment extends Appointment {
  integrationAppointmentId: string;
  /** The EHR's own status string (seed 000: `integrationStatus` is separate). */
  integrationStatus: string;
  /** `atp_` form, as v3 gives appointment types. */
  appointmentTypeId: string;
  reason: string | null;
  cancelReasonName: string | null;
  updatedAt: string;
}

export interface EhrNote extends Note {
  images: NoteImage[];
}

/** Templates are only served by v3, so they are stored as v3 gives them: `avt_`, `prv_`, `fac_`, `atp_` ids. */
export type EhrTemplate = AvailabilityTemplate;

export interface EhrOrganization {
  id: string;
  name: string;
  kind: EhrKind;
  /** Every duration and count below is relative to the clock the world was generated at. */
  facilities: Facility[];
  providers: EhrProvider[];
  patients: EhrPatient[];
  appointmentTypes: AppointmentType[];
  templates: EhrTemplate[];
  appointments: EhrAppointment[];
  notes: EhrNote[];
}

export interface SeededInstallation {
  organizationId: string;
  status: InstallationStatus;
  grantedPermissions: string[];
  settings: Record<string, unknown>;
  installedAt: string;
  updatedAt: string;
}

export interface SeededWorld {
  organizations: EhrOrganization[];
  installations: SeededInstallation[];
}
