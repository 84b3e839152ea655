// Appointment types and availability templates of one organization.
//
// The core clinicians get hand-written recipes so that every organization
// has each case the expansion rules describe (overlap, INTERVAL=2, EXDATE,
// until, an inactive row, a DST-crossing night, a shift past midnight, an
// empty type list); a large group's other clinicians get a weekly rota of
// half-day sessions across several facilities.
import { toPrefixedId } from "#contract/ids.ts";
import type { Facility } from "#contract/clinic-api/people.ts";
import type { AppointmentType } from "#contract/clinic-api/schedule.ts";
import { recurrenceDates } from "#contract/recurrence/expand-template.ts";
import { addDays, localDateOf, weekdayOf } from "#contract/time/zoned-time.ts";
import type { EhrKind, EhrProvider, EhrTemplate } from "../world/types.ts";
import { APPOINTMENT_TYPE_SPECS, type AppointmentTypeKey, type Practice } from "./clinical-catalog.ts";
import { hhmm, icalLocalDateTime } from "./format.ts";
import { isBookableRole } from "./generate-people.ts";
import type { OrganizationPlan } from "./organization-plans.ts";
import type { Random } from "./random.ts";

export type AppointmentTypesByKey = ReadonlyMap<AppointmentTypeKey, AppointmentType>;

export function generateAppointmentTypes(random: Random, kind: EhrKind): AppointmentType[] {
  return APPOINTMENT_TYPE_SPECS.map((spec) => ({
    id: `atp_${random.hex(32)}`,
    name: kind === "A" ? spec.nameA : spec.nameB,
    abbreviation: spec.abbreviation,
    defaultDurationMinutes: spec.defaultDurationMinutes,
    newPatientDurationMinutes: spec.newPatientDurationMinutes,
  }));
}

/** The generated types by catalog key (same order as APPOINTMENT_TYPE_SPECS). */
export function appointmentTypesByKey(types: readonly AppointmentType[]): AppointmentTypesByKey {
  return new Map(APPOINTMENT_TYPE_SPECS.flatMap((spec, index) => {
    const type = types[index];
    return type === undefined ? [] : [[spec.key, type] as const];
  }));
}

/** The visit types a facility of each practice books. */
export const PRACTICE_TYPES: Readonly<Record<Practice, readonly AppointmentTypeKey[]>> = {
  primary: ["new_patient", "follow_up", "annual_exam", "procedure", "telehealth"],
  dermatology: ["new_patient", "follow_up", "procedure", "telehealth", "skin_check"],
};

const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
type Weekday = (typeof WEEKDAYS)[number];

interface TemplateRecipe {
  name: string;
  facilityIndex: number;
  start: string;
  end: string;
  concurrency: number;
  slotIntervalMinutes: number;
  byDay: readonly Weekday[];
  interval?: 2;
  /** null: no restriction stated. */
  allowedTypes: readonly AppointmentTypeKey[] | null;
  /** `recurrence.until`, in days from today. */
  untilInDays?: number;
  /** Also a rule UNTIL (UTC, as RFC 5545 requires beside a zoned DTSTART), later than `untilInDays`. */
  ruleUntilInDays?: number;
  exdate?: boolean;
  active?: boolean;
}

interface ClinicianSeat {
  provider: EhrProvider;
  /** Position among the organization's bookable clinicians. */
  ordinal: number;
}

