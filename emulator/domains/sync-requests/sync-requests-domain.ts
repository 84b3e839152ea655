import type { DomainDeps, EmulatorDomain } from "../domain.ts";
import { SyncRequestRegistry } from "./sync-request-book.ts";
import { registerSyncRequestRoutes } from "./sync-request-routes.ts";
import { registerSyncRequestSandbox } from "./sync-request-sandbox.ts";

// On-demand sync requests (docs/assumed-contracts.md "On-demand sync requests"): a request is pending until due, then the
// organization's next sync (background, `POST /_sandbox/sync`, or the one a
// read of the request runs) is its re-sync and completes it with
// `sync_request.completed`, gated on the resource's read scope.

export function createSyncRequestsDomain({ state, clock, settings }: DomainDeps): EmulatorDomain {
  const syncRequests = new SyncRequestRegistry();
  return {
    name: "sync-requests",
    registerRoutes: (service) => registerSyncRequestRoutes(service, { state, clock, settings, syncRequests }),
    registerSandbox: (sandbox) => registerSyncRequestSandbox(sandbox, { state, clock, syncRequests }),
    reset: () => syncRequests.reset(),
    onSync: (org, now) => syncRequests.bookOf(org.ehr.id).complete(now),
  };
}
