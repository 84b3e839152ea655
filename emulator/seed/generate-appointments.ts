// Appointments of one organization over the connector's window (one week
// back to six weeks ahead, seed 001 events rule 2), booked on the slot grid
// inside the instances of active templates so that they consume capacity:
// each instance has `concurrency` lanes and a lane holds one live booking at
// a time (a cancelled one frees its lane at once).
import type { Facility } from "#contract/clinic-api/people.ts";
import type { AppointmentType } from "#contract/clinic-api/schedule.ts";
import { toRawUuid } from "#contract/ids.ts";
import { expandTemplate } from "#contract/recurrence/expand-template.ts";
import { addDays, localDateOf, localToInstant } from "#contract/time/zoned-time.ts";
import type { EhrAppointment, EhrKind, EhrPatient, EhrProvider, EhrTemplate } from "../world/types.ts";
import { CANCEL_REASONS, SCENARIOS, type AppointmentTypeKey, type ClinicalScenario, type Practice } from "./clinical-catalog.ts";
import { MS_PER_DAY, MS_PER_MINUTE, utcTimestamp } from "./format.ts";
import { PRACTICE_TYPES, type AppointmentTypesByKey } from "./generate-schedule.ts";
import type { OrganizationPlan } from "./organization-plans.ts";
import type { Random } from "./random.ts";

export const WINDOW_DAYS_BACK = 7;
export const WINDOW_DAYS_AHEAD = 42;

/** The EHR's own status strings per kind (seed 000: `integrationStatus` is separate from `status`). */
export const INTEGRATION_STATUSES: Readonly<Record<EhrKind, Readonly<Record<string, string>>>> = {
  A: { confirmed: "Confirmed", arrived: "Checked In", completed: "Checked Out", no_show: "No Show", cancelled: "Cancelled" },
  B: { confirmed: "BOOKED", arrived: "ARRIVED", completed: "COMPLETED", no_show: "DNA", cancelled: "CANCELLED" },
};

const TYPE_WEIGHTS: Readonly<Record<AppointmentTypeKey, number>> = {
  follow_up: 40,
  new_patient: 12,
  annual_exam: 10,
  procedure: 10,
  telehealth: 10,
  skin_check: 15,
};

export interface AppointmentContext {
  plan: OrganizationPlan;
  facilities: readonly Facility[];
  providers: readonly EhrProvider[];
  patients: readonly EhrPatient[];
  typesByKey: AppointmentTypesByKey;
  templates: readonly EhrTemplate[];
  now: number;
}

export interface GeneratedAppointments {
  appointments: EhrAppointment[];
  /** Which visit scenario each appointment that has begun was booked for (the notes reuse it). */
  scenarioKeyById: Map<string, string>;
}

function isAdult(patient: EhrPatient, today: string): boolean {
  if (patient.dateOfBirth === null) return true;
  const eighteenth = `${String(Number(patient.dateOfBirth.slice(0, 4)) + 18).padStart(4, "0")}${patient.dateOfBirth.slice(4)}`;
  return eighteenth <= today;
}

function scenarioIndex(): Map<string, ClinicalScenario[]> {
  const byPracticeAndType = new Map<string, ClinicalScenario[]>();
  for (const practice of ["primary", "dermatology"] as const) {
    for (const key of PRACTICE_TYPES[practice]) {
      const matches = SCENARIOS.filter((scenario) => scenario.practices.includes(practice) && scenario.appointmentTypes.includes(key));
      byPracticeAndType.set(`${practice}:${key}`, matches.length > 0 ? matches : SCENARIOS.filter((scenario) => scenario.practices.includes(practice)));
    }
  }
  return byPracticeAndType;
}

