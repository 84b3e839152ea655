import { FAX_SEND_REFUSED_CODE, FAX_SEND_REFUSED_STATUS, faxSendBody, faxesQuery, type FaxSendBody } from "#contract/clinic-api/faxes.ts";
import { parseV3PathId } from "#contract/ids.ts";
import type { Clock } from "../../clock.ts";
import { paginate } from "../../http/paginate.ts";
import { ServiceError, badRequest, notFound } from "../../http/service-error.ts";
import { ok, requireScope } from "../../http/service-middleware.ts";
import { parseJsonBody, parseQuery } from "../../http/validate.ts";
import type { EmulatorSettings, ServiceApp } from "../../routes/route-deps.ts";
import { parseV1Id } from "../../routes/path-ids.ts";
import type { OrgState, ServiceState } from "../../service/service-state.ts";
import type { FaxBook, FaxOutcome, FaxRegistry } from "./fax-book.ts";

// The assumed fax calls (docs/assumed-contracts.md "Faxes"): the send returns
// once the EHR accepts, or refuses synchronously with `ehr_send_failed`; the
// reads are authoritative, so they first commit any outcome that is due (and
// hand its event over) even if no sync has run since.

export interface FaxRouteDeps {
  state: ServiceState;
  clock: Clock;
  settings: EmulatorSettings;
  faxes: FaxRegistry;
}

/** Assumed: the only fax scope the seeds show; a sender without it could neither read nor hear the outcome. */
const FAX_SCOPE = "read:faxes";

function patientOf(org: OrgState, value: string): string {
  const id = parseV3PathId(value, "pat");
  if (!id) throw badRequest("patientId: must be a valid id (a pat_ id or a UUID)");
  if (!org.ehr.patients.some((patient) => patient.id === id)) throw badRequest(`patientId: ${value} is not a patient of this organization`);
  return id;
}

/** A cover page, one page per chart document, and each attachment's pages. */
function pagesOf(body: FaxSendBody): number {
  const attachments = (body.attachments ?? []).reduce((sum, attachment) => sum + (attachment.pages ?? 1), 0);
  return (body.coverNote !== undefined ? 1 : 0) + (body.documentIds?.length ?? 0) + attachments;
}

export function registerFaxRoutes(app: ServiceApp, { state, clock, settings, faxes }: FaxRouteDeps): void {
  /** Commits due outcomes of the organization and hands their events over (scope-gated by the state). */
  const current = (org: OrgState): FaxBook => {
    const book = faxes.bookOf(org.ehr.id);
    state.emitForOrganization(org, book.advance(clock.now()));
    return book;
  };

  app.post("/v1/faxes", async (c) => {
    requireScope(c, state, FAX_SCOPE);
    const body = await parseJsonBody(c, faxSendBody);
    if ((body.documentIds?.length ?? 0) + (body.attachments?.length ?? 0) === 0) {
      throw badRequest("documentIds: a fax needs at least one document id or attachment");
    }
    const org = c.get("org");
    const patientId = body.patientId === undefined ? null : patientOf(org, body.patientId);
    const book = current(org);
    const scripted = book.takeScriptedOutcome();
    if (scripted?.status === "ehr_send_failed") {
      throw new ServiceError(FAX_SEND_REFUSED_STATUS, FAX_SEND_REFUSED_CODE, "The EHR refused the fax; nothing was sent");
    }
    const outcome: FaxOutcome = scripted?.status === "failed" ? { status: "failed", errorKind: scripted.errorKind } : { status: "delivered" };
    const record = book.accept(
      { id: state.newId(), toNumber: body.toNumber, patientId, documentIds: body.documentIds ?? [], pages: pagesOf(body) },
      outcome,
      clock.now(),
      scripted?.afterSeconds ?? settings.faxOutcomeSeconds,
    );
    return ok(c, { fax: record.fax });
  });

  app.get("/v1/faxes", (c) => {
    requireScope(c, state, FAX_SCOPE);
    const query = parseQuery(c, faxesQuery);
    const org = c.get("org");
    const patientId = query.patientId === undefined ? undefined : parseV3PathId(query.patientId, "pat");
    if (patientId === null) throw badRequest("patientId: must be a valid id (a pat_ id or a UUID)");
    const all = current(org)
      .list()
      .map((record) => record.fax)
      .filter(
        (fax) =>
          (query.status === undefined || query.status.includes(fax.status)) &&
          (query.updatedSince === undefined || fax.updatedAt >= query.updatedSince) &&
          (patientId === undefined || fax.patientId === patientId),
      )
      // Oldest change first, so `updatedSince` of the last row read resumes a reconciliation.
      .sort((a, b) => a.updatedAt.localeCompare(b.updatedAt) || a.id.localeCompare(b.id));
    const { items, pagination } = paginate(all, query.page, query.pageSize);
    return ok(c, { faxes: items, pagination });
  });

  app.get("/v1/faxes/:id", (c) => {
    requireScope(c, state, FAX_SCOPE);
    const id = parseV1Id(c.req.param("id"), "id");
    const record = current(c.get("org")).get(id);
    if (!record) throw notFound(`Fax ${id} not found`);
    return ok(c, { fax: record.fax });
  });
}
