import type { ServiceState } from "../../service/service-state.ts";
import type { EhrOrganization } from "../../world/types.ts";
import { generateBilling } from "./generate-billing.ts";
import { OrgBilling, type BillingSyncResult } from "./org-billing.ts";

// Billing data of every organization. It is generated on first use, from a
// copy of the seeded world taken when the world was (re)generated, so that
// an emulator whose tests never read billing pays nothing for it and sandbox
// changes to appointments or providers made before that first read cannot
// change what the seed gives. `reset()` takes a fresh copy and forgets the rest.

function inputsOf(org: EhrOrganization): EhrOrganization {
  return {
    ...org,
    facilities: org.facilities.map((facility) => ({ ...facility })),
    providers: org.providers.map((provider) => ({ ...provider, roles: [...provider.roles] })),
    patients: org.patients.map((patient) => ({ ...patient })),
    appointmentTypes: org.appointmentTypes.map((type) => ({ ...type })),
    appointments: org.appointments.filter((appointment) => appointment.status === "completed").map((appointment) => ({ ...appointment })),
    templates: [],
    notes: [],
  };
}

export class BillingStore {
  private inputs = new Map<string, { org: EhrOrganization; index: number }>();
  private loaded = new Map<string, OrgBilling>();
  /** Organizations synced before their billing was first read: the sync's changes are applied when it is. */
  private syncedBeforeLoad = new Set<string>();

  constructor(
    private readonly state: ServiceState,
    private readonly seed: number,
  ) {
    this.reset();
  }

  reset(): void {
    this.loaded = new Map();
    this.syncedBeforeLoad = new Set();
    this.inputs = new Map(this.state.organizations().map((org, index) => [org.ehr.id, { org: inputsOf(org.ehr), index }]));
  }

  org(organizationId: string): OrgBilling | undefined {
    const id = organizationId.toLowerCase();
    const existing = this.loaded.get(id);
    if (existing) return existing;
    const input = this.inputs.get(id);
    if (!input) return undefined;
    const billing = new OrgBilling(generateBilling(input.org, input.index, this.seed, this.state.seededAt()));
    if (this.syncedBeforeLoad.has(id)) billing.sync();
    this.loaded.set(id, billing);
    return billing;
  }

  /** A sync of one organization (after the mirror's); a later sync finds nothing more to change. */
  sync(organizationId: string): BillingSyncResult | undefined {
    const id = organizationId.toLowerCase();
    const billing = this.loaded.get(id);
    if (billing) return billing.sync();
    this.syncedBeforeLoad.add(id);
    return undefined;
  }
}
