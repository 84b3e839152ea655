import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { appointment } from "#contract/clinic-api/appointment.ts";
import { installation, KNOWN_SCOPES } from "#contract/clinic-api/installation.ts";
import { note, noteImage } from "#contract/clinic-api/note.ts";
import { facility, notePatient, patient, provider } from "#contract/clinic-api/people.ts";
import { appointmentTypeId, utcTimestamp } from "#contract/clinic-api/primitives.ts";
import { appointmentType, availabilityTemplate, type AvailabilityInstance } from "#contract/clinic-api/schedule.ts";
import { toPrefixedId } from "#contract/ids.ts";
import { expandTemplate } from "#contract/recurrence/expand-template.ts";
import { addDays, daysBetween, localDateOf, parseLocalTime } from "#contract/time/zoned-time.ts";
import { SANDBOX_ROLES, type EhrOrganization, type EhrTemplate, type SeededWorld } from "../world/types.ts";
import { WINDOW_DAYS_AHEAD, WINDOW_DAYS_BACK } from "./generate-appointments.ts";
import { generateWorld } from "./generate-world.ts";
import { isValidNpi, npiCheckDigit } from "./npi.ts";
import { ORG_A_ID, ORG_B_ID, ORG_C_ID, REQUIRED_SCOPES } from "../world/identities.ts";

// Wednesday 10:20 in New York: the window (2026-02-25 to 2026-04-15) holds
// New York's spring-forward (03-08) and Sydney's and Lord Howe's fall-back (04-05).
const NOW = Date.parse("2026-03-04T15:20:00.000Z");
const AVATARS = "http://127.0.0.1:4010/_sandbox/avatars";
const DAY = 86_400_000;

const world = generateWorld({ seed: 7, now: NOW, scale: "default", avatarBaseUrl: AVATARS });

function org(world: SeededWorld, id: string): EhrOrganization {
  const found = world.organizations.find((organization) => organization.id === id);
  if (found === undefined) throw new Error(`no organization ${id}`);
  return found;
}

const orgA = org(world, ORG_A_ID);
const orgB = org(world, ORG_B_ID);
const orgC = org(world, ORG_C_ID);

const ehrProvider = z.extend(provider, {
  ehrUserId: z.string().check(z.regex(/^\d+$/)),
  username: z.string().check(z.minLength(1)),
  canFinalize: z.boolean(),
  canCosign: z.boolean(),
  roleType: z.string().check(z.minLength(1)),
  active: z.boolean(),
});
const ehrAppointment = z.extend(appointment, {
  integrationAppointmentId: z.string().check(z.minLength(1)),
  integrationStatus: z.string().check(z.minLength(1)),
  appointmentTypeId,
  reason: z.nullable(z.string()),
  cancelReasonName: z.nullable(z.string()),
  updatedAt: utcTimestamp,
});

function window(zone: string): { startDate: string; endDate: string } {
  return { startDate: localDateOf(NOW - WINDOW_DAYS_BACK * DAY, zone), endDate: localDateOf(NOW + WINDOW_DAYS_AHEAD * DAY, zone) };
}

interface TimedInstance {
  template: EhrTemplate;
  start: number;
  end: number;
}

/** Every active template's instances in the booking window, by `prv_…|fac_…`. */
function instancesByProviderAndFacility(organization: EhrOrganization): Map<string, TimedInstance[]> {
  const byKey = new Map<string, TimedInstance[]>();
  for (const template of organization.templates) {
    for (const instance of expandTemplate(template, window(template.timezone))) {
      const key = `${template.providerId}|${template.facilityId}`;
      const list = byKey.get(key) ?? [];
      list.push({ template, start: Date.parse(instance.startsAt), end: Date.parse(instance.endsAt) });
      byKey.set(key, list);
    }
  }
  return byKey;
}

function nominalMinutes(template: EhrTemplate): number {
  const minutes = (parseLocalTime(template.endTimeLocal) - parseLocalTime(template.startTimeLocal)) / 60;
  return minutes > 0 ? minutes : minutes + 24 * 60;
}

