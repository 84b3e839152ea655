import type { AuthorizedOrganization, IdTokenClaims, OAuthUser, OAuthUserInfo, OAuthUserProvider } from "#contract/clinic-api/oauth.ts";
import { toPrefixedId } from "#contract/ids.ts";
import type { OrgState, ServiceState } from "../service/service-state.ts";
import type { AccountMembership, SandboxAccount } from "./accounts.ts";

// What the token response and the userinfo endpoint say about a user, read
// from the world at the moment of the call. Facilities and providers are v3
// resources, so they carry v3's prefixed ids (seed 000 "Conventions", seed
// 001 "Versioning"); organizations keep raw UUIDs, as `X-Organization-Id`
// needs them, and the account is no v3 resource.

export interface AuthorizedMembership {
  org: OrgState;
  membership: AccountMembership;
}

/** The account's memberships among these organizations, in their order, where the installation is active. */
export function activeMemberships(state: ServiceState, account: SandboxAccount, organizationIds: readonly string[]): AuthorizedMembership[] {
  return organizationIds.flatMap((organizationId) => {
    const org = state.org(organizationId);
    const membership = account.memberships.find((candidate) => candidate.organizationId === organizationId);
    return org && membership && org.installation.status === "active" ? [{ org, membership }] : [];
  });
}

export function userProvider(membership: AccountMembership): OAuthUserProvider {
  return { organizationId: membership.organizationId, providerId: toPrefixedId("prv", membership.providerId), roles: [...membership.roles] };
}

/** The organization with its visible facilities, as the service's mirror has them. */
export function authorizedOrganization(org: OrgState): AuthorizedOrganization {
  return {
    organizationId: org.ehr.id,
    name: org.ehr.name,
    facilities: [...org.mirror.facilities.values()]
      .filter((facility) => facility.isVisible)
      .map((facility) => ({ id: toPrefixedId("fac", facility.id), name: facility.name, timezone: facility.timezone })),
  };
}

export function tokenUser(account: SandboxAccount, authorized: readonly AuthorizedMembership[]): OAuthUser {
  return {
    id: account.id,
    email: account.email,
    firstName: account.firstName,
    lastName: account.lastName,
    displayName: account.displayName,
    providers: authorized.map(({ membership }) => userProvider(membership)),
  };
}

/** OIDC Core 5.1's standard claims of the account, shared by the id_token and userinfo. */
export function standardClaims(account: SandboxAccount): Pick<IdTokenClaims, "email" | "email_verified" | "name" | "given_name" | "family_name"> {
  return {
    email: account.email,
    email_verified: true,
    name: `${account.firstName} ${account.lastName}`,
    given_name: account.firstName,
    family_name: account.lastName,
  };
}

/**
 * Userinfo (OIDC Core 5.3.2) for the organizations a token was issued for,
 * as the token response would say it now: those whose installation is still
 * active, and the account's provider in each of them where it still has an
 * active one, with its current roles.
 */
export function userInfo(state: ServiceState, account: SandboxAccount, organizationIds: readonly string[]): OAuthUserInfo {
  const active = organizationIds.flatMap((organizationId) => {
    const org = state.org(organizationId);
    return org && org.installation.status === "active" ? [org] : [];
  });
  return {
    sub: account.id,
    ...standardClaims(account),
    providers: activeMemberships(state, account, organizationIds).map(({ membership }) => userProvider(membership)),
    authorizedOrganizations: active.map(authorizedOrganization),
  };
}
