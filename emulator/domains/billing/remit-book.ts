import { MS_PER_HOUR, MS_PER_MINUTE, utcTimestamp } from "../../seed/format.ts";
import type { Random } from "../../seed/random.ts";
import type { EraClaimRecord, PayerRecord, RemitRecord } from "./billing-records.ts";
import type { LineDraft } from "./adjudicate.ts";
import { dayStartMs } from "./billing-dates.ts";

// The remits of one organization while they are generated: one per payer and
// payment date, received that morning and posted 20 hours to 4 days later, so
// the most recent ones are still unposted. Ids
// are given last (assignEraIds), once every remit holds all its claims.

/** The billing team posts a remit 20 hours to 4 days after it arrives; until then it is unposted. */
const POSTING_LAG_MINUTES = { min: 20 * 60, max: 4 * 24 * 60 } as const;

export interface EraClaimDraft {
  eraClaimControlNumber: string | null;
  payerClaimControlNumber: string | null;
  claimStatusCode: string;
  matchedClaimId: string | null;
  patientKey: string | null;
  lines: readonly LineDraft[];
}

export class RemitBook {
  readonly remits: RemitRecord[] = [];
  private readonly byKey = new Map<string, RemitRecord>();

  constructor(
    private readonly random: Random,
    private readonly now: number,
  ) {}

  /** The payer's remit of that payment date. */
  remitFor(payer: PayerRecord, paymentDate: string): RemitRecord {
    return this.remit(payer, paymentDate, false);
  }

  /** A second remit of the payer that day (another EFT), still unposted whenever it was received. */
  unpostedRemitFor(payer: PayerRecord, paymentDate: string): RemitRecord {
    return this.remit(payer, paymentDate, true);
  }

  private remit(payer: PayerRecord, paymentDate: string, unposted: boolean): RemitRecord {
    const key = `${payer.code}|${paymentDate}|${unposted ? "unposted" : ""}`;
    const existing = this.byKey.get(key);
    if (existing) return existing;
    const receivedMs = Math.min(this.now - 5 * MS_PER_MINUTE, dayStartMs(paymentDate) + this.random.int(2 * 60, 10 * 60) * MS_PER_MINUTE);
    const postedMs = receivedMs + this.random.int(POSTING_LAG_MINUTES.min, POSTING_LAG_MINUTES.max) * MS_PER_MINUTE;
    const posted = !unposted && postedMs < this.now - MS_PER_HOUR;
    const remit: RemitRecord = {
      id: this.random.uuid(),
      payerName: payer.name,
      payerCode: payer.code,
      traceNumber: this.random.digits(10),
      paymentDate,
      receivedAt: utcTimestamp(receivedMs),
      status: posted ? "posted" : "unposted",
      postedAt: posted ? utcTimestamp(postedMs) : null,
      eraClaims: [],
    };
    this.byKey.set(key, remit);
    this.remits.push(remit);
    return remit;
  }

  add(remit: RemitRecord, draft: EraClaimDraft): EraClaimRecord {
    const eraClaim: EraClaimRecord = {
      id: "",
      eraClaimControlNumber: draft.eraClaimControlNumber,
      payerClaimControlNumber: draft.payerClaimControlNumber,
      claimStatusCode: draft.claimStatusCode,
      matchedClaimId: draft.matchedClaimId,
      patientKey: draft.patientKey,
      losesPatientOnNextSync: false,
      lines: draft.lines.map((line, index) => ({ ...line, id: "", lineNumber: index + 1, updatedAt: 0 })),
    };
    remit.eraClaims.push(eraClaim);
    return eraClaim;
  }
}

/**
 * Ids and timestamps, once the remits are complete. While a remit is
 * unposted its ERA claims and lines are keyed by a composite of remit, claim
 * and line (`<remitId>:<claim>:<line>`, stable across reads); posted rows
 * have UUIDs (seed 000 ERA rule 1). A line was written when its remit was
 * received, or re-inserted when it was posted.
 */
export function assignEraIds(random: Random, remits: readonly RemitRecord[]): void {
  for (const remit of remits) {
    const writtenMs = Date.parse(remit.postedAt ?? remit.receivedAt);
    remit.eraClaims.forEach((eraClaim, claimIndex) => {
      eraClaim.id = remit.status === "posted" ? random.uuid() : compositeEraClaimId(remit.id, claimIndex);
      for (const line of eraClaim.lines) {
        line.id = remit.status === "posted" ? random.uuid() : compositeLineId(remit.id, claimIndex, line.lineNumber);
        line.updatedAt = writtenMs;
      }
    });
  }
}

export const compositeEraClaimId = (remitId: string, claimIndex: number): string => `${remitId}:${claimIndex + 1}`;
export const compositeLineId = (remitId: string, claimIndex: number, lineNumber: number): string => `${remitId}:${claimIndex + 1}:${lineNumber}`;