/** Checks the bookings of one organization against its templates; returns what it found wrong. */
function bookingProblems(organization: EhrOrganization): string[] {
  const problems: string[] = [];
  const instances = instancesByProviderAndFacility(organization);
  const live = organization.appointments.filter((item) => item.status !== "cancelled");
  const byKey = new Map<string, { start: number; end: number }[]>();
  for (const item of live) {
    const key = `${toPrefixedId("prv", item.providerId)}|${toPrefixedId("fac", item.facilityId)}`;
    const start = Date.parse(item.scheduledStartDate);
    const end = Date.parse(item.scheduledEndDate);
    const home = (instances.get(key) ?? []).find(
      (instance) =>
        instance.start <= start &&
        end <= instance.end &&
        (start - instance.start) % (instance.template.slotIntervalMinutes * 60_000) === 0 &&
        (instance.template.allowedAppointmentTypeIds === null || instance.template.allowedAppointmentTypeIds.includes(item.appointmentTypeId)),
    );
    if (home === undefined) problems.push(`appointment ${item.id} is not on the grid of an instance of its provider and facility that allows its type`);
    const list = byKey.get(key) ?? [];
    list.push({ start, end });
    byKey.set(key, list);
  }
  // Overlapping instances add capacity: at every start of a booking, the live
  // bookings running then must fit in the concurrency of the instances running then.
  for (const [key, bookings] of byKey) {
    const running = instances.get(key) ?? [];
    for (const { start } of bookings) {
      const booked = bookings.filter((booking) => booking.start <= start && start < booking.end).length;
      const capacity = running.filter((instance) => instance.start <= start && start < instance.end).reduce((sum, instance) => sum + instance.template.concurrency, 0);
      if (booked > capacity) problems.push(`${key} at ${new Date(start).toISOString()}: ${booked} bookings, capacity ${capacity}`);
    }
  }
  return problems;
}

describe("generateWorld: determinism", () => {
  it("gives a byte-identical world for the same seed and clock", () => {
    const again = generateWorld({ seed: 7, now: NOW, scale: "default", avatarBaseUrl: AVATARS });
    expect(JSON.stringify(again)).toBe(JSON.stringify(world));
  });

  it("differs for another seed, and dates everything from the clock", () => {
    const otherSeed = generateWorld({ seed: 8, now: NOW, scale: "default", avatarBaseUrl: AVATARS });
    expect(JSON.stringify(otherSeed)).not.toBe(JSON.stringify(world));
    expect(otherSeed.organizations.map((organization) => organization.id)).toEqual(world.organizations.map((organization) => organization.id));
    const later = generateWorld({ seed: 7, now: NOW + 30 * DAY, scale: "default", avatarBaseUrl: AVATARS });
    const firstStart = (organization: EhrOrganization) => Date.parse(organization.appointments[0]?.scheduledStartDate ?? "");
    expect(firstStart(org(later, ORG_A_ID)) - firstStart(orgA)).toBeGreaterThan(25 * DAY);
  });

  it("does not depend on the host's time zone", () => {
    const digest = (value: string) => createHash("sha256").update(value).digest("hex");
    const tsx = fileURLToPath(new URL("../../node_modules/.bin/tsx", import.meta.url));
    const moduleUrl = new URL("./generate-world.ts", import.meta.url).href;
    const script = `import { createHash } from "node:crypto"; import { generateWorld } from ${JSON.stringify(moduleUrl)};
      const json = JSON.stringify(generateWorld({ seed: 7, now: ${NOW}, scale: "default", avatarBaseUrl: ${JSON.stringify(AVATARS)} }));
      process.stdout.write(createHash("sha256").update(json).digest("hex"));`;
    for (const zone of ["Pacific/Kiritimati", "America/Los_Angeles"]) {
      const output = execFileSync(tsx, ["-e", script], { env: { ...process.env, TZ: zone }, encoding: "utf8" });
      expect(output.trim(), zone).toBe(digest(JSON.stringify(world)));
    }
  });
});