function coreRecipes(ordinal: number, plan: OrganizationPlan, visible: readonly number[]): TemplateRecipe[] {
  const home = visible[ordinal % visible.length] ?? 0;
  const other = visible[(ordinal + 1) % visible.length] ?? home;
  const dst = plan.dstFacilityIndex;
  // A satellite's own clinician runs its clinic too; otherwise the second clinician works at the other site.
  const secondSite = plan.facilities[dst]?.satellite === true ? dst : other;
  const practiceOf = (index: number): Practice => plan.facilities[index]?.practice ?? "primary";
  const clinicTypes = (index: number): AppointmentTypeKey[] => PRACTICE_TYPES[practiceOf(index)].filter((key) => key !== "procedure");
  const procedureTypes = (index: number): AppointmentTypeKey[] => (practiceOf(index) === "dermatology" ? ["procedure", "skin_check"] : ["procedure"]);
  switch (ordinal) {
    case 0:
      return [
        { name: "Morning clinic", facilityIndex: home, start: "08:00", end: "12:00", concurrency: 1, slotIntervalMinutes: 20, byDay: ["MO", "TU", "TH", "FR"], allowedTypes: null },
        // Overlaps the morning clinic on Tuesdays and Thursdays: additive capacity.
        { name: "Procedures", facilityIndex: home, start: "10:00", end: "12:00", concurrency: 2, slotIntervalMinutes: 30, byDay: ["TU", "TH"], allowedTypes: procedureTypes(home) },
        { name: "Afternoon clinic", facilityIndex: home, start: "13:00", end: "17:00", concurrency: 1, slotIntervalMinutes: 20, byDay: ["MO", "WE", "TH"], allowedTypes: clinicTypes(home) },
      ];
    case 1:
      return [
        // Sunday 01:00-04:00 contains the DST change of the facility's zone.
        { name: "Weekend virtual urgent care", facilityIndex: dst, start: "01:00", end: "04:00", concurrency: 2, slotIntervalMinutes: 15, byDay: ["SU"], allowedTypes: ["telehealth"] },
        { name: "Clinic", facilityIndex: secondSite, start: "09:00", end: "13:00", concurrency: 1, slotIntervalMinutes: 15, byDay: ["TU", "WE", "FR"], allowedTypes: ["follow_up", "new_patient", "telehealth"] },
      ];
    case 2:
      return [
        { name: "Afternoon clinic (alternate weeks)", facilityIndex: home, start: "13:00", end: "17:00", concurrency: 1, slotIntervalMinutes: 20, byDay: ["MO", "WE"], interval: 2, allowedTypes: null, exdate: true },
        { name: "Morning clinic", facilityIndex: home, start: "08:30", end: "12:30", concurrency: 1, slotIntervalMinutes: 15, byDay: ["TU", "TH"], allowedTypes: null },
      ];
    case 3:
      return [
        { name: "Saturday clinic", facilityIndex: home, start: "09:00", end: "13:00", concurrency: 1, slotIntervalMinutes: 20, byDay: ["SA"], allowedTypes: null, untilInDays: 18 },
        { name: "Friday clinic (retired)", facilityIndex: home, start: "08:00", end: "16:00", concurrency: 1, slotIntervalMinutes: 20, byDay: ["FR"], allowedTypes: null, active: false },
        { name: "Morning clinic", facilityIndex: home, start: "08:00", end: "12:00", concurrency: 1, slotIntervalMinutes: 30, byDay: ["MO", "WE", "FR"], allowedTypes: ["follow_up", "new_patient", "procedure"] },
      ];
    case 4:
      return [
        { name: "Morning clinic", facilityIndex: visible[0] ?? home, start: "08:00", end: "12:00", concurrency: 1, slotIntervalMinutes: 15, byDay: ["MO", "TU"], allowedTypes: null },
        { name: "Afternoon clinic", facilityIndex: visible[1] ?? home, start: "12:30", end: "16:30", concurrency: 1, slotIntervalMinutes: 30, byDay: ["WE", "TH"], allowedTypes: null, untilInDays: 120, ruleUntilInDays: 200 },
      ];
    case 5:
      return [
        // Ends after midnight: each instance runs into the next local day.
        { name: "Evening telehealth", facilityIndex: home, start: "22:00", end: "02:00", concurrency: 1, slotIntervalMinutes: 30, byDay: ["TU", "TH"], allowedTypes: ["telehealth"] },
        { name: "Early clinic", facilityIndex: home, start: "07:30", end: "11:30", concurrency: 1, slotIntervalMinutes: 10, byDay: ["MO", "TU", "WE", "TH", "FR"], allowedTypes: ["follow_up"] },
      ];
    case 6:
      return [
        { name: "Clinic", facilityIndex: home, start: "10:00", end: "16:00", concurrency: 1, slotIntervalMinutes: 30, byDay: ["MO", "TU", "WE"], allowedTypes: ["follow_up", "telehealth"] },
        // An empty list allows no type: time blocked for charting.
        { name: "Charting block", facilityIndex: home, start: "16:00", end: "17:30", concurrency: 1, slotIntervalMinutes: 30, byDay: ["MO", "TU", "WE"], allowedTypes: [] },
      ];
    default:
      return [];
  }
}

