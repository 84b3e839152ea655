import { Hono, type Context } from "hono";
import { parseV3PathId } from "#contract/ids.ts";
import { SandboxError } from "../../sandbox/sandbox-error.ts";
import type { OrgState } from "../../service/service-state.ts";
import { presentDocuments, removeDocument, restoreDocument } from "./document-book.ts";
import { fileFromRequest } from "./document-filing.ts";
import { documentEventData, listChartNow, sweep } from "./document-listings.ts";
import type { EhrDocument, OrgDocuments } from "./document-model.ts";
import { fileDocumentsRequest } from "./document-sandbox-schemas.ts";
import type { DocumentsContext } from "./documents-context.ts";
import type { ListingResult, SkipReason } from "./listing-rules.ts";
import { nextSweepAt } from "./sweep-schedule.ts";
import { sandboxBody } from "../../sandbox/sandbox-request.ts";

// The patient documents controls under `/_sandbox/` (plain JSON): change a
// chart in the EHR (file, remove, restore a document), and list a chart the
// way the service does (a dashboard refresh, the nightly sweep now), each
// answering what was announced. Changing the EHR announces nothing by
// itself; only a listing does.

const iso = (ms: number) => new Date(ms).toISOString();

const body = sandboxBody;

/** The EHR's view of a document: the service's id and the EHR's own, and whether it is on the chart. */
function ehrView(document: EhrDocument) {
  const { createdAtMs: _created, updatedAtMs: _updated, ...fields } = document;
  return fields;
}

function listingReport(org: OrgState, patientId: string, result: ListingResult, sent: number) {
  return {
    organizationId: org.ehr.id,
    patientId,
    listing: result.kind,
    listedAt: iso(result.listing.listedAt),
    previousListedAt: result.previousListedAt === null ? null : iso(result.previousListedAt),
    announced: result.announced.map((document) => documentEventData(org.ehr.id, document)),
    skipped: result.skipped.map(({ document, reason }) => ({ id: document.id, title: document.title, createdAt: document.createdAt, reason })),
    /** Events handed to webhook delivery: 0 when the installation is not active or does not grant read:patient_documents. */
    sent,
  };
}