describe("generateWorld: every record parses with its contract schema", () => {
  it.each(world.organizations.map((organization) => [organization.name, organization] as const))("%s", (_name, organization) => {
    for (const item of organization.facilities) facility.parse(item);
    for (const item of organization.providers) ehrProvider.parse(item);
    for (const item of organization.patients) {
      patient.parse(item);
      notePatient.parse(item);
    }
    for (const item of organization.appointmentTypes) appointmentType.parse(item);
    for (const item of organization.templates) availabilityTemplate.parse(item);
    for (const item of organization.appointments) ehrAppointment.parse(item);
    for (const item of organization.notes) {
      note.parse(item);
      for (const image of item.images) noteImage.parse(image);
    }
  });

  it("installations", () => {
    for (const item of world.installations) installation.parse(item);
  });
});

describe("generateWorld: the sandbox identities", () => {
  it("has organizations A, B and C with their kinds", () => {
    expect(world.organizations.map(({ id, kind }) => [id, kind])).toEqual([
      ["3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61", "A"],
      ["8c4e2d19-7a36-4b5f-a0e1-9d8c7b6a5f42", "B"],
      ["d5a7c3b1-2e4f-4a6b-8c9d-0e1f2a3b4c53", "A"],
    ]);
  });

  it("installs A with every optional scope, B without read:patients, and C uninstalled", () => {
    const optional = KNOWN_SCOPES.filter((scope) => !(REQUIRED_SCOPES as readonly string[]).includes(scope));
    const byOrg = new Map(world.installations.map((item) => [item.organizationId, item]));
    expect(byOrg.get(ORG_A_ID)).toMatchObject({ status: "active", grantedPermissions: optional });
    expect(byOrg.get(ORG_B_ID)).toMatchObject({ status: "active", grantedPermissions: optional.filter((scope) => scope !== "read:patients") });
    expect(byOrg.get(ORG_C_ID)?.status).toBe("uninstalled");
    for (const item of world.installations) {
      expect(Date.parse(item.installedAt)).toBeLessThan(NOW);
      expect(Date.parse(item.updatedAt)).toBeGreaterThanOrEqual(Date.parse(item.installedAt));
      expect(Date.parse(item.updatedAt)).toBeLessThanOrEqual(NOW);
      expect(Object.keys(item.settings).length).toBeGreaterThan(0);
    }
  });

  it("puts A's facilities in New York and Chicago, one hidden, and B's in Sydney and Lord Howe", () => {
    expect(new Set(orgA.facilities.map((item) => item.timezone))).toEqual(new Set(["America/New_York", "America/Chicago"]));
    expect(orgA.facilities.filter((item) => !item.isVisible)).toHaveLength(1);
    expect(orgA.facilities.length).toBeGreaterThanOrEqual(2);
    expect(orgA.facilities.length).toBeLessThanOrEqual(3);
    expect(new Set(orgB.facilities.map((item) => item.timezone))).toEqual(new Set(["Australia/Sydney", "Australia/Lord_Howe"]));
    expect(orgC.facilities.length).toBeGreaterThanOrEqual(1);
  });

  it.each([orgA, orgB, orgC].map((organization) => [organization.name, organization] as const))("%s has every role, the first Physician first, one hidden provider", (_name, organization) => {
    const { providers } = organization;
    expect(providers[0]?.roles).toEqual(["Physician"]);
    expect(providers.slice(0, 5).map((item) => item.roles[0])).toEqual([...SANDBOX_ROLES]);
    for (const role of SANDBOX_ROLES) expect(providers.some((item) => item.roles.includes(role) && !item.hidden), role).toBe(true);
    expect(providers.filter((item) => item.roles.includes("Physician")).length).toBeGreaterThanOrEqual(3);
    expect(providers.filter((item) => item.hidden)).toHaveLength(1);
    expect(providers.every((item) => item.active && item.roles.length === 1)).toBe(true);
    expect(new Set(providers.map((item) => item.username)).size).toBe(providers.length);
    expect(new Set(providers.map((item) => item.ehrUserId)).size).toBe(providers.length);
    for (const item of providers) {
      const physician = item.roles[0] === "Physician";
      expect(item.canCosign, item.username).toBe(physician);
      if (physician) expect(item.canFinalize).toBe(true);
      if (organization.kind === "B") expect(item.title).toBe(item.roles[0]);
      else expect(["MD", "DO", "NP", "FNP-C", "MA", "CMA", ""]).toContain(item.title);
    }
    if (organization.kind === "A") expect(providers[0]?.displayFirstName.startsWith("Dr. ")).toBe(true);
  });
});

