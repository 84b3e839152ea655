import { PATIENT_SCOPED_RESOURCES, SYNC_REQUEST_RESOURCE_SCOPES, syncRequestCreateBody } from "#contract/clinic-api/sync-requests.ts";
import { parseV3PathId } from "#contract/ids.ts";
import type { Clock } from "../../clock.ts";
import { badRequest, notFound } from "../../http/service-error.ts";
import { ok, requireScope } from "../../http/service-middleware.ts";
import { parseJsonBody } from "../../http/validate.ts";
import type { EmulatorSettings, ServiceApp } from "../../routes/route-deps.ts";
import { parseV1Id } from "../../routes/path-ids.ts";
import type { ServiceState } from "../../service/service-state.ts";
import type { SyncRequestRegistry } from "./sync-request-book.ts";

// The assumed on-demand sync request calls (docs/assumed-contracts.md
// "On-demand sync requests"). Both need the read scope of the resource. The
// read is authoritative: when a request of the organization is due, it runs
// the organization's sync first, which completes the request.

export interface SyncRequestRouteDeps {
  state: ServiceState;
  clock: Clock;
  settings: EmulatorSettings;
  syncRequests: SyncRequestRegistry;
}

export function registerSyncRequestRoutes(app: ServiceApp, { state, clock, settings, syncRequests }: SyncRequestRouteDeps): void {
  app.post("/v1/sync-requests", async (c) => {
    const body = await parseJsonBody(c, syncRequestCreateBody);
    requireScope(c, state, SYNC_REQUEST_RESOURCE_SCOPES[body.resource]);
    const org = c.get("org");
    let patientId: string | null = null;
    if (body.patientId !== undefined) {
      if (!PATIENT_SCOPED_RESOURCES.includes(body.resource)) throw badRequest(`patientId: only with resource ${PATIENT_SCOPED_RESOURCES.join(", ")}`);
      const raw = parseV3PathId(body.patientId, "pat");
      if (!raw) throw badRequest("patientId: must be a valid id (a pat_ id or a UUID)");
      if (!org.ehr.patients.some((patient) => patient.id === raw)) throw badRequest(`patientId: ${body.patientId} is not a patient of this organization`);
      patientId = raw;
    }
    const record = syncRequests.bookOf(org.ehr.id).create({ id: state.newId(), resource: body.resource, patientId }, clock.now(), settings.syncRequestSeconds);
    return ok(c, { syncRequest: record.syncRequest });
  });

  app.get("/v1/sync-requests/:id", (c) => {
    const id = parseV1Id(c.req.param("id"), "id");
    const org = c.get("org");
    const book = syncRequests.bookOf(org.ehr.id);
    const record = book.get(id);
    if (!record) throw notFound(`Sync request ${id} not found`);
    requireScope(c, state, SYNC_REQUEST_RESOURCE_SCOPES[record.syncRequest.resource]);
    if (book.hasDue(clock.now())) state.sync(org.ehr.id);
    return ok(c, { syncRequest: record.syncRequest });
  });
}
