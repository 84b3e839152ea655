import type { EhrAppointment, EhrOrganization } from "../world/types.ts";

// The EHR's own appointments by provider, for what reads the EHR live: a
// `consistency=strong` slot search and a hold's capacity check (seed 001
// "Schedule"). Those ask about one provider on one day, but scanned every
// booking of the organization to find that provider's: 32,500 in a large
// group, about 8 ms a read, twice per hold under the load benchmark. The
// EHR's list grows by `push` (a booking made in the EHR) and its records
// change in place (ehr-appointments.ts), so the index is rebuilt when the
// list's length changes and dropped when a record is patched; the lists it
// hands out are read, never kept (slot-finder.ts).

interface LiveIndex {
  length: number;
  byProvider: Map<string, EhrAppointment[]>;
}

const indexes = new WeakMap<readonly EhrAppointment[], LiveIndex>();

/** `org`'s EHR appointments by provider (raw id), as they are now. */
export function liveAppointmentsByProvider(org: EhrOrganization): ReadonlyMap<string, readonly EhrAppointment[]> {
  const found = indexes.get(org.appointments);
  if (found !== undefined && found.length === org.appointments.length) return found.byProvider;
  const byProvider = new Map<string, EhrAppointment[]>();
  for (const appointment of org.appointments) {
    const list = byProvider.get(appointment.providerId);
    if (list) list.push(appointment);
    else byProvider.set(appointment.providerId, [appointment]);
  }
  indexes.set(org.appointments, { length: org.appointments.length, byProvider });
  return byProvider;
}

/** A record of `org`'s EHR changed in place (it may have moved to another provider): the index is built again when next read. */
export function forgetLiveAppointmentIndex(org: EhrOrganization): void {
  indexes.delete(org.appointments);
}
