import type { DomainDeps, EmulatorDomain } from "../domain.ts";
import { registerBillingRoutes } from "./billing-routes.ts";
import { registerBillingSandbox } from "./billing-sandbox.ts";
import { BillingStore } from "./billing-store.ts";

// Billing (docs/assumed-contracts.md "Bills, claims and ERA service lines"): bills, claims and ERA service lines, seeded per
// organization from the world and the emulator's seed; the remit-posting and
// archive controls; and the sync step that changes ERA linkage. Billing
// emits no events (the seeds name none; posting a remit has none).

export function createBillingDomain({ state, clock, settings, seed }: DomainDeps): EmulatorDomain {
  const store = new BillingStore(state, seed);
  const claimDeepLink = (organizationId: string, claimId: string) => `${settings.publicUrl.replace(/\/+$/, "")}/_sandbox/ehr/${organizationId}/claims/${claimId}`;
  return {
    name: "billing",
    registerRoutes: (service) => registerBillingRoutes(service, { state, store, claimDeepLink }),
    registerSandbox: (sandbox) => registerBillingSandbox(sandbox, { state, store, clock }),
    reset: () => store.reset(),
    onSync: (org) => {
      store.sync(org.ehr.id);
      return [];
    },
  };
}
