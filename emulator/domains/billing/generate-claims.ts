import { MS_PER_DAY, MS_PER_MINUTE, utcTimestamp } from "../../seed/format.ts";
import type { Random } from "../../seed/random.ts";
import type { BillRecord, ClaimRecord, CodingGroupRecord } from "./billing-records.ts";
import { dateOf, daysAfter } from "./billing-dates.ts";

// Claims on bills: one to the primary payer for every billable insurance or
// workers' compensation bill that has been submitted; the secondary claim is
// made when the primary's remit is posted (generate-remits.ts).

export const lineTotal = (groups: readonly CodingGroupRecord[]): number =>
  groups.reduce((sum, group) => sum + group.lineItems.reduce((lines, item) => lines + item.chargeCents * item.units, 0), 0);

export function makeClaim(random: Random, bill: BillRecord, payerPosition: number, submittedMs: number, now: number): ClaimRecord {
  const amount = lineTotal(bill.codingGroups);
  const createdMs = submittedMs - random.int(1, 120) * MS_PER_MINUTE;
  // The clearinghouse accepts a claim within a day or two.
  const accepted = now - submittedMs > 2 * MS_PER_DAY;
  return {
    id: random.uuid(),
    billId: bill.id,
    controlNumber: `${bill.humanId}-${payerPosition}`,
    payerPosition,
    claimStatus: accepted ? "accepted" : "submitted",
    submittedDate: dateOf(submittedMs),
    claimCreatedDate: dateOf(createdMs),
    dateOfService: bill.dateOfService,
    claimAmountCents: amount,
    balanceCents: amount,
    patientId: bill.patientId,
    primaryProviderId: bill.primaryProviderId,
    billUnderProviderId: bill.billUnderProviderId,
    facilityId: bill.facilityId,
    cliaNumber: bill.cliaNumber,
    codingGroups: bill.codingGroups,
    insurance: bill.insurance,
    createdAt: utcTimestamp(createdMs),
    updatedAt: utcTimestamp(accepted ? Math.min(now - MS_PER_MINUTE, submittedMs + random.int(60, 36 * 60) * MS_PER_MINUTE) : submittedMs),
    archived: false,
  };
}

/** Primary claims of the submitted bills. */
export function generatePrimaryClaims(random: Random, bills: readonly BillRecord[], now: number): ClaimRecord[] {
  const claims: ClaimRecord[] = [];
  for (const bill of bills) {
    if (!bill.isBillable || bill.archived || bill.billingType === "self_pay" || bill.integrationStatus !== "submitted" || bill.insurance.length === 0) continue;
    const submittedMs = Math.min(now - 30 * MS_PER_MINUTE, daysAfter(bill.dateOfService, random.int(1, 3)) + random.int(13 * 60, 22 * 60) * MS_PER_MINUTE);
    const claim = makeClaim(random, bill, 1, submittedMs, now);
    // A few recent claims bounce at the clearinghouse and go back to the biller.
    if (now - submittedMs < 8 * MS_PER_DAY && random.chance(0.03)) {
      claim.claimStatus = "rejected";
      bill.integrationStatus = "ready";
    }
    claims.push(claim);
    if (Date.parse(bill.updatedAt) < submittedMs) bill.updatedAt = utcTimestamp(submittedMs);
  }
  return claims;
}
