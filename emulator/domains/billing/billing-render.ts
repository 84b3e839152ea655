import * as z from "zod/mini";
import {
  bill as billSchema,
  billDetail,
  claimCodingGroupV2,
  claimV1,
  claimV2,
  codingGroup as codingGroupSchema,
  eraServiceLine,
  type Bill,
  type BillDetail,
  type ClaimV1,
  type ClaimV2,
  type EraServiceLine,
} from "#contract/clinic-api/billing.ts";
import type { Facility } from "#contract/clinic-api/people.ts";
import type { EhrOrganization, EhrPatient, EhrProvider } from "../../world/types.ts";
import type { BillRecord, ClaimRecord, CodingGroupRecord, InsuranceRecord, LineItemRecord } from "./billing-records.ts";
import { formatCents } from "./money.ts";
import type { JoinedLine, OrgBilling } from "./org-billing.ts";

// Wire shapes of seed 000 "Bill", "Coding group", "Claim" and "ERA service
// line" from the records. Names of patients, providers and facilities are
// read from the EHR at render time; money is formatted from cents.

export interface People {
  patients: ReadonlyMap<string, EhrPatient>;
  providers: ReadonlyMap<string, EhrProvider>;
  facilities: ReadonlyMap<string, Facility>;
}

export function peopleOf(org: EhrOrganization): People {
  return {
    patients: new Map(org.patients.map((patient) => [patient.id, patient])),
    providers: new Map(org.providers.map((provider) => [provider.id, provider])),
    facilities: new Map(org.facilities.map((facility) => [facility.id, facility])),
  };
}

const displayName = (provider: EhrProvider | undefined): string => (provider ? `${provider.displayFirstName} ${provider.displayLastName}`.trim() : "");

function lineItem(item: LineItemRecord) {
  return {
    id: item.id,
    code: item.code,
    codeType: item.codeType,
    description: item.description,
    units: String(item.units),
    charge: formatCents(item.chargeCents),
    totalCharge: formatCents(item.chargeCents * item.units),
    balance: formatCents(item.balanceCents),
    modifiers: item.modifiers.map((modifier) => ({ ...modifier })),
    position: item.position,
    linkedDiagnoses: item.linkedDiagnoses.map((entry) => ({ ...entry })),
    ndcCode: item.ndcCode,
    ndcQualifier: item.ndcQualifier,
    ndcQuantity: item.ndcQuantity,
  };
}

function codingGroupFields(group: CodingGroupRecord) {
  return { id: group.id, status: group.status, createdAt: group.createdAt, updatedAt: group.updatedAt, diagnoses: group.diagnoses.map((diagnosis) => ({ ...diagnosis })) };
}

/** Who the bill or claim is about, as both give it. */
function parties(record: BillRecord | ClaimRecord, people: People) {
  const patient = people.patients.get(record.patientId);
  const facility = people.facilities.get(record.facilityId);
  return {
    patientId: record.patientId,
    patientFirstName: patient?.firstName ?? "",
    patientLastName: patient?.lastName ?? "",
    patientDob: patient?.dateOfBirth ?? "",
    primaryProviderName: displayName(people.providers.get(record.primaryProviderId)),
    billUnderName: displayName(people.providers.get(record.billUnderProviderId)),
    facilityId: record.facilityId,
    facilityName: facility?.name ?? "",
    specialty: facility?.specialty ?? "",
    primaryInsurance: record.insurance[0]?.payer.name ?? null,
    secondaryInsurance: record.insurance[1]?.payer.name ?? null,
  };
}

