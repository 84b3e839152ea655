import { addDays } from "#contract/time/zoned-time.ts";
import { PROCEDURES } from "../../seed/clinical-catalog.ts";
import { MS_PER_DAY } from "../../seed/format.ts";
import type { Random } from "../../seed/random.ts";
import type { EhrKind, EhrPatient } from "../../world/types.ts";
import { CLP02, PAYERS } from "./billing-catalog.ts";
import type { BillRecord, ClaimRecord, CodingGroupRecord, EraClaimRecord, EraLineRecord, RemitRecord, SeededEraCases } from "./billing-records.ts";
import { payPrimary, reverse, takeBack, type LineDraft } from "./adjudicate.ts";
import { dateOf, touched } from "./billing-dates.ts";
import { makeClaim } from "./generate-claims.ts";
import { payerClaimNumber } from "./generate-remits.ts";
import type { RemitBook } from "./remit-book.ts";

// The cases of seed 000's ERA rules, placed on purpose in every
// organization's remits so that each rule can be seen (and is tested):
// a reversal (CLP02 22) with its corrected payment and an unmatched line
// without a service date on an unposted remit; unmatched payer money on a
// posted remit (kind A: patient from the remittance, CLP01 absent; kind B: no
// patient, anchored on CLP01); a matched claim that was later archived; a
// claim with no bill link; a claim whose bill has not synced yet; one whose
// bill was archived; a take-back that is not a reversal; and on kind B a
// line whose patient the next sync loses.

export interface CaseContext {
  kind: EhrKind;
  bills: ReadonlyMap<string, BillRecord>;
  claims: ClaimRecord[];
  patients: readonly EhrPatient[];
  book: RemitBook;
  now: number;
}

interface Payment {
  remit: RemitRecord;
  eraClaim: EraClaimRecord;
  claim: ClaimRecord;
}

const draftOf = ({ id: _id, lineNumber: _lineNumber, updatedAt: _updatedAt, ...draft }: EraLineRecord): LineDraft => ({
  ...draft,
  modifiers: [...draft.modifiers],
  adjustments: draft.adjustments.map((entry) => ({ ...entry })),
});

function cloneCoding(random: Random, groups: readonly CodingGroupRecord[]): CodingGroupRecord[] {
  return groups.map((group) => ({
    ...group,
    id: random.uuid(),
    diagnoses: group.diagnoses.map((diagnosis) => ({ ...diagnosis, id: random.uuid() })),
    lineItems: group.lineItems.map((item) => ({ ...item, id: random.uuid(), modifiers: item.modifiers.map((modifier) => ({ ...modifier })), linkedDiagnoses: item.linkedDiagnoses.map((entry) => ({ ...entry })) })),
  }));
}

