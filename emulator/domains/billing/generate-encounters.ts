import type { Facility } from "#contract/clinic-api/people.ts";
import { addDays, localDateOf, localToInstant, weekdayOf } from "#contract/time/zoned-time.ts";
import { APPOINTMENT_TYPE_SPECS, SCENARIOS, type AppointmentTypeKey, type ClinicalScenario, type Practice } from "../../seed/clinical-catalog.ts";
import { ageOn, hhmm, MS_PER_DAY, MS_PER_MINUTE } from "../../seed/format.ts";
import { PRACTICE_TYPES } from "../../seed/generate-schedule.ts";
import type { Random } from "../../seed/random.ts";
import type { EhrOrganization, EhrPatient, EhrProvider } from "../../world/types.ts";

// The visits that get billed: every completed appointment of the seeded
// world (its window reaches one week back), and older visits made up from the
// same patients, clinicians and facilities, 10 to 120 days back, so that
// claims have had time to be paid and remitted.

export interface Encounter {
  patient: EhrPatient;
  provider: EhrProvider;
  facility: Facility;
  startMs: number;
  endMs: number;
  /** The facility's local date. */
  dateOfService: string;
  typeKey: AppointmentTypeKey;
  isNewPatient: boolean;
  scenario: ClinicalScenario;
  /** Age on the date of service (only patients with a date of birth are billed: a claim needs it). */
  age: number;
  /** Made up beside the seeded appointments (older than the connector's window). */
  historical: boolean;
}

const HISTORY_DAYS = { from: 10, to: 120 } as const;

export const practiceOf = (facility: Facility): Practice => (facility.specialty === "Dermatology" ? "dermatology" : "primary");

function scenariosFor(practice: Practice, key: AppointmentTypeKey, adult: boolean): ClinicalScenario[] {
  const fits = SCENARIOS.filter((scenario) => scenario.practices.includes(practice) && (adult || scenario.pediatric === true));
  const typed = fits.filter((scenario) => scenario.appointmentTypes.includes(key));
  return typed.length > 0 ? typed : fits;
}

export function generateEncounters(random: Random, org: EhrOrganization, now: number): Encounter[] {
  const facilities = new Map(org.facilities.map((facility) => [facility.id, facility]));
  const providers = new Map(org.providers.map((provider) => [provider.id, provider]));
  const patients = new Map(org.patients.map((patient) => [patient.id, patient]));
  const keyByTypeId = new Map(org.appointmentTypes.map((type) => [type.id, APPOINTMENT_TYPE_SPECS.find((spec) => spec.abbreviation === type.abbreviation)?.key]));
  const encounters: Encounter[] = [];

  for (const appointment of org.appointments) {
    if (appointment.status !== "completed") continue;
    const patient = patients.get(appointment.patientId);
    const provider = providers.get(appointment.providerId);
    const facility = facilities.get(appointment.facilityId);
    // A few visits are not coded yet; and a claim needs a date of birth.
    if (!patient?.dateOfBirth || !provider || !facility || random.chance(0.06)) continue;
    const startMs = Date.parse(appointment.scheduledStartDate);
    const dateOfService = localDateOf(startMs, facility.timezone);
    const age = ageOn(patient.dateOfBirth, dateOfService);
    const typeKey = keyByTypeId.get(appointment.appointmentTypeId) ?? "follow_up";
    const candidates = scenariosFor(practiceOf(facility), typeKey, age >= 18);
    if (candidates.length === 0) continue;
    encounters.push({
      patient,
      provider,
      facility,
      startMs,
      endMs: Date.parse(appointment.scheduledEndDate),
      dateOfService,
      typeKey,
      isNewPatient: appointment.isNewPatient,
      scenario: random.pick(candidates),
      age,
      historical: false,
    });
  }

  const clinicians = org.providers.filter((provider) => !provider.hidden && provider.roles.some((role) => role === "Physician" || role === "Nurse Practitioner"));
  const sites = org.facilities.filter((facility) => facility.isVisible);
  const billable = org.patients.filter((patient) => patient.dateOfBirth !== null);
  if (clinicians.length === 0 || sites.length === 0 || billable.length === 0) return encounters;
  const count = Math.round(org.patients.length * 0.3);
  for (let index = 0; index < count; index++) {
    const facility = random.pick(sites);
    const provider = random.pick(clinicians);
    const typeKey = random.pick(PRACTICE_TYPES[practiceOf(facility)]);
    const patient = random.pick(billable);
    let date = addDays(localDateOf(now, facility.timezone), -random.int(HISTORY_DAYS.from, HISTORY_DAYS.to));
    // Clinics are shut at weekends: move to the Friday before.
    const weekday = weekdayOf(date);
    if (weekday >= 5) date = addDays(date, 4 - weekday);
    const startMs = localToInstant(date, hhmm(8 * 60 + 20 * random.int(0, 25)), facility.timezone);
    const age = ageOn(patient.dateOfBirth ?? date, date);
    const candidates = scenariosFor(practiceOf(facility), typeKey, age >= 18);
    if (candidates.length === 0) continue;
    const isNewPatient = typeKey === "new_patient" || random.chance(0.06);
    encounters.push({
      patient,
      provider,
      facility,
      startMs,
      endMs: startMs + (isNewPatient ? 40 : 20) * MS_PER_MINUTE,
      dateOfService: date,
      typeKey,
      isNewPatient,
      scenario: random.pick(candidates),
      age,
      historical: true,
    });
  }
  return encounters.sort((a, b) => a.startMs - b.startMs);
}

/** Whole days from the date of service to `now` (UTC days; close enough for billing lags). */
export const daysSince = (encounter: Encounter, now: number): number => Math.floor((now - encounter.startMs) / MS_PER_DAY);
