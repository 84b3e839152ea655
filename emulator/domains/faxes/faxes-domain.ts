import type { DomainDeps, EmulatorDomain } from "../domain.ts";
import { FaxRegistry } from "./fax-book.ts";
import { registerFaxRoutes } from "./fax-routes.ts";
import { registerFaxSandbox } from "./fax-sandbox.ts";

// Outbound faxes (docs/assumed-contracts.md "Faxes"): the assumed send and read calls, the EHR's
// outcomes on the emulator's clock, and `fax.status_changed` on the terminal
// ones. Every sync commits the outcomes that are due; so does every read.

export function createFaxesDomain({ state, clock, settings }: DomainDeps): EmulatorDomain {
  const faxes = new FaxRegistry();
  return {
    name: "faxes",
    registerRoutes: (service) => registerFaxRoutes(service, { state, clock, settings, faxes }),
    registerSandbox: (sandbox) => registerFaxSandbox(sandbox, { state, clock, faxes }),
    reset: () => faxes.reset(),
    onSync: (org, now) => faxes.bookOf(org.ehr.id).advance(now),
  };
}