const CORE_CLINICIANS = 7;

/** A large group's clinician: half-day sessions across 3-5 facilities, one weekday per template. */
function rotaRecipes(random: Random, plan: OrganizationPlan, visible: readonly number[]): TemplateRecipe[] {
  const sites = random.sample(visible, random.int(3, 5));
  const recipes: TemplateRecipe[] = [];
  const typesFor = (index: number): readonly AppointmentTypeKey[] | null => {
    if (random.chance(0.5)) return null;
    const keys = PRACTICE_TYPES[plan.facilities[index]?.practice ?? "primary"];
    return random.sample(keys, random.int(2, 4));
  };
  const common = (facilityIndex: number, day: Weekday): Pick<TemplateRecipe, "facilityIndex" | "byDay" | "concurrency" | "slotIntervalMinutes" | "interval" | "active" | "untilInDays"> => ({
    facilityIndex,
    byDay: [day],
    concurrency: random.chance(0.85) ? 1 : 2,
    slotIntervalMinutes: random.pick([10, 15, 15, 20, 20, 30]),
    ...(random.chance(0.1) ? { interval: 2 as const } : {}),
    ...(random.chance(0.03) ? { active: false } : {}),
    ...(random.chance(0.05) ? { untilInDays: random.int(7, 90) } : {}),
  });
  for (const day of WEEKDAYS.slice(0, 5)) {
    if (random.chance(0.15)) continue;
    const morningSite = random.pick(sites);
    const morningStart = random.pick([480, 480, 510, 540]);
    if (random.chance(0.9)) {
      recipes.push({ name: "Morning clinic", start: hhmm(morningStart), end: hhmm(morningStart + 240), allowedTypes: typesFor(morningSite), ...common(morningSite, day) });
      if (random.chance(0.15)) {
        recipes.push({ name: "Procedures", start: hhmm(morningStart + 120), end: hhmm(morningStart + 240), concurrency: 2, slotIntervalMinutes: 30, byDay: [day], facilityIndex: morningSite, allowedTypes: ["procedure"] });
      }
    }
    const afternoonSite = random.chance(0.7) ? morningSite : random.pick(sites);
    const afternoonStart = random.pick([780, 780, 810]);
    if (random.chance(0.9)) {
      recipes.push({ name: "Afternoon clinic", start: hhmm(afternoonStart), end: hhmm(afternoonStart + random.pick([210, 240])), allowedTypes: typesFor(afternoonSite), ...common(afternoonSite, day) });
    }
    if (random.chance(0.3)) {
      recipes.push({ name: "Evening telehealth", start: "17:00", end: "19:00", allowedTypes: ["telehealth"], ...common(afternoonSite, day) });
    }
  }
  return recipes;
}

/** DTSTART's date: `daysBack` before today, moved forward onto the first day the rule occurs. */
function anchorDate(today: string, daysBack: number, byDay: readonly Weekday[]): string {
  let date = addDays(today, -daysBack);
  for (let step = 0; step < 7; step++) {
    if (byDay.includes(WEEKDAYS[weekdayOf(date)] ?? "MO")) return date;
    date = addDays(date, 1);
  }
  return date;
}