describe("generateWorld: volumes", () => {
  it.each([orgA, orgB].map((organization) => [organization.name, organization] as const))("%s is realistic in volume", (_name, organization) => {
    expect(organization.providers.length).toBeGreaterThanOrEqual(12);
    expect(organization.patients.length).toBeGreaterThanOrEqual(300);
    expect(organization.appointmentTypes.length).toBeGreaterThanOrEqual(5);
    expect(organization.appointmentTypes.length).toBeLessThanOrEqual(7);
    expect(organization.templates.length).toBeGreaterThanOrEqual(12);
    expect(organization.appointments.length).toBeGreaterThanOrEqual(500);
    expect(organization.notes.length).toBeGreaterThanOrEqual(12);
  });

  it("C is small but complete", () => {
    expect(orgC.providers.length).toBeGreaterThanOrEqual(5);
    expect(orgC.patients.length).toBeGreaterThan(0);
    expect(orgC.templates.length).toBeGreaterThan(0);
    expect(orgC.appointments.length).toBeGreaterThan(0);
    expect(new Set(orgC.notes.map((item) => item.status))).toEqual(new Set(["in_progress", "awaiting_sign", "signed"]));
  });

  it("has patients with and without MRN, gender and middle name, all with contacts and an avatar", () => {
    const { patients } = orgA;
    expect(patients.some((item) => item.mrn === null)).toBe(true);
    expect(patients.filter((item) => item.mrn !== null).length).toBeGreaterThan(patients.length * 0.8);
    expect(patients.some((item) => item.gender === null)).toBe(true);
    expect(patients.some((item) => item.middleName !== undefined)).toBe(true);
    expect(patients.some((item) => !("middleName" in item))).toBe(true);
    for (const item of patients) {
      expect(item.email).toMatch(/^[a-z.]+\d*@example\.(com|org|net)$/);
      expect(item.phone).toMatch(/^\(\d{3}\) 555-01\d\d$/);
      expect(item.avatar).toBe(`${AVATARS}/${item.id}.svg`);
    }
    expect(new Set(patients.map((item) => item.id)).size).toBe(patients.length);
  });
});

describe("generateWorld: NPIs", () => {
  it("checks the CMS example and rejects a wrong check digit", () => {
    expect(isValidNpi("1234567893")).toBe(true);
    expect(isValidNpi("1234567890")).toBe(false);
    expect(npiCheckDigit("123456789")).toBe(3);
  });

  it("gives every provider and organization a Luhn-valid 10-digit NPI", () => {
    for (const organization of world.organizations) {
      for (const item of organization.providers) expect(isValidNpi(item.individualNpi), item.individualNpi).toBe(true);
      for (const item of organization.facilities) expect(isValidNpi(item.organizationNpi), item.organizationNpi).toBe(true);
      expect(new Set(organization.providers.map((item) => item.individualNpi)).size).toBe(organization.providers.length);
    }
  });
});

