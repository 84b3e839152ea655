// Facilities of one organization, from its plan.
import type { Facility } from "#contract/clinic-api/people.ts";
import { MS_PER_DAY, utcTimestamp } from "./format.ts";
import { LOCALITIES } from "./names.ts";
import { npiFromBody } from "./npi.ts";
import type { OrganizationPlan } from "./organization-plans.ts";
import type { Random } from "./random.ts";

function facilityAddress(random: Random, plan: OrganizationPlan["facilities"][number]): Facility["address"] {
  const locality = LOCALITIES.find((candidate) => candidate.city === plan.city);
  if (locality === undefined) throw new Error(`no streets for ${plan.city}`);
  return {
    line1: `${random.int(1, 2400)} ${random.pick(locality.streets)}`,
    line2: random.chance(0.5) ? `Suite ${random.int(1, 9)}${random.pick(["00", "10", "20", "A", "B"])}` : "",
    city: plan.city,
    state: locality.state,
    zipcode: plan.zipcode,
  };
}

export function generateFacilities(random: Random, plan: OrganizationPlan, now: number): Facility[] {
  // One organization NPI (type 2) for the group, as a billing entity has.
  const organizationNpi = npiFromBody(`2${random.digits(8)}`);
  return plan.facilities.map((facilityPlan) => {
    const createdAt = now - random.int(700, 3000) * MS_PER_DAY - random.int(0, 86_399) * 1000;
    const updatedAt = Math.min(now - random.int(1, 60) * MS_PER_DAY, createdAt + random.int(30, 2000) * MS_PER_DAY);
    return {
      id: random.uuid(),
      name: facilityPlan.name,
      timezone: facilityPlan.timezone,
      address: facilityAddress(random, facilityPlan),
      specialty: facilityPlan.specialty,
      isVisible: facilityPlan.isVisible,
      organizationNpi,
      createdAt: utcTimestamp(createdAt),
      updatedAt: utcTimestamp(Math.max(updatedAt, createdAt)),
    };
  });
}
