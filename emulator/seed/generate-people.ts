// Providers (users with roles) and patients of one organization.
import type { Facility } from "#contract/clinic-api/people.ts";
import { addDays } from "#contract/time/zoned-time.ts";
import type { EhrKind, EhrPatient, EhrProvider, SANDBOX_ROLES } from "../world/types.ts";
import { MS_PER_DAY, utcTimestamp } from "./format.ts";
import {
  asciiHandle,
  AU_AREA_CODES_BY_STATE,
  AU_FICTIONAL_MOBILES,
  EMAIL_DOMAINS,
  FEMALE_FIRST_NAMES,
  LAST_NAMES,
  MALE_FIRST_NAMES,
  FEMALE_MIDDLE_NAMES,
  MALE_MIDDLE_NAMES,
  US_AREA_CODES_BY_STATE,
} from "./names.ts";
import { npiFromBody } from "./npi.ts";
import type { OrganizationPlan } from "./organization-plans.ts";
import type { Random } from "./random.ts";

export type SandboxRole = (typeof SANDBOX_ROLES)[number];

/**
 * The first five are one of each role with the first Physician first, so a
 * test finds "the first Physician" at index 0 and every role early on.
 */
const CORE_ROSTER: readonly SandboxRole[] = [
  "Physician",
  "Nurse Practitioner",
  "Medical Assistant",
  "Front Desk",
  "Scheduler",
  "Physician",
  "Physician",
  "Physician",
  "Nurse Practitioner",
  "Medical Assistant",
  "Medical Assistant",
  "Front Desk",
  "Physician",
  "Physician",
];

/** The mix of a larger group past the core roster: about 70 % bookable clinicians. */
const GROUP_CYCLE: readonly SandboxRole[] = [
  "Physician",
  "Physician",
  "Nurse Practitioner",
  "Medical Assistant",
  "Physician",
  "Nurse Practitioner",
  "Physician",
  "Front Desk",
  "Physician",
  "Medical Assistant",
  "Nurse Practitioner",
  "Scheduler",
  "Physician",
  "Nurse Practitioner",
];

export function rosterRole(index: number): SandboxRole {
  return CORE_ROSTER[index] ?? (GROUP_CYCLE[(index - CORE_ROSTER.length) % GROUP_CYCLE.length] as SandboxRole);
}

/** One provider is hidden in every organization (the last of the core roster); larger groups hide a few more. */
function isHiddenAt(index: number, count: number): boolean {
  return index === Math.min(count, CORE_ROSTER.length) - 1 || (index >= CORE_ROSTER.length && index % 41 === 0);
}

export function isBookableRole(role: string): boolean {
  return role === "Physician" || role === "Nurse Practitioner";
}

interface RoleStyle {
  roleType: string;
  title: (random: Random) => string;
  displayFirstName: (first: string) => string;
  displayLastName: (last: string, title: string) => string;
}

const KIND_A_STYLES: Record<SandboxRole, RoleStyle> = {
  Physician: { roleType: "PROVIDER", title: (r) => (r.chance(0.15) ? "DO" : "MD"), displayFirstName: (f) => `Dr. ${f}`, displayLastName: (l, t) => `${l}, ${t}` },
  "Nurse Practitioner": { roleType: "PROVIDER", title: (r) => (r.chance(0.3) ? "FNP-C" : "NP"), displayFirstName: (f) => f, displayLastName: (l, t) => `${l}, ${t}` },
  "Medical Assistant": { roleType: "STAFF", title: (r) => (r.chance(0.4) ? "CMA" : "MA"), displayFirstName: (f) => f, displayLastName: (l) => l },
  "Front Desk": { roleType: "STAFF", title: () => "", displayFirstName: (f) => f, displayLastName: (l) => l },
  Scheduler: { roleType: "STAFF", title: () => "", displayFirstName: (f) => f, displayLastName: (l) => l },
};

// On kind B the title comes from the role (seed 000, Provider).
const KIND_B_STYLES: Record<SandboxRole, RoleStyle> = {
  Physician: { roleType: "practitioner", title: () => "Physician", displayFirstName: (f) => `Dr ${f}`, displayLastName: (l) => l },
  "Nurse Practitioner": { roleType: "practitioner", title: () => "Nurse Practitioner", displayFirstName: (f) => f, displayLastName: (l) => `${l} (NP)` },
  "Medical Assistant": { roleType: "clinical_support", title: () => "Medical Assistant", displayFirstName: (f) => f, displayLastName: (l) => l },
  "Front Desk": { roleType: "front_office", title: () => "Front Desk", displayFirstName: (f) => f, displayLastName: (l) => l },
  Scheduler: { roleType: "front_office", title: () => "Scheduler", displayFirstName: (f) => f, displayLastName: (l) => l },
};

function uniqueName(random: Random, taken: Set<string>): { first: string; last: string; female: boolean } {
  for (;;) {
    const female = random.chance(0.55);
    const first = random.pick(female ? FEMALE_FIRST_NAMES : MALE_FIRST_NAMES);
    const last = random.pick(LAST_NAMES);
    const key = `${first} ${last}`;
    if (!taken.has(key)) {
      taken.add(key);
      return { first, last, female };
    }
  }
}

function uniqueValue(taken: Set<string>, make: (attempt: number) => string): string {
  for (let attempt = 0; ; attempt++) {
    const value = make(attempt);
    if (!taken.has(value)) {
      taken.add(value);
      return value;
    }
  }
}

