import type { Context, Hono } from "hono";
import type { Clock } from "../../clock.ts";
import type { ServiceState } from "../../service/service-state.ts";
import type { RemitRecord } from "./billing-records.ts";
import type { BillingStore } from "./billing-store.ts";
import { formatCents } from "./money.ts";
import type { OrgBilling } from "./org-billing.ts";

// The billing controls under `/_sandbox/` (plain JSON, no envelope; errors
// `{code, message}`): list the remits to find one to post, post it (DESIGN.md
// `POST /_sandbox/ehr/{organizationId}/era-remits/{id}/post`: ERA rules 1 and
// 2), archive a claim or a bill in the EHR (rules 5 to 7), and the EHR's own
// view of a claim, where a v2 claim's `deepLinkUrl` points.

export interface BillingSandboxDeps {
  state: ServiceState;
  store: BillingStore;
  clock: Clock;
}

type Refusal = { status: 404 | 409 | 400; code: string; message: string };

const refuse = (c: Context, { status, code, message }: Refusal) => c.json({ code, message }, status);

function remitSummary(remit: RemitRecord) {
  const lines = remit.eraClaims.flatMap((eraClaim) => eraClaim.lines);
  return {
    id: remit.id,
    status: remit.status,
    payerName: remit.payerName,
    payerCode: remit.payerCode,
    traceNumber: remit.traceNumber,
    paymentDate: remit.paymentDate,
    receivedAt: remit.receivedAt,
    postedAt: remit.postedAt,
    totalPaid: formatCents(lines.reduce((sum, line) => sum + line.paidCents, 0)),
    lineCount: lines.length,
    eraClaims: remit.eraClaims.map((eraClaim) => ({
      id: eraClaim.id,
      eraClaimControlNumber: eraClaim.eraClaimControlNumber,
      payerClaimControlNumber: eraClaim.payerClaimControlNumber,
      claimStatusCode: eraClaim.claimStatusCode,
      matchedClaimId: eraClaim.matchedClaimId,
      lineIds: eraClaim.lines.map((line) => line.id),
    })),
  };
}

export function registerBillingSandbox(sandbox: Hono, { state, store, clock }: BillingSandboxDeps): void {
  const billingOf = (c: Context): OrgBilling | Refusal => {
    const organizationId = c.req.param("organizationId") ?? "";
    const billing = state.org(organizationId) ? store.org(organizationId) : undefined;
    return billing ?? { status: 404, code: "not_found", message: `unknown organization ${organizationId}` };
  };

  sandbox.get("/ehr/:organizationId/era-remits", (c) => {
    const billing = billingOf(c);
    if (!("data" in billing)) return refuse(c, billing);
    const status = c.req.query("status");
    if (status !== undefined && status !== "posted" && status !== "unposted") return refuse(c, { status: 400, code: "bad_request", message: "status: must be posted or unposted" });
    const remits = billing
      .remits()
      .filter((remit) => status === undefined || remit.status === status)
      .toSorted((a, b) => b.receivedAt.localeCompare(a.receivedAt) || a.id.localeCompare(b.id));
    return c.json({ remits: remits.map(remitSummary), cases: billing.data.cases });
  });

  sandbox.post("/ehr/:organizationId/era-remits/:id/post", (c) => {
    const billing = billingOf(c);
    if (!("data" in billing)) return refuse(c, billing);
    const id = c.req.param("id").toLowerCase();
    const result = billing.post(id, clock.now(), () => state.newId());
    if (result === "unknown") return refuse(c, { status: 404, code: "not_found", message: `unknown remit ${id}` });
    if (result === "already_posted") return refuse(c, { status: 409, code: "conflict", message: `remit ${id} is already posted` });
    return c.json(result);
  });

  sandbox.get("/ehr/:organizationId/claims/:id", (c) => {
    const billing = billingOf(c);
    if (!("data" in billing)) return refuse(c, billing);
    const claim = billing.claim(c.req.param("id").toLowerCase());
    if (!claim) return refuse(c, { status: 404, code: "not_found", message: `unknown claim ${c.req.param("id")}` });
    const bill = claim.billId === null ? undefined : billing.bill(claim.billId);
    return c.json({
      claim: {
        id: claim.id,
        controlNumber: claim.controlNumber,
        claimStatus: claim.claimStatus,
        archived: claim.archived,
        payerPosition: claim.payerPosition,
        payerName: claim.insurance[claim.payerPosition - 1]?.payer.name ?? null,
        dateOfService: claim.dateOfService,
        submittedDate: claim.submittedDate,
        claimAmount: formatCents(claim.claimAmountCents),
        balance: formatCents(claim.balanceCents),
        billId: claim.billId,
        billHumanId: bill?.humanId ?? null,
        billArchived: bill?.archived ?? null,
        billAwaitingSync: bill?.awaitingSync ?? null,
      },
    });
  });

  sandbox.post("/ehr/:organizationId/claims/:id/archive", (c) => {
    const billing = billingOf(c);
    if (!("data" in billing)) return refuse(c, billing);
    const claim = billing.archiveClaim(c.req.param("id").toLowerCase(), clock.now());
    if (!claim) return refuse(c, { status: 404, code: "not_found", message: `unknown claim ${c.req.param("id")}` });
    return c.json({ claim: { id: claim.id, archived: claim.archived, updatedAt: claim.updatedAt } });
  });

  sandbox.post("/ehr/:organizationId/bills/:id/archive", (c) => {
    const billing = billingOf(c);
    if (!("data" in billing)) return refuse(c, billing);
    const bill = billing.archiveBill(c.req.param("id").toLowerCase(), clock.now());
    if (!bill) return refuse(c, { status: 404, code: "not_found", message: `unknown bill ${c.req.param("id")}` });
    return c.json({ bill: { id: bill.id, archived: bill.archived, updatedAt: bill.updatedAt } });
  });
}
