import type { BillingType, BillIntegrationStatus } from "#contract/clinic-api/billing.ts";

// What the emulated service holds for billing, per organization: bills with
// their coding, claims on them, and ERA remits with their ERA claims and
// service lines. Amounts are integer cents; ids are raw UUIDs except the
// composite keys of unposted ERA rows. The routes render these in the wire
// shapes of contract/clinic-api/billing.ts.

export interface DiagnosisRecord {
  id: string;
  code: string;
  description: string;
  position: number;
  codeRevision: string;
}

export interface LineItemRecord {
  id: string;
  code: string;
  codeType: string;
  description: string;
  units: number;
  chargeCents: number;
  balanceCents: number;
  modifiers: { code: string; name: string }[];
  position: number;
  linkedDiagnoses: { code: string; description: string; position: number }[];
  ndcCode: string;
  ndcQualifier: string;
  ndcQuantity: string;
  ndcProcedureDescription: string;
  /** Medicare-style reference price of the code, the base of each payer's allowed amount. */
  referenceCents: number;
}

export interface CodingGroupRecord {
  id: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  diagnoses: DiagnosisRecord[];
  lineItems: LineItemRecord[];
}

export interface PayerRecord {
  name: string;
  code: string;
  planName: string;
  policyType: string;
  /** What this payer allows, as a share of the reference price. */
  allowedFactor: number;
  copayCents: number;
  coinsurance: number;
}

export interface InsuranceRecord {
  payer: PayerRecord;
  memberId: string;
  groupNumber: string;
  policyNumber: string;
  subscriberName: string;
  isPrimary: boolean;
  deductibleRemainingCents: number;
}

export interface BillRecord {
  id: string;
  humanId: string;
  dateOfService: string;
  billingType: BillingType;
  integrationStatus: BillIntegrationStatus;
  isCosmetic: boolean;
  isBillable: boolean;
  virtualEncounter: boolean;
  isEmCodingEnabled: boolean;
  patientId: string;
  primaryProviderId: string;
  billUnderProviderId: string;
  facilityId: string;
  cliaNumber: string;
  codingGroups: CodingGroupRecord[];
  insurance: InsuranceRecord[];
  createdAt: string;
  updatedAt: string;
  /** Archived bills are never returned (seed 000 ERA rule 7). */
  archived: boolean;
  /** Held by the EHR but not yet brought over by a sync: invisible until the next one (ERA rule 7, "not synced yet"). */
  awaitingSync: boolean;
}

export interface ClaimRecord {
  id: string;
  /** Null: the claim has no bill link (ERA rule 7). */
  billId: string | null;
  /** CLM01 as sent, echoed by the payer as CLP01. */
  controlNumber: string;
  payerPosition: number;
  claimStatus: string;
  submittedDate: string;
  claimCreatedDate: string;
  dateOfService: string;
  claimAmountCents: number;
  balanceCents: number;
  patientId: string;
  primaryProviderId: string;
  billUnderProviderId: string;
  facilityId: string;
  cliaNumber: string;
  /** The bill's coding, copied when the claim was created (a claim without a bill link has its own). */
  codingGroups: CodingGroupRecord[];
  insurance: InsuranceRecord[];
  createdAt: string;
  updatedAt: string;
  archived: boolean;
}

export interface EraAdjustmentRecord {
  /** CAS01: CO, PR, OA, PI, CR. */
  groupCode: string;
  /** CAS02, a claim adjustment reason code. */
  reasonCode: string;
  amountCents: number;
}

export interface EraLineRecord {
  id: string;
  lineNumber: number;
  /** The claim's line item this line pays, when the ERA claim was matched. */
  lineItemId: string | null;
  procedureCode: string;
  modifiers: string[];
  units: number;
  chargeCents: number;
  allowedCents: number;
  paidCents: number;
  /** DTM*472; absent on some remits (ERA rule 4). */
  serviceDate: string | null;
  adjustments: EraAdjustmentRecord[];
  /** Epoch ms. The `updatedSince` cursor follows it; linkage changes leave it alone (ERA rule 6). */
  updatedAt: number;
}

export interface EraClaimRecord {
  id: string;
  /** CLP01, or null when the remit carried none. */
  eraClaimControlNumber: string | null;
  /** CLP07. */
  payerClaimControlNumber: string | null;
  /** CLP02, verbatim. */
  claimStatusCode: string;
  /** The claim the EHR matched this ERA claim to; the join drops it when that claim is archived. */
  matchedClaimId: string | null;
  /**
   * The ERA claim's own patient key (ERA rule 8): on kind A taken from the
   * remittance, on kind B learned through the matched claim.
   */
  patientKey: string | null;
  /** Kind B: the next sync reads the claim back without a patient reference and the key is lost. */
  losesPatientOnNextSync: boolean;
  lines: EraLineRecord[];
}

export interface RemitRecord {
  id: string;
  payerName: string;
  payerCode: string;
  /** TRN02: the check or EFT trace number. */
  traceNumber: string;
  paymentDate: string;
  receivedAt: string;
  status: "unposted" | "posted";
  postedAt: string | null;
  eraClaims: EraClaimRecord[];
}

/** Where the seed placed the cases of the ERA rules: the sandbox guide and the tests find them by these. */
export interface SeededEraCases {
  reversedClaimId?: string;
  archivedClaimId?: string;
  legacyClaimId?: string;
  awaitingSyncBillId?: string;
  archivedBillId?: string;
  takeBackClaimId?: string;
  losesPatientEraClaimControlNumber?: string;
}

export interface BillingOrgData {
  organizationId: string;
  kind: "A" | "B";
  bills: BillRecord[];
  claims: ClaimRecord[];
  remits: RemitRecord[];
  cases: SeededEraCases;
}
