import { utcTimestamp } from "../../seed/format.ts";
import type { BillingOrgData, BillRecord, ClaimRecord, EraClaimRecord, EraLineRecord, RemitRecord } from "./billing-records.ts";

// One organization's billing data as the service holds it, with the joins
// that give an ERA line its `claimId`, `billId` and `patientId` (seed 000 ERA
// rules 5 to 8: derived at read time, so a linkage change never touches the
// line's `updatedAt`), and the changes the EHR makes to it: posting a remit
// (rules 1 and 2), a sync, archiving a claim or a bill.

export interface LineEntry {
  remit: RemitRecord;
  eraClaim: EraClaimRecord;
  line: EraLineRecord;
}

export interface JoinedLine extends LineEntry {
  claimId: string | null;
  billId: string | null;
  patientId: string | null;
}

export interface PostResult {
  remitId: string;
  posted: true;
  postedAt: string;
  lines: { previousId: string; id: string; eraClaimId: string }[];
  eraClaimIds: { previous: string[]; current: string[] };
}

export interface BillingSyncResult {
  /** Bills the sync brought over from the EHR. */
  billsSynced: string[];
  /** Kind B ERA claims (by CLP01) whose patient the sync lost. */
  patientLinksLost: (string | null)[];
}

export class OrgBilling {
  private billsById = new Map<string, BillRecord>();
  private claimsById = new Map<string, ClaimRecord>();
  private remitsById = new Map<string, RemitRecord>();
  private linesById = new Map<string, LineEntry>();

  constructor(readonly data: BillingOrgData) {
    for (const bill of data.bills) this.billsById.set(bill.id, bill);
    for (const claim of data.claims) this.claimsById.set(claim.id, claim);
    for (const remit of data.remits) this.remitsById.set(remit.id, remit);
    this.indexLines();
  }

  private indexLines(): void {
    this.linesById = new Map();
    for (const remit of this.data.remits) {
      for (const eraClaim of remit.eraClaims) for (const line of eraClaim.lines) this.linesById.set(line.id, { remit, eraClaim, line });
    }
  }

  /** What the bills endpoints return: neither archived nor still waiting for a sync (rule 7). */
  visibleBills(): BillRecord[] {
    return this.data.bills.filter((bill) => !bill.archived && !bill.awaitingSync);
  }

  visibleBill(id: string): BillRecord | undefined {
    const bill = this.billsById.get(id);
    return bill && !bill.archived && !bill.awaitingSync ? bill : undefined;
  }

  /** Archived claims are excluded (seed 001 "Errors", rule 5). */
  visibleClaim(id: string): ClaimRecord | undefined {
    const claim = this.claimsById.get(id);
    return claim && !claim.archived ? claim : undefined;
  }

  /** Any claim, archived or not (the EHR's own view, for the sandbox). */
  claim(id: string): ClaimRecord | undefined {
    return this.claimsById.get(id);
  }

  bill(id: string): BillRecord | undefined {
    return this.billsById.get(id);
  }

  remits(): readonly RemitRecord[] {
    return this.data.remits;
  }

  remit(id: string): RemitRecord | undefined {
    return this.remitsById.get(id);
  }

  lineEntries(): LineEntry[] {
    return [...this.linesById.values()];
  }

  lineEntry(id: string): LineEntry | undefined {
    return this.linesById.get(id);
  }

  /**
   * Rules 5, 7 and 8: `claimId` is the matched claim unless it was archived;
   * `billId` is that claim's bill unless there is no link, the bill has not
   * synced or it was archived; `patientId` is the ERA claim's own patient key
   * when it resolves to a patient of the organization, whatever `claimId` is.
   */
  join(entry: LineEntry, patientIds: ReadonlySet<string>): JoinedLine {
    const claim = entry.eraClaim.matchedClaimId === null ? undefined : this.visibleClaim(entry.eraClaim.matchedClaimId);
    const bill = claim?.billId ? this.visibleBill(claim.billId) : undefined;
    const patientKey = entry.eraClaim.patientKey;
    return { ...entry, claimId: claim?.id ?? null, billId: bill?.id ?? null, patientId: patientKey !== null && patientIds.has(patientKey) ? patientKey : null };
  }

  /**
   * Posted data arrives for an unposted remit (seed 000 transition "ERA
   * remit"; rules 1 and 2): its composite-keyed rows are hard-deleted and the
   * same lines inserted again under new ids, the ERA claim re-keyed with
   * them. Nothing else remembers the old ids: no tombstone, no event.
   */
  post(remitId: string, now: number, newId: () => string): PostResult | "unknown" | "already_posted" {
    const remit = this.remitsById.get(remitId);
    if (!remit) return "unknown";
    if (remit.status === "posted") return "already_posted";
    const postedAt = utcTimestamp(now);
    const result: PostResult = { remitId, posted: true, postedAt, lines: [], eraClaimIds: { previous: [], current: [] } };
    remit.eraClaims = remit.eraClaims.map((eraClaim) => {
      const current: EraClaimRecord = { ...eraClaim, id: newId(), lines: eraClaim.lines.map((line) => ({ ...line, id: newId(), updatedAt: now })) };
      result.eraClaimIds.previous.push(eraClaim.id);
      result.eraClaimIds.current.push(current.id);
      current.lines.forEach((line, index) => result.lines.push({ previousId: eraClaim.lines[index]?.id ?? "", id: line.id, eraClaimId: current.id }));
      return current;
    });
    remit.status = "posted";
    remit.postedAt = postedAt;
    this.indexLines();
    return result;
  }

  /**
   * What a sync of this organization changes in billing: bills the EHR had
   * not yet handed over arrive (a line's `billId` appears); on kind B a
   * claim read back without its patient reference loses the ERA claim's
   * patient key (the line keeps `claimId`, loses `patientId`). Neither
   * touches a line's `updatedAt` (rule 6) and neither has an event.
   */
  sync(): BillingSyncResult {
    const result: BillingSyncResult = { billsSynced: [], patientLinksLost: [] };
    for (const bill of this.data.bills) {
      if (!bill.awaitingSync) continue;
      bill.awaitingSync = false;
      result.billsSynced.push(bill.id);
    }
    for (const remit of this.data.remits) {
      for (const eraClaim of remit.eraClaims) {
        if (!eraClaim.losesPatientOnNextSync) continue;
        eraClaim.losesPatientOnNextSync = false;
        eraClaim.patientKey = null;
        result.patientLinksLost.push(eraClaim.eraClaimControlNumber);
      }
    }
    return result;
  }

  /** The EHR archives (voids) a claim: it leaves the claim endpoints and every line matched to it loses `claimId` (rule 5). */
  archiveClaim(id: string, now: number): ClaimRecord | undefined {
    const claim = this.claimsById.get(id);
    if (!claim) return undefined;
    if (!claim.archived) {
      claim.archived = true;
      claim.updatedAt = utcTimestamp(now);
    }
    return claim;
  }

  /** The EHR archives a bill: it leaves the bills endpoints and lines through its claims lose `billId` (rule 7). */
  archiveBill(id: string, now: number): BillRecord | undefined {
    const bill = this.billsById.get(id);
    if (!bill) return undefined;
    if (!bill.archived) {
      bill.archived = true;
      bill.updatedAt = utcTimestamp(now);
    }
    return bill;
  }
}