export function generateProviders(random: Random, plan: OrganizationPlan, now: number): EhrProvider[] {
  const styles = plan.kind === "A" ? KIND_A_STYLES : KIND_B_STYLES;
  const names = new Set<string>();
  const usernames = new Set<string>();
  const npis = new Set<string>();
  const ehrIdBase = plan.kind === "A" ? random.int(10_000, 40_000) : random.int(1_000_000, 4_000_000);
  const providers: EhrProvider[] = [];
  for (let index = 0; index < plan.providerCount; index++) {
    const role = rosterRole(index);
    const style = styles[role];
    const { first, last } = uniqueName(random, names);
    const title = style.title(random);
    const handleFirst = asciiHandle(first);
    const handleLast = asciiHandle(last);
    const username = uniqueValue(usernames, (attempt) => {
      const base = plan.kind === "A" ? `${handleFirst.slice(0, 1)}${handleLast}` : `${handleFirst}.${handleLast}`;
      return attempt === 0 ? base : `${base}${attempt + 1}`;
    });
    const individualNpi = uniqueValue(npis, () => npiFromBody(`1${random.digits(8)}`));
    const createdAt = now - random.int(40, 2600) * MS_PER_DAY - random.int(0, 86_399) * 1000;
    const updatedAt = createdAt + Math.floor(random.next() * (now - createdAt));
    const physician = role === "Physician";
    providers.push({
      id: random.uuid(),
      firstName: first,
      lastName: last,
      displayFirstName: style.displayFirstName(first),
      displayLastName: style.displayLastName(last, title),
      roles: [role],
      individualNpi,
      hidden: isHiddenAt(index, plan.providerCount),
      title,
      createdAt: utcTimestamp(createdAt),
      updatedAt: utcTimestamp(updatedAt),
      // Sequential ids with gaps, as an EHR's user table gives them.
      ehrUserId: String(ehrIdBase + index * 17 + random.int(0, 16)),
      username,
      canFinalize: physician || role === "Nurse Practitioner",
      canCosign: physician,
      roleType: style.roleType,
      active: true,
    });
  }
  return providers;
}

/** Gender as each EHR kind records it. */
const GENDERS: Record<EhrKind, { female: string; male: string; other: string }> = {
  A: { female: "female", male: "male", other: "other" },
  B: { female: "Female", male: "Male", other: "Other" },
};

function phoneNumber(random: Random, kind: EhrKind, state: string): string {
  if (kind === "B") {
    return random.chance(0.7) ? random.pick(AU_FICTIONAL_MOBILES) : `(${AU_AREA_CODES_BY_STATE[state] ?? "02"}) 5550 ${String(random.int(0, 9999)).padStart(4, "0")}`;
  }
  const area = random.pick(US_AREA_CODES_BY_STATE[state] ?? ["212"]);
  return `(${area}) 555-01${String(random.int(0, 99)).padStart(2, "0")}`;
}

export function generatePatients(random: Random, plan: OrganizationPlan, facilities: readonly Facility[], now: number, avatarBaseUrl: string): EhrPatient[] {
  const today = new Date(now).toISOString().slice(0, 10);
  const states = facilities.filter((facility) => facility.isVisible).map((facility) => facility.address.state);
  const genders = GENDERS[plan.kind];
  const mrns = new Set<string>();
  const emails = new Set<string>();
  const mrnBase = random.int(100_000, 900_000);
  const patients: EhrPatient[] = [];
  for (let index = 0; index < plan.patientCount; index++) {
    const sex = random.weighted<"female" | "male" | "other">([
      ["female", 52],
      ["male", 46],
      ["other", 2],
    ]);
    const female = sex === "female" || (sex === "other" && random.chance(0.5));
    const firstName = random.pick(female ? FEMALE_FIRST_NAMES : MALE_FIRST_NAMES);
    const lastName = random.pick(LAST_NAMES);
    const middleName = random.chance(0.35) ? random.pick(female ? FEMALE_MIDDLE_NAMES : MALE_MIDDLE_NAMES) : undefined;
    const age = random.chance(0.08) ? random.int(2, 17) : Math.min(96, 18 + Math.floor(Math.abs(random.float(0, 1) + random.float(0, 1) - 0.6) * 48));
    const dateOfBirth = random.chance(0.03) ? null : addDays(today, -(age * 365 + Math.floor(age / 4) + random.int(0, 364)));
    const mrn = random.chance(0.08)
      ? null
      : uniqueValue(mrns, (attempt) => (plan.kind === "A" ? String(mrnBase + index * 7 + attempt).padStart(8, "0") : `HMG${String(mrnBase + index * 7 + attempt).padStart(7, "0")}`));
    const handle = `${asciiHandle(firstName)}.${asciiHandle(lastName)}`;
    const email = uniqueValue(emails, (attempt) => `${handle}${attempt === 0 ? "" : String(attempt + random.int(1, 89))}@${random.pick(EMAIL_DOMAINS)}`);
    const createdAt = now - random.int(2, 3200) * MS_PER_DAY - random.int(0, 86_399) * 1000;
    const updatedAt = createdAt + Math.floor(random.next() * (now - createdAt));
    const id = random.uuid();
    patients.push({
      id,
      mrn,
      firstName,
      lastName,
      ...(middleName === undefined ? {} : { middleName }),
      gender: random.chance(0.04) ? null : genders[sex],
      dateOfBirth,
      email,
      phone: phoneNumber(random, plan.kind, random.pick(states)),
      createdAt: utcTimestamp(createdAt),
      updatedAt: utcTimestamp(updatedAt),
      avatar: `${avatarBaseUrl}/${id}.svg`,
    });
  }
  return patients;
}
