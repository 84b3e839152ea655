import { ageOn } from "../../seed/format.ts";
import { FEMALE_FIRST_NAMES, MALE_FIRST_NAMES } from "../../seed/names.ts";
import type { Random } from "../../seed/random.ts";
import type { EhrKind, EhrPatient } from "../../world/types.ts";
import { PAYERS } from "./billing-catalog.ts";
import type { InsuranceRecord, PayerRecord } from "./billing-records.ts";

// Each patient's insurance, fixed per patient so that every bill of theirs
// names the same plans: kind A (US) seniors on Medicare Part B, often with a
// supplement; others on a commercial plan or Medicaid; a few uninsured.
// Kind B (Australia) mostly bulk-billed to Medicare, some with private cover
// and veterans on a DVA card.

const MBI_LETTERS = "ACDEFGHJKMNPQRTUVWXY";

/** A Medicare Beneficiary Identifier: 11 characters in the CMS pattern (no S, L, O, I, B, Z). */
function medicareBeneficiaryId(random: Random): string {
  const letter = () => MBI_LETTERS[random.int(0, MBI_LETTERS.length - 1)] ?? "A";
  const alnum = () => (random.chance(0.5) ? letter() : String(random.int(0, 9)));
  const digit = () => String(random.int(0, 9));
  return `${random.int(1, 9)}${letter()}${alnum()}${digit()}${letter()}${alnum()}${digit()}${letter()}${letter()}${digit()}${digit()}`;
}

function memberId(random: Random, kind: EhrKind, payer: PayerRecord): string {
  if (payer.policyType === "Medicare") return medicareBeneficiaryId(random);
  if (kind === "B") return payer.code === "MCA" ? `${random.digits(10)}-${random.int(1, 5)}` : `${payer.code}${random.digits(8)}`;
  return `${payer.code === "MCDNY" ? "CIN" : random.pick(["W", "U", "X", "H"])}${random.digits(9)}`;
}

function entry(random: Random, kind: EhrKind, patient: EhrPatient, payer: PayerRecord, isPrimary: boolean, minor: boolean): InsuranceRecord {
  const id = memberId(random, kind, payer);
  const subscriberFirst = minor ? random.pick(random.chance(0.5) ? FEMALE_FIRST_NAMES : MALE_FIRST_NAMES) : patient.firstName;
  const deductible =
    payer.policyType === "Medicare"
      ? random.chance(0.6)
        ? 0
        : 28_300
      : payer.policyType !== "Medicaid" && payer.policyType !== "Medigap" && kind === "A" && random.chance(0.6)
        ? random.int(1, 60) * 2_500
        : 0;
  return {
    payer,
    memberId: id,
    groupNumber: payer.policyType === "Medicare" || payer.policyType === "Medicaid" || kind === "B" ? "" : `0${random.digits(6)}`,
    policyNumber: kind === "B" ? id : `${id.slice(0, 3)}${random.digits(6)}`,
    subscriberName: `${subscriberFirst} ${patient.lastName}`,
    isPrimary,
    deductibleRemainingCents: deductible,
  };
}

export function generateCoverage(random: Random, kind: EhrKind, patients: readonly EhrPatient[], today: string): Map<string, InsuranceRecord[]> {
  const payers = PAYERS[kind];
  const coverage = new Map<string, InsuranceRecord[]>();
  for (const patient of patients) {
    const age = patient.dateOfBirth === null ? 40 : ageOn(patient.dateOfBirth, today);
    const minor = age < 18;
    const plans: InsuranceRecord[] = [];
    if (kind === "A") {
      if (age >= 65) {
        plans.push(entry(random, kind, patient, payers.senior, true, false));
        if (random.chance(0.6)) plans.push(entry(random, kind, patient, random.pick(payers.supplemental), false, false));
      } else if (!random.chance(0.08)) {
        plans.push(entry(random, kind, patient, random.pick(payers.commercial), true, minor));
        if (random.chance(0.1)) plans.push(entry(random, kind, patient, random.pick(payers.commercial.slice(0, 5)), false, minor));
      }
    } else if (age >= 70 && random.chance(0.2)) {
      plans.push(entry(random, kind, patient, random.pick(payers.supplemental), true, false));
    } else if (random.chance(0.8)) {
      plans.push(entry(random, kind, patient, payers.senior, true, minor));
      if (random.chance(0.3)) plans.push(entry(random, kind, patient, random.pick(payers.commercial), false, minor));
    } else if (random.chance(0.75)) {
      plans.push(entry(random, kind, patient, random.pick(payers.commercial), true, minor));
    }
    // Two plans from the same payer would be one; keep the first.
    const second = plans[1];
    if (second && second.payer.code === plans[0]?.payer.code) plans.pop();
    coverage.set(patient.id, plans);
  }
  return coverage;
}

/** A workers' compensation claim is billed to the employer's carrier alone. */
export function workersCompensationCoverage(random: Random, kind: EhrKind, patient: EhrPatient): InsuranceRecord[] {
  return [entry(random, kind, patient, PAYERS[kind].workersCompensation, true, false)];
}