export function seedEraCases(random: Random, context: CaseContext): SeededEraCases {
  const { kind, bills, claims, patients, book, now } = context;
  const today = dateOf(now);
  const claimsById = new Map(claims.map((claim) => [claim.id, claim]));
  const cases: SeededEraCases = {};

  // Paid primary claims on posted remits, each used by one case at most.
  const payments: Payment[] = random.shuffle(
    book.remits.flatMap((remit) =>
      remit.status !== "posted"
        ? []
        : remit.eraClaims.flatMap((eraClaim) => {
            const claim = eraClaim.matchedClaimId === null ? undefined : claimsById.get(eraClaim.matchedClaimId);
            const paid = eraClaim.lines.some((line) => line.paidCents > 0);
            return claim && claim.payerPosition === 1 && claim.billId !== null && paid && eraClaim.claimStatusCode !== CLP02.secondary ? [{ remit, eraClaim, claim }] : [];
          }),
    ),
  );
  const take = (fits: (payment: Payment) => boolean = () => true): Payment | undefined => {
    const index = payments.findIndex(fits);
    return index < 0 ? undefined : payments.splice(index, 1)[0];
  };
  const knownControlNumbers = new Set(claims.map((claim) => claim.controlNumber));
  const unknownControlNumber = (): string => {
    for (;;) {
      const candidate = kind === "A" ? `B-${random.int(900_000, 999_999)}-1` : `INV-${random.int(900_000, 999_999)}-1`;
      if (!knownControlNumbers.has(candidate)) return candidate;
    }
  };
  const unmatchedLine = (serviceDate: string | null): LineDraft => {
    const payer = PAYERS[kind].commercial[0];
    const reference = Math.round((PROCEDURES["99213"]?.unitPrice ?? 92) * 100);
    const charge = Math.round((reference * (kind === "A" ? 2.1 : 1.6)) / 100) * 100;
    const allowed = Math.min(charge, Math.round(reference * (payer?.allowedFactor ?? 1)));
    return {
      lineItemId: null,
      procedureCode: "99213",
      modifiers: [],
      units: 1,
      chargeCents: charge,
      allowedCents: allowed,
      paidCents: allowed,
      serviceDate,
      adjustments: charge > allowed ? [{ groupCode: "CO", reasonCode: "45", amountCents: charge - allowed }] : [],
    };
  };
  const remittancePatient = (): string | null => (kind === "A" && patients.length > 0 ? random.pick(patients).id : null);

  // Rule 9 on an unposted remit: the payer reverses an earlier payment in full and pays the corrected amount.
  const reversed = take();
  if (reversed) {
    const { claim, eraClaim } = reversed;
    const payer = claim.insurance[0]?.payer;
    if (payer) {
      const remit = book.unpostedRemitFor(payer, addDays(today, -1));
      book.add(remit, { ...eraClaim, claimStatusCode: CLP02.reversal, lines: reverse(eraClaim.lines.map(draftOf)) });
      book.add(remit, {
        ...eraClaim,
        payerClaimControlNumber: payerClaimNumber(random, kind),
        claimStatusCode: eraClaim.claimStatusCode,
        lines: payPrimary(claim, payer, 0, claim.dateOfService, 1.06).lines,
      });
      // Rules 4 and 8: unmatched money with no service date on the same remit; on kind A it names the patient, on kind B it cannot.
      book.add(remit, { eraClaimControlNumber: unknownControlNumber(), payerClaimControlNumber: payerClaimNumber(random, kind), claimStatusCode: CLP02.primary, matchedClaimId: null, patientKey: remittancePatient(), lines: [unmatchedLine(null)] });
      cases.reversedClaimId = claim.id;
    }
  }

  // Rules 5 and 8 on a posted remit: money the EHR could not tie to a claim.
  const postedRemits = book.remits.filter((remit) => remit.status === "posted");
  if (postedRemits.length > 0) {
    const remit = random.pick(postedRemits);
    book.add(remit, {
      eraClaimControlNumber: kind === "A" ? null : unknownControlNumber(),
      payerClaimControlNumber: payerClaimNumber(random, kind),
      claimStatusCode: CLP02.primary,
      matchedClaimId: null,
      patientKey: remittancePatient(),
      lines: [unmatchedLine(addDays(remit.paymentDate, -21))],
    });
  }

  // Rule 5: the EHR matched it, then the claim was archived (voided).
  const archived = take();
  if (archived) {
    archived.claim.archived = true;
    archived.claim.updatedAt = touched(archived.claim.updatedAt, now - 2 * MS_PER_DAY);
    cases.archivedClaimId = archived.claim.id;
  }

  // Rule 7: a claim entered straight into the EHR's claims module, with no bill link.
  const template = take();
  const templateBill = template?.claim.billId ? bills.get(template.claim.billId) : undefined;
  const templatePayer = template?.claim.insurance[0]?.payer;
  if (template && templateBill && templatePayer) {
    const legacy = makeClaim(random, templateBill, 1, Date.parse(`${template.claim.submittedDate}T15:00:00.000Z`), now);
    legacy.billId = null;
    legacy.controlNumber = `${kind === "A" ? "CLM" : "CLN"}-${random.digits(7)}`;
    legacy.codingGroups = cloneCoding(random, templateBill.codingGroups);
    claims.push(legacy);
    const answer = payPrimary(legacy, templatePayer, 0, legacy.dateOfService);
    book.add(template.remit, { eraClaimControlNumber: legacy.controlNumber, payerClaimControlNumber: payerClaimNumber(random, kind), claimStatusCode: CLP02.primary, matchedClaimId: legacy.id, patientKey: legacy.patientId, lines: answer.lines });
    legacy.claimStatus = "paid";
    legacy.balanceCents = [...answer.patientShare.values()].reduce((sum, value) => sum + value, 0);
    legacy.updatedAt = touched(legacy.updatedAt, Date.parse(template.remit.postedAt ?? template.remit.receivedAt));
    cases.legacyClaimId = legacy.id;
  }

  // Rule 7: the bill exists in the EHR but the service has not synced it yet (the next sync brings it).
  const awaiting = take();
  const awaitingBill = awaiting?.claim.billId ? bills.get(awaiting.claim.billId) : undefined;
  if (awaitingBill) {
    awaitingBill.awaitingSync = true;
    cases.awaitingSyncBillId = awaitingBill.id;
  }

  // Rule 7: the claim's bill was archived; the claim was not.
  const archivedBillPayment = take();
  const archivedBill = archivedBillPayment?.claim.billId ? bills.get(archivedBillPayment.claim.billId) : undefined;
  if (archivedBill) {
    archivedBill.archived = true;
    archivedBill.updatedAt = touched(archivedBill.updatedAt, now - 3 * MS_PER_DAY);
    cases.archivedBillId = archivedBill.id;
  }

  // Rule 9: a take-back that is not a reversal, on a later posted remit of the same payer.
  const recouped = take((payment) => payment.remit.paymentDate <= addDays(today, -15) && (payment.eraClaim.lines[0]?.paidCents ?? 0) > 0);
  const recoupedPayer = recouped?.claim.insurance[0]?.payer;
  const recoupedLine = recouped?.eraClaim.lines[0];
  if (recouped && recoupedPayer && recoupedLine) {
    const remit = book.remitFor(recoupedPayer, addDays(today, -6));
    book.add(remit, {
      ...recouped.eraClaim,
      lines: [takeBack(draftOf(recoupedLine), Math.max(100, Math.round(recoupedLine.paidCents * 0.3)), recouped.claim.dateOfService)],
    });
    cases.takeBackClaimId = recouped.claim.id;
  }

  // Rule 8, kind B: the next sync reads the claim back without its patient; the line keeps its claim and loses patientId.
  if (kind === "B") {
    const losing = take();
    if (losing) {
      losing.eraClaim.losesPatientOnNextSync = true;
      cases.losesPatientEraClaimControlNumber = losing.eraClaim.eraClaimControlNumber ?? undefined;
    }
  }
  return cases;
}
