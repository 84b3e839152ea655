// The sandbox's seeded world: every organization's EHR and the app's
// installations, generated from a seed and dated relative to the emulator's
// clock. Same seed and same `now` give a byte-identical world.
import type { EhrOrganization, SeededInstallation, SeededWorld } from "../world/types.ts";
import { MS_PER_DAY, utcTimestamp } from "./format.ts";
import { generateAppointments } from "./generate-appointments.ts";
import { generateFacilities } from "./generate-facilities.ts";
import { generateNotes } from "./generate-notes.ts";
import { generatePatients, generateProviders } from "./generate-people.ts";
import { appointmentTypesByKey, generateAppointmentTypes, generateTemplates } from "./generate-schedule.ts";
import { organizationPlans, type OrganizationPlan, type Scale } from "./organization-plans.ts";
import { randomFor } from "./random.ts";

export interface GenerateWorldOptions {
  seed: number;
  /** Epoch ms: the emulator's clock. */
  now: number;
  scale: Scale;
  /** Patients' avatars are `${avatarBaseUrl}/${patientId}.svg`. */
  avatarBaseUrl: string;
}

export function generateWorld(options: GenerateWorldOptions): SeededWorld {
  const plans = organizationPlans(options.scale);
  return {
    organizations: plans.map((plan) => generateOrganization(plan, options)),
    installations: plans.map((plan) => generateInstallation(plan, options.now)),
  };
}

function generateOrganization(plan: OrganizationPlan, options: GenerateWorldOptions): EhrOrganization {
  const { seed, now } = options;
  const avatarBaseUrl = options.avatarBaseUrl.replace(/\/+$/, "");
  // One stream per part, so a change in how one part is generated leaves the others as they were.
  const stream = (part: string) => randomFor(seed, plan.id, part);
  const facilities = generateFacilities(stream("facilities"), plan, now);
  const providers = generateProviders(stream("providers"), plan, now);
  const patients = generatePatients(stream("patients"), plan, facilities, now, avatarBaseUrl);
  const appointmentTypes = generateAppointmentTypes(stream("appointment-types"), plan.kind);
  const typesByKey = appointmentTypesByKey(appointmentTypes);
  const templates = generateTemplates(stream("templates"), { plan, facilities, providers, typesByKey, now });
  const { appointments, scenarioKeyById } = generateAppointments(stream("appointments"), { plan, facilities, providers, patients, typesByKey, templates, now });
  const notes = generateNotes(stream("notes"), { plan, facilities, providers, patients, appointments, appointmentTypes, scenarioKeyById, now });
  return { id: plan.id, name: plan.name, kind: plan.kind, facilities, providers, patients, appointmentTypes, templates, appointments, notes };
}

function generateInstallation(plan: OrganizationPlan, now: number): SeededInstallation {
  // Whole minutes before `now`, so installations read like human actions.
  const minuteFloor = (ms: number) => Math.floor(ms / 60_000) * 60_000;
  const { installation } = plan;
  return {
    organizationId: plan.id,
    status: installation.status,
    grantedPermissions: [...installation.grantedPermissions],
    settings: structuredClone(installation.settings),
    installedAt: utcTimestamp(minuteFloor(now - installation.installedDaysAgo * MS_PER_DAY - 3 * 3_600_000)),
    updatedAt: utcTimestamp(minuteFloor(now - installation.updatedDaysAgo * MS_PER_DAY - 3 * 3_600_000)),
  };
}
