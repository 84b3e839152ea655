import type { EhrDocument, OrgDocuments } from "./document-model.ts";
import { ehrDocumentId, serviceDocumentId } from "./document-ids.ts";

// The EHR side of patient documents: filing a document in a chart, removing
// and restoring it. Nothing here announces anything; only a listing does.

export interface DocumentFields {
  kind: string;
  sourceCategory: string;
  title: string;
  filename: string;
  mimeType: string;
  bytes: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function chartOf(org: OrgDocuments, patientId: string): EhrDocument[] {
  let chart = org.charts.get(patientId);
  if (!chart) {
    chart = [];
    org.charts.set(patientId, chart);
  }
  return chart;
}

/** What the chart holds now: removed documents left out. */
export function presentDocuments(org: OrgDocuments, patientId: string): EhrDocument[] {
  return (org.charts.get(patientId) ?? []).filter((document) => document.removedAt === null);
}

/** Files a document under a new EHR id; `createdAtMs` is the EHR's date for it, `filedAtMs` when the chart gained it. */
export function fileDocument(org: OrgDocuments, patientId: string, fields: DocumentFields, createdAtMs: number, filedAtMs: number): EhrDocument {
  const ehrId = ehrDocumentId(org.ehrKind, org.nextEhrNumber);
  org.nextEhrNumber += 1;
  const document: EhrDocument = {
    ehrId,
    id: serviceDocumentId(org.organizationId, ehrId),
    patientId,
    ...fields,
    createdAt: iso(createdAtMs),
    createdAtMs,
    updatedAt: iso(filedAtMs),
    updatedAtMs: filedAtMs,
    removedAt: null,
  };
  chartOf(org, patientId).push(document);
  org.byId.set(document.id, document);
  return document;
}

export function removeDocument(document: EhrDocument, now: number): void {
  document.removedAt = iso(now);
}

/** Back on the chart under its own EHR id; `updatedAt` moves, so `updatedSince` sees it again. */
export function restoreDocument(document: EhrDocument, now: number): void {
  document.removedAt = null;
  document.updatedAt = iso(now);
  document.updatedAtMs = now;
}
