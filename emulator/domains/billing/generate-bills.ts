import type { BillIntegrationStatus, BillingType } from "#contract/clinic-api/billing.ts";
import { DIAGNOSES, emCode, PROCEDURES } from "../../seed/clinical-catalog.ts";
import { MS_PER_MINUTE, utcTimestamp } from "../../seed/format.ts";
import type { Random } from "../../seed/random.ts";
import type { EhrKind, EhrProvider } from "../../world/types.ts";
import { cliaNumberFor, CODE_REVISION, isHcpcs, MODIFIER_NAMES, NDC_BY_CODE } from "./billing-catalog.ts";
import type { BillRecord, CodingGroupRecord, DiagnosisRecord, InsuranceRecord, LineItemRecord } from "./billing-records.ts";
import { workersCompensationCoverage } from "./generate-coverage.ts";
import { daysSince, type Encounter } from "./generate-encounters.ts";

// One bill per billed visit: the coding group the clinician finalised
// (diagnoses, the E/M line with its modifiers, the scenario's procedures with
// units, linked diagnoses and NDCs), who is billed, and where the bill stands
// in the EHR's billing workflow. Claims and remits settle balances later.

/** The clinic's fee schedule: a multiple of the reference (Medicare-style) price, whole dollars. */
const FEE_MULTIPLIER: Readonly<Record<EhrKind, number>> = { A: 2.1, B: 1.6 };
const MAX_DIAGNOSES = 12;

export interface BillContext {
  kind: EhrKind;
  organizationIndex: number;
  coverage: ReadonlyMap<string, InsuranceRecord[]>;
  /** Who a nurse practitioner's visit may be billed under (incident-to, kind A). */
  physicians: readonly EhrProvider[];
  now: number;
}

function codingGroup(random: Random, context: BillContext, encounter: Encounter, createdMs: number, finalizedMs: number, finalized: boolean): CodingGroupRecord {
  const { scenario } = encounter;
  const telehealth = encounter.typeKey === "telehealth";
  // A video visit bills no hands-on procedures.
  const procedures = telehealth ? [] : scenario.procedures;
  const dxCodes = [...new Set([...scenario.impressions.flatMap((impression) => impression.dx), ...procedures.flatMap((procedure) => procedure.dx)])].slice(0, MAX_DIAGNOSES);
  const diagnoses: DiagnosisRecord[] = dxCodes.map((code, index) => ({
    id: random.uuid(),
    code,
    description: DIAGNOSES[code]?.description ?? code,
    position: index + 1,
    codeRevision: CODE_REVISION[context.kind],
  }));
  const positionOf = new Map(diagnoses.map((diagnosis) => [diagnosis.code, diagnosis.position]));
  const linked = (codes: readonly string[]) =>
    codes.slice(0, 4).flatMap((code) => {
      const position = positionOf.get(code);
      return position === undefined ? [] : [{ code, description: DIAGNOSES[code]?.description ?? code, position }];
    });
  const separateProcedure = procedures.some((procedure) => /^1[01]\d{3}$|^17\d{3}$/.test(procedure.code));
  const em = emCode(scenario.emLevel, encounter.isNewPatient, encounter.age);
  const specs = [
    { code: em, modifiers: [...(separateProcedure ? ["25"] : []), ...(telehealth ? ["95"] : [])], units: 1, dx: scenario.impressions.flatMap((impression) => impression.dx) },
    ...procedures.map((procedure) => ({ code: procedure.code, modifiers: [...procedure.modifiers], units: procedure.units, dx: [...procedure.dx] })),
  ];
  const lineItems: LineItemRecord[] = specs.map((spec, index) => {
    const reference = Math.round((PROCEDURES[spec.code]?.unitPrice ?? 50) * 100);
    const charge = Math.max(100, Math.round((reference * FEE_MULTIPLIER[context.kind]) / 100) * 100);
    const ndc = NDC_BY_CODE[spec.code];
    return {
      id: random.uuid(),
      code: spec.code,
      codeType: isHcpcs(spec.code) ? "HCPCS" : "CPT",
      description: PROCEDURES[spec.code]?.description ?? spec.code,
      units: spec.units,
      chargeCents: charge,
      balanceCents: charge * spec.units,
      modifiers: spec.modifiers.map((code) => ({ code, name: MODIFIER_NAMES[code] ?? code })),
      position: index + 1,
      linkedDiagnoses: linked(spec.dx),
      ndcCode: ndc?.ndcCode ?? "",
      ndcQualifier: ndc?.ndcQualifier ?? "",
      ndcQuantity: ndc?.ndcQuantity ?? "",
      ndcProcedureDescription: ndc?.description ?? "",
      referenceCents: reference,
    };
  });
  return {
    id: random.uuid(),
    status: finalized ? "finalized" : "in_progress",
    createdAt: utcTimestamp(createdMs),
    updatedAt: utcTimestamp(finalizedMs),
    diagnoses,
    lineItems,
  };
}

