import { localTimeOf } from "#contract/time/zoned-time.ts";
import { ORG_A, appUrl, sandbox, sandboxNotes, sandboxUsers, type SandboxUser } from "./sandbox.ts";
import { UPPER_WEST_SIDE, addDays, rawUuid, upstreamSlots, type UpstreamSlot } from "./slots.ts";

// What the waitlist specs share (issue 38): the BFF's waitlist read and
// emptied through its API as a front-desk user would (entries outlast a test
// in the worker's BFF), a colleague of the front desk to receive the alert,
// free slots to fill and free in the EHR, and bookings made behind the app's
// back for a patient who is not the waitlisted one.

export interface WaitlistEntryShape {
  id: string;
  patientId: string;
  patientName: string | null;
  preferences: Record<string, unknown>;
}

export interface WaitlistOfferShape {
  id: string;
  slot: { providerId: string; facilityId: string; startsAt: string };
  matches: { entryId: string; patientName: string | null }[];
  takenBy: { userId: string; entryId: string } | null;
}

export interface WaitlistShape {
  entries: WaitlistEntryShape[];
  offers: WaitlistOfferShape[];
}

/** A call to the BFF as the app makes it, the host token carrying the patient open (a write's token is spent: one per call). */
export async function callAppWithPatient(method: string, path: string, context: { userId: string; patientId?: string }, body?: unknown): Promise<unknown> {
  const { token } = await sandbox<{ token: string }>("POST", "/host-token", { organizationId: ORG_A, ...context });
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${appUrl()}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** A follow-up at Upper West Side with any provider over the week from `today`, added through the BFF for the patient open: the entry's id. */
export async function addFollowUpToWaitlist(context: { userId: string; patientId: string }, followUpTypeId: string, today: string, note = ""): Promise<string> {
  const answer = (await callAppWithPatient("POST", "/api/waitlist", context, {
    preferences: { appointmentTypeId: followUpTypeId, slotLengthMinutes: 20, isNewPatient: false, facilityIds: [UPPER_WEST_SIDE.id], providerIds: null, startDate: today, endDate: addDays(today, 6), startsFrom: null, startsBefore: null, days: null, note },
  })) as { entry: { id: string } };
  return answer.entry.id;
}

/** GET /api/waitlist as a front-desk or scheduler user of org A. */
export async function waitlistOf(userId: string): Promise<WaitlistShape> {
  return (await callAppWithPatient("GET", "/api/waitlist", { userId })) as WaitlistShape;
}

/** An entry's preferences as the BFF lists them (undefined once it no longer waits). */
export async function preferencesOf(userId: string, entryId: string): Promise<Record<string, unknown> | undefined> {
  return (await waitlistOf(userId)).entries.find((entry) => entry.id === entryId)?.preferences;
}

/** Every waiting entry of org A removed (entries outlast a test in the worker's BFF; their offers go with them). */
export async function endEveryWaitlistEntry(userId: string): Promise<void> {
  for (const entry of (await waitlistOf(userId)).entries) await callAppWithPatient("DELETE", `/api/waitlist/${entry.id}`, { userId });
}

/** Another front-desk user or scheduler of org A than `userId`: the colleague on shift. */
export async function colleagueOf(userId: string): Promise<SandboxUser> {
  const colleague = (await sandboxUsers(ORG_A)).find((user) => user.id !== userId && !user.hidden && user.roles.some((role) => role === "Front Desk" || role === "Scheduler"));
  if (!colleague) throw new Error("no second front-desk user or scheduler in org A");
  return colleague;
}

/** A patient of org A other than `patientId` (whose bookings must not end the waitlisted patient's entry). */
export async function otherPatientThan(patientId: string): Promise<string> {
  const other = (await sandboxNotes(ORG_A)).map((note) => note.patientId).find((id) => id !== patientId);
  if (!other) throw new Error("no second patient in org A");
  return other;
}

/** Free slots of the type at Upper West Side on `date` starting before noon on its clock, earliest first, one per start time (a spec finds an offer by its start). */
export async function morningSlots(appointmentTypeId: string, date: string): Promise<UpstreamSlot[]> {
  const { slots } = await upstreamSlots({ appointmentTypeId, facilityIds: [UPPER_WEST_SIDE.id], startDate: date, endDate: date, isNewPatient: false, consistency: "strong" });
  const mornings = slots.filter((slot) => slot.remainingCapacity > 0 && localTimeOf(Date.parse(slot.startsAt), UPPER_WEST_SIDE.timezone) < "12:00").sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt));
  return mornings.filter((slot, index) => mornings.findIndex((other) => other.startsAt === slot.startsAt) === index);
}

/** Books `patientId` on exactly this slot in the EHR (behind the app's back), as `status` (a cancelled one: a first sighting that is already history). */
export async function bookInEhrFor(slot: Pick<UpstreamSlot, "providerId" | "facilityId" | "startsAt" | "endsAt">, patientId: string, appointmentTypeId: string, status?: "cancelled"): Promise<string> {
  const { appointment } = await sandbox<{ appointment: { id: string } }>("POST", `/ehr/${ORG_A}/appointments`, {
    patientId,
    providerId: rawUuid(slot.providerId),
    facilityId: rawUuid(slot.facilityId),
    startsAt: slot.startsAt,
    endsAt: slot.endsAt,
    appointmentTypeId,
    ...(status ? { status } : {}),
  });
  return appointment.id;
}