describe("generateWorld: availability templates", () => {
  it.each([orgA, orgB].map((organization) => [organization.name, organization] as const))("%s covers every case of the expansion rules", (_name, organization) => {
    const { templates } = organization;
    const zones = new Map(organization.facilities.map((item) => [toPrefixedId("fac", item.id), item.timezone]));
    for (const template of templates) {
      expect(template.timezone).toBe(zones.get(template.facilityId));
      const dtstart = new RegExp(`^DTSTART;TZID=${template.timezone}:(\\d{4})(\\d{2})(\\d{2})T\\d{6}$`).exec(template.recurrence.rrule.split("\n")[0] ?? "");
      expect(dtstart, template.recurrence.rrule).not.toBeNull();
      const anchor = `${dtstart?.[1]}-${dtstart?.[2]}-${dtstart?.[3]}`;
      const age = daysBetween(anchor, localDateOf(NOW, template.timezone));
      expect(age).toBeGreaterThanOrEqual(14);
      expect(age).toBeLessThanOrEqual(5 * 366);
      expect([10, 15, 20, 30]).toContain(template.slotIntervalMinutes);
      expect(template.recurrence.rrule).toMatch(/RRULE:FREQ=WEEKLY;(INTERVAL=2;)?BYDAY=/);
    }
    expect(templates.some((item) => item.recurrence.rrule.includes("INTERVAL=2"))).toBe(true);
    expect(templates.some((item) => item.recurrence.rrule.includes("\nEXDATE;TZID="))).toBe(true);
    expect(templates.some((item) => item.recurrence.until !== null)).toBe(true);
    expect(templates.some((item) => !item.active)).toBe(true);
    expect(templates.some((item) => item.allowedAppointmentTypeIds === null)).toBe(true);
    expect(templates.some((item) => (item.allowedAppointmentTypeIds?.length ?? 0) > 0)).toBe(true);
    const typeIds = new Set(organization.appointmentTypes.map((item) => item.id));
    for (const template of templates) for (const id of template.allowedAppointmentTypeIds ?? []) expect(typeIds.has(id)).toBe(true);
    const perClinician = new Map<string, number>();
    for (const template of templates) perClinician.set(template.providerId, (perClinician.get(template.providerId) ?? 0) + 1);
    // Hand-written clinicians have 1-3 templates; rota clinicians one per half-day they work.
    for (const count of perClinician.values()) expect(count).toBeLessThanOrEqual(14);
  });

  it.each([orgA, orgB].map((organization) => [organization.name, organization] as const))("%s has templates that overlap on the same provider and facility", (_name, organization) => {
    const overlapping = [...instancesByProviderAndFacility(organization).values()].some((list) =>
      list.some((a) => list.some((b) => a.template.id !== b.template.id && a.start < b.end && b.start < a.end)),
    );
    expect(overlapping).toBe(true);
  });

  it("exercises DST days: New York's spring-forward and Lord Howe's half-hour fall-back", () => {
    const realMinutes = (organization: EhrOrganization, zone: string, date: string): number[] =>
      organization.templates
        .filter((template) => template.timezone === zone && nominalMinutes(template) === 180)
        .flatMap((template) => expandTemplate(template, { startDate: date, endDate: date }))
        .map((instance: AvailabilityInstance) => (Date.parse(instance.endsAt) - Date.parse(instance.startsAt)) / 60_000);
    expect(realMinutes(orgA, "America/New_York", "2026-03-08")).toContain(120);
    expect(realMinutes(orgB, "Australia/Lord_Howe", "2026-04-05")).toContain(210);
  });
});

