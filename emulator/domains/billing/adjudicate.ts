import type { ClaimRecord, EraAdjustmentRecord, EraLineRecord, PayerRecord } from "./billing-records.ts";
import { shareOf } from "./money.ts";

// How a payer answers a claim, line by line, as an 835 reports it: charge,
// allowed, paid, and the CAS adjustments that explain the difference. Every
// line balances: charge - paid = the sum of its adjustments.

/** A service line before it is given an id, a number and a timestamp. */
export type LineDraft = Omit<EraLineRecord, "id" | "lineNumber" | "updatedAt">;

/** Medicare's 2 % sequestration (CARC 253) on the payment. */
const SEQUESTRATION = 0.02;

const adjustment = (groupCode: string, reasonCode: string, amountCents: number): EraAdjustmentRecord[] => (amountCents === 0 ? [] : [{ groupCode, reasonCode, amountCents }]);

function items(claim: ClaimRecord) {
  return claim.codingGroups.flatMap((group) => group.lineItems);
}

export interface PrimaryAnswer {
  lines: LineDraft[];
  /** Patient responsibility per line item (deductible, coinsurance, copay): what the secondary payer or the patient owes. */
  patientShare: Map<string, number>;
}

/** The primary payer pays the allowed amount less the patient's share (copay on the first line, deductible, coinsurance). */
export function payPrimary(claim: ClaimRecord, payer: PayerRecord, deductibleCents: number, serviceDate: string | null, repricing = 1): PrimaryAnswer {
  let deductibleLeft = deductibleCents;
  const patientShare = new Map<string, number>();
  const lines = items(claim).map((item, index): LineDraft => {
    const charge = item.chargeCents * item.units;
    const allowed = Math.min(charge, Math.round(item.referenceCents * item.units * payer.allowedFactor * repricing));
    const copay = index === 0 ? Math.min(payer.copayCents, allowed) : 0;
    const deductible = Math.min(deductibleLeft, allowed - copay);
    deductibleLeft -= deductible;
    const coinsurance = shareOf(allowed - copay - deductible, payer.coinsurance);
    const owedByPayer = allowed - copay - deductible - coinsurance;
    const sequestration = payer.policyType === "Medicare" ? shareOf(owedByPayer, SEQUESTRATION) : 0;
    patientShare.set(item.id, copay + deductible + coinsurance);
    return {
      lineItemId: item.id,
      procedureCode: item.code,
      modifiers: item.modifiers.map((modifier) => modifier.code),
      units: item.units,
      chargeCents: charge,
      allowedCents: allowed,
      paidCents: owedByPayer - sequestration,
      serviceDate,
      adjustments: [
        ...adjustment("CO", "45", charge - allowed),
        ...adjustment("PR", "3", copay),
        ...adjustment("PR", "1", deductible),
        ...adjustment("PR", "2", coinsurance),
        ...adjustment("CO", "253", sequestration),
      ],
    };
  });
  return { lines, patientShare };
}

/** A denial: nothing allowed, the whole charge adjusted with the payer's reason. */
export function deny(claim: ClaimRecord, reasonCode: string, serviceDate: string | null): LineDraft[] {
  return items(claim).map((item) => {
    const charge = item.chargeCents * item.units;
    return {
      lineItemId: item.id,
      procedureCode: item.code,
      modifiers: item.modifiers.map((modifier) => modifier.code),
      units: item.units,
      chargeCents: charge,
      allowedCents: 0,
      paidCents: 0,
      serviceDate,
      adjustments: adjustment("CO", reasonCode, charge),
    };
  });
}

/** The secondary payer pays (a share of) what the primary left to the patient; the rest of the charge is the primary's doing (OA 23). */
export function paySecondary(claim: ClaimRecord, primaryShare: ReadonlyMap<string, number>, coveredShare: number, serviceDate: string | null): LineDraft[] {
  return items(claim).map((item) => {
    const charge = item.chargeCents * item.units;
    const owed = primaryShare.get(item.id) ?? 0;
    const paid = shareOf(owed, coveredShare);
    return {
      lineItemId: item.id,
      procedureCode: item.code,
      modifiers: item.modifiers.map((modifier) => modifier.code),
      units: item.units,
      chargeCents: charge,
      allowedCents: owed,
      paidCents: paid,
      serviceDate,
      adjustments: [...adjustment("OA", "23", charge - owed), ...adjustment("PR", "2", owed - paid)],
    };
  });
}

/** CLP02 22: the payer takes back a previous payment in full: every amount negated. */
export function reverse(lines: readonly LineDraft[]): LineDraft[] {
  return lines.map((line) => ({
    ...line,
    modifiers: [...line.modifiers],
    chargeCents: -line.chargeCents,
    allowedCents: -line.allowedCents,
    paidCents: -line.paidCents,
    adjustments: line.adjustments.map((entry) => ({ ...entry, amountCents: -entry.amountCents })),
  }));
}

/**
 * A take-back that is not a reversal: on a later remit the payer recoups part
 * of what it paid on a line (CARC B13, previously paid), so the line's
 * payment is negative while the claim status stays "processed".
 */
export function takeBack(line: LineDraft, amountCents: number, serviceDate: string | null): LineDraft {
  return {
    lineItemId: line.lineItemId,
    procedureCode: line.procedureCode,
    modifiers: [...line.modifiers],
    units: line.units,
    chargeCents: 0,
    allowedCents: 0,
    paidCents: -amountCents,
    serviceDate,
    adjustments: adjustment("CO", "B13", amountCents),
  };
}
