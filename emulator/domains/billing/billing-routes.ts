import * as z from "zod/mini";
import { BILL_INTEGRATION_STATUSES, BILLING_TYPES } from "#contract/clinic-api/billing.ts";
import { billsQuery, eraServiceLinesQuery } from "#contract/clinic-api/queries.ts";
import { toRawUuid } from "#contract/ids.ts";
import { paginate } from "../../http/paginate.ts";
import { badRequest, notFound } from "../../http/service-error.ts";
import { ok, requireScope } from "../../http/service-middleware.ts";
import { parseQuery } from "../../http/validate.ts";
import type { ServiceApp } from "../../routes/route-deps.ts";
import { parseV1Id } from "../../routes/path-ids.ts";
import type { ServiceState } from "../../service/service-state.ts";
import type { BillRecord } from "./billing-records.ts";
import { peopleOf, renderBill, renderBillDetail, renderClaimV1, renderClaimV2, renderEraLine } from "./billing-render.ts";
import type { BillingStore } from "./billing-store.ts";
import type { JoinedLine, OrgBilling } from "./org-billing.ts";

// Seed 001 "Claims and bills" and "ERA service lines", with DESIGN.md's
// assumed ERA line list. Bills need no scope beyond an active installation
// (the seeds show none); claims need `read:claims`, ERA lines `read:eras`.

export interface BillingRouteDeps {
  state: ServiceState;
  store: BillingStore;
  /** Where a claim's `deepLinkUrl` points: the sandbox's view of the EHR's claim. */
  claimDeepLink: (organizationId: string, claimId: string) => string;
}

/** The seeds leave the value spaces open; docs/assumed-contracts.md lists these. */
const billsListQuery = z.extend(billsQuery, {
  integrationStatus: z.optional(z.enum(BILL_INTEGRATION_STATUSES)),
  billingType: z.optional(z.enum(BILLING_TYPES)),
});

/** A line id is a UUID once posted, a composite `<remitId>:<claim>:<line>` before. */
const ERA_LINE_ID = /^[A-Za-z0-9][A-Za-z0-9:_-]{0,199}$/;

const newestFirst = (a: BillRecord, b: BillRecord) => b.dateOfService.localeCompare(a.dateOfService) || b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id);

function assertWindow(dateFrom: string | undefined, dateTo: string | undefined): void {
  if (dateFrom !== undefined && dateTo !== undefined && dateTo < dateFrom) throw badRequest("dateTo: must not be before dateFrom");
}

export function registerBillingRoutes(app: ServiceApp, { state, store, claimDeepLink }: BillingRouteDeps): void {
  const billingOf = (organizationId: string): OrgBilling => {
    const billing = store.org(organizationId);
    if (!billing) throw notFound("This organization has no billing data");
    return billing;
  };

  app.get("/v1/bills", (c) => {
    const query = parseQuery(c, billsListQuery);
    assertWindow(query.dateFrom, query.dateTo);
    const org = c.get("org");
    const facilityId = query.facilityId === undefined ? undefined : toRawUuid(query.facilityId);
    const patientId = query.patientId === undefined ? undefined : toRawUuid(query.patientId);
    const providerId = query.providerId === undefined ? undefined : toRawUuid(query.providerId);
    const bills = billingOf(org.ehr.id)
      .visibleBills()
      .filter(
        (bill) =>
          (query.dateFrom === undefined || bill.dateOfService >= query.dateFrom) &&
          (query.dateTo === undefined || bill.dateOfService <= query.dateTo) &&
          (facilityId === undefined || bill.facilityId === facilityId) &&
          (patientId === undefined || bill.patientId === patientId) &&
          (providerId === undefined || bill.primaryProviderId === providerId || bill.billUnderProviderId === providerId) &&
          (query.integrationStatus === undefined || bill.integrationStatus === query.integrationStatus) &&
          (query.billingType === undefined || bill.billingType === query.billingType),
      )
      .sort(newestFirst);
    const { items, pagination } = paginate(bills, query.page, query.pageSize);
    const people = peopleOf(org.ehr);
    return ok(c, { bills: items.map((bill) => renderBill(bill, people)), pagination });
  });

  app.get("/v1/bills/:id", (c) => {
    const id = parseV1Id(c.req.param("id"), "id");
    const org = c.get("org");
    const bill = billingOf(org.ehr.id).visibleBill(id);
    if (!bill) throw notFound(`Bill ${id} not found`);
    return ok(c, renderBillDetail(bill, peopleOf(org.ehr)));
  });

  for (const version of ["v1", "v2"] as const) {
    app.get(`/${version}/claims/:id`, (c) => {
      requireScope(c, state, "read:claims");
      const id = parseV1Id(c.req.param("id"), "id");
      const org = c.get("org");
      const billing = billingOf(org.ehr.id);
      const claim = billing.visibleClaim(id);
      if (!claim) throw notFound(`Claim ${id} not found`);
      const people = peopleOf(org.ehr);
      return ok(c, version === "v1" ? renderClaimV1(claim, billing, people) : renderClaimV2(claim, billing, people, claimDeepLink(org.ehr.id, claim.id)));
    });
  }

  const joinedLines = (organizationId: string, patientIds: ReadonlySet<string>): JoinedLine[] => {
    const billing = billingOf(organizationId);
    return billing.lineEntries().map((entry) => billing.join(entry, patientIds));
  };

  app.get("/v1/era-service-lines", (c) => {
    requireScope(c, state, "read:eras");
    const query = parseQuery(c, eraServiceLinesQuery);
    assertWindow(query.dateFrom, query.dateTo);
    const org = c.get("org");
    const since = query.updatedSince === undefined ? undefined : Date.parse(query.updatedSince);
    const billId = query.billId === undefined ? undefined : toRawUuid(query.billId);
    const claimId = query.claimId === undefined ? undefined : toRawUuid(query.claimId);
    const hasDateFilter = query.dateFrom !== undefined || query.dateTo !== undefined;
    const lines = joinedLines(org.ehr.id, new Set(org.ehr.patients.map((patient) => patient.id)))
      .filter(
        ({ line, claimId: lineClaimId, billId: lineBillId }) =>
          (since === undefined || line.updatedAt >= since) &&
          // Rule 4: a line with no claim has no bill either, so these filters never return it.
          (billId === undefined || lineBillId === billId) &&
          (claimId === undefined || lineClaimId === claimId) &&
          // A line without a service date is outside every date window (rule 4).
          (!hasDateFilter || (line.serviceDate !== null && (query.dateFrom === undefined || line.serviceDate >= query.dateFrom) && (query.dateTo === undefined || line.serviceDate <= query.dateTo))) &&
          (query.matched === undefined || (lineClaimId !== null) === query.matched),
      )
      .sort((a, b) => a.line.updatedAt - b.line.updatedAt || a.line.id.localeCompare(b.line.id));
    const { items, pagination } = paginate(lines, query.page, query.pageSize);
    return ok(c, { eraServiceLines: items.map(renderEraLine), pagination });
  });

  app.get("/v1/era-service-lines/:id", (c) => {
    requireScope(c, state, "read:eras");
    const id = c.req.param("id");
    if (!ERA_LINE_ID.test(id)) throw badRequest("id must be a valid ERA service line id");
    const org = c.get("org");
    const billing = billingOf(org.ehr.id);
    const entry = billing.lineEntry(id.toLowerCase());
    if (!entry) throw notFound(`ERA service line ${id} not found`);
    return ok(c, renderEraLine(billing.join(entry, new Set(org.ehr.patients.map((patient) => patient.id)))));
  });
}