function billingTypeOf(random: Random, encounter: Encounter, coverage: readonly InsuranceRecord[]): { billingType: BillingType; isCosmetic: boolean } {
  const removesBenignLesions = encounter.scenario.procedures.some((procedure) => procedure.code === "17110");
  if (removesBenignLesions && encounter.typeKey !== "telehealth" && random.chance(0.5)) return { billingType: "self_pay", isCosmetic: true };
  if (encounter.scenario.key === "low-back-pain" && encounter.age >= 18 && encounter.age < 67 && random.chance(0.3)) return { billingType: "workers_compensation", isCosmetic: false };
  return { billingType: coverage.length === 0 ? "self_pay" : "insurance", isCosmetic: false };
}

/** Where a bill stands before any claim is answered; remits move insurance bills on to `paid` or `closed`. */
function initialStatus(random: Random, encounter: Encounter, billingType: BillingType, now: number): BillIntegrationStatus {
  const days = daysSince(encounter, now);
  if (billingType === "self_pay") {
    if (days <= 1) return random.chance(0.5) ? "draft" : "ready";
    // Paid at the desk, or a statement still to send.
    if (!encounter.historical) return random.chance(0.5) ? "closed" : "ready";
    return random.chance(0.8) ? "closed" : "submitted";
  }
  if (days <= 1) return random.chance(0.5) ? "draft" : "ready";
  if (days <= 3) return random.weighted([["draft", 10], ["ready", 40], ["submitted", 50]] as const);
  if (!encounter.historical) return random.chance(0.15) ? "ready" : "submitted";
  return "submitted";
}

export function generateBill(random: Random, context: BillContext, encounter: Encounter, index: number): BillRecord {
  const { now } = context;
  const coverage = context.coverage.get(encounter.patient.id) ?? [];
  const { billingType, isCosmetic } = billingTypeOf(random, encounter, coverage);
  const insurance = billingType === "workers_compensation" ? workersCompensationCoverage(random, context.kind, encounter.patient) : billingType === "insurance" ? coverage : [];
  const status = initialStatus(random, encounter, billingType, now);
  const createdMs = Math.min(now - MS_PER_MINUTE, encounter.endMs + random.int(5, 90) * MS_PER_MINUTE);
  const finalizedMs = status === "draft" ? createdMs : Math.min(now - MS_PER_MINUTE, createdMs + random.int(10, 2 * 24 * 60) * MS_PER_MINUTE);
  const group = codingGroup(random, context, encounter, createdMs, finalizedMs, status !== "draft");
  // A no-charge visit (inside a global surgical period) is kept but never billed.
  const isBillable = !(encounter.historical && random.chance(0.03));
  if (!isBillable || (status === "closed" && billingType === "self_pay")) for (const item of group.lineItems) item.balanceCents = 0;
  const incidentTo = context.kind === "A" && encounter.provider.roles.includes("Nurse Practitioner") && context.physicians.length > 0 && random.chance(0.3);
  const billUnder = incidentTo ? random.pick(context.physicians) : encounter.provider;
  return {
    id: random.uuid(),
    humanId: context.kind === "A" ? `B-${String(104_000 + index * 3 + random.int(0, 2))}` : `INV-${String(20_500 + index * 2 + random.int(0, 1)).padStart(6, "0")}`,
    dateOfService: encounter.dateOfService,
    billingType,
    integrationStatus: isBillable ? status : "closed",
    isCosmetic,
    isBillable,
    virtualEncounter: encounter.typeKey === "telehealth",
    isEmCodingEnabled: context.kind === "A" ? true : random.chance(0.7),
    patientId: encounter.patient.id,
    primaryProviderId: encounter.provider.id,
    billUnderProviderId: billUnder.id,
    facilityId: encounter.facility.id,
    cliaNumber: cliaNumberFor(context.kind, context.organizationIndex),
    codingGroups: [group],
    insurance,
    createdAt: utcTimestamp(createdMs),
    updatedAt: utcTimestamp(finalizedMs),
    archived: false,
    awaitingSync: false,
  };
}