export function generateAppointments(random: Random, context: AppointmentContext): GeneratedAppointments {
  const { plan, facilities, providers, patients, typesByKey, templates, now } = context;
  const facilityById = new Map(facilities.map((facility, index) => [facility.id, { facility, practice: plan.facilities[index]?.practice ?? "primary" }] as const));
  const providerById = new Map(providers.map((provider) => [provider.id, provider]));
  const keyByTypeId = new Map<string, AppointmentTypeKey>();
  for (const [key, type] of typesByKey) keyByTypeId.set(type.id, key);
  const utcToday = new Date(now).toISOString().slice(0, 10);
  const adults = patients.filter((patient) => isAdult(patient, utcToday));
  const scenarios = scenarioIndex();
  const statuses = INTEGRATION_STATUSES[plan.kind];
  const integrationBase = random.int(1_000_000, 5_000_000);

  const appointments: EhrAppointment[] = [];
  const starts: number[] = [];
  const scenarioKeyById = new Map<string, string>();

  for (const template of templates) {
    if (!template.active) continue;
    const site = facilityById.get(toRawUuid(template.facilityId));
    const provider = providerById.get(toRawUuid(template.providerId));
    if (site === undefined || provider === undefined) continue;
    const { facility, practice } = site;
    const zone = template.timezone;
    const today = localDateOf(now, zone);
    const allowedKeys = allowedTypeKeys(template, keyByTypeId, practice);
    if (allowedKeys.length === 0) continue;
    const weights = allowedKeys.map((key) => [key, TYPE_WEIGHTS[key]] as const);
    const window = { startDate: localDateOf(now - WINDOW_DAYS_BACK * MS_PER_DAY, zone), endDate: localDateOf(now + WINDOW_DAYS_AHEAD * MS_PER_DAY, zone) };
    const stepMs = template.slotIntervalMinutes * MS_PER_MINUTE;

    for (const instance of expandTemplate(template, window)) {
      const instanceStart = Date.parse(instance.startsAt);
      const instanceEnd = Date.parse(instance.endsAt);
      // Instances belong to the local date they start on; only one running past midnight needs a lookup per booking.
      const instanceDate = instance.startsAt.slice(0, 10);
      const nextMidnight = localToInstant(addDays(instanceDate, 1), "00:00", zone);
      const laneFreeAt: number[] = Array.from({ length: template.concurrency }, () => instanceStart);
      for (let start = instanceStart; start < instanceEnd; start += stepMs) {
        const fill = fillRatio(plan.fillRatio, start, now);
        for (let lane = 0; lane < laneFreeAt.length; lane++) {
          if ((laneFreeAt[lane] ?? Infinity) > start || !random.chance(fill)) continue;
          const key = random.weighted(weights);
          const type = typesByKey.get(key);
          if (type === undefined) continue;
          const isNewPatient = key === "new_patient" || random.chance(0.08);
          const end = start + (isNewPatient ? type.newPatientDurationMinutes : type.defaultDurationMinutes) * MS_PER_MINUTE;
          if (end > instanceEnd) continue;
          const scenario = random.pick(scenarios.get(`${practice}:${key}`) ?? SCENARIOS);
          const patient = random.pick(scenario.pediatric === true ? patients : adults);
          const status = statusFor(random, start, end, now, start < nextMidnight ? instanceDate : localDateOf(start, zone), today);
          const appointment = buildAppointment(random, {
            start,
            end,
            now,
            status,
            isNewPatient,
            patient,
            provider,
            facility,
            type,
            reason: random.chance(0.08) ? null : scenario.reason,
            integrationStatus: statuses[status] ?? status,
            integrationAppointmentId: String(integrationBase + appointments.length * 3 + random.int(0, 2)),
          });
          appointments.push(appointment);
          starts.push(start);
          if (start <= now) scenarioKeyById.set(appointment.id, scenario.key);
          if (status !== "cancelled") laneFreeAt[lane] = end;
        }
      }
    }
  }

  const order = appointments.map((_, index) => index);
  order.sort((a, b) => (starts[a] ?? 0) - (starts[b] ?? 0) || a - b);
  return { appointments: order.map((index) => appointments[index] as EhrAppointment), scenarioKeyById };
}

