import { randomUUID } from "node:crypto";
import type { AppointmentEventData } from "#contract/clinic-api/events.ts";
import { TERMINAL_APPOINTMENT_STATUSES } from "#contract/clinic-api/appointment.ts";
import { idKey, isSameId } from "#contract/ids.ts";
import { addDays } from "#contract/time/zoned-time.ts";
import type { ClinicClient } from "../clinic/clinic-client.ts";
import type { LiveEventPublisher } from "../events/live-event-bus.ts";
import type { Store } from "../store/store.ts";
import { booksEntry, freesSlot } from "./waitlist-fit.ts";

// What the webhook processor tells the waitlist of an appointment event
// (issue 38; ADR 0030). Both steps are idempotent, so a duplicate, a
// reordered or a retried delivery changes nothing more:
// - `appointment.cancelled` that frees a slot (waitlist-fit.ts `freesSlot`:
//   seed 001 events rules 2 and 3) records the freed slot under its unique
//   key and kicks the matcher, when anyone waits over that day; nothing
//   upstream is read here, so the inbox is never held up by the matching.
// - `appointment.created` or `.updated` of a patient with waiting entries
//   reads the appointment (the event carries no type, length or new-patient
//   flag) and ends, as booked, the entries it satisfies.

const TERMINAL: ReadonlySet<string> = new Set(TERMINAL_APPOINTMENT_STATUSES);

export interface WaitlistEvents {
  /** Runs for every appointment event, whether or not it was newer than the state stored: each step reads what it needs. */
  onAppointmentEvent(type: string, data: AppointmentEventData, receivedAt: number): Promise<void>;
}

export interface WaitlistEventHandlerDeps {
  store: Pick<Store, "waitlist">;
  clinic: Pick<ClinicClient, "read" | "listAll">;
  live: LiveEventPublisher;
  matcher: { kick(): void };
  now?: () => number;
}

/** What makes a freed slot one: the appointment and the start it was cancelled at (as an instant). */
export function freedKeyOf(data: Pick<AppointmentEventData, "id" | "scheduledStartDate">): string {
  return `${idKey(data.id)}@${new Date(Date.parse(data.scheduledStartDate)).toISOString()}`;
}

export function createWaitlistEventHandler(deps: WaitlistEventHandlerDeps): WaitlistEvents {
  const now = () => (deps.now ?? Date.now)();

  async function recordFreedSlot(data: AppointmentEventData, receivedAt: number): Promise<void> {
    const organizationId = data.organizationId.toLowerCase();
    // Nobody waiting over the slot's day (a day either side of its UTC date covers every zone): nothing to match, nothing read.
    const day = new Date(Date.parse(data.scheduledStartDate)).toISOString().slice(0, 10);
    if ((await deps.store.waitlist.listWaitingOverlapping(organizationId, addDays(day, -1), addDays(day, 1), 1)).length === 0) return;
    const recorded = await deps.store.waitlist.recordFreedSlot({
      id: randomUUID(),
      organizationId,
      freedKey: freedKeyOf(data),
      appointmentId: data.id,
      facilityId: data.facilityId,
      slotStartsAt: Date.parse(data.scheduledStartDate),
      freedAt: receivedAt,
    });
    if (recorded) deps.matcher.kick();
  }

  async function endBookedEntries(data: AppointmentEventData): Promise<void> {
    const organizationId = data.organizationId.toLowerCase();
    const waiting = await deps.store.waitlist.listWaitingOfPatient(organizationId, data.patientId);
    if (waiting.length === 0) return;
    const appointment = (await deps.clinic.read("GET /v1/appointments/{id}", { organizationId, params: { id: data.id } })).data();
    const at = now();
    if (TERMINAL.has(appointment.status) || !isSameId(appointment.patientId, data.patientId) || Date.parse(appointment.scheduledStartDate) <= at) return;
    const facilities = await deps.clinic.listAll("GET /v1/facilities", "facilities", { organizationId });
    const zone = facilities.find((facility) => isSameId(facility.id, appointment.facilityId, "fac"))?.timezone;
    if (zone === undefined) return;
    const booked = waiting.filter((entry) => booksEntry(entry.preferences, appointment, zone));
    const ended = await deps.store.waitlist.end(organizationId, booked.map((entry) => entry.id), "booked", at);
    if (ended.length > 0) deps.live.publish(organizationId, { type: "waitlist.changed" });
  }

  return {
    async onAppointmentEvent(type, data, receivedAt) {
      if (type === "appointment.cancelled" && freesSlot(data, now())) await recordFreedSlot(data, receivedAt);
      else if (type === "appointment.created" || type === "appointment.updated") await endBookedEntries(data);
    },
  };
}