export interface TemplateContext {
  plan: OrganizationPlan;
  facilities: readonly Facility[];
  providers: readonly EhrProvider[];
  typesByKey: AppointmentTypesByKey;
  now: number;
}

export function generateTemplates(random: Random, context: TemplateContext): EhrTemplate[] {
  const { plan, facilities, providers, typesByKey, now } = context;
  // Rotas spread over the visible main sites; satellites are staffed by their own recipe.
  const visible = plan.facilities.flatMap((facility, index) => (facility.isVisible && !facility.satellite ? [index] : []));
  const seats: ClinicianSeat[] = providers
    .filter((provider) => !provider.hidden && provider.roles.some(isBookableRole))
    .map((provider, ordinal) => ({ provider, ordinal }));
  const externalBase = random.int(20_000, 70_000);
  const templates: EhrTemplate[] = [];
  for (const { provider, ordinal } of seats) {
    const recipes = ordinal < CORE_CLINICIANS ? coreRecipes(ordinal, plan, visible) : rotaRecipes(random, plan, visible);
    for (const recipe of recipes) {
      const facility = facilities[recipe.facilityIndex];
      if (facility === undefined) continue;
      templates.push(buildTemplate(random, recipe, provider, facility, typesByKey, now, plan.kind, externalBase + templates.length * 3));
    }
  }
  return templates;
}

function buildTemplate(
  random: Random,
  recipe: TemplateRecipe,
  provider: EhrProvider,
  facility: Facility,
  typesByKey: AppointmentTypesByKey,
  now: number,
  kind: EhrKind,
  externalNumber: number,
): EhrTemplate {
  const zone = facility.timezone;
  const today = localDateOf(now, zone);
  // Anchors from a few weeks up to five years back: old DTSTARTs are what make naive expansion slow.
  const daysBack = random.chance(0.3) ? random.int(21, 120) : random.int(121, 1825);
  const dtstart = `DTSTART;TZID=${zone}:${icalLocalDateTime(anchorDate(today, daysBack, recipe.byDay), recipe.start)}`;
  const ruleParts = ["FREQ=WEEKLY", ...(recipe.interval === undefined ? [] : [`INTERVAL=${recipe.interval}`]), `BYDAY=${recipe.byDay.join(",")}`];
  if (recipe.ruleUntilInDays !== undefined) ruleParts.push(`UNTIL=${addDays(today, recipe.ruleUntilInDays).replaceAll("-", "")}T235959Z`);
  const template: EhrTemplate = {
    id: `avt_${random.hex(32)}`,
    externalId: kind === "A" ? String(externalNumber) : `SCH-${String(externalNumber).padStart(7, "0")}`,
    providerId: toPrefixedId("prv", provider.id),
    facilityId: toPrefixedId("fac", facility.id),
    name: recipe.name,
    startTimeLocal: recipe.start,
    endTimeLocal: recipe.end,
    timezone: zone,
    slotIntervalMinutes: recipe.slotIntervalMinutes,
    concurrency: recipe.concurrency,
    recurrence: {
      rrule: `${dtstart}\nRRULE:${ruleParts.join(";")}`,
      until: recipe.untilInDays === undefined ? null : addDays(today, recipe.untilInDays),
    },
    allowedAppointmentTypeIds:
      recipe.allowedTypes === null ? null : recipe.allowedTypes.flatMap((key) => {
        const type = typesByKey.get(key);
        return type === undefined ? [] : [type.id];
      }),
    active: recipe.active ?? true,
  };
  if (recipe.exdate === true) {
    // Skip a real occurrence one to four weeks out (a provider's day off).
    const [skipped] = recurrenceDates(template, { startDate: addDays(today, 7), endDate: addDays(today, 28) });
    if (skipped !== undefined) {
      template.recurrence = { ...template.recurrence, rrule: `${template.recurrence.rrule}\nEXDATE;TZID=${zone}:${icalLocalDateTime(skipped, recipe.start)}` };
    }
  }
  return template;
}
