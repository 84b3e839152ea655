import type { EhrAppointment, EhrOrganization } from "../world/types.ts";

// The EHR's appointments change only through the sandbox's EHR controls
// (ehr-appointments.ts: a booking pushed onto the list, a record patched in
// place), which record each change here. So what reads them often can tell
// when they changed:
// - the mirror sync compares every record with the mirror's only when some
//   changed (mirror-sync.ts): a large group's 32,500 took 35-85 ms to compare,
//   on every organization's sync, with nothing changed;
// - a live (`consistency=strong`) read and a hold's capacity check read the
//   bookings of one provider from an index by provider, built again after a
//   change, instead of scanning the organization's (8 ms a read in a large
//   group, twice per hold under the load benchmark).

interface Revision {
  changes: number;
  /** By provider (raw id), and the `appointmentRevision` it was built at. */
  index?: { builtAt: string; byProvider: Map<string, EhrAppointment[]> };
}

const revisions = new WeakMap<readonly EhrAppointment[], Revision>();

function revisionOf(org: EhrOrganization): Revision {
  let revision = revisions.get(org.appointments);
  if (revision === undefined) {
    revision = { changes: 0 };
    revisions.set(org.appointments, revision);
  }
  return revision;
}

/** A booking of `org`'s EHR was added or changed (it may have moved to another provider). */
export function recordAppointmentChange(org: EhrOrganization): void {
  revisionOf(org).changes += 1;
}

/** Names the state of `org`'s EHR appointments: the same while none was added or changed. */
export function appointmentRevision(org: EhrOrganization): string {
  // The length too: a record pushed without being recorded still shows.
  return `${revisionOf(org).changes}|${org.appointments.length}`;
}

/** `org`'s EHR appointments by provider (raw id), as they are now. The lists are read, never kept. */
export function liveAppointmentsByProvider(org: EhrOrganization): ReadonlyMap<string, readonly EhrAppointment[]> {
  const revision = revisionOf(org);
  const now = appointmentRevision(org);
  if (revision.index?.builtAt === now) return revision.index.byProvider;
  const byProvider = new Map<string, EhrAppointment[]>();
  for (const appointment of org.appointments) {
    const list = byProvider.get(appointment.providerId);
    if (list) list.push(appointment);
    else byProvider.set(appointment.providerId, [appointment]);
  }
  revision.index = { builtAt: now, byProvider };
  return byProvider;
}
