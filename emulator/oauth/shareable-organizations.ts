import type { OrgState, ServiceState } from "../service/service-state.ts";
import type { AccountMembership, SandboxAccount } from "./accounts.ts";

// The organizations an account can share with the app: those it belongs to
// whose installation of the app is active (seed 001 "Authentication": an app
// only reaches organizations that installed it).

export interface ShareableOrganization {
  membership: AccountMembership;
  org: OrgState;
}

export function shareableOrganizations(state: ServiceState, account: SandboxAccount): ShareableOrganization[] {
  return account.memberships.flatMap((membership) => {
    const org = state.org(membership.organizationId);
    return org && org.installation.status === "active" ? [{ membership, org }] : [];
  });
}
