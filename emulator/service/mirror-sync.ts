import type { Facility } from "#contract/clinic-api/people.ts";
import type { WebhookEvent } from "../webhooks/webhook-dispatcher.ts";
import type { EhrAppointment, EhrNote, EhrOrganization, EhrProvider, EhrTemplate } from "../world/types.ts";
import { appointmentRevision } from "./ehr-appointment-changes.ts";

// The service's mirror of one organization's EHR and the sync that brings it
// up to date (seed 000 "States and transitions", seed 001 "Events" rules 1-5).
// A sync emits events only for what changed; a re-sync that rewrites nothing
// is silent.

export interface MirroredProvider extends EhrProvider {
  /** Added silently when first seen on an appointment (events rule 4). */
  isStub: boolean;
}

export interface MirroredAppointment extends EhrAppointment {
  lastSyncedAt: string;
}

export interface OrgMirror {
  syncedAt: number;
  facilities: Map<string, Facility>;
  providers: Map<string, MirroredProvider>;
  appointments: Map<string, MirroredAppointment>;
  /** `appointments` by provider, rebuilt when a sync changes them: slot searches read it on every request. */
  appointmentsByProvider: Map<string, MirroredAppointment[]>;
  /** The EHR's appointments as of the last sync (ehr-appointment-changes.ts): compared again only once they changed. */
  appointmentsRevision: string;
  templates: EhrTemplate[];
  notes: Map<string, EhrNote>;
}

export interface SyncChange {
  entity: "facility" | "provider" | "appointment" | "template" | "note";
  id: string;
  change: "created" | "updated";
}

export interface SyncResult {
  organizationId: string;
  changes: SyncChange[];
  events: WebhookEvent[];
}

const isoAt = (ms: number) => new Date(ms).toISOString();
const clone = <T>(value: T): T => structuredClone(value);
const isCancelled = (status: string) => status === "cancelled" || status === "no_show";

function indexByProvider(appointments: Map<string, MirroredAppointment>): Map<string, MirroredAppointment[]> {
  const index = new Map<string, MirroredAppointment[]>();
  for (const appointment of appointments.values()) {
    const list = index.get(appointment.providerId);
    if (list) list.push(appointment);
    else index.set(appointment.providerId, [appointment]);
  }
  return index;
}

/** A mirror that already holds everything the EHR has: the state after a past first install. */
export function mirrorOf(org: EhrOrganization, now: number): OrgMirror {
  const stamp = isoAt(now);
  const appointments = new Map(org.appointments.map((appointment) => [appointment.id, { ...clone(appointment), lastSyncedAt: stamp }]));
  return {
    syncedAt: now,
    facilities: new Map(org.facilities.map((facility) => [facility.id, clone(facility)])),
    providers: new Map(org.providers.map((provider) => [provider.id, { ...clone(provider), isStub: false }])),
    appointments,
    appointmentsByProvider: indexByProvider(appointments),
    appointmentsRevision: appointmentRevision(org),
    templates: clone(org.templates),
    notes: new Map(org.notes.map((note) => [note.id, clone(note)])),
  };
}

function facilityEventData(org: EhrOrganization, facility: Facility) {
  // Facility payloads are compact (events rule 5); their fields are not shown.
  return { id: facility.id, organizationId: org.id, name: facility.name, updatedAt: facility.updatedAt };
}

function providerEventData(org: EhrOrganization, provider: EhrProvider) {
  return {
    id: provider.id,
    organizationId: org.id,
    firstName: provider.firstName,
    lastName: provider.lastName,
    title: provider.title,
    active: provider.active,
    updatedAt: provider.updatedAt,
  };
}

function appointmentEventData(org: EhrOrganization, appointment: EhrAppointment, previousStatus: string | null) {
  const provider = org.providers.find((candidate) => candidate.id === appointment.providerId);
  return {
    id: appointment.id,
    organizationId: org.id,
    integrationAppointmentId: appointment.integrationAppointmentId,
    patientId: appointment.patientId,
    providerUsersEhrId: provider?.ehrUserId ?? "",
    facilityId: appointment.facilityId,
    status: appointment.status,
    integrationStatus: appointment.integrationStatus,
    previousStatus,
    cancelReasonName: appointment.cancelReasonName,
    scheduledStartDate: appointment.scheduledStartDate,
    scheduledEndDate: appointment.scheduledEndDate,
    updatedAt: appointment.updatedAt,
  };
}

/** The fields whose change is an `appointment.updated` (seed 000, transitions table). */
function hasTrackedChange(before: EhrAppointment, after: EhrAppointment): boolean {
  return (
    before.status !== after.status ||
    before.scheduledStartDate !== after.scheduledStartDate ||
    before.scheduledEndDate !== after.scheduledEndDate ||
    before.appointmentTypeId !== after.appointmentTypeId ||
    before.facilityId !== after.facilityId ||
    before.reason !== after.reason ||
    before.patientId !== after.patientId ||
    before.providerId !== after.providerId
  );
}

