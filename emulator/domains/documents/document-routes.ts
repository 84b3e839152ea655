import * as z from "zod/mini";
import type { Context } from "hono";
import { documentRefreshData, patientDocument, patientDocumentsQuery, type PatientDocument } from "#contract/clinic-api/documents.ts";
import type { ServiceEnv } from "../../http/env.ts";
import { paginate } from "../../http/paginate.ts";
import { notFound } from "../../http/service-error.ts";
import { ok, requireScope } from "../../http/service-middleware.ts";
import { parseQuery } from "../../http/validate.ts";
import { parseV1Id } from "../../routes/path-ids.ts";
import type { ServiceApp } from "../../routes/route-deps.ts";
import { presentDocuments } from "./document-book.ts";
import { listChartNow } from "./document-listings.ts";
import type { EhrDocument } from "./document-model.ts";
import { DOCUMENTS_SCOPE, type DocumentsContext } from "./documents-context.ts";

// Assumed contracts (docs/assumed-contracts.md, "Patient documents"): the
// chart's documents list with `updatedSince`, and the refresh call, which is
// a listing of the chart and announces by seed 001's rules. The list reads
// the chart in the EHR now and is not a listing: it announces nothing.

export function renderDocument(document: EhrDocument, downloadUrl: string): PatientDocument {
  return z.parse(patientDocument, {
    id: document.id,
    patientId: document.patientId,
    kind: document.kind,
    sourceCategory: document.sourceCategory,
    title: document.title,
    filename: document.filename,
    mimeType: document.mimeType,
    bytes: document.bytes,
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
    downloadUrl,
  });
}

/** Oldest change first, so a consumer can walk `updatedSince` forward. */
const byUpdate = (a: EhrDocument, b: EhrDocument) => a.updatedAtMs - b.updatedAtMs || a.id.localeCompare(b.id);

export function registerDocumentRoutes(app: ServiceApp, ctx: DocumentsContext): void {
  const { state, clock } = ctx;

  /** Scope, then the path id, then the patient (404 when not in the organization). */
  const chartRequest = (c: Context<ServiceEnv>) => {
    requireScope(c, state, DOCUMENTS_SCOPE);
    const patientId = parseV1Id(c.req.param("patientId") ?? "", "patientId");
    const org = c.get("org");
    if (!org.ehr.patients.some((patient) => patient.id === patientId)) throw notFound(`Patient ${patientId} not found`);
    return { org, patientId };
  };

  app.get("/v1/patients/:patientId/documents", (c) => {
    const { org, patientId } = chartRequest(c);
    const query = parseQuery(c, patientDocumentsQuery);
    const since = query.updatedSince === undefined ? undefined : Date.parse(query.updatedSince);
    const all = presentDocuments(ctx.documentsOf(org), patientId)
      .filter((document) => since === undefined || document.updatedAtMs >= since)
      .sort(byUpdate);
    const { items, pagination } = paginate(all, query.page, query.pageSize);
    return ok(c, { documents: items.map((document) => renderDocument(document, ctx.links.urlFor(document.id))), pagination });
  });

  app.post("/v1/patients/:patientId/documents/refresh", (c) => {
    const { org, patientId } = chartRequest(c);
    const now = clock.now();
    const { events } = listChartNow(ctx.documentsOf(org), patientId, now, "refresh", ctx.rules);
    const sent = state.emitForOrganization(org, events);
    return ok(c, z.parse(documentRefreshData, { patientId, refreshedAt: new Date(now).toISOString(), announced: sent.length }));
  });
}