export function registerDocumentSandbox(sandbox: Hono, ctx: DocumentsContext): void {
  const { state, clock } = ctx;
  const app = new Hono();
  app.onError((error, c) => {
    if (error instanceof SandboxError) return c.json({ code: error.status === 404 ? "not_found" : error.status === 409 ? "conflict" : "bad_request", message: error.message }, error.status);
    throw error;
  });

  const orgOf = (c: Context): OrgState => {
    const organizationId = c.req.param("organizationId") ?? "";
    const org = state.org(organizationId);
    if (!org) throw new SandboxError(404, `unknown organization ${organizationId}`);
    return org;
  };
  const chartOf = (c: Context): { org: OrgState; documents: OrgDocuments; patientId: string } => {
    const org = orgOf(c);
    const raw = c.req.param("patientId") ?? "";
    const patientId = parseV3PathId(raw, "pat");
    if (!patientId) throw new SandboxError(400, "patientId: must be a valid id (a pat_ id or a UUID)");
    if (!org.ehr.patients.some((patient) => patient.id === patientId)) throw new SandboxError(404, `unknown patient ${raw}`);
    return { org, documents: ctx.documentsOf(org), patientId };
  };
  const documentOf = (documents: OrgDocuments, patientId: string, id: string): EhrDocument => {
    const document = documents.byId.get(id.toLowerCase());
    if (!document || document.patientId !== patientId) throw new SandboxError(404, `no document ${id} on this chart`);
    return document;
  };

  app.get("/ehr/:organizationId/documents", (c) => {
    const org = orgOf(c);
    const documents = ctx.documentsOf(org);
    const names = new Map(org.ehr.patients.map((patient) => [patient.id, `${patient.firstName} ${patient.lastName}`]));
    return c.json({
      organizationId: org.ehr.id,
      lastSweepAt: iso(documents.lastSweepSlot),
      nextSweepAt: iso(nextSweepAt(clock.now(), documents.lastSweepSlot, ctx.sweepHourUtc)),
      charts: [...documents.charts.entries()].map(([patientId, chart]) => {
        const listing = documents.listings.get(patientId);
        return {
          patientId,
          patientName: names.get(patientId) ?? null,
          documents: chart.filter((document) => document.removedAt === null).length,
          removed: chart.filter((document) => document.removedAt !== null).length,
          listedAt: listing ? iso(listing.listedAt) : null,
          listedBy: listing?.listedBy ?? null,
        };
      }),
    });
  });

  app.post("/ehr/:organizationId/documents/sweep", (c) => {
    const org = orgOf(c);
    const now = clock.now();
    const outcome = sweep(ctx.documentsOf(org), now, ctx.rules);
    const sent = state.emitForOrganization(org, outcome.events);
    const skipped: Record<SkipReason, number> = { first_listing: 0, rebaseline: 0, dated_before_previous_listing: 0, over_burst_cap: 0 };
    for (const result of outcome.results) for (const { reason } of result.skipped) skipped[reason] += 1;
    return c.json({
      organizationId: org.ehr.id,
      sweptAt: iso(now),
      charts: outcome.charts,
      announced: outcome.results.flatMap((result) => result.announced.map((document) => documentEventData(org.ehr.id, document))),
      skipped,
      sent: sent.length,
    });
  });

  app.get("/ehr/:organizationId/patients/:patientId/documents", (c) => {
    const { documents, patientId } = chartOf(c);
    const listing = documents.listings.get(patientId);
    return c.json({
      patientId,
      listing: listing ? { listedAt: iso(listing.listedAt), listedBy: listing.listedBy, known: listing.known.size } : null,
      documents: (documents.charts.get(patientId) ?? []).map(ehrView),
    });
  });

  app.post("/ehr/:organizationId/patients/:patientId/documents", async (c) => {
    const { documents, patientId } = chartOf(c);
    const request = await body(c, fileDocumentsRequest);
    const original = request.rescanOf === undefined ? undefined : documentOf(documents, patientId, request.rescanOf);
    const filed = fileFromRequest(documents, patientId, request, original, clock.now());
    return c.json({ documents: filed.map(ehrView) }, 201);
  });

  app.post("/ehr/:organizationId/patients/:patientId/documents/dashboard-refresh", (c) => {
    const { org, documents, patientId } = chartOf(c);
    const { result, events } = listChartNow(documents, patientId, clock.now(), "dashboard", ctx.rules);
    return c.json(listingReport(org, patientId, result, state.emitForOrganization(org, events).length));
  });

  app.delete("/ehr/:organizationId/patients/:patientId/documents/:documentId", (c) => {
    const { documents, patientId } = chartOf(c);
    const document = documentOf(documents, patientId, c.req.param("documentId"));
    if (document.removedAt !== null) throw new SandboxError(409, `document ${document.id} is already removed`);
    removeDocument(document, clock.now());
    return c.json({ document: ehrView(document), onChart: presentDocuments(documents, patientId).length });
  });

  app.post("/ehr/:organizationId/patients/:patientId/documents/:documentId/restore", (c) => {
    const { documents, patientId } = chartOf(c);
    const document = documentOf(documents, patientId, c.req.param("documentId"));
    if (document.removedAt === null) throw new SandboxError(409, `document ${document.id} is not removed`);
    restoreDocument(document, clock.now());
    return c.json({ document: ehrView(document), onChart: presentDocuments(documents, patientId).length });
  });

  /** Where `downloadUrl` points: a placeholder of the file, while the link is valid and the document on its chart. */
  app.get("/documents/:documentId/download", (c) => {
    const id = c.req.param("documentId").toLowerCase();
    const verdict = ctx.links.verify(id, c.req.query("expires"), c.req.query("signature"));
    if (verdict !== "valid") return c.json({ code: "forbidden", message: verdict === "expired" ? "download link expired" : "download link is not valid" }, 403);
    const document = ctx.findDocument(id);
    if (!document || document.removedAt !== null) throw new SandboxError(404, "unknown document");
    const text = `Sandbox placeholder for "${document.title}" (${document.filename}, ${document.mimeType}, ${document.bytes} bytes in the EHR)\n`;
    return c.body(text, 200, {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Disposition": `attachment; filename="${document.filename.replace(/["\\]/g, "_")}.txt"`,
      "Cache-Control": "private, no-store",
    });
  });

  sandbox.route("/", app);
}