function appointmentEventFor(before: EhrAppointment | undefined, after: EhrAppointment): { type: string; previousStatus: string | null } | null {
  if (!before) {
    // Events rule 2: a first sighting already cancelled/no-show/completed reports that, with previousStatus null.
    if (isCancelled(after.status)) return { type: "appointment.cancelled", previousStatus: null };
    if (after.status === "completed") return { type: "appointment.completed", previousStatus: null };
    return { type: "appointment.created", previousStatus: null };
  }
  if (!hasTrackedChange(before, after)) return null;
  if (before.status !== after.status && isCancelled(after.status)) return { type: "appointment.cancelled", previousStatus: before.status };
  if (before.status !== after.status && after.status === "completed") return { type: "appointment.completed", previousStatus: before.status };
  return { type: "appointment.updated", previousStatus: before.status };
}

/**
 * Brings the mirror up to date with the EHR and returns what changed and the
 * events to emit. Order: facilities, appointments (which may add provider
 * stubs), then the user sync.
 */
export function syncMirror(org: EhrOrganization, mirror: OrgMirror, now: number): SyncResult {
  const changes: SyncChange[] = [];
  const events: WebhookEvent[] = [];
  const stamp = isoAt(now);

  for (const facility of org.facilities) {
    const before = mirror.facilities.get(facility.id);
    if (before && JSON.stringify(before) === JSON.stringify(facility)) continue;
    mirror.facilities.set(facility.id, clone(facility));
    const change = before ? "updated" : "created";
    changes.push({ entity: "facility", id: facility.id, change });
    events.push({ type: `facility.${change}`, data: facilityEventData(org, facility), timestamp: facility.updatedAt });
  }

  const appointmentEvents: WebhookEvent[] = [];
  let appointmentsChanged = false;
  const revision = appointmentRevision(org);
  for (const appointment of revision === mirror.appointmentsRevision ? [] : org.appointments) {
    const before = mirror.appointments.get(appointment.id);
    if (before && !hasTrackedChange(before, appointment) && before.updatedAt === appointment.updatedAt) continue;
    appointmentsChanged = true;
    const event = appointmentEventFor(before, appointment);
    mirror.appointments.set(appointment.id, { ...clone(appointment), lastSyncedAt: stamp });
    if (!mirror.providers.has(appointment.providerId)) addProviderStub(org, mirror, appointment);
    if (!event) continue;
    changes.push({ entity: "appointment", id: appointment.id, change: before ? "updated" : "created" });
    appointmentEvents.push({ type: event.type, data: appointmentEventData(org, appointment, event.previousStatus), timestamp: appointment.updatedAt });
  }
  if (appointmentsChanged) mirror.appointmentsByProvider = indexByProvider(mirror.appointments);
  mirror.appointmentsRevision = revision;
  // Events rule 3 of delivery: consumers order on updatedAt; emit in that order too.
  appointmentEvents.sort((a, b) => a.timestamp.localeCompare(b.timestamp));
  events.push(...appointmentEvents);

  for (const provider of org.providers) {
    const before = mirror.providers.get(provider.id);
    if (before && !before.isStub && JSON.stringify({ ...before, isStub: undefined }) === JSON.stringify({ ...provider, isStub: undefined })) continue;
    mirror.providers.set(provider.id, { ...clone(provider), isStub: false });
    changes.push({ entity: "provider", id: provider.id, change: before ? "updated" : "created" });
    const type = providerEventType(org, before, provider);
    if (type) events.push({ type, data: providerEventData(org, provider), timestamp: provider.updatedAt });
  }

  if (JSON.stringify(mirror.templates) !== JSON.stringify(org.templates)) {
    mirror.templates = clone(org.templates);
    changes.push({ entity: "template", id: "*", change: "updated" });
  }
  for (const note of org.notes) {
    const before = mirror.notes.get(note.id);
    if (before && before.version === note.version && before.status === note.status && before.images.length === note.images.length) continue;
    mirror.notes.set(note.id, clone(note));
    changes.push({ entity: "note", id: note.id, change: before ? "updated" : "created" });
  }

  mirror.syncedAt = now;
  return { organizationId: org.id, changes, events };
}

/**
 * Events rule 4: a provider first seen on an appointment is added silently.
 * On kind A the stub already has the name and active flag; on kind B it has
 * neither, so the next user sync reports a `provider.updated`.
 */
function addProviderStub(org: EhrOrganization, mirror: OrgMirror, appointment: EhrAppointment): void {
  const source = org.providers.find((provider) => provider.id === appointment.providerId);
  if (!source) return;
  const stub: MirroredProvider =
    org.kind === "A"
      ? { ...clone(source), isStub: true }
      : { ...clone(source), firstName: "", lastName: "", displayFirstName: "", displayLastName: "", active: false, isStub: true };
  mirror.providers.set(source.id, stub);
}

function providerEventType(org: EhrOrganization, before: MirroredProvider | undefined, after: EhrProvider): string | null {
  if (!before) return "provider.created";
  const nameOrActiveChanged = before.firstName !== after.firstName || before.lastName !== after.lastName || before.active !== after.active;
  // Kind B also reports a role change; on kind A a title-only change fires nothing.
  const roleChanged = org.kind === "B" && (before.title !== after.title || before.roles.join() !== after.roles.join());
  return nameOrActiveChanged || roleChanged ? "provider.updated" : null;
}