function billFields(record: BillRecord, people: People) {
  return {
    id: record.id,
    dateOfService: record.dateOfService,
    billingType: record.billingType,
    isCosmetic: record.isCosmetic,
    isBillable: record.isBillable,
    virtualEncounter: record.virtualEncounter,
    isEmCodingEnabled: record.isEmCodingEnabled,
    ...parties(record, people),
    codingGroups: record.codingGroups.map((group) => z.parse(codingGroupSchema, { ...codingGroupFields(group), lineItems: group.lineItems.map(lineItem) })),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

export function renderBill(record: BillRecord, people: People): Bill {
  return z.parse(billSchema, billFields(record, people));
}

/** `GET /v1/bills/{id}` adds the single-bill fields; a patient without an MRN or a recorded gender gives "". */
export function renderBillDetail(record: BillRecord, people: People): BillDetail {
  const patient = people.patients.get(record.patientId);
  const primary = people.providers.get(record.primaryProviderId);
  const billUnder = people.providers.get(record.billUnderProviderId);
  return z.parse(billDetail, {
    ...billFields(record, people),
    cliaNumber: record.cliaNumber,
    patientMrn: patient?.mrn ?? "",
    patientGender: patient?.gender ?? "",
    primaryProviderId: record.primaryProviderId,
    primaryProviderFirstName: primary?.firstName ?? "",
    primaryProviderLastName: primary?.lastName ?? "",
    billUnderProviderId: record.billUnderProviderId,
    billUnderProviderFirstName: billUnder?.firstName ?? "",
    billUnderProviderLastName: billUnder?.lastName ?? "",
  });
}

function insuranceEntry(entry: InsuranceRecord) {
  return {
    payerName: entry.payer.name,
    planName: entry.payer.planName,
    policyType: entry.payer.policyType,
    memberId: entry.memberId,
    groupNumber: entry.groupNumber,
    policyNumber: entry.policyNumber,
    subscriberName: entry.subscriberName,
    isPrimary: entry.isPrimary,
    copayAmount: formatCents(entry.payer.copayCents),
    deductibleRemaining: formatCents(entry.deductibleRemainingCents),
  };
}

/** A claim without a bill link answers `billId` and `billHumanId` as "" (seed 000 types them as strings, never null). */
function claimFields(record: ClaimRecord, billing: OrgBilling, people: People) {
  const bill = record.billId === null ? undefined : billing.bill(record.billId);
  return {
    id: record.id,
    claimAmount: formatCents(record.claimAmountCents),
    balance: formatCents(record.balanceCents),
    claimStatus: record.claimStatus,
    submittedDate: record.submittedDate,
    claimCreatedDate: record.claimCreatedDate,
    dateOfService: record.dateOfService,
    billId: record.billId ?? "",
    billHumanId: bill?.humanId ?? "",
    ...parties(record, people),
    primaryProviderId: record.primaryProviderId,
    billUnderId: record.billUnderProviderId,
    cliaNumber: record.cliaNumber,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

export function renderClaimV1(record: ClaimRecord, billing: OrgBilling, people: People): ClaimV1 {
  return z.parse(claimV1, { ...claimFields(record, billing, people), insurance: record.insurance.map(insuranceEntry) });
}

/**
 * v2 adds the payer the claim went to (`payerPosition` 1 primary, 2
 * secondary), a deep link into the EHR, and per line what posted remits paid
 * and allowed (reversals net out; unposted remits count for nothing yet).
 */
export function renderClaimV2(record: ClaimRecord, billing: OrgBilling, people: People, deepLinkUrl: string): ClaimV2 {
  const paid = new Map<string, { paid: number; allowed: number }>();
  for (const { remit, eraClaim, line } of billing.lineEntries()) {
    if (remit.status !== "posted" || eraClaim.matchedClaimId !== record.id || line.lineItemId === null) continue;
    const sum = paid.get(line.lineItemId) ?? { paid: 0, allowed: 0 };
    paid.set(line.lineItemId, { paid: sum.paid + line.paidCents, allowed: sum.allowed + line.allowedCents });
  }
  const payer = record.insurance[record.payerPosition - 1]?.payer;
  return z.parse(claimV2, {
    ...claimFields(record, billing, people),
    insurance: record.insurance.map((entry) => ({ ...insuranceEntry(entry), payerCode: entry.payer.code })),
    payerName: payer?.name ?? "",
    payerCode: payer?.code ?? "",
    payerPosition: record.payerPosition,
    deepLinkUrl,
    codingGroups: record.codingGroups.map((group) =>
      z.parse(claimCodingGroupV2, {
        ...codingGroupFields(group),
        lineItems: group.lineItems.map((item) => ({
          ...lineItem(item),
          paidAmount: formatCents(paid.get(item.id)?.paid ?? 0),
          allowedAmount: formatCents(paid.get(item.id)?.allowed ?? 0),
          ndcProcedureDescription: item.ndcProcedureDescription,
        })),
      }),
    ),
  });
}

/** An ERA service line with its adjustments; `serviceDate` is left out when the remit carried none. */
export function renderEraLine(joined: JoinedLine): EraServiceLine {
  const { eraClaim, line } = joined;
  return z.parse(eraServiceLine, {
    id: line.id,
    eraClaimId: eraClaim.id,
    claimId: joined.claimId,
    billId: joined.billId,
    patientId: joined.patientId,
    eraClaimControlNumber: eraClaim.eraClaimControlNumber,
    payerClaimControlNumber: eraClaim.payerClaimControlNumber,
    claimStatusCode: eraClaim.claimStatusCode,
    paidAmount: formatCents(line.paidCents),
    ...(line.serviceDate === null ? {} : { serviceDate: line.serviceDate }),
    updatedAt: new Date(line.updatedAt).toISOString(),
    adjustments: line.adjustments.map((entry) => ({ groupCode: entry.groupCode, reasonCode: entry.reasonCode, amount: formatCents(entry.amountCents) })),
    procedureCode: line.procedureCode,
    modifiers: [...line.modifiers],
    units: String(line.units),
    chargeAmount: formatCents(line.chargeCents),
  });
}