describe("generateWorld: appointments", () => {
  it.each(world.organizations.map((organization) => [organization.name, organization] as const))("%s books inside template instances without exceeding capacity", (_name, organization) => {
    expect(bookingProblems(organization)).toEqual([]);
  });

  it.each([orgA, orgB].map((organization) => [organization.name, organization] as const))("%s spans one week back to six weeks ahead, with statuses by time", (_name, organization) => {
    const zones = new Map(organization.facilities.map((item) => [item.id, item.timezone]));
    const providers = new Map(organization.providers.map((item) => [item.id, item]));
    const patients = new Map(organization.patients.map((item) => [item.id, item]));
    const typeIds = new Set(organization.appointmentTypes.map((item) => item.id));
    for (const item of organization.appointments) {
      const start = Date.parse(item.scheduledStartDate);
      const zone = zones.get(item.facilityId) ?? "UTC";
      const today = localDateOf(NOW, zone);
      const date = localDateOf(start, zone);
      // The window bounds the instances' dates; a booking after midnight in an evening instance is a day later.
      expect(date >= addDays(today, -WINDOW_DAYS_BACK) && date <= addDays(today, WINDOW_DAYS_AHEAD + 1), item.scheduledStartDate).toBe(true);
      if (date < today) expect(["completed", "no_show", "cancelled"]).toContain(item.status);
      else if (date > today) expect(["confirmed", "cancelled"]).toContain(item.status);
      else expect(["arrived", "completed", "confirmed", "cancelled"]).toContain(item.status);
      expect(item.cancelReasonName !== null).toBe(item.status === "cancelled");
      expect(Date.parse(item.createdAt)).toBeLessThanOrEqual(Math.min(NOW, start));
      expect(Date.parse(item.updatedAt)).toBeGreaterThanOrEqual(Date.parse(item.createdAt));
      expect(Date.parse(item.updatedAt)).toBeLessThanOrEqual(NOW);
      expect(typeIds.has(item.appointmentTypeId)).toBe(true);
      const provider = providers.get(item.providerId);
      const patient = patients.get(item.patientId);
      expect(provider?.hidden).toBe(false);
      expect([provider?.firstName, provider?.lastName]).toEqual([item.providerFirstName, item.providerLastName]);
      expect([patient?.firstName, patient?.lastName, patient?.mrn ?? ""]).toEqual([item.patientFirstName, item.patientLastName, item.patientMrn]);
    }
    const statuses = new Set(organization.appointments.map((item) => item.status));
    for (const status of ["completed", "no_show", "cancelled", "confirmed"]) expect(statuses.has(status), status).toBe(true);
    expect(organization.appointments.some((item) => item.isNewPatient)).toBe(true);
    expect(organization.appointments.some((item) => item.reason === null)).toBe(true);
  });

  it("has today's patients arrived in New York on a Wednesday morning", () => {
    expect(orgA.appointments.some((item) => item.status === "arrived")).toBe(true);
  });
});