function allowedTypeKeys(template: EhrTemplate, keyByTypeId: ReadonlyMap<string, AppointmentTypeKey>, practice: Practice): AppointmentTypeKey[] {
  const practiceKeys = PRACTICE_TYPES[practice];
  if (template.allowedAppointmentTypeIds === null) return [...practiceKeys];
  const allowed = new Set(template.allowedAppointmentTypeIds.flatMap((id) => {
    const key = keyByTypeId.get(id);
    return key === undefined ? [] : [key];
  }));
  return practiceKeys.filter((key) => allowed.has(key));
}

/** Busy in the past and the next week, thinning out further ahead, as real books do. */
function fillRatio(base: number, start: number, now: number): number {
  const daysAhead = (start - now) / MS_PER_DAY;
  if (daysAhead <= 7) return base;
  if (daysAhead <= 21) return base * 0.75;
  return base * 0.45;
}

function statusFor(random: Random, start: number, end: number, now: number, localDate: string, today: string): string {
  if (localDate < today) {
    return random.weighted([
      ["completed", 84],
      ["no_show", 6],
      ["cancelled", 10],
    ]);
  }
  if (localDate === today && start <= now) {
    if (random.chance(0.04)) return "cancelled";
    return end <= now - 30 * MS_PER_MINUTE && random.chance(0.7) ? "completed" : "arrived";
  }
  return random.chance(0.07) ? "cancelled" : "confirmed";
}

interface AppointmentFacts {
  start: number;
  end: number;
  now: number;
  status: string;
  isNewPatient: boolean;
  patient: EhrPatient;
  provider: EhrProvider;
  facility: Facility;
  type: AppointmentType;
  reason: string | null;
  integrationStatus: string;
  integrationAppointmentId: string;
}

function clampTo(low: number, high: number, value: number): number {
  return Math.max(low, Math.min(high, value));
}

function buildAppointment(random: Random, facts: AppointmentFacts): EhrAppointment {
  const { start, end, now, status, patient, provider, facility } = facts;
  const leadDays = facts.isNewPatient ? random.int(7, 45) : random.int(1, 60);
  const createdAt = Math.min(start - leadDays * MS_PER_DAY - random.int(0, 600) * MS_PER_MINUTE, now - random.int(5, 600) * MS_PER_MINUTE);
  const updatedAt = clampTo(
    createdAt,
    now,
    status === "completed"
      ? end + random.int(5, 60) * MS_PER_MINUTE
      : status === "arrived"
        ? start - random.int(0, 15) * MS_PER_MINUTE
        : status === "no_show"
          ? end + random.int(15, 120) * MS_PER_MINUTE
          : status === "cancelled"
            ? createdAt + Math.floor(random.next() * (Math.min(start, now) - createdAt))
            : createdAt + Math.floor(random.next() * 0.5 * (now - createdAt)),
  );
  return {
    id: random.uuid(),
    scheduledStartDate: utcTimestamp(start),
    scheduledEndDate: utcTimestamp(end),
    status,
    isNewPatient: facts.isNewPatient,
    patientId: patient.id,
    patientFirstName: patient.firstName,
    patientLastName: patient.lastName,
    patientMrn: patient.mrn ?? "",
    providerId: provider.id,
    providerFirstName: provider.firstName,
    providerLastName: provider.lastName,
    facilityId: facility.id,
    facilityName: facility.name,
    createdAt: utcTimestamp(createdAt),
    integrationAppointmentId: facts.integrationAppointmentId,
    integrationStatus: facts.integrationStatus,
    appointmentTypeId: facts.type.id,
    reason: facts.reason,
    cancelReasonName: status === "cancelled" ? random.pick(CANCEL_REASONS) : null,
    updatedAt: utcTimestamp(updatedAt),
  };
}
