import * as z from "zod/mini";
import { localDate, money, rawUuid, utcTimestamp } from "./primitives.ts";

// Seed 000 "Bill", "Coding group", "Claim", "ERA service line".

const diagnosis = z.object({ id: z.string(), code: z.string(), description: z.string(), position: z.int(), codeRevision: z.string() });

const lineItemFields = {
  id: z.string(),
  code: z.string(),
  codeType: z.string(),
  description: z.string(),
  units: z.string(),
  charge: money,
  totalCharge: money,
  balance: money,
  modifiers: z.array(z.object({ code: z.string(), name: z.string() })),
  position: z.int(),
  linkedDiagnoses: z.array(z.object({ code: z.string(), description: z.string(), position: z.int() })),
  ndcCode: z.string(),
  ndcQualifier: z.string(),
  ndcQuantity: z.string(),
};
export const lineItem = z.object(lineItemFields);
/** The v2 claim response adds paid and allowed amounts and the NDC description. */
export const claimLineItemV2 = z.object({ ...lineItemFields, paidAmount: money, allowedAmount: money, ndcProcedureDescription: z.string() });

const codingGroupFields = { id: z.string(), status: z.string(), createdAt: utcTimestamp, updatedAt: utcTimestamp, diagnoses: z.array(diagnosis) };
export const codingGroup = z.object({ ...codingGroupFields, lineItems: z.array(lineItem) });
export const claimCodingGroupV2 = z.object({ ...codingGroupFields, lineItems: z.array(claimLineItemV2) });
export type CodingGroup = z.infer<typeof codingGroup>;

/**
 * Values of the `GET /v1/bills` filters, which seed 001 leaves open
 * (assumed; docs/assumed-contracts.md). `integrationStatus` is where the bill
 * stands in the EHR's billing workflow; it is a filter, not a bill field.
 */
export const BILL_INTEGRATION_STATUSES = ["draft", "ready", "submitted", "paid", "closed"] as const;
export type BillIntegrationStatus = (typeof BILL_INTEGRATION_STATUSES)[number];
export const BILLING_TYPES = ["insurance", "self_pay", "workers_compensation"] as const;
export type BillingType = (typeof BILLING_TYPES)[number];

const billFields = {
  id: rawUuid,
  dateOfService: localDate,
  billingType: z.string(),
  isCosmetic: z.boolean(),
  isBillable: z.boolean(),
  virtualEncounter: z.boolean(),
  isEmCodingEnabled: z.boolean(),
  patientId: z.string(),
  patientFirstName: z.string(),
  patientLastName: z.string(),
  patientDob: z.string(),
  primaryProviderName: z.string(),
  billUnderName: z.string(),
  facilityId: z.string(),
  facilityName: z.string(),
  specialty: z.string(),
  codingGroups: z.array(codingGroup),
  primaryInsurance: z.nullable(z.string()),
  secondaryInsurance: z.nullable(z.string()),
  createdAt: utcTimestamp,
  updatedAt: utcTimestamp,
};
export const bill = z.object(billFields);
export type Bill = z.infer<typeof bill>;

/** `GET /v1/bills/{id}` adds the single-bill fields. */
export const billDetail = z.object({
  ...billFields,
  cliaNumber: z.string(),
  patientMrn: z.string(),
  patientGender: z.string(),
  primaryProviderId: z.string(),
  primaryProviderFirstName: z.string(),
  primaryProviderLastName: z.string(),
  billUnderProviderId: z.string(),
  billUnderProviderFirstName: z.string(),
  billUnderProviderLastName: z.string(),
});
export type BillDetail = z.infer<typeof billDetail>;

const insuranceFields = {
  payerName: z.string(),
  planName: z.string(),
  policyType: z.string(),
  memberId: z.string(),
  groupNumber: z.string(),
  policyNumber: z.string(),
  subscriberName: z.string(),
  isPrimary: z.boolean(),
  copayAmount: money,
  deductibleRemaining: money,
};

const claimFields = {
  id: rawUuid,
  claimAmount: money,
  balance: money,
  claimStatus: z.string(),
  submittedDate: localDate,
  claimCreatedDate: localDate,
  dateOfService: localDate,
  billId: z.string(),
  billHumanId: z.string(),
  patientId: z.string(),
  patientFirstName: z.string(),
  patientLastName: z.string(),
  patientDob: z.string(),
  primaryProviderName: z.string(),
  billUnderName: z.string(),
  primaryProviderId: z.string(),
  billUnderId: z.string(),
  facilityId: z.string(),
  facilityName: z.string(),
  specialty: z.string(),
  primaryInsurance: z.nullable(z.string()),
  secondaryInsurance: z.nullable(z.string()),
  cliaNumber: z.string(),
  createdAt: utcTimestamp,
  updatedAt: utcTimestamp,
};
export const claimV1 = z.object({ ...claimFields, insurance: z.array(z.object(insuranceFields)) });
export const claimV2 = z.object({
  ...claimFields,
  insurance: z.array(z.object({ ...insuranceFields, payerCode: z.string() })),
  payerName: z.string(),
  payerCode: z.string(),
  payerPosition: z.int(),
  deepLinkUrl: z.string(),
  codingGroups: z.array(claimCodingGroupV2),
});
export type ClaimV1 = z.infer<typeof claimV1>;
export type ClaimV2 = z.infer<typeof claimV2>;

/**
 * An ERA adjustment (835 CAS): the seeds show no fields; assumed. `groupCode`
 * is CAS01 (`CO`, `PR`, `OA`, `PI`, `CR`), `reasonCode` a claim adjustment
 * reason code (`45`, `1`, `2`, `3`, `23`, …), `amount` a money string
 * (negative on a reversal). Open: unknown fields pass through.
 */
export const eraAdjustment = z.looseObject({ groupCode: z.string(), reasonCode: z.string(), amount: money });
export type EraAdjustment = z.infer<typeof eraAdjustment>;

/**
 * Seed 000 "ERA service line". `paidAmount`, `serviceDate` (may be absent),
 * `updatedAt` and the adjustments are named without shapes: their types here
 * are assumed (money string, date, timestamp, `eraAdjustment`) and the line
 * passes unknown fields through. `procedureCode`, `modifiers`, `units` and
 * `chargeAmount` (835 SVC) are this project's assumption, optional.
 */
export const eraServiceLine = z.looseObject({
  id: z.string(),
  eraClaimId: z.string(),
  claimId: z.nullable(z.string()),
  billId: z.nullable(z.string()),
  patientId: z.nullable(z.string()),
  eraClaimControlNumber: z.nullable(z.string()),
  payerClaimControlNumber: z.nullable(z.string()),
  /** 835 CLP02, verbatim; `22` is a reversal (rule 9). The value space is open. */
  claimStatusCode: z.string(),
  paidAmount: money,
  serviceDate: z.optional(localDate),
  updatedAt: utcTimestamp,
  adjustments: z.optional(z.array(eraAdjustment)),
  procedureCode: z.optional(z.string()),
  modifiers: z.optional(z.array(z.string())),
  units: z.optional(z.string()),
  chargeAmount: z.optional(money),
});
export type EraServiceLine = z.infer<typeof eraServiceLine>;

/** ERA rule 9: branch on the status code, never on the sign of `paidAmount`. */
export const ERA_REVERSAL_STATUS_CODE = "22";