describe("generateWorld: notes", () => {
  it.each(world.organizations.map((organization) => [organization.name, organization] as const))("%s has notes in every state, with images", (_name, organization) => {
    const { notes } = organization;
    const byStatus = (status: string) => notes.filter((item) => item.status === status);
    for (const status of ["in_progress", "awaiting_sign", "signed"]) {
      expect(byStatus(status).length, status).toBeGreaterThan(0);
      expect(byStatus(status).some((item) => item.images.length > 0), status).toBe(true);
    }
    expect(byStatus("awaiting_sign").length).toBeGreaterThan(byStatus("signed").length);
    expect(byStatus("awaiting_sign").length).toBeGreaterThan(byStatus("in_progress").length);
    expect(notes.filter((item) => item.aiStatus === "issues_found" && item.aiIssueCount > 0).length).toBeGreaterThanOrEqual(3);
    expect(byStatus("signed").some((item) => item.soapNote.addenda.length > 0)).toBe(true);
    expect(notes.every((item) => item.status === "signed" || item.soapNote.addenda.length === 0)).toBe(true);
    const first = organization.providers[0];
    expect(new Set(notes.filter((item) => item.assignedProviders[0]?.id === first?.id).map((item) => item.status))).toEqual(new Set(["in_progress", "awaiting_sign", "signed"]));
  });

  it("embeds the visit's patient, facility and providers consistently", () => {
    const appointmentsByStart = new Map(orgA.appointments.map((item) => [`${item.patientId}|${item.scheduledStartDate}`, item]));
    for (const item of orgA.notes) {
      expect(item.patient.avatar).toBe(`${AVATARS}/${item.patient.id}.svg`);
      expect("address" in item.facility).toBe(false);
      expect(item.version).toBeGreaterThanOrEqual(1);
      expect(item.images.length).toBeLessThanOrEqual(3);
      const visit = appointmentsByStart.get(`${item.patient.id}|${item.visitDate.slice(0, 10)}T${item.visitDate.slice(11, 23)}Z`);
      expect(visit?.providerId).toBe(item.assignedProviders[0]?.id);
      expect(visit?.facilityId).toBe(item.facility.id);
      for (const image of item.images) {
        expect(["image/jpeg", "image/png"]).toContain(image.mimeType);
        expect(["pending_upload", "uploaded"]).toContain(image.status);
        expect(image.fileName.endsWith(image.mimeType === "image/png" ? ".png" : ".jpg")).toBe(true);
      }
    }
  });

  it("fills the SOAP sections with coded, consistent content", () => {
    const notes = [...orgA.notes, ...orgB.notes];
    const finished = notes.filter((item) => item.status !== "in_progress");
    for (const item of notes) {
      const soap = item.soapNote;
      expect(soap.hpi.chiefComplaints.length).toBeGreaterThan(0);
      expect(soap.impressionsPlans.length).toBeGreaterThan(0);
      for (const impression of soap.impressionsPlans) for (const code of impression.diagnosisCodes) expect(code).toMatch(/^[A-Z]\d{2}(\.[0-9A-Z]{1,4})?$/);
      for (const line of soap.billing) {
        expect(line.procedureCode).toMatch(/^(\d{5}|[A-Z]\d{4})$/);
        expect(line.units).toBeGreaterThan(0);
        for (const modifier of line.modifiers) expect(modifier).toMatch(/^[0-9A-Z]{2}$/);
      }
      for (const vital of soap.vitals) {
        const { weight, height, bmi } = vital;
        if (weight === null || height === null || bmi === null) throw new Error("vitals without weight, height or BMI");
        const expected = vital.weightType === "lbs" ? (703 * weight) / height ** 2 : weight / (height / 100) ** 2;
        expect(Math.abs(expected - bmi)).toBeLessThan(0.06);
        expect([vital.heightType, vital.temperatureType]).toEqual(vital.weightType === "lbs" ? ["in", "F"] : ["cm", "C"]);
      }
    }
    expect(finished.every((item) => item.soapNote.billing.some((line) => /^99\d{3}$/.test(line.procedureCode)))).toBe(true);
    expect(finished.some((item) => item.soapNote.billing.some((line) => line.modifiers.length > 0))).toBe(true);
    expect(finished.some((item) => item.soapNote.rx.length > 0)).toBe(true);
    expect(finished.some((item) => item.soapNote.tests.length > 0)).toBe(true);
    expect(finished.some((item) => item.soapNote.mips.length > 0)).toBe(true);
    expect(notes.some((item) => item.soapNote.stickyNote.description !== "")).toBe(true);
    expect(notes.some((item) => item.soapNote.hpi.additionalHpiComments === "")).toBe(true);
    expect(notes.filter((item) => item.status === "in_progress").every((item) => item.soapNote.billing.length === 0)).toBe(true);
  });
});

describe("generateWorld: large scale", () => {
  let large: SeededWorld;
  beforeAll(() => {
    large = generateWorld({ seed: 7, now: NOW, scale: "large", avatarBaseUrl: AVATARS });
  });

  it("is a clinic group big enough to benchmark", () => {
    for (const id of [ORG_A_ID, ORG_B_ID]) {
      const organization = org(large, id);
      expect(organization.providers.length).toBeGreaterThanOrEqual(200);
      expect(organization.patients.length).toBeGreaterThanOrEqual(3000);
      expect(organization.notes.length).toBeGreaterThanOrEqual(100);
    }
    expect(org(large, ORG_A_ID).templates.length).toBeGreaterThanOrEqual(2000);
    expect(org(large, ORG_B_ID).templates.length).toBeGreaterThanOrEqual(1800);
  });

  it("keeps the default organization's shape and the booking rules", () => {
    const organization = org(large, ORG_A_ID);
    expect(organization.providers[0]?.roles).toEqual(["Physician"]);
    for (const template of organization.templates) availabilityTemplate.parse(template);
    expect(bookingProblems(organization)).toEqual([]);
  });
});
