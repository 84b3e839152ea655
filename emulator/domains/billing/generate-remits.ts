import { addDays, weekdayOf } from "#contract/time/zoned-time.ts";
import { MS_PER_DAY, MS_PER_MINUTE } from "../../seed/format.ts";
import type { Random } from "../../seed/random.ts";
import type { EhrKind } from "../../world/types.ts";
import { CLP02, DENIAL_REASONS } from "./billing-catalog.ts";
import type { BillRecord, ClaimRecord, PayerRecord, RemitRecord } from "./billing-records.ts";
import { deny, payPrimary, paySecondary, type LineDraft } from "./adjudicate.ts";
import { dateOf, daysAfter, touched } from "./billing-dates.ts";
import { makeClaim } from "./generate-claims.ts";
import type { RemitBook } from "./remit-book.ts";

// The payers' answers to the claims: primary claims submitted at least 12
// days ago are paid (or denied) in the payer's weekly run 12 to 30 days after
// submission; when that
// remit is posted, a bill with a second plan gets its secondary claim, paid
// in turn. Posting settles the claim and the bill's balances. Remits of the
// last three days are unposted: their claims still read `accepted`.

export interface RemitContext {
  kind: EhrKind;
  bills: ReadonlyMap<string, BillRecord>;
  claims: ClaimRecord[];
  book: RemitBook;
  now: number;
}

/** Payers pay in a weekly run on a weekday of their own: the first one on or after `date`. */
function onPaymentDay(payer: PayerRecord, date: string): string {
  const payday = [...payer.code].reduce((sum, character) => sum + character.charCodeAt(0), 0) % 5;
  return addDays(date, (payday - weekdayOf(date) + 7) % 7);
}

/** The payer's own claim number (CLP07). */
export const payerClaimNumber = (random: Random, kind: EhrKind): string => (kind === "A" ? `${random.int(20, 26)}${random.digits(12)}` : `${random.digits(9)}`);

/** A line on an ERA omits its service date now and then (ERA rule 4). */
export const serviceDateOrAbsent = (random: Random, claim: ClaimRecord): string | null => (random.chance(0.06) ? null : claim.dateOfService);

function settle(claim: ClaimRecord, bill: BillRecord | undefined, lines: readonly LineDraft[], owedAfter: ReadonlyMap<string, number>, postedAt: string): void {
  const paidAny = lines.some((line) => line.paidCents > 0);
  const deniedAll = lines.every((line) => line.allowedCents === 0 && line.paidCents === 0);
  claim.claimStatus = paidAny || !deniedAll ? "paid" : "denied";
  claim.balanceCents = paidAny ? [...owedAfter.values()].reduce((sum, value) => sum + value, 0) : claim.claimAmountCents;
  claim.updatedAt = touched(claim.updatedAt, Date.parse(postedAt));
  if (!bill) return;
  if (paidAny) {
    for (const item of bill.codingGroups.flatMap((group) => group.lineItems)) item.balanceCents = owedAfter.get(item.id) ?? 0;
    const owed = bill.codingGroups.flatMap((group) => group.lineItems).reduce((sum, item) => sum + item.balanceCents, 0);
    bill.integrationStatus = owed === 0 ? "closed" : "paid";
  } else {
    // A denial goes back to the biller to correct and resubmit.
    bill.integrationStatus = "ready";
  }
  bill.updatedAt = touched(bill.updatedAt, Date.parse(postedAt));
}

export function generateRemits(random: Random, context: RemitContext): void {
  const { kind, bills, claims, book, now } = context;
  const today = dateOf(now);
  const secondaryWork: { bill: BillRecord; share: Map<string, number>; remit: RemitRecord }[] = [];

  for (const claim of [...claims]) {
    const bill = claim.billId === null ? undefined : bills.get(claim.billId);
    const insurance = claim.insurance[0];
    if (!bill || !insurance || claim.claimStatus === "rejected") continue;
    const submittedMs = Date.parse(`${claim.submittedDate}T12:00:00.000Z`);
    if (now - submittedMs < 12 * MS_PER_DAY) continue;
    const paymentDate = onPaymentDay(insurance.payer, dateOf(daysAfter(claim.submittedDate, random.int(12, 24))));
    if (paymentDate > today) continue;
    const remit = book.remitFor(insurance.payer, paymentDate);
    const serviceDate = serviceDateOrAbsent(random, claim);
    const denied = random.chance(0.07);
    const answer = denied
      ? { lines: deny(claim, random.pick(DENIAL_REASONS), serviceDate), patientShare: new Map<string, number>() }
      : payPrimary(claim, insurance.payer, insurance.deductibleRemainingCents, serviceDate);
    book.add(remit, {
      eraClaimControlNumber: claim.controlNumber,
      payerClaimControlNumber: payerClaimNumber(random, kind),
      claimStatusCode: denied ? CLP02.denied : insurance.payer.policyType === "Medicare" && claim.insurance.length > 1 ? CLP02.primaryForwarded : CLP02.primary,
      matchedClaimId: claim.id,
      patientKey: claim.patientId,
      lines: answer.lines,
    });
    if (remit.postedAt === null) continue;
    settle(claim, bill, answer.lines, answer.patientShare, remit.postedAt);
    if (!denied && claim.insurance.length > 1 && [...answer.patientShare.values()].some((value) => value > 0)) secondaryWork.push({ bill, share: answer.patientShare, remit });
  }

  for (const { bill, share, remit } of secondaryWork) {
    const secondary = bill.insurance[1];
    if (!secondary || remit.postedAt === null) continue;
    const submittedMs = Math.min(now - 30 * MS_PER_MINUTE, Date.parse(remit.postedAt) + random.int(2 * 60, 30 * 60) * MS_PER_MINUTE);
    const claim = makeClaim(random, bill, 2, submittedMs, now);
    claim.claimAmountCents = [...share.values()].reduce((sum, value) => sum + value, 0);
    claim.balanceCents = claim.claimAmountCents;
    claims.push(claim);
    bill.updatedAt = touched(bill.updatedAt, submittedMs);
    const paymentDate = onPaymentDay(secondary.payer, dateOf(submittedMs + random.int(10, 16) * MS_PER_DAY));
    if (paymentDate > today) continue;
    const secondaryRemit = book.remitFor(secondary.payer, paymentDate);
    // A supplement pays all that the primary left; a second commercial plan most of it.
    const covered = secondary.payer.policyType === "Medigap" || secondary.payer.policyType === "Gold Card" ? 1 : 0.8;
    const lines = paySecondary(claim, share, covered, serviceDateOrAbsent(random, claim));
    book.add(secondaryRemit, {
      eraClaimControlNumber: claim.controlNumber,
      payerClaimControlNumber: payerClaimNumber(random, kind),
      claimStatusCode: CLP02.secondary,
      matchedClaimId: claim.id,
      patientKey: claim.patientId,
      lines,
    });
    if (secondaryRemit.postedAt === null) continue;
    const owed = new Map(lines.map((line) => [line.lineItemId ?? "", (share.get(line.lineItemId ?? "") ?? 0) - line.paidCents]));
    settle(claim, bill, lines, owed, secondaryRemit.postedAt);
  }
}
